//! Whether the side to move has a legal move, without generating its moves (added for Rules
//! Arbiter, see VENDORED.md).
//!
//! A leaf of the helpmate search only needs to know whether a legal move exists (a mate, a
//! stalemate, or a branch cut short), and generating all the moves costs more than the rest of
//! the leaf. Each quick test below finds only moves that are legal and that `MoveGen` lists,
//! so when one finds a move the answer is the one `MoveGen` would give; when none does, the
//! moves are generated.

use chess::{
    between, get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
    BitBoard, Board, Color, MoveGen, Piece, Square, EMPTY,
};

/// Whether the side to move has a legal move: `MoveGen::new_legal(board).len() > 0`.
pub(crate) fn has_legal_move(board: &Board) -> bool {
    let checkers = board.checkers().0;
    let quick = if checkers == 0 {
        has_unpinned_piece_move(board) || has_king_step(board)
    } else if checkers & (checkers - 1) == 0 {
        // One checking piece.
        has_king_step(board) || has_piece_answer_to_check(board)
    } else {
        has_king_step(board)
    };
    quick || MoveGen::new_legal(board).len() > 0
}

/// Out of check: whether a piece of the side to move, not its king and not pinned, has a
/// pseudo-legal move other than an en passant capture (such a move is legal). All pieces of a
/// kind at once, by shifting bitboards: a bishop, rook or queen can move along a line exactly
/// when the first square on it is not one of its own side's, and a pawn that cannot step one
/// square cannot step two.
fn has_unpinned_piece_move(board: &Board) -> bool {
    let color = board.side_to_move();
    let mine = board.color_combined(color).0;
    let theirs = board.color_combined(!color).0;
    let free = Unpinned::of(board);
    let forward = forward(color);

    let pawns = free.pieces(Piece::Pawn);
    shifted(pawns, 0, forward) & !(mine | theirs) != 0
        || reach(pawns, &[(-1, forward), (1, forward)]) & theirs != 0
        || reach(free.pieces(Piece::Knight), &KNIGHT_STEPS) & !mine != 0
        || reach(free.diagonal_sliders(), &DIAGONAL_STEPS) & !mine != 0
        || reach(free.straight_sliders(), &STRAIGHT_STEPS) & !mine != 0
}

/// In check by one piece: whether a piece of the side to move, not its king and not pinned,
/// can capture the checking piece (en passant aside) or step between it and the king.
fn has_piece_answer_to_check(board: &Board) -> bool {
    let color = board.side_to_move();
    let checker = board.checkers().to_square();
    let blocks = between(checker, board.king_square(color)).0;
    let answers = blocks | board.checkers().0;
    let combined = *board.combined();
    let free = Unpinned::of(board);
    let forward = forward(color);

    let pawns = free.pieces(Piece::Pawn);
    let one_step = shifted(pawns, 0, forward) & !combined.0;
    let two_steps = shifted(one_step & pawn_third_rank(color), 0, forward) & !combined.0;
    (one_step | two_steps) & blocks != 0
        || reach(pawns, &[(-1, forward), (1, forward)]) & board.checkers().0 != 0
        || reach(free.pieces(Piece::Knight), &KNIGHT_STEPS) & answers != 0
        || squares(free.diagonal_sliders()).any(|s| get_bishop_moves(s, combined).0 & answers != 0)
        || squares(free.straight_sliders()).any(|s| get_rook_moves(s, combined).0 & answers != 0)
}

/// Whether the king of the side to move can step to a neighbouring square (castling aside)
/// that no piece of the other side attacks once the king has left its square.
fn has_king_step(board: &Board) -> bool {
    let color = board.side_to_move();
    let king = board.king_square(color);
    let occupied = *board.combined() ^ BitBoard::from_square(king);
    (get_king_moves(king) & !board.color_combined(color))
        .into_iter()
        .any(|to| !is_attacked(board, to, !color, occupied))
}

/// Whether a piece of `by` attacks `square`, with `occupied` blocking its lines.
fn is_attacked(board: &Board, square: Square, by: Color, occupied: BitBoard) -> bool {
    let theirs = board.color_combined(by);
    let their = |piece: Piece| board.pieces(piece) & theirs;
    get_knight_moves(square) & their(Piece::Knight) != EMPTY
        || get_pawn_attacks(square, !by, their(Piece::Pawn)) != EMPTY
        || get_king_moves(square) & their(Piece::King) != EMPTY
        || get_bishop_moves(square, occupied) & (their(Piece::Bishop) | their(Piece::Queen))
            != EMPTY
        || get_rook_moves(square, occupied) & (their(Piece::Rook) | their(Piece::Queen)) != EMPTY
}

/// The pieces of the side to move that are neither its king nor pinned, as bitboards.
struct Unpinned<'a> {
    board: &'a Board,
    squares: u64,
}

impl<'a> Unpinned<'a> {
    fn of(board: &'a Board) -> Self {
        let mine = board.color_combined(board.side_to_move()).0;
        let squares = mine & !board.pinned().0 & !board.pieces(Piece::King).0;
        Unpinned { board, squares }
    }

    fn pieces(&self, piece: Piece) -> u64 {
        self.squares & self.board.pieces(piece).0
    }

    fn diagonal_sliders(&self) -> u64 {
        self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)
    }

    fn straight_sliders(&self) -> u64 {
        self.pieces(Piece::Rook) | self.pieces(Piece::Queen)
    }
}

/// A knight's moves, as (files, ranks) steps.
const KNIGHT_STEPS: [(i8, i8); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// The first steps of a bishop's lines.
const DIAGONAL_STEPS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The first steps of a rook's lines.
const STRAIGHT_STEPS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The ranks a pawn of `color` moves along: 1 up for White, -1 for Black.
fn forward(color: Color) -> i8 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// The rank a pawn of `color` reaches by its first single step (the 3rd for White, the 6th for
/// Black), from where it may step again.
fn pawn_third_rank(color: Color) -> u64 {
    match color {
        Color::White => 0xFF << 16,
        Color::Black => 0xFF << 40,
    }
}

/// The squares reached from `pieces` by any of `steps`.
fn reach(pieces: u64, steps: &[(i8, i8)]) -> u64 {
    steps.iter().fold(0, |all, &(files, ranks)| all | shifted(pieces, files, ranks))
}

/// The squares of `squares` moved by `files` to the right (towards the h-file) and `ranks` up
/// (towards the 8th rank), each at most two; squares that would leave the board are dropped.
fn shifted(squares: u64, files: i8, ranks: i8) -> u64 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    let kept = match files {
        2 => !(FILE_A << 6 | FILE_A << 7),
        1 => !(FILE_A << 7),
        -1 => !FILE_A,
        -2 => !(FILE_A | FILE_A << 1),
        _ => !0,
    };
    let by = 8 * ranks + files;
    let squares = squares & kept;
    if by >= 0 {
        squares << by
    } else {
        squares >> -by
    }
}

/// The squares of a bitboard.
fn squares(bits: u64) -> impl Iterator<Item = Square> {
    BitBoard(bits).into_iter()
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use chess::ChessMove;

    use super::*;

    /// Whether `m` moves a piece of the side to move other than its king, not pinned, and is
    /// not an en passant capture (a pawn move to an empty square of another file).
    fn is_unpinned_piece_move(board: &Board, m: ChessMove) -> bool {
        let (from, to) = (m.get_source(), m.get_dest());
        let piece = board.piece_on(from);
        let en_passant = piece == Some(Piece::Pawn)
            && board.piece_on(to).is_none()
            && from.get_file() != to.get_file();
        piece != Some(Piece::King)
            && *board.pinned() & BitBoard::from_square(from) == EMPTY
            && !en_passant
    }

    /// Whether `m` is a king step (not castling).
    fn is_king_step(board: &Board, m: ChessMove) -> bool {
        let (from, to) = (m.get_source(), m.get_dest());
        let files = (from.get_file().to_index() as i8 - to.get_file().to_index() as i8).abs();
        board.piece_on(from) == Some(Piece::King) && files <= 1
    }

    /// Checks every quick test against `MoveGen` on `board`.
    fn check_against_movegen(board: &Board) {
        let fen = board.to_string();
        let moves: Vec<ChessMove> = MoveGen::new_legal(board).collect();
        let listed = |test: fn(&Board, ChessMove) -> bool| moves.iter().any(|&m| test(board, m));
        assert_eq!(has_legal_move(board), !moves.is_empty(), "{fen}");
        assert_eq!(has_king_step(board), listed(is_king_step), "{fen}");
        match board.checkers().popcnt() {
            0 => {
                assert_eq!(has_unpinned_piece_move(board), listed(is_unpinned_piece_move), "{fen}")
            }
            1 => assert_eq!(
                has_piece_answer_to_check(board),
                listed(is_unpinned_piece_move),
                "{fen}"
            ),
            _ => (),
        }
    }

    /// The quick tests agree with generating the moves, on positions with pins, checks, double
    /// checks, blocks by a pawn's double step, en passant, stalemates, mates and pawns on the
    /// edge files, and every position two plies from them.
    #[test]
    fn quick_tests_agree_with_movegen() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
            "4k3/4r3/8/8/4B3/8/4P3/4K3 w - - 0 1",
            "8/8/8/8/8/5k2/5p2/5K2 w - - 0 1",
            "3qk3/8/8/b7/8/8/3P4/4K3 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "k7/8/8/8/p7/7p/7P/7K w - - 0 1",
            "k7/p7/P7/7P/8/8/8/7K b - - 0 1",
            "7k/8/8/8/8/p6p/P6P/7K w - - 0 1",
            "4k3/8/8/8/1pP5/8/8/4K3 b - c3 0 1",
            "k7/8/8/8/p7/Pp6/RP6/BK6 w - - 0 1",
            "k7/8/8/8/p7/Pp6/QP6/BK6 w - - 0 1",
            "k7/8/8/8/8/1P6/2P5/N1K5 w - - 0 1",
            "n1k5/2p5/1p6/8/8/8/8/K7 b - - 0 1",
            "4k3/8/8/8/4r3/8/3P1P2/1N2K2B w - - 0 1",
            "4k3/8/8/8/r6K/8/4P3/8 w - - 0 1",
            "4k3/8/8/8/8/3n4/4P3/4K3 w - - 0 1",
            "4k3/3p4/8/7B/8/8/8/4K2R b - - 0 1",
            "4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1",
            "8/8/8/3k4/8/2n1K3/8/8 w - - 0 1",
        ];
        for fen in fens {
            let board = Board::from_str(fen).unwrap();
            check_against_movegen(&board);
            for first in MoveGen::new_legal(&board) {
                let next = board.make_move_new(first);
                check_against_movegen(&next);
                for second in MoveGen::new_legal(&next) {
                    check_against_movegen(&next.make_move_new(second));
                }
            }
        }
    }
}
