//! A game: a start position and a history of moves, with everything the Laws need to remember
//! about it — each position's FIDE identity (9.2.3), the half-move clock, and which move took
//! away which castling right (3.8.2.1).

use shakmaty::fen::Fen;
use shakmaty::{
    ByColor, CastlingMode, CastlingSide, Chess, Color, File, FromSetup, Move, Position,
    PositionError, PositionErrorKinds, Role, Setup,
};

use super::describe::color_name;
use super::error::RulesError;
use super::notation::{resolve_move, san_plus, uci};

/// One half-move of the history.
#[derive(Debug, Clone)]
pub struct Ply {
    pub m: Move,
    /// SAN with check/mate suffix.
    pub san: String,
    pub uci: String,
    /// "12." or "12..." — how a scoresheet numbers this move.
    pub number: String,
    pub color: Color,
    /// The position after this move.
    pub after: Chess,
}

/// Why a castling right disappeared: the move, described for a player.
pub type RightsLost = ByColor<[Option<String>; 2]>;

/// A start position plus a legal history.
#[derive(Debug, Clone)]
pub struct Game {
    pub start: Chess,
    pub mode: CastlingMode,
    pub plies: Vec<Ply>,
    /// Warnings about the input that did not stop us (ignored impossible castling rights…).
    pub warnings: Vec<String>,
    rights_lost: RightsLost,
}

fn side_index(side: CastlingSide) -> usize {
    match side {
        CastlingSide::KingSide => 0,
        CastlingSide::QueenSide => 1,
    }
}

const FEN_FIELDS: [&str; 6] = [
    "board",
    "side-to-move",
    "castling",
    "en passant",
    "half-move clock",
    "full-move number",
];

/// Parses a FEN, naming the field that is wrong. Shredder castling letters (file letters)
/// select Chess960 castling, and so do KQkq rights that standard chess cannot have but that are
/// valid as X-FEN (the outermost rooks) with a king off the e-file — with a note saying so.
pub fn parse_fen(text: &str) -> Result<(Chess, CastlingMode, Vec<String>), RulesError> {
    parse_fen_in(text, false)
}

/// Whether a PGN `[Variant]` value names Chess960 ("Chess960", "chess 960", "fischerandom",
/// "Fischer Random").
pub fn is_chess960_variant(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    v.contains("960") || v.contains("fischer")
}

/// [`parse_fen`], with `chess960` set when the game is known to be Chess960 (a `[Variant]`
/// tag): KQkq then always name the outermost rooks.
pub fn parse_fen_in(
    text: &str,
    chess960: bool,
) -> Result<(Chess, CastlingMode, Vec<String>), RulesError> {
    let text = text.trim();
    let (six, count) = fen_fields(text);
    if count > 6 {
        let all: Vec<&str> = text.split_whitespace().collect();
        check_field_count(&all)?;
    }
    let fields = &six[..count.min(6)];
    check_field_count(fields)?;
    check_board_field(fields[0])?;
    // shakmaty saturates numbers that overflow (a clock of 99999999999999999999 would read as
    // 4294967295, a 75-move draw): refuse them instead.
    for idx in [4, 5] {
        if let Some(value) = fields.get(idx) {
            check_number_field(idx, value)?;
        }
    }
    let fen: Fen = text.parse().map_err(|e| fen_syntax_error(e, fields))?;
    let castling_field = fields.get(2).copied().unwrap_or("-");
    let mode = castling_mode(chess960, castling_field);
    let setup = fen.into_setup();
    let first = Chess::from_setup(setup.clone(), mode);
    if mode == CastlingMode::Standard
        && let Err(err) = &first
        && let Some((pos, notes)) = x_fen_chess960(&setup, err.kinds(), castling_field)
    {
        return Ok((pos, CastlingMode::Chess960, notes));
    }
    let (pos, warnings) = match first {
        Ok(p) => (p, Vec::new()),
        Err(err) => drop_impossible_rights(err)?,
    };
    Ok((pos, mode, warnings))
}

/// The first six whitespace-separated fields of `text` and how many fields it has in all (more
/// than six only to say that there are more): a FEN's fields without collecting them in a `Vec`.
fn fen_fields(text: &str) -> ([&str; 6], usize) {
    let mut fields = [""; 6];
    let mut count = 0;
    for field in text.split_whitespace() {
        if let Some(slot) = fields.get_mut(count) {
            *slot = field;
        }
        count += 1;
    }
    (fields, count)
}

/// A FEN has one to six fields; checked first so that the errors after it can name a field
/// that exists.
fn check_field_count(fields: &[&str]) -> Result<(), RulesError> {
    if fields.is_empty() {
        return Err(RulesError::InvalidFen {
            field: "board",
            detail: "is empty".into(),
        });
    }
    if fields.len() > 6 {
        return Err(RulesError::InvalidFen {
            field: "full-move number",
            detail: format!(
                "is followed by {} extra fields ({:?})",
                fields.len() - 6,
                fields[6..].join(" ")
            ),
        });
    }
    Ok(())
}

/// Turns shakmaty's syntax error into one that names the field, quotes its value and says
/// what was expected there, since shakmaty's own error says only which field failed.
fn fen_syntax_error(e: shakmaty::fen::ParseFenError, fields: &[&str]) -> RulesError {
    use shakmaty::fen::ParseFenError as E;
    let idx = match e {
        E::InvalidBoard | E::InvalidPocket | E::InvalidFen => 0,
        E::InvalidTurn => 1,
        E::InvalidCastling => 2,
        E::InvalidEpSquare => 3,
        E::InvalidHalfmoveClock => 4,
        E::InvalidFullmoves => 5,
        E::InvalidRemainingChecks => 5,
    };
    let value = fields.get(idx).copied().unwrap_or("");
    let expect = match idx {
        0 => "eight ranks of pieces (KQRBNP, kqrbnp) and digits, separated by '/'",
        1 => "'w' or 'b'",
        2 => "'-' or letters from KQkq (or file letters for Chess960)",
        3 => "'-' or a square on the third or sixth rank, like e3",
        4 => "a whole number of half-moves",
        _ => "a whole number, 1 or more",
    };
    RulesError::InvalidFen {
        field: FEN_FIELDS[idx],
        detail: format!("{value:?} is not valid: expected {expect}"),
    }
}

/// Chess960 castling when the game is known to be Chess960 or the castling field uses file
/// letters (Shredder-FEN), which only Chess960 needs; standard castling otherwise.
fn castling_mode(chess960: bool, castling_field: &str) -> CastlingMode {
    if chess960
        || castling_field
            .chars()
            .any(|c| matches!(c.to_ascii_lowercase(), 'a'..='h'))
    {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// Accepts a position whose only faults are castling rights or an en passant square it
/// cannot have: those are dropped with a warning each rather than refusing the FEN, since
/// the rest of the position is still usable. Any other fault is an error.
fn drop_impossible_rights(err: PositionError<Chess>) -> Result<(Chess, Vec<String>), RulesError> {
    let kinds = err.kinds();
    let fatal =
        kinds - PositionErrorKinds::INVALID_CASTLING_RIGHTS - PositionErrorKinds::INVALID_EP_SQUARE;
    if !fatal.is_empty() {
        return Err(RulesError::IllegalPosition {
            problems: describe_position_errors(kinds),
        });
    }
    let mut warnings = Vec::new();
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        warnings.push(
            "the FEN gives castling rights that the position cannot have (the king or \
             rook is not on its original square); they were dropped (3.8.2.1)"
                .into(),
        );
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        warnings.push(
            "the FEN gives an en passant square that no two-square pawn advance explains; \
             it was dropped (3.7.3.1)"
                .into(),
        );
    }
    let pos = match err.ignore_invalid_castling_rights() {
        Ok(p) => p,
        Err(err) => err
            .ignore_invalid_ep_square()
            .map_err(|e| RulesError::IllegalPosition {
                problems: describe_position_errors(e.kinds()),
            })?,
    };
    Ok((pos, warnings))
}

/// The half-move clock and the full-move number: whole numbers that fit in 32 bits.
fn check_number_field(idx: usize, value: &str) -> Result<(), RulesError> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(RulesError::InvalidFen {
            field: FEN_FIELDS[idx],
            detail: format!("{value:?} is not valid: expected a whole number"),
        });
    }
    if value.parse::<u32>().is_err() {
        return Err(RulesError::InvalidFen {
            field: FEN_FIELDS[idx],
            detail: format!(
                "{value:?} is out of range: the largest accepted is {}",
                u32::MAX
            ),
        });
    }
    Ok(())
}

/// A FEN read as standard chess whose KQkq rights are impossible there (the king or rook is
/// not on its original square) but valid as X-FEN, where K and Q name the outermost rooks:
/// with a king off the e-file, no standard game can have them, so this is Chess960.
///
/// `standard_errors`: what was wrong with the position read as standard chess.
fn x_fen_chess960(
    setup: &Setup,
    standard_errors: PositionErrorKinds,
    castling_field: &str,
) -> Option<(Chess, Vec<String>)> {
    if !standard_errors.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        return None;
    }
    let king_off_e_file = Color::ALL.into_iter().any(|color| {
        let rights = setup.castling_rights & color.backrank();
        let king = setup.board.king_of(color);
        rights.any() && king.is_some_and(|k| k.file() != File::E)
    });
    if !king_off_e_file {
        return None;
    }
    let mut notes = vec![format!(
        "the castling rights {castling_field} fit this position only as Chess960, where K and Q \
         name the outermost rooks (X-FEN), so it is read as a Chess960 game (Guidelines II)"
    )];
    let pos = match Chess::from_setup(setup.clone(), CastlingMode::Chess960) {
        Ok(p) => p,
        Err(e) if e.kinds() == PositionErrorKinds::INVALID_EP_SQUARE => {
            notes.push(
                "the FEN gives an en passant square that no two-square pawn advance explains; \
                 it was dropped (3.7.3.1)"
                    .into(),
            );
            e.ignore_invalid_ep_square().ok()?
        }
        Err(_) => return None,
    };
    Some((pos, notes))
}

fn check_board_field(board: &str) -> Result<(), RulesError> {
    let ranks = board.bytes().filter(|&b| b == b'/').count() + 1;
    if ranks != 8 {
        return Err(RulesError::InvalidFen {
            field: "board",
            detail: format!("has {ranks} ranks; it needs 8 separated by '/'"),
        });
    }
    for (i, rank) in board.split('/').enumerate() {
        let mut width = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => width += c.to_digit(10).unwrap_or(0),
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => width += 1,
                '~' => {}
                other => {
                    return Err(RulesError::InvalidFen {
                        field: "board",
                        detail: format!(
                            "has {other:?} on rank {}, which is not a piece letter (KQRBNP, kqrbnp) or a digit",
                            8 - i
                        ),
                    });
                }
            }
        }
        if width != 8 {
            return Err(RulesError::InvalidFen {
                field: "board",
                detail: format!(
                    "describes {width} squares on rank {} ({rank:?}); each rank needs exactly 8",
                    8 - i
                ),
            });
        }
    }
    Ok(())
}

fn describe_position_errors(kinds: PositionErrorKinds) -> Vec<String> {
    let mut out = Vec::new();
    let table: [(PositionErrorKinds, &str); 9] = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a side has no king (2.3)"),
        (
            PositionErrorKinds::TOO_MANY_KINGS,
            "a side has more than one king",
        ),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "a pawn stands on the first or last rank, where no pawn can ever be (3.7.3.3)",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "the castling rights do not fit the position",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "the en passant square does not fit the position",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check, so the last move left or put its own king in check (3.9.2)",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the check on the board could not have been given by any last move",
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            "a side has more pieces than promotions could give (e.g. nine pawns, or more than sixteen pieces)",
        ),
    ];
    for (kind, text) in table {
        if kinds.contains(kind) {
            out.push(text.to_string());
        }
    }
    if out.is_empty() {
        out.push("the position cannot arise in a game".into());
    }
    out
}

impl Game {
    /// A game from `fen` (default: the initial position) and no moves yet.
    pub fn new(fen: Option<&str>) -> Result<Game, RulesError> {
        Game::new_in(fen, false)
    }

    /// [`Game::new`] for a game known to be Chess960 when `chess960` is set (a `[Variant]`
    /// tag): castling follows the Chess960 rules even from the standard start position.
    pub fn new_in(fen: Option<&str>, chess960: bool) -> Result<Game, RulesError> {
        let (start, mode, warnings) = match fen.map(str::trim).filter(|f| !f.is_empty()) {
            Some(f) if !f.eq_ignore_ascii_case("startpos") => parse_fen_in(f, chess960)?,
            _ if chess960 => (Chess::default(), CastlingMode::Chess960, Vec::new()),
            _ => (Chess::default(), CastlingMode::Standard, Vec::new()),
        };
        Ok(Game {
            start,
            mode,
            plies: Vec::new(),
            warnings,
            rights_lost: ByColor::new_with(|_| [None, None]),
        })
    }

    /// A game from `fen` and a list of moves in SAN or UCI.
    pub fn from_moves<S: AsRef<str>>(fen: Option<&str>, moves: &[S]) -> Result<Game, RulesError> {
        Game::from_moves_in(fen, moves, false)
    }

    /// [`Game::from_moves`] for a game known to be Chess960 when `chess960` is set.
    pub fn from_moves_in<S: AsRef<str>>(
        fen: Option<&str>,
        moves: &[S],
        chess960: bool,
    ) -> Result<Game, RulesError> {
        let mut game = Game::new_in(fen, chess960)?;
        for text in moves {
            game.push_text(text.as_ref())?;
        }
        Ok(game)
    }

    pub fn current(&self) -> &Chess {
        self.plies.last().map(|p| &p.after).unwrap_or(&self.start)
    }

    /// Plays a move given as text, or says which ply failed and why.
    pub fn push_text(&mut self, text: &str) -> Result<&Ply, RulesError> {
        let pos = self.current().clone();
        let ply = self.plies.len() + 1;
        let m = resolve_move(&pos, text, self.mode).map_err(|r| RulesError::IllegalMove {
            ply,
            text: format!("{}{}", move_number(&pos), text.trim()),
            reason: if r.kind == super::legality::RejectionKind::Notation {
                format!("cannot be read: {}", r.reason)
            } else {
                r.reason
            },
            articles: r.articles,
            kind: Some(r.kind),
        })?;
        Ok(self.push(m))
    }

    /// Plays a legal move.
    pub fn push(&mut self, m: Move) -> &Ply {
        let pos = self.current().clone();
        let before = pos.castles().clone();
        let san = san_plus(&pos, m);
        let number = move_number(&pos);
        let mut after = pos.clone();
        after.play_unchecked(m);
        for color in Color::ALL {
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                if before.has(color, side) && !after.castles().has(color, side) {
                    let how = describe_right_loss(&pos, m, color, &number, &san);
                    self.rights_lost.get_mut(color)[side_index(side)] = Some(how);
                }
            }
        }
        self.plies.push(Ply {
            m,
            uci: uci(m, self.mode),
            san,
            number,
            color: pos.turn(),
            after,
        });
        self.plies.last().expect("just pushed")
    }

    /// The game without its last move (`None` when no move was played), as it stood when that
    /// move was chosen.
    pub fn before_last(&self) -> Option<Game> {
        let (_, earlier) = self.plies.split_last()?;
        let mut game = Game {
            start: self.start.clone(),
            mode: self.mode,
            plies: Vec::with_capacity(earlier.len()),
            warnings: self.warnings.clone(),
            rights_lost: ByColor::new_with(|_| [None, None]),
        };
        for ply in earlier {
            game.push(ply.m);
        }
        Some(game)
    }

    /// The move that removed `color`'s right to castle on `side`, if it happened in this game.
    pub fn right_lost_by(&self, color: Color, side: CastlingSide) -> Option<&str> {
        self.rights_lost.get(color)[side_index(side)].as_deref()
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> impl Iterator<Item = &Chess> {
        std::iter::once(&self.start).chain(self.plies.iter().map(|p| &p.after))
    }

    /// 0-based indexes (0 = start, n = after ply n) of the positions identical to `pos` in the
    /// FIDE sense (9.2.3): shakmaty's `Eq` compares pieces, side to move, castling rights and a
    /// legal e.p. right, and ignores the clocks.
    pub fn occurrences(&self, pos: &Chess) -> Vec<usize> {
        self.positions()
            .enumerate()
            .filter(|(_, p)| *p == pos)
            .map(|(i, _)| i)
            .collect()
    }
}

/// "12." for White's move, "12..." for Black's.
pub fn move_number(pos: &Chess) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmoves()),
        Color::Black => format!("{}...", pos.fullmoves()),
    }
}

fn describe_right_loss(pos: &Chess, m: Move, color: Color, number: &str, san: &str) -> String {
    if pos.turn() != color {
        return format!("the rook was captured on move {number} {san}");
    }
    match m {
        Move::Castle { .. } => {
            format!(
                "{} castled on move {number} {san}, which uses up both rights",
                color_name(color)
            )
        }
        _ if m.role() == Role::King => {
            format!("the king moved on move {number} {san}; even if it returns, the right is gone")
        }
        _ => {
            format!("the rook moved on move {number} {san}; even if it returns, the right is gone")
        }
    }
}

/// The FIDE identity of a position (9.2.3) as a hash: pieces, side to move, castling rights,
/// and an en passant capture only when one is legal. Repetition counts key on it.
pub fn position_identity(pos: &Chess) -> u64 {
    pos.zobrist_hash::<shakmaty::zobrist::Zobrist64>(shakmaty::EnPassantMode::Legal)
        .0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_error(fen: &str) -> (&'static str, String) {
        match parse_fen(fen) {
            Err(RulesError::InvalidFen { field, detail }) => (field, detail),
            other => panic!("{fen}: expected an invalid FEN, got {other:?}"),
        }
    }

    #[test]
    fn clocks_that_overflow_are_refused_not_saturated() {
        let (field, detail) = field_error("4k3/8/8/8/8/8/8/4K2R w K - 99999999999999999999 80");
        assert_eq!(field, "half-move clock");
        assert!(detail.contains("out of range"), "{detail}");
        let (field, _) = field_error("4k3/8/8/8/8/8/8/4K2R w K - 3 4294967296");
        assert_eq!(field, "full-move number");
        let (field, _) = field_error("4k3/8/8/8/8/8/8/4K2R w K - -1 2");
        assert_eq!(field, "half-move clock");
    }

    /// The field count and rank count errors, read without collecting the fields and ranks,
    /// say what they said when both were collected into `Vec`s.
    #[test]
    fn field_and_rank_counts_are_named_in_the_error() {
        let k = "4k3/8/8/8/8/8/8/4K3";
        assert_eq!(
            field_error(&format!("{k} w - - 0 1 extra  more")),
            (
                "full-move number",
                "is followed by 2 extra fields (\"extra more\")".into()
            )
        );
        assert_eq!(
            field_error("8/8/8/8/8/8/8 w - - 0 1"),
            ("board", "has 7 ranks; it needs 8 separated by '/'".into())
        );
        assert_eq!(
            field_error(&format!("{k}/ w - - 0 1")),
            ("board", "has 9 ranks; it needs 8 separated by '/'".into())
        );
        assert_eq!(field_error("  "), ("board", "is empty".into()));
        assert_eq!(
            fen_fields(" a\tb  c d e f "),
            (["a", "b", "c", "d", "e", "f"], 6)
        );
        assert_eq!(fen_fields("a b"), (["a", "b", "", "", "", ""], 2));
        assert_eq!(fen_fields("a b c d e f g h").1, 8);
        let (pos, _, _) = parse_fen(&format!("{k}  b  -  -  7  30 ")).unwrap();
        assert_eq!((pos.turn(), pos.halfmoves()), (Color::Black, 7));
    }

    #[test]
    fn clocks_in_range_are_read_as_written() {
        let (pos, _, _) = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295").unwrap();
        assert_eq!(pos.halfmoves(), u32::MAX);
        let (pos, _, _) = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 12 40").unwrap();
        assert_eq!((pos.halfmoves(), pos.fullmoves().get()), (12, 40));
    }

    #[test]
    fn x_fen_rights_with_the_king_off_the_e_file_select_chess960() {
        let fen = "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - 0 1";
        let (pos, mode, notes) = parse_fen(fen).unwrap();
        assert_eq!(mode, CastlingMode::Chess960);
        assert!(pos.castles().has(Color::White, CastlingSide::KingSide));
        assert!(pos.castles().has(Color::Black, CastlingSide::QueenSide));
        assert!(notes[0].contains("Chess960"), "{notes:?}");
        let game = Game::from_moves(Some(fen), &["O-O"]).unwrap();
        assert_eq!(game.plies[0].san, "O-O");
    }

    #[test]
    fn before_last_is_the_game_without_its_last_move() {
        let game = Game::from_moves(None, &["e4", "e5", "Ke2", "Nc6"]).unwrap();
        let earlier = game.before_last().unwrap();
        assert_eq!(earlier.plies.len(), 3);
        assert_eq!(earlier.current(), &game.plies[2].after);
        // The history behind it is kept: the right lost by Ke2 is still explained.
        assert!(
            earlier
                .right_lost_by(Color::White, CastlingSide::KingSide)
                .is_some()
        );
        assert!(Game::new(None).unwrap().before_last().is_none());
    }

    #[test]
    fn impossible_rights_with_the_king_on_e1_are_dropped() {
        // A standard game whose rooks left the corners: the rights go, Chess960 is not guessed.
        let (_, mode, notes) =
            parse_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1").unwrap();
        assert_eq!(mode, CastlingMode::Standard);
        assert!(notes[0].contains("dropped"), "{notes:?}");
        let (_, mode, notes) = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!((mode, notes.len()), (CastlingMode::Standard, 0));
    }

    #[test]
    fn a_variant_reads_kqkq_as_the_outermost_rooks() {
        let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1";
        let game = Game::from_moves_in(Some(fen), &["O-O", "O-O-O"], true).unwrap();
        assert_eq!(game.mode, CastlingMode::Chess960);
        assert_eq!(game.plies.len(), 2);
        assert!(Game::new_in(None, true).is_ok_and(|g| g.mode == CastlingMode::Chess960));
        assert!(is_chess960_variant("Chess960") && is_chess960_variant("fischerandom"));
        assert!(!is_chess960_variant("Standard"));
    }

    #[test]
    fn a_pgn_variant_tag_selects_chess960() {
        let pgn = "[Variant \"Chess960\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n";
        let game = super::super::pgn::game_from_pgn(pgn).unwrap();
        assert_eq!((game.mode, game.plies.len()), (CastlingMode::Chess960, 2));
        let fischer = pgn.replace("Chess960", "fischerandom");
        assert!(super::super::pgn::game_from_pgn(&fischer).is_ok());
        let standard = pgn.replace("[Variant \"Chess960\"]\n", "");
        assert!(super::super::pgn::game_from_pgn(&standard).is_err());
    }
}
