//! Can a side still mate by *any* series of legal moves? The question behind dead positions
//! (5.2.2), the flag (6.9), resignation (5.1.2) and an illegal move's penalty (7.5.5).
//!
//! The answer comes from chasolver (the CHA authors' helpmate solver), which works on boards of
//! the `chess` crate: [`to_chess_board`] builds one from our position by writing a FEN with
//! only the e.p. square that a legal capture can use (a query builds the same board piece by
//! piece from its cache key, without the text). Our copy of chasolver
//! (`vendor/chasolver`) checks a stop condition inside its searches, so a query runs on the
//! caller's thread and ends when its [`SolverBudget`] runs out or its [`CancelToken`] is
//! cancelled (a request that timed out, an edit that made a diagnosis stale): no work goes on
//! after the answer. An unfinished query reports `Undetermined`, never a guess.

use std::cell::RefCell;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, Role, Square};

/// The verdict on whether `winner` can still checkmate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Winnability {
    /// A mate exists; `helpmate` is one series of legal moves that reaches it (UCI).
    Winnable { helpmate: Vec<String> },
    /// No series of legal moves ends in a mate by this side.
    Unwinnable,
    /// The solver did not finish within the budget, was cancelled, or could not read the
    /// position.
    Undetermined { why: String },
}

impl Winnability {
    pub fn decided(&self) -> Option<bool> {
        match self {
            Winnability::Winnable { .. } => Some(true),
            Winnability::Unwinnable => Some(false),
            Winnability::Undetermined { .. } => None,
        }
    }
}

/// How much work one query (one side of one position) may do, in milliseconds of solver work.
/// It is counted in solver nodes ([`NODES_PER_MS`] a millisecond), so that the same position
/// gets the same verdict on a loaded server as on an idle one; a wall-clock deadline at
/// [`DEADLINE_SLACK`] times the budget stops a query on a much slower machine. `None` means no
/// limit (a [`CancelToken`] still stops it).
#[derive(Debug, Clone, Copy)]
pub struct SolverBudget(pub Option<Duration>);

/// Solver nodes a millisecond, as measured on the hard position of chasolver's VENDORED.md
/// (`kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w`): 520,000 nodes in a 40 ms budget, 12.7 million in
/// 1 s, on the project's 2-core x86_64 machine.
pub const NODES_PER_MS: u64 = 13_000;

/// The wall-clock deadline of a budgeted query, in budgets: four times the time its nodes take
/// on an idle machine.
pub const DEADLINE_SLACK: u32 = 4;

impl SolverBudget {
    /// chasolver's limits for one query starting now: the node count, and the deadline as the
    /// safety net (no cancel flag: the caller adds its token).
    pub fn limits(self) -> chasolver::Limits {
        chasolver::Limits {
            deadline: self.0.map(|d| Instant::now() + d * DEADLINE_SLACK),
            cancel: None,
            nodes: self.0.map(|d| d.as_millis() as u64 * NODES_PER_MS),
        }
    }
}

impl Default for SolverBudget {
    fn default() -> Self {
        SolverBudget(Some(Duration::from_millis(40)))
    }
}

/// Stops solver work from another thread. Cloning shares the flag; once cancelled, a token
/// stays cancelled.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

thread_local! {
    /// The token of the work this thread is doing, set by [`with_cancel`].
    static SCOPE: RefCell<Option<CancelToken>> = const { RefCell::new(None) };
}

/// Runs `f` with every solver query it makes on this thread governed by `token`. The front
/// ends use it around a request's work, so that the layers in between (reports, answers,
/// claims) need not carry the token.
pub fn with_cancel<T>(token: &CancelToken, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<CancelToken>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SCOPE.with(|s| *s.borrow_mut() = previous);
        }
    }
    let _restore = Restore(SCOPE.with(|s| s.replace(Some(token.clone()))));
    f()
}

/// Whether the work this thread is doing (see [`with_cancel`]) has been cancelled: its
/// results are then incomplete and must not be kept.
pub fn cancelled() -> bool {
    SCOPE.with(|s| s.borrow().as_ref().is_some_and(CancelToken::is_cancelled))
}

fn current_token() -> Option<CancelToken> {
    SCOPE.with(|s| s.borrow().clone())
}

/// Writes the FEN that chasolver reads: castling rights only in standard chess (the `chess`
/// crate knows no Chess960 castling), the e.p. square only when a legal capture uses it, and
/// the clocks as `0 1` (the solver's board has none, and so the same position under other
/// clocks finds its verdict in the cache).
pub fn chasolver_fen(pos: &Chess, mode: CastlingMode) -> String {
    fen_of(&solver_key(pos, mode))
}

fn fen_of(key: &Key) -> String {
    Fen::try_from_setup(key.clone())
        .map(|f| f.to_string())
        .unwrap_or_else(|e| e.ignore().to_string())
}

/// The bridge to chasolver's board type.
pub fn to_chess_board(pos: &Chess, mode: CastlingMode) -> Result<chess::Board, String> {
    board_from_fen(&chasolver_fen(pos, mode))
}

fn board_from_fen(fen: &str) -> Result<chess::Board, String> {
    chess::Board::from_str(fen).map_err(|e| format!("the solver cannot read {fen}: {e}"))
}

/// The solver's board for a cache key: the board that reading [`fen_of`]'s FEN gives, built
/// piece by piece without writing and reading the text (the FEN is written only for an error).
fn board_of(key: &Key) -> Result<chess::Board, String> {
    let mut builder = chess::BoardBuilder::new();
    for (square, piece) in key.board.iter() {
        builder.piece(
            chess::ALL_SQUARES[usize::from(square)],
            to_chess_piece(piece.role),
            to_chess_color(piece.color),
        );
    }
    builder.side_to_move(to_chess_color(key.turn));
    for color in Color::ALL {
        builder.castle_rights(to_chess_color(color), castle_rights(key, color));
    }
    builder.en_passant(
        key.ep_square
            .map(|square| chess::File::from_index(usize::from(square.file()))),
    );
    chess::Board::try_from(&builder)
        .map_err(|e| format!("the solver cannot read {}: {e}", fen_of(key)))
}

/// `color`'s castling rights as the `chess` crate reads them from the FEN: a side whose letter
/// (`K`, `Q`, `k`, `q`) shakmaty writes, that is, a right for the outermost rook on the back
/// rank beyond the king on that side.
fn castle_rights(key: &Key, color: Color) -> chess::CastleRights {
    let board = &key.board;
    let backrank = shakmaty::Bitboard::from(color.backrank());
    let rooks = board.by_piece(color.rook()) & backrank;
    let rights = key.castling_rights & backrank;
    let king = board
        .king_of(color)
        .filter(|k| k.rank() == color.backrank());
    let side = |rook: Option<Square>, beyond: fn(Square, Square) -> bool| {
        rook.is_some_and(|r| rights.contains(r) && king.is_some_and(|k| beyond(k, r)))
    };
    let king_side = side(rooks.last(), |k, r| k < r);
    let queen_side = side(rooks.first(), |k, r| r < k);
    match (king_side, queen_side) {
        (true, true) => chess::CastleRights::Both,
        (true, false) => chess::CastleRights::KingSide,
        (false, true) => chess::CastleRights::QueenSide,
        (false, false) => chess::CastleRights::NoRights,
    }
}

fn to_chess_piece(role: Role) -> chess::Piece {
    match role {
        Role::Pawn => chess::Piece::Pawn,
        Role::Knight => chess::Piece::Knight,
        Role::Bishop => chess::Piece::Bishop,
        Role::Rook => chess::Piece::Rook,
        Role::Queen => chess::Piece::Queen,
        Role::King => chess::Piece::King,
    }
}

fn to_chess_color(color: Color) -> chess::Color {
    match color {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

/// A position as the solver sees it, the cache's key: what [`chasolver_fen`] writes (pieces,
/// turn, castling rights outside Chess960, the e.p. square only when a capture can use it; no
/// clocks), kept as shakmaty's setup so that a look-up needs no FEN.
type Key = shakmaty::Setup;

fn solver_key(pos: &Chess, mode: CastlingMode) -> Key {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    if mode == CastlingMode::Chess960 {
        setup.castling_rights = shakmaty::Bitboard::EMPTY;
    }
    setup.halfmoves = 0;
    setup.fullmoves = std::num::NonZeroU32::MIN;
    setup
}

/// Decided verdicts by position, White's then Black's: a verdict never changes, and the same
/// positions come back (a game re-diagnosed after an edit, a widget asking about one
/// position, the two sides of one report).
type Verdicts = [Option<Known>; 2];

/// A decided verdict as the solver gave it: the helpmate line in the solver's moves, written
/// as UCI only for a caller of [`winnability`] that wants it.
#[derive(Clone)]
enum Found {
    Winnable(Arc<[chess::ChessMove]>),
    Unwinnable,
}

impl Found {
    fn to_winnability(&self) -> Winnability {
        match self {
            Found::Winnable(line) => Winnability::Winnable {
                helpmate: line.iter().map(|m| m.to_string()).collect(),
            },
            Found::Unwinnable => Winnability::Unwinnable,
        }
    }
}

/// A decided verdict, and its helpmate line in SAN once a report has asked for it (SAN is a
/// function of the position, which the cache key is).
#[derive(Clone)]
struct Known {
    found: Found,
    san: Option<SanLine>,
}

/// The cache's map, hashed with Fx (a few instructions a word; SipHash cost about 2,000
/// instructions a report). Positions come from requests, so keys could be chosen to collide,
/// but the map holds at most [`CACHE_LIMIT`] of them: the worst look-up compares 4,096 keys,
/// about as long as one solver query.
type VerdictMap = HashMap<Key, Verdicts, rustc_hash::FxBuildHasher>;

fn cache() -> &'static Mutex<VerdictMap> {
    static CACHE: OnceLock<Mutex<VerdictMap>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(VerdictMap::default()))
}

/// Positions kept (each with up to two verdicts) before the cache starts over.
const CACHE_LIMIT: usize = 4096;

fn side(winner: Color) -> usize {
    match winner {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn remember(key: &Key, winner: Color, found: &Found) {
    let known = Known {
        found: found.clone(),
        san: None,
    };
    if let Ok(mut cache) = cache().lock() {
        if let Some(entry) = cache.get_mut(key) {
            entry[side(winner)] = Some(known);
            return;
        }
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        let mut entry = Verdicts::default();
        entry[side(winner)] = Some(known);
        cache.insert(key.clone(), entry);
    }
}

fn recall(key: &Key, winner: Color) -> Option<Found> {
    let cache = cache().lock().ok()?;
    Some(cache.get(key)?[side(winner)].as_ref()?.found.clone())
}

/// A winnable verdict whose SAN line is remembered, as a report takes it: the SAN line
/// (shared, not copied), and the verdict without its UCI line (a report shows the SAN one).
fn recall_with_san(key: &Key, winner: Color) -> Option<Verdict> {
    let cache = cache().lock().ok()?;
    let known = cache.get(key)?[side(winner)].as_ref()?;
    Some(Verdict {
        winnability: Winnability::Winnable {
            helpmate: Vec::new(),
        },
        helpmate_san: known.san.clone()?,
    })
}

fn remember_san(key: &Key, winner: Color, san: &SanLine) {
    if let Ok(mut cache) = cache().lock()
        && let Some(Some(known)) = cache.get_mut(key).map(|e| &mut e[side(winner)])
    {
        known.san = Some(san.clone());
    }
}

/// Decides whether `winner` can still mate in `pos`, within `budget` and the thread's
/// [`CancelToken`].
pub fn winnability(
    pos: &Chess,
    mode: CastlingMode,
    winner: Color,
    budget: SolverBudget,
) -> Winnability {
    let mut query = Query::new(pos, mode, budget);
    query.decide(winner)
}

/// Whether `pos` is dead (5.2.2): insufficient material, or the solver decides within
/// `budget` that neither side can mate by any series of legal moves (undecided is not dead).
pub fn is_dead(pos: &Chess, mode: CastlingMode, budget: SolverBudget) -> bool {
    pos.is_insufficient_material()
        || (winnability(pos, mode, Color::White, budget).decided() == Some(false)
            && winnability(pos, mode, Color::Black, budget).decided() == Some(false))
}

/// One side's verdict, with the helpmate line in SAN when it is winnable (empty otherwise).
/// The SAN line is the one to show: `winnability`'s UCI line may be left empty.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub winnability: Winnability,
    pub helpmate_san: SanLine,
}

/// [`winnability`] for White and for Black, each with its helpmate line in SAN: one cache
/// key and one solver board serve both queries, and the SAN lines are remembered with the
/// verdicts.
pub fn winnability_both(pos: &Chess, mode: CastlingMode, budget: SolverBudget) -> [Verdict; 2] {
    let mut query = Query::new(pos, mode, budget);
    [Color::White, Color::Black].map(|winner| {
        if let Some(known) = recall_with_san(&query.key, winner) {
            return known;
        }
        match query.find(winner) {
            Ok(Found::Winnable(line)) => {
                let san = san_line(pos, &line);
                remember_san(&query.key, winner, &san);
                Verdict {
                    winnability: Winnability::Winnable {
                        helpmate: Vec::new(),
                    },
                    helpmate_san: san,
                }
            }
            found => Verdict {
                winnability: undetermined_or(found),
                helpmate_san: SanLine::default(),
            },
        }
    })
}

/// The verdict of a query whose helpmate line is not wanted.
fn undetermined_or(found: Result<Found, String>) -> Winnability {
    match found {
        Ok(found) => found.to_winnability(),
        Err(why) => Winnability::Undetermined { why },
    }
}

/// The queries on one position: the cache key, and the solver's board, built from the key
/// as reading [`chasolver_fen`]'s FEN would build it ([`board_of`]) at the first cache miss.
struct Query {
    key: Key,
    board: Option<Result<chess::Board, String>>,
    budget: SolverBudget,
}

impl Query {
    fn new(pos: &Chess, mode: CastlingMode, budget: SolverBudget) -> Query {
        Query {
            key: solver_key(pos, mode),
            board: None,
            budget,
        }
    }

    fn decide(&mut self, winner: Color) -> Winnability {
        undetermined_or(self.find(winner))
    }

    /// The verdict from the cache or the solver, or why there is none.
    fn find(&mut self, winner: Color) -> Result<Found, String> {
        if let Some(hit) = recall(&self.key, winner) {
            return Ok(hit);
        }
        let key = &self.key;
        let board = match self.board.get_or_insert_with(|| board_of(key)) {
            Ok(b) => *b,
            Err(why) => return Err(why.clone()),
        };
        let found = solve(&board, winner, self.budget)?;
        remember(&self.key, winner, &found);
        Ok(found)
    }
}

/// One query to chasolver, under the budget's deadline (set now) and the thread's token: the
/// verdict, or why there is none.
fn solve(board: &chess::Board, winner: Color, budget: SolverBudget) -> Result<Found, String> {
    let token = current_token();
    let limits = chasolver::Limits {
        cancel: token.as_ref().map(|t| Arc::clone(&t.0)),
        ..budget.limits()
    };
    let chess_winner = to_chess_color(winner);
    // The fast check, then the full analysis when it is inconclusive; in one call, which runs
    // the analysis's cheap first phases before the fast check (same verdicts, less work).
    let outcome = std::panic::catch_unwind(|| {
        let (verdict, stopped) =
            chasolver::winnability_with_fast_check_within(board, chess_winner, &limits);
        let found = verdict.map(|v| match v {
            chasolver::Winnability::Winnable { helpmate } => Found::Winnable(helpmate.into()),
            chasolver::Winnability::Unwinnable => Found::Unwinnable,
        });
        (found, stopped)
    });
    match outcome {
        Ok((Some(found), _)) => Ok(found),
        Ok((None, stopped)) => Err(if token.as_ref().is_some_and(CancelToken::is_cancelled) {
            "the request was cancelled before the solver finished".into()
        } else if stopped {
            format!(
                "not decided within the solver budget of {} ms",
                budget.0.unwrap_or_default().as_millis()
            )
        } else {
            "the solver gave up on this position".into()
        }),
        Err(_) => Err("the solver failed on this position".into()),
    }
}

/// Turns a helpmate line (UCI) into SAN from `pos`, stopping at the first move that does not
/// apply (which would be a bridge bug, reported rather than hidden).
pub fn helpmate_san(pos: &Chess, line: &[String]) -> Vec<String> {
    let moves = line
        .iter()
        .map(|text| UciMove::from_ascii(text.as_bytes()).ok());
    SanLine::from_moves(pos, moves)
        .moves()
        .map(String::from)
        .collect()
}

/// [`helpmate_san`] for a line of the solver's moves.
fn san_line(pos: &Chess, line: &[chess::ChessMove]) -> SanLine {
    SanLine::from_moves(pos, line.iter().map(|m| Some(uci_of(*m))))
}

/// The solver's move as UCI, square by square (both crates number a1 = 0, b1 = 1, …).
fn uci_of(m: chess::ChessMove) -> UciMove {
    let square = |s: chess::Square| Square::new(s.to_index() as u32);
    UciMove::Normal {
        from: square(m.get_source()),
        to: square(m.get_dest()),
        promotion: m.get_promotion().map(|p| match p {
            chess::Piece::Queen => Role::Queen,
            chess::Piece::Rook => Role::Rook,
            chess::Piece::Bishop => Role::Bishop,
            chess::Piece::Knight => Role::Knight,
            chess::Piece::Pawn => Role::Pawn,
            chess::Piece::King => Role::King,
        }),
    }
}

/// Plays `moves` from `pos`, handing each one's SAN (no check sign) and whether it gives check
/// to `each`, and stops at the first move that is missing or does not apply. Returns whether
/// the line ends in mate: a check followed by a legal move of the line is no mate, so only
/// where the line ends can a check be mate.
fn walk_line(
    pos: &Chess,
    moves: impl Iterator<Item = Option<UciMove>>,
    mut each: impl FnMut(San, bool),
) -> bool {
    let mut p = pos.clone();
    let mut last_check = false;
    for uci in moves {
        let Some(san) = uci.and_then(|uci| super::notation::play_uci(&mut p, &uci)) else {
            break;
        };
        last_check = p.is_check();
        each(san, last_check);
    }
    last_check && p.legal_moves().is_empty()
}

/// A helpmate line in SAN, written once and shared by the cache and every report that quotes
/// it; serialized as a list of moves. The moves are kept in one text, a space between them
/// (SAN has none), with where each ends: a line is a few allocations however long, and
/// [`SanLine::short`] is slices of the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SanLine(Arc<SanText>);

#[derive(Debug, Default, PartialEq, Eq)]
struct SanText {
    text: String,
    ends: Vec<usize>,
}

impl SanLine {
    /// The SAN of `moves` played from `pos` (see [`walk_line`]), with `+` after a check and
    /// `#` after the mate that ends the line.
    fn from_moves(pos: &Chess, moves: impl ExactSizeIterator<Item = Option<UciMove>>) -> SanLine {
        let mut line = SanText {
            text: String::with_capacity(moves.len() * 8),
            ends: Vec::with_capacity(moves.len()),
        };
        let mate = walk_line(pos, moves, |san, check| {
            if !line.text.is_empty() {
                line.text.push(' ');
            }
            san.append_to_string(&mut line.text);
            if check {
                line.text.push('+');
            }
            line.ends.push(line.text.len());
        });
        if mate {
            line.text.pop();
            line.text.push('#');
        }
        SanLine(Arc::new(line))
    }

    pub fn moves(&self) -> impl ExactSizeIterator<Item = &str> {
        let SanText { text, ends } = &*self.0;
        let mut start = 0;
        ends.iter().map(move |&end| {
            let san = &text[start..end];
            start = end + 1;
            san
        })
    }

    pub fn len(&self) -> usize {
        self.0.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.ends.is_empty()
    }

    /// Moves `from..to` (`from < to`), spaces between them.
    fn span(&self, from: usize, to: usize) -> &str {
        let SanText { text, ends } = &*self.0;
        let start = from.checked_sub(1).map_or(0, |i| ends[i] + 1);
        &text[start..ends[to - 1]]
    }

    /// The line as [`crate::rules::report::short_line`] writes it, from slices of the text.
    pub fn short(&self) -> String {
        let n = self.len();
        if n <= 12 {
            self.0.text.clone()
        } else {
            [
                self.span(0, 6),
                " … ",
                self.span(n - 3, n),
                " (",
                &n.to_string(),
                " half-moves)",
            ]
            .concat()
        }
    }
}

impl Serialize for SanLine {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.moves())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::test_position as pos;

    /// `SanLine::short` writes what `short_line` writes of its moves, for lines of every length
    /// around the cut, and the moves come back as they were played.
    #[test]
    fn san_line_short_is_short_line_of_its_moves() {
        let walk = [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1",
            "f6g8", "g1f3", "g8f6", "f3g1",
        ]
        .map(String::from);
        let start = Chess::default();
        for n in 0..=walk.len() {
            let moves = walk[..n]
                .iter()
                .map(|t| UciMove::from_ascii(t.as_bytes()).ok());
            let line = SanLine::from_moves(&start, moves);
            let expected = helpmate_san(&start, &walk[..n]);
            assert_eq!(line.moves().collect::<Vec<_>>(), expected);
            assert_eq!(line.short(), crate::rules::report::short_line(&expected));
        }
        let mate = pos("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1");
        let line = SanLine::from_moves(&mate, [UciMove::from_ascii(b"d1d8").ok()].into_iter());
        assert_eq!(line.moves().collect::<Vec<_>>(), ["Rd8#"]);
        assert_eq!(line.short(), "Rd8#");
    }

    /// The key's board built piece by piece is the board read from its FEN, with every kind
    /// of castling right (standard and Chess960, kept or lost), e.p. squares and their absence,
    /// on positions a few plies on from each.
    #[test]
    fn board_of_is_the_board_of_the_fen() {
        let fens = [
            (
                "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
                CastlingMode::Standard,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                CastlingMode::Standard,
            ),
            ("r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1", CastlingMode::Standard),
            (
                "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
                CastlingMode::Chess960,
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                CastlingMode::Standard,
            ),
        ];
        for (fen, mode) in fens {
            let mut p: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            for step in 0..12usize {
                let key = solver_key(&p, mode);
                assert_eq!(
                    board_of(&key),
                    board_from_fen(&fen_of(&key)),
                    "{fen} step {step}"
                );
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                p.play_unchecked(legal[(step * 7 + 2) % legal.len()]);
            }
        }
    }

    #[test]
    fn bridge_keeps_castling_and_legal_ep_only() {
        let p = pos("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        assert_eq!(
            chasolver_fen(&p, CastlingMode::Standard),
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"
        );
        let p = pos("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
        assert_eq!(
            chasolver_fen(&p, CastlingMode::Standard),
            "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1"
        );
        assert!(to_chess_board(&p, CastlingMode::Standard).is_ok());
    }

    #[test]
    fn knight_against_pawn_is_winnable_both_ways() {
        let p = pos("8/8/8/4k3/8/8/2p5/K1N5 w - - 0 1");
        let unlimited = SolverBudget(None);
        assert!(matches!(
            winnability(&p, CastlingMode::Standard, Color::White, unlimited),
            Winnability::Winnable { .. }
        ));
        assert!(matches!(
            winnability(&p, CastlingMode::Standard, Color::Black, unlimited),
            Winnability::Winnable { .. }
        ));
    }

    /// The position of issue 17: the fast check alone ran for about 4 s.
    const SLOW: &str = "kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w - - 0 1";

    #[test]
    fn a_slow_position_ends_within_its_budget() {
        let p = pos(SLOW);
        for (ms, winner) in [(1, Color::White), (50, Color::Black)] {
            let started = Instant::now();
            let verdict = winnability(
                &p,
                CastlingMode::Standard,
                winner,
                SolverBudget(Some(Duration::from_millis(ms))),
            );
            let took = started.elapsed();
            assert!(
                took < Duration::from_millis(ms + 250),
                "{ms} ms budget took {took:?}"
            );
            assert!(
                matches!(verdict, Winnability::Undetermined { ref why } if why.contains("budget")),
                "{verdict:?}"
            );
        }
    }

    #[test]
    fn a_cancelled_query_stops_at_once_and_is_not_remembered() {
        let p = pos(SLOW);
        let token = CancelToken::new();
        let canceller = {
            let token = token.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(30));
                token.cancel();
            })
        };
        let started = Instant::now();
        let verdict = with_cancel(&token, || {
            let v = winnability(&p, CastlingMode::Standard, Color::White, SolverBudget(None));
            assert!(cancelled());
            v
        });
        canceller.join().unwrap();
        assert!(started.elapsed() < Duration::from_millis(30 + 250));
        assert!(
            matches!(verdict, Winnability::Undetermined { ref why } if why.contains("cancelled")),
            "{verdict:?}"
        );
        assert!(!cancelled(), "the scope ends with with_cancel");
        assert!(recall(&solver_key(&p, CastlingMode::Standard), Color::White).is_none());
    }

    #[test]
    fn helpmate_lines_in_san_have_their_check_and_mate_signs() {
        let line = |moves: &[&str]| moves.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let mate = pos("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(helpmate_san(&mate, &line(&["d1d8"])), ["Rd8#"]);
        // A move after the mate does not apply: the line ends there, still a mate.
        assert_eq!(helpmate_san(&mate, &line(&["d1d8", "g8h8"])), ["Rd8#"]);
        let check = pos("7k/7p/8/8/8/8/6PP/3R2K1 w - - 0 1");
        assert_eq!(
            helpmate_san(&check, &line(&["d1d8", "h8g7"])),
            ["Rd8+", "Kg7"]
        );
        assert_eq!(helpmate_san(&check, &line(&["d1d8"])), ["Rd8+"]);
    }

    #[test]
    fn lone_king_cannot_mate() {
        let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(
            winnability(&p, CastlingMode::Standard, Color::Black, SolverBudget(None)),
            Winnability::Unwinnable
        );
    }
}
