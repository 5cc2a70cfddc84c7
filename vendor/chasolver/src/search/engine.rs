//! Search engine: state, core recursive search, and iteration strategies.

use chess::{
    get_bishop_rays, get_knight_moves, get_rook_rays, BitBoard, Board, ChessMove, Color, MoveGen,
    Piece, Square, EMPTY,
};
use rustc_hash::{FxHashMap, FxHashSet};

use super::{
    heuristics::{classify_move, MoveVariation},
    legal::has_legal_move,
    utils::insufficient_white_material,
};

/// Mutable state threaded through a helpmate search.
///
/// Carries the depth/node budgets and the move stack that every search needs,
/// plus a handful of optional precomputed tables (transposition table,
/// punishable moves, bishop distances) that individual phases opt into by
/// filling them in before searching; left as `None` they're simply unused.
///
/// A "node" is one candidate move considered during the search (i.e. one
/// child position explored), counted once per loop iteration in
/// [`helpmate`], regardless of whether that move is then recursed into.
#[derive(Debug)]
pub(crate) struct Search {
    /// Depth (in plies) the current iterative-deepening pass searches to.
    pub(crate) max_depth: u8,

    /// Per-depth budget on the number of positions explored (nodes); see
    /// [`Search::is_depth_limit_reached`].
    pub(crate) depth_node_limit: u64,

    /// Budget on the number of positions explored (nodes), shared across all
    /// depths of an `iterative_deepening` call.
    pub(crate) global_node_limit: u64,

    /// Positions explored (nodes) in the current depth iteration; reset by
    /// [`Search::reset_iteration`].
    pub(crate) iteration_nodes: u64,

    /// Positions explored (nodes) within the current `iterative_deepening`
    /// call; checked against `global_node_limit`.
    pub(crate) global_nodes: u64,

    /// Set when a node/depth limit cuts a branch short, signalling that the
    /// branch was left unexplored rather than proven to have no mate.
    pub(crate) interrupted: bool,

    /// Move sequence from the search root to the current node.
    pub(crate) moves: Vec<ChessMove>,

    /// Whether the last move played was a [`MoveVariation::Reward`]; if so, the
    /// next move's depth increment is waived too, so the reward isn't
    /// immediately cancelled out.
    pub(crate) past_progress: bool,

    /// Transposition table mapping a position to the deepest `num_moves_left`
    /// it has already been searched at. `None` disables the table.
    pub(crate) transposition_table: Option<FxHashMap<Board, u8>>,

    /// Moves penalized unconditionally during search, classified as
    /// [`MoveVariation::Punish`]; see [`super::utils::compute_punishable`] for
    /// how this set is chosen.
    pub(crate) punishable: Option<FxHashSet<ChessMove>>,

    /// Per-square bishop distances to the mating corner; see
    /// [`super::utils::compute_bishop_distances`].
    pub(crate) bishop_distances: Option<[u8; 64]>,
}

impl Search {
    /// Creates a fresh search with default budgets and no tables.
    pub(crate) fn new() -> Self {
        Self {
            max_depth: 0,
            depth_node_limit: u64::MAX,
            global_node_limit: 1_000_000,
            iteration_nodes: 0,
            global_nodes: 0,
            interrupted: false,
            moves: Vec::with_capacity(128),
            past_progress: false,
            transposition_table: None,
            punishable: None,
            bishop_distances: None,
        }
    }

    /// Whether the search stops at a node `depth` plies deep (as counted by [`helpmate`]) whose
    /// line has `plies` moves: a leaf.
    fn stops_at(&self, depth: u8, plies: usize) -> bool {
        depth >= self.max_depth || plies >= 128
    }

    /// Folds the current depth iteration's positions-explored count into the
    /// running totals and clears `interrupted`. Call before each depth in
    /// `iterative_deepening`.
    pub(crate) fn reset_iteration(&mut self) {
        self.global_nodes += self.iteration_nodes;
        self.iteration_nodes = 0;
        self.interrupted = false;
    }

    /// Call before each `iterative_deepening` invocation to give it a fresh
    /// budget on the number of positions it may explore.
    pub(crate) fn reset_global_nodes(&mut self) {
        self.global_nodes = 0;
    }

    /// True once either the depth-scoped or the global budget on positions
    /// explored is exhausted; see [`Search::is_depth_limit_reached`] and
    /// [`Search::is_global_limit_reached`]; or once the query's stop condition
    /// holds ([`crate::budget`]).
    fn is_limit_reached(&self) -> bool {
        self.is_depth_limit_reached()
            || self.is_global_limit_reached()
            || crate::budget::should_stop()
    }

    /// True once `iteration_nodes` (positions explored this depth iteration)
    /// exceeds `max_depth * depth_node_limit`: the per-depth budget on
    /// positions explored, scaled by how deep this iteration searches.
    ///
    /// `depth_node_limit == u64::MAX` means "no limit"; that case is
    /// special-cased to avoid overflowing the multiplication.
    fn is_depth_limit_reached(&self) -> bool {
        self.depth_node_limit != u64::MAX
            && self.iteration_nodes > (self.max_depth as u64) * self.depth_node_limit
    }

    /// True once `global_nodes` (positions explored in prior depth
    /// iterations) plus `iteration_nodes` (this one) exceed
    /// `global_node_limit`.
    fn is_global_limit_reached(&self) -> bool {
        self.global_nodes + self.iteration_nodes > self.global_node_limit
    }
}

/// Recursive helpmate search. Returns the move sequence leading to checkmate,
/// or `None`.
///
/// `depth` counts plies played so far in this iteration (not remaining). The
/// search terminates a branch when `depth >= search.max_depth` or the budget
/// on positions explored is exhausted.
///
/// The transposition table (when present) stores `num_moves_left` per position.
/// A hit prunes the branch only if the stored value is >= the current
/// `num_moves_left`, meaning the position was already searched at least as
/// deeply.
pub(crate) fn helpmate(board: &Board, search: &mut Search, depth: u8) -> Option<Vec<ChessMove>> {
    let num_moves_left = search.max_depth.saturating_sub(depth);
    let is_leaf = search.stops_at(depth, search.moves.len());

    if is_leaf && search.interrupted && !is_black_in_check(board) {
        // All a leaf can do is find a mate (Black's, in check) or set `interrupted`, which
        // nothing clears before the next iteration: nothing to learn here (changed for Rules
        // Arbiter, see VENDORED.md).
        return None;
    }

    // TT probe.
    if let Some(ref tt) = search.transposition_table {
        if let Some(entry_depth) = tt.get(board) {
            if entry_depth >= &num_moves_left {
                return None;
            }
        }
    }

    if is_leaf {
        return leaf(board, search);
    }

    // Iterated through a reference: the generator (a few hundred bytes) is not copied.
    let mut generator = MoveGen::new_legal(board);
    let mut legal_moves = (&mut generator).peekable();

    if legal_moves.peek().is_none() {
        return no_legal_move(board, search);
    }

    if insufficient_white_material(board) {
        return None;
    }

    // TT store.
    if let Some(ref mut tt) = search.transposition_table {
        tt.insert(*board, num_moves_left);
    }

    for m in legal_moves {
        search.iteration_nodes += 1;

        if search.is_limit_reached() {
            search.interrupted = true;
            return None;
        }

        let variation = classify_move(board, m, &search.punishable, &search.bishop_distances);

        let new_depth = match variation {
            MoveVariation::Reward => depth,
            MoveVariation::Punish => depth + 4,
            MoveVariation::Normal => depth + (!search.past_progress as u8),
        };
        if search.interrupted
            && search.stops_at(new_depth, search.moves.len() + 1)
            && !may_check_black(board, m)
        {
            // The child is a leaf where Black is not in check, which [`helpmate`] leaves at
            // once when the iteration is already cut short: skip playing the move (changed for
            // Rules Arbiter, see VENDORED.md; the node is counted above as before).
            continue;
        }
        let new_board = board.make_move_new(m);

        search.moves.push(m);
        let saved_past_progress = search.past_progress;
        search.past_progress = variation == MoveVariation::Reward;

        if let Some(helpmate) = helpmate(&new_board, search, new_depth) {
            return Some(helpmate);
        }

        search.past_progress = saved_past_progress;
        search.moves.pop();
    }

    None
}

/// [`helpmate`] at a node where the search stops (depth reached, or the line is 128 moves
/// long): a mate found there, or `None`, with `search.interrupted` set when the branch was cut
/// short rather than proven dead. The same result as the checks of [`helpmate`] in their
/// published order (no legal move; White's material; depth), but a leaf only needs to know
/// whether a legal move exists, not to generate them all (changed for Rules Arbiter, see
/// VENDORED.md).
fn leaf(board: &Board, search: &mut Search) -> Option<Vec<ChessMove>> {
    if !has_legal_move(board) {
        return no_legal_move(board, search);
    }
    if !insufficient_white_material(board) {
        search.interrupted = true;
    }
    None
}

/// [`helpmate`] at a node where the side to move has no legal move: the line so far when Black
/// is mated, `None` for a stalemate or a mated White.
fn no_legal_move(board: &Board, search: &Search) -> Option<Vec<ChessMove>> {
    if is_black_in_check(board) {
        return Some(search.moves.clone()); // Checkmate.
    }
    None // Stalemate or White mated.
}

/// Whether `m`, a legal move of `board`, may leave Black to move in check; `false` only when it
/// certainly does not: a Black move, or a White move other than a king move or an en passant
/// capture that neither leaves a line through Black's king (no discovered check) nor lands on
/// such a line or a knight's jump from the king (no direct check, promotions included).
fn may_check_black(board: &Board, m: ChessMove) -> bool {
    if board.side_to_move() == Color::Black {
        return false;
    }
    let king = board.king_square(Color::Black);
    let lines = get_bishop_rays(king) | get_rook_rays(king);
    let (from, to) = (m.get_source(), m.get_dest());
    let moved = board.piece_on(from);
    let en_passant =
        moved == Some(Piece::Pawn) && from.get_file() != to.get_file() && !is_occupied(board, to);
    moved == Some(Piece::King)
        || en_passant
        || is_on(lines, from)
        || is_on(lines | get_knight_moves(king), to)
}

/// Whether `square` is one of `squares`.
fn is_on(squares: BitBoard, square: Square) -> bool {
    squares & BitBoard::from_square(square) != EMPTY
}

/// Whether a piece stands on `square`.
fn is_occupied(board: &Board, square: Square) -> bool {
    is_on(*board.combined(), square)
}

/// Whether Black is to move and in check: the only positions that can be White's mate.
fn is_black_in_check(board: &Board) -> bool {
    board.side_to_move() == Color::Black && *board.checkers() != EMPTY
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    /// A move [`may_check_black`] clears never checks, on every position two plies from ones
    /// with discovered checks, promotions, castling and en passant.
    #[test]
    fn cleared_moves_never_check() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/4B3/8/4R3/R3K2R w KQ - 0 1",
            "3k4/1P6/8/8/8/8/6N1/4K3 w - - 0 1",
            "8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1",
            "5rk1/5ppp/8/8/8/2B5/1Q3PPP/3R2K1 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        let mut cleared = 0;
        for fen in fens {
            let board = Board::from_str(fen).unwrap();
            for first in MoveGen::new_legal(&board) {
                let next = board.make_move_new(first);
                for second in MoveGen::new_legal(&next) {
                    let last = next.make_move_new(second);
                    for m in MoveGen::new_legal(&last) {
                        if !may_check_black(&last, m) {
                            cleared += 1;
                            let after = last.make_move_new(m);
                            let checked = is_black_in_check(&after);
                            assert!(!checked, "{last} {m}");
                        }
                    }
                }
            }
        }
        assert!(cleared > 1000, "only {cleared} moves cleared");
    }
}
