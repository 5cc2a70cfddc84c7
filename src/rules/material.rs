//! Mating chances by material alone: what 6.9 asks when a flag falls ("could the opponent
//! checkmate by any possible series of legal moves?") answered for armies described in words,
//! without a position. The answer holds for typical positions of that material; a blocked
//! position can still be dead, which only the position itself shows.

/// The pieces a side has besides its king.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Army {
    pub queens: u8,
    pub rooks: u8,
    pub bishops: u8,
    pub knights: u8,
    pub pawns: u8,
}

impl Army {
    /// A king and nothing else.
    pub fn bare() -> Army {
        Army::default()
    }

    /// An army from piece letters, the king left out: "RN" is a rook and a knight, "BB" two
    /// bishops; other characters are ignored.
    pub fn from_letters(letters: &str) -> Army {
        let mut a = Army::default();
        for c in letters.chars() {
            match c.to_ascii_uppercase() {
                'Q' => a.queens += 1,
                'R' => a.rooks += 1,
                'B' => a.bishops += 1,
                'N' => a.knights += 1,
                'P' => a.pawns += 1,
                _ => {}
            }
        }
        a
    }

    pub fn is_bare(&self) -> bool {
        *self == Army::default()
    }

    /// A single minor piece besides the king.
    pub fn lone_minor(&self) -> bool {
        self.queens + self.rooks + self.pawns == 0 && self.bishops + self.knights == 1
    }
}

/// Whether a side with one army can mate a side with another by some series of legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MateChance {
    /// Some series of legal moves ends in mate (in typical positions of this material).
    Possible,
    /// No series of legal moves can end in mate, whatever the position.
    Impossible,
    /// Bishop against bishops only: possible with bishops on squares of opposite colours,
    /// impossible with all bishops on one colour.
    DependsOnBishopColours,
}

/// The mating chance of `mater` against `defender`. Two minor pieces, a rook, a queen or a
/// pawn (which can promote) can always mate in some series of legal moves. A lone minor piece
/// mates only with the defender's own men hemming its king in, and a queen or a rook next to
/// that king would capture the checker or block the check: a knight needs a pawn, a knight, a
/// bishop or a rook to be hemmed in by, a bishop a pawn, a knight or a bishop on the other colour.
pub fn mate_chance(mater: &Army, defender: &Army) -> MateChance {
    if mater.is_bare() {
        return MateChance::Impossible;
    }
    if !mater.lone_minor() {
        return MateChance::Possible;
    }
    let blockers = defender.pawns + defender.knights;
    if mater.knights == 1 {
        return if blockers + defender.bishops + defender.rooks > 0 {
            MateChance::Possible
        } else {
            MateChance::Impossible
        };
    }
    if blockers > 0 {
        MateChance::Possible
    } else if defender.bishops > 0 {
        MateChance::DependsOnBishopColours
    } else {
        MateChance::Impossible
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_flag_cases() {
        use MateChance::*;
        let chance = |m: &str, d: &str| mate_chance(&Army::from_letters(m), &Army::from_letters(d));
        assert_eq!(chance("", "QR"), Impossible);
        assert_eq!(chance("N", ""), Impossible);
        assert_eq!(chance("B", ""), Impossible);
        assert_eq!(chance("N", "R"), Possible);
        assert_eq!(chance("N", "P"), Possible);
        assert_eq!(chance("B", "N"), Possible);
        assert_eq!(chance("B", "B"), DependsOnBishopColours);
        assert_eq!(chance("B", "BB"), DependsOnBishopColours);
        assert_eq!(chance("B", "RB"), DependsOnBishopColours);
        assert_eq!(chance("N", "Q"), Impossible);
        assert_eq!(chance("B", "R"), Impossible);
        assert_eq!(chance("B", "QP"), Possible);
        assert_eq!(chance("NN", ""), Possible);
        assert_eq!(chance("R", ""), Possible);
        assert_eq!(chance("P", ""), Possible);
    }
}
