//! A move asked about in words instead of notation — "can I take his queen with my king?",
//! "can my knight capture the rook?", "can White take on f6?", "can the king go to c4?" — found
//! on the board as a move of the side to move, so that the legality ruling can test it like a
//! move written "Kxd2". The legal capture is taken when there is one; otherwise the capture the
//! piece would make if the rules let it, so that the answer can say why they do not.

use std::sync::OnceLock;

use regex::Regex;
use shakmaty::{Chess, Position, Role, Square, attacks};

use crate::answer::actors::piece_word;

/// The move a question describes, as SAN ("Kxd2", "exd5", "Kc4"), when the board has one.
pub fn move_in_words(lower: &str, pos: &Chess) -> Option<String> {
    capture_of_piece(lower, pos)
        .or_else(|| capture_on_square(lower, pos))
        .or_else(|| piece_to_square(lower, pos))
        .or_else(|| pawn_to_square(lower, pos))
}

/// "Push my d7 pawn to d8 and make a queen", "can my pawn on d7 promote on d8?": the push of
/// a pawn of the side to move to the square named, as SAN ("d8=Q"), legal or not, for the
/// legality ruling to judge (a pinned pawn may not advance). A promotion is to the piece
/// named, a queen when none is.
pub fn pawn_to_square(lower: &str, pos: &Chess) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"\bpawn(?:\s+(?:on|from)\s+[a-h][1-8])?\s+(?:to|go(?:es)?\s+to|move(?:s)?\s+to|up\s+to|forward\s+to|onto|promote\s+on|promote\s+at)\s+(?P<sq>[a-h][1-8])\b",
        )
        .expect("valid regex")
    });
    let to: Square = re.captures(lower)?.name("sq")?.as_str().parse().ok()?;
    let turn = pos.turn();
    let board = pos.board();
    let last_rank = to.rank() == turn.relative_rank(shakmaty::Rank::Eighth);
    // A push onto an occupied square is asked about only as a promotion ("can my pawn promote on
    // e8 with his rook standing there?"): the legality ruling says why it cannot.
    if board.piece_at(to).is_some() && !(last_rank && lower.contains("promot")) {
        return None;
    }
    // The squares one and two ranks behind `to`, seen from the side to move.
    let behind = |ranks: i32| to.offset(turn.fold_wb(-8, 8) * ranks);
    let ours = |sq: Square| board.piece_at(sq) == Some(turn.pawn());
    let a_pawn_pushes_there = match behind(1) {
        Some(one) if ours(one) => true,
        Some(one) if board.piece_at(one).is_none() => behind(2).is_some_and(|two| {
            ours(two) && two.rank() == turn.relative_rank(shakmaty::Rank::Second)
        }),
        _ => false,
    };
    if !a_pawn_pushes_there {
        return None;
    }
    let promotion = if last_rank {
        let role = super::promotion::piece_named_to_promote(lower).unwrap_or(Role::Queen);
        format!("={}", role.upper_char())
    } else {
        String::new()
    };
    Some(format!("{to}{promotion}"))
}

/// "Promote the pawn to a bishop": the one promotion to that piece the side to move has, as
/// SAN ("h8=B"); `None` when no piece is named or several pawns or squares could do it.
pub fn promotion_in_words(lower: &str, pos: &Chess) -> Option<String> {
    let promoting = lower.contains("promot")
        || lower.contains("pawn") && PROMOTING.iter().any(|c| lower.contains(c));
    if !promoting {
        return None;
    }
    let role = super::promotion::piece_named_to_promote(lower)?;
    let legal = pos.legal_moves();
    let promotions: Vec<_> = legal
        .iter()
        .filter(|m| m.promotion() == Some(role))
        .collect();
    // A push and a capture, or two pawns: the square the question names picks one; a square
    // named that no promotion reaches is another move ("promote on e8", blocked).
    let named: Vec<_> = promotions
        .iter()
        .filter(|m| lower.contains(&m.to().to_string()))
        .collect();
    let last_rank_named = lower
        .as_bytes()
        .windows(2)
        .any(|w| (b'a'..=b'h').contains(&w[0]) && matches!(w[1], b'1' | b'8'));
    let only = match (promotions.as_slice(), named.as_slice()) {
        (_, [only]) => **only,
        ([only], []) if !last_rank_named => *only,
        _ => return None,
    };
    Some(shakmaty::san::San::from_move(pos, *only).to_string())
}

/// Words that, beside a pawn, speak of promoting it ("make it a knight", "become a second
/// queen").
const PROMOTING: &[&str] = &[
    "make it a",
    "turn it into",
    "become a",
    "becomes a",
    "into a",
];

/// "The king to c4", "can my knight go to e2?": a move of the side to move's only piece of
/// that kind, or of the only one that can legally go there, written as SAN ("Kc4", "Nxe2"),
/// legal or not, for the legality ruling to judge.
fn piece_to_square(lower: &str, pos: &Chess) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"\b(?P<piece>king|queen|rook|bishop|knight)\s+(?:to|go(?:es)?\s+to|move(?:s)?\s+to|moving\s+to|onto)\s+(?P<sq>[a-h][1-8])\b",
        )
        .expect("valid regex")
    });
    let c = re.captures(lower)?;
    let role = piece_word(c.name("piece")?.as_str())?.role();
    let to: Square = c.name("sq")?.as_str().parse().ok()?;
    let legal = pos.legal_moves();
    let mut reaching = legal.iter().filter(|m| m.role() == role && m.to() == to);
    if let Some(m) = reaching.next() {
        return reaching
            .next()
            .is_none()
            .then(|| shakmaty::san::San::from_move(pos, *m).to_string());
    }
    let board = pos.board();
    let from = (board.by_color(pos.turn()) & board.by_role(role)).single_square()?;
    let takes = if board.piece_at(to).is_some() {
        "x"
    } else {
        ""
    };
    (from != to).then(|| format!("{}{takes}{to}", role.upper_char()))
}

/// "Can I take it with my e5 pawn?" just after an enemy pawn's two-square advance beside one of
/// ours: a pawn capture asked about in words, with an en passant capture legal on the board and
/// no other piece named, asks for that capture. So does one that names a pawn of the side to
/// move and an enemy pawn beside it on the same rank ("take his pawn on d5 with my pawn on
/// e5"): only en passant could take it, and the answer says why it no longer can.
pub fn asks_for_en_passant(lower: &str, pos: &Chess) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"\b(?:take|capture|takes|captures|eat|grab)\b").expect("valid regex")
    });
    const OTHER_PIECES: [&str; 5] = ["queen", "rook", "bishop", "knight", "king"];
    lower.contains("pawn")
        && !OTHER_PIECES.iter().any(|w| lower.contains(w))
        && re.is_match(lower)
        && (pos.legal_moves().iter().any(|m| m.is_en_passant())
            || names_pawns_side_by_side(lower, pos))
}

/// Whether the question names exactly two squares holding a pawn of the side to move and an
/// enemy pawn side by side on the same rank.
fn names_pawns_side_by_side(lower: &str, pos: &Chess) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"\b([a-h][1-8])\b").expect("valid regex"));
    let squares: Vec<Square> = re
        .captures_iter(lower)
        .filter_map(|c| c[1].parse().ok())
        .collect();
    let [a, b] = squares[..] else {
        return false;
    };
    let board = pos.board();
    let pawn_of = |sq: Square| board.piece_at(sq).filter(|p| p.role == Role::Pawn);
    let (Some(pa), Some(pb)) = (pawn_of(a), pawn_of(b)) else {
        return false;
    };
    pa.color != pb.color
        && (pa.color == pos.turn() || pb.color == pos.turn())
        && a.rank() == b.rank()
        && a.file().distance(b.file()) == 1
}

/// "Take on f6", "capture on d5": the one legal capture landing there (en passant included).
fn capture_on_square(lower: &str, pos: &Chess) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"\b(?:take|capture|takes|captures)\s+on\s+([a-h][1-8])\b").expect("valid regex")
    });
    let square: Square = re.captures(lower)?.get(1)?.as_str().parse().ok()?;
    let legal = pos.legal_moves();
    let mut captures = legal.iter().filter(|m| m.is_capture() && m.to() == square);
    let only = captures.next()?;
    captures
        .next()
        .is_none()
        .then(|| shakmaty::san::San::from_move(pos, *only).to_string())
}

/// "Take his queen with my king": the capture by that kind of piece of that kind of piece.
fn capture_of_piece(lower: &str, pos: &Chess) -> Option<String> {
    let (mover, target) = roles_named(lower)?;
    let legal = pos.legal_moves();
    // A capture that promotes becomes the piece the question names, else a queen.
    let promoted = super::promotion::piece_named_to_promote(lower).unwrap_or(Role::Queen);
    let legal_capture = legal.iter().find(|m| {
        m.role() == mover
            && m.capture() == Some(target)
            && !m.is_en_passant()
            && m.promotion().is_none_or(|r| r == promoted)
    });
    // Only when no ordinary capture does: "take his pawn with my pawn" right after its
    // two-square advance past ours is the en passant capture.
    let en_passant = || {
        legal
            .iter()
            .find(|m| m.is_en_passant() && mover == Role::Pawn && target == Role::Pawn)
    };
    if let Some(m) = legal_capture.or_else(en_passant) {
        return Some(shakmaty::san::San::from_move(pos, *m).to_string());
    }
    let (from, to) = attempted(pos, mover, target)?;
    Some(san_text(mover, from, to))
}

/// The capturing and the captured piece, from "take his queen with my king" or "can my
/// knight capture the rook".
fn roles_named(lower: &str) -> Option<(Role, Role)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?x)
            \b(?:take|capture|eat|grab)\s+(?:his|her|their|the|that|a|black's|white's|(?:my\s+)?opponent's)\s+
              (?:\w+\s+)?(?P<target>queen|rook|bishop|knight|pawn)\s+with\s+(?:my|the|a|its|it.s|his|her)\s+
              (?:\w+\s+)?(?P<mover>king|queen|rook|bishop|knight|pawn)\b
          | \b(?:my|the)\s+(?:(?:white|black)\s+)?(?P<mover2>king|queen|rook|bishop|knight|pawn)\s+(?:not\s+)?(?:take|capture|eat|grab)\s+
              (?:his|her|their|the|that|a|black's|white's|(?:my\s+)?opponent's)\s+
              (?:\w+\s+)?(?P<target2>queen|rook|bishop|knight|pawn)\b",
        )
        .expect("valid regex")
    });
    let c = re.captures(lower)?;
    let mover = c.name("mover").or(c.name("mover2"))?.as_str();
    let target = c.name("target").or(c.name("target2"))?.as_str();
    Some((piece_word(mover)?.role(), piece_word(target)?.role()))
}

/// The capture tried: the one piece of the side to move that attacks an enemy piece of the
/// named kind, or, when none does, the only such piece and the only such target (so that the
/// answer says why it cannot take). `None` when the board leaves it open.
fn attempted(pos: &Chess, mover: Role, target: Role) -> Option<(Square, Square)> {
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us) & board.by_role(mover);
    let theirs = board.by_color(!us) & board.by_role(target);
    let mut pairs = Vec::new();
    for from in ours {
        let reach = attacks::attacks(from, mover.of(us), board.occupied());
        for to in reach & theirs {
            pairs.push((from, to));
        }
    }
    match pairs.len() {
        1 => Some(pairs[0]),
        0 => Some((ours.single_square()?, theirs.single_square()?)),
        _ => None,
    }
}

/// The SAN a capture is written in, without disambiguation (only one such pair exists).
fn san_text(mover: Role, from: Square, to: Square) -> String {
    match mover {
        Role::Pawn => format!("{}x{to}", from.file().char()),
        _ => format!("{}x{to}", mover.upper_char()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::test_position as pos;

    #[test]
    fn a_piece_sent_to_a_square_in_words_is_that_move() {
        // White in check from the rook on e4: Kd1 is legal, Kc4 is not (and not a king move).
        let p = pos("1nbqkbnr/1ppppppp/8/p6Q/4r3/N6N/PPPP1PPP/R1B1K2R w KQk - 0 1");
        assert_eq!(
            move_in_words("can the king go to d1?", &p).as_deref(),
            Some("Kd1")
        );
        assert_eq!(
            move_in_words("the board registers king to c4", &p).as_deref(),
            Some("Kc4")
        );
        // Two knights, neither able to go there (the king is in check): left open.
        assert_eq!(move_in_words("can my knight go to g5?", &p), None);
        // Out of check, the one knight that reaches g5 is the one meant.
        let p = pos("4k3/8/8/8/8/N6N/8/4K3 w - - 0 1");
        assert_eq!(
            move_in_words("can my knight go to g5?", &p).as_deref(),
            Some("Ng5")
        );
    }

    #[test]
    fn captures_in_words_are_found_on_the_board() {
        let p = pos("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
        assert_eq!(
            move_in_words(" can i take his queen with my king? ", &p).as_deref(),
            Some("Kxd2")
        );
        assert_eq!(
            move_in_words(" can my king capture the queen? ", &p).as_deref(),
            Some("Kxd2")
        );
        // A colour named, and the capture asked about as refused ("why can … not take …").
        let q = pos("2k5/3P4/2K5/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            move_in_words(" why can the black king not take the d7 pawn? ", &q).as_deref(),
            Some("Kxd7")
        );
        // Protected: not legal, but the capture tried is still the one asked about.
        let p = pos("4k3/8/8/8/8/1n6/3q4/4K3 w - - 0 1");
        assert_eq!(
            move_in_words(" can i take the queen with my king ", &p).as_deref(),
            Some("Kxd2")
        );
        assert_eq!(
            move_in_words(" can i take his rook with my king ", &p),
            None
        );
        // No bishop reaches the rook: the one capture there could be is tested, to say why.
        let p = pos("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
        assert_eq!(
            move_in_words(" can i capture his rook with my bishop? ", &p).as_deref(),
            Some("Bxe7")
        );
        assert_eq!(move_in_words(" can i castle? ", &p), None);
        // A capture that promotes becomes the piece named, else a queen.
        let p = pos("5r2/6Pk/7p/8/8/8/8/6K1 w - - 0 1");
        assert_eq!(
            move_in_words(
                " can white take the rook with its pawn and turn it into a knight ",
                &p
            )
            .as_deref(),
            Some("gxf8=N")
        );
        assert_eq!(
            move_in_words(" can i take the rook with my pawn? ", &p).as_deref(),
            Some("gxf8=Q")
        );
        let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(
            move_in_words(" can my pawn take the black pawn? ", &p).as_deref(),
            Some("exd5")
        );
        // Right after the two-square advance, the pawn beside ours is taken en passant.
        let ep = pos("8/8/8/3pP3/8/8/8/4K2k w - d6 0 1");
        assert_eq!(
            move_in_words(" can i take the d pawn with my e pawn? ", &ep).as_deref(),
            Some("exd6")
        );
        assert_eq!(
            move_in_words(" can white take on d5? ", &p).as_deref(),
            Some("exd5")
        );
        assert_eq!(move_in_words(" can white take on d6? ", &p), None);
        // En passant, found by its square.
        let p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        assert_eq!(
            move_in_words(" can white take on f6? ", &p).as_deref(),
            Some("exf6")
        );
    }
}
