//! Castling: the *right* (lost for good when the king or that rook moves, 3.8.2.1) kept apart
//! from the momentary *prohibitions* (check, an attacked square on the king's path, a piece in
//! between, 3.8.2.2). The rook being attacked, or b1/b8 being attacked, never stops castling.

use serde::Serialize;
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, CastlingSide, Chess, Color, Position, Square};

use super::describe::{capitalised, color_name, piece_on, pieces_on, side_words};
use crate::text::capitalise_first;

/// One reason castling is (or is not) possible, in words and as data.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CastlingReason {
    pub code: CastlingCode,
    pub text: String,
    pub article: &'static str,
    /// Squares involved: blocking pieces, attacked squares.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub squares: Vec<String>,
    /// Squares of the attacking or blocking pieces.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<String>,
}

/// Which reason a [`CastlingReason`] gives; serialized in `snake_case`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CastlingCode {
    /// The king or that rook has moved: the right is gone for good (3.8.2.1).
    RightLost,
    /// The right is kept, but it is the other side's move (1.2).
    NotYourMove,
    /// The king is in check (3.8.2.2).
    InCheck,
    /// A piece stands between the king and the rook (3.8.2.2).
    Blocked,
    /// A square the king crosses or lands on is attacked (3.8.2.2).
    SquareAttacked,
    /// shakmaty refuses castling for a reason none of the others names (3.8.2).
    Other,
    /// Castling is legal now.
    Allowed,
}

/// The state of one castling option in the report.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CastlingStatus {
    pub right: bool,
    pub legal: bool,
    pub reasons: Vec<CastlingReason>,
}

/// Works out the right and the legality of castling for `color` on `side`.
///
/// `lost_by` describes the move that removed the right, when the history knows it
/// ("the king moved on move 12, Kf1").
pub fn castling_status(
    pos: &Chess,
    color: Color,
    side: CastlingSide,
    lost_by: Option<&str>,
) -> CastlingStatus {
    if !pos.castles().has(color, side) {
        // A lost right is the whole story: the momentary prohibitions no longer matter.
        return CastlingStatus {
            right: false,
            legal: false,
            reasons: vec![right_lost(color, side, lost_by)],
        };
    }
    let Some(option) = CastlingOption::new(pos, color, side) else {
        // A right without a king or a rook to use it cannot be explained any further.
        return CastlingStatus {
            right: true,
            legal: false,
            reasons: Vec::new(),
        };
    };
    let legal = pos.turn() == color && !pos.castling_moves(side).is_empty();
    // When castling is legal, the one reason given is that it is allowed; the prohibitions are
    // only worked out when there is a refusal to explain.
    let reasons = if legal {
        vec![option.allowed()]
    } else {
        option.prohibitions()
    };
    CastlingStatus {
        right: true,
        legal,
        reasons,
    }
}

/// The reason for a right that is gone for good (3.8.2.1), naming the move that lost it when
/// the history knows it.
fn right_lost(color: Color, side: CastlingSide, lost_by: Option<&str>) -> CastlingReason {
    let text = match lost_by {
        Some(how) => [
            capitalised(color),
            " has lost the right to castle ",
            side_words(side),
            " for good: ",
            how,
            " (3.8.2.1)",
        ]
        .concat(),
        None => [
            capitalised(color),
            " has no right to castle ",
            side_words(side),
            ": the position shows that the king or that rook \
             has already moved, and the right never comes back (3.8.2.1)",
        ]
        .concat(),
    };
    CastlingReason {
        code: CastlingCode::RightLost,
        text,
        article: "3.8.2.1",
        squares: vec![],
        pieces: vec![],
    }
}

/// The squares as strings, for the `squares` and `pieces` lists of a reason.
fn square_names(squares: Bitboard) -> Vec<String> {
    squares.into_iter().map(|s| s.to_string()).collect()
}

/// One castling option whose right is intact: the king, the rook and where both go, looked up
/// once so that each momentary prohibition (3.8.2.2) can be checked on its own.
struct CastlingOption<'a> {
    pos: &'a Chess,
    board: &'a Board,
    color: Color,
    side: CastlingSide,
    king: Square,
    rook: Square,
    king_to: Square,
    rook_to: Square,
}

impl<'a> CastlingOption<'a> {
    /// `None` when the side has the right but no king, or no rook recorded for that wing.
    fn new(pos: &'a Chess, color: Color, side: CastlingSide) -> Option<CastlingOption<'a>> {
        let board = pos.board();
        let king = board.king_of(color)?;
        let rook = pos.castles().rook(color, side)?;
        Some(CastlingOption {
            pos,
            board,
            color,
            side,
            king,
            rook,
            king_to: side.king_to(color),
            rook_to: side.rook_to(color),
        })
    }

    /// Every reason castling is not possible now, in the order a player would check them: whose
    /// move it is, pieces in between, check, then each attacked square on the king's path. When
    /// none applies, a catch-all reason, so that a refusal is never left unexplained.
    fn prohibitions(&self) -> Vec<CastlingReason> {
        let mut reasons: Vec<CastlingReason> =
            [self.not_your_move(), self.blocked(), self.in_check()]
                .into_iter()
                .flatten()
                .collect();
        self.push_attacked_path(&mut reasons);
        if reasons.is_empty() {
            reasons.push(self.other());
        }
        reasons
    }

    /// The right is kept while the opponent is to move; it just cannot be used yet (1.2).
    fn not_your_move(&self) -> Option<CastlingReason> {
        let turn = self.pos.turn();
        (turn != self.color).then(|| CastlingReason {
            code: CastlingCode::NotYourMove,
            text: [
                capitalised(self.color),
                " keeps the right, but it is ",
                color_name(turn),
                "'s move now (1.2)",
            ]
            .concat(),
            article: "1.2",
            squares: vec![],
            pieces: vec![],
        })
    }

    /// The squares the king crosses and lands on.
    fn king_path(&self) -> Bitboard {
        attacks::between(self.king, self.king_to) | Bitboard::from(self.king_to)
    }

    /// The squares the rook crosses and lands on.
    fn rook_path(&self) -> Bitboard {
        attacks::between(self.rook, self.rook_to) | Bitboard::from(self.rook_to)
    }

    /// Pieces standing between: every square the king or the rook passes or lands on must be
    /// empty, apart from the king and that rook themselves.
    fn blocked(&self) -> Option<CastlingReason> {
        let must_be_empty = (self.king_path() | self.rook_path())
            .without(self.king)
            .without(self.rook);
        let blockers = must_be_empty & self.board.occupied();
        blockers.any().then(|| CastlingReason {
            code: CastlingCode::Blocked,
            text: format!(
                "{} {} between the king and the rook; castling waits until the way is clear \
                 (3.8.2.2).",
                capitalise_first(&pieces_on(self.board, blockers)),
                if blockers.count() == 1 {
                    "stands"
                } else {
                    "stand"
                }
            ),
            article: "3.8.2.2",
            squares: square_names(blockers),
            pieces: square_names(blockers),
        })
    }

    /// The king may not castle out of check; the right itself survives the check (3.8.2.2).
    fn in_check(&self) -> Option<CastlingReason> {
        let checkers = self
            .board
            .attacks_to(self.king, self.color.other(), self.board.occupied());
        checkers.any().then(|| CastlingReason {
            code: CastlingCode::InCheck,
            text: format!(
                "the {} king is in check from {}: you cannot castle out of check (3.8.2.2). The \
                 right is not lost; it returns once the check is gone.",
                color_name(self.color),
                pieces_on(self.board, checkers)
            ),
            article: "3.8.2.2",
            squares: vec![self.king.to_string()],
            pieces: square_names(checkers),
        })
    }

    /// The king may not castle through or into check: one reason for each attacked square it
    /// would cross or land on. Only the king's squares count; an attacked rook does not.
    fn push_attacked_path(&self, reasons: &mut Vec<CastlingReason>) {
        let path = self.king_path().without(self.king);
        // The king leaves its square, and in Chess960 the castling rook may stand on the
        // king's path; both move away, so neither shields a square.
        let occupied = self.board.occupied().without(self.king).without(self.rook);
        for sq in path {
            let attackers = self.board.attacks_to(sq, self.color.other(), occupied);
            if attackers.any() {
                reasons.push(self.square_attacked(sq, attackers));
            }
        }
    }

    /// The reason for one attacked square on the king's path.
    fn square_attacked(&self, sq: Square, attackers: Bitboard) -> CastlingReason {
        let role = if sq == self.king_to {
            "lands on"
        } else {
            "must cross"
        };
        CastlingReason {
            code: CastlingCode::SquareAttacked,
            text: format!(
                "{} {} {}, the square the king {} (3.8.2.2). The right to castle is intact; \
                 it can be used once {} is safe.",
                capitalise_first(&pieces_on(self.board, attackers)),
                if attackers.count() == 1 {
                    "attacks"
                } else {
                    "attack"
                },
                sq,
                role,
                sq
            ),
            article: "3.8.2.2",
            squares: vec![sq.to_string()],
            pieces: square_names(attackers),
        }
    }

    /// A square only the rook crosses (b1 when castling long) that is attacked: players often
    /// believe it forbids castling; it does not, only the king's squares count (3.8.2.2).
    fn rook_only_square_attacked(&self) -> String {
        let king_squares = self.king_path() | Bitboard::from(self.king);
        (self.rook_path() & !king_squares)
            .into_iter()
            .find_map(|sq| {
                let by = self
                    .board
                    .attacks_to(sq, self.color.other(), self.board.occupied());
                by.any().then(|| {
                    format!(
                        "; {sq}, which only the rook crosses, is attacked by {}: that does not matter, \
                         only the king's squares count (3.8.2.2)",
                        pieces_on(self.board, by)
                    )
                })
            })
            .unwrap_or_default()
    }

    /// When shakmaty refuses castling for a reason none of the checks above names.
    fn other(&self) -> CastlingReason {
        CastlingReason {
            code: CastlingCode::Other,
            text: format!(
                "castling is not possible here ({})",
                piece_on(self.board, self.king)
            ),
            article: "3.8.2",
            squares: vec![],
            pieces: vec![],
        }
    }

    /// Castling is legal now. An attacked rook is mentioned, because players often believe it
    /// forbids castling; it does not (3.8.2.2).
    fn allowed(&self) -> CastlingReason {
        let rook_attacked =
            self.board
                .attacks_to(self.rook, self.color.other(), self.board.occupied());
        let mut note = if rook_attacked.any() {
            format!(
                "; the rook on {} is attacked by {}, which does not matter (3.8.2.2)",
                self.rook,
                pieces_on(self.board, rook_attacked)
            )
        } else {
            String::new()
        };
        note.push_str(&self.rook_only_square_attacked());
        CastlingReason {
            code: CastlingCode::Allowed,
            text: [
                capitalised(self.color),
                " may castle ",
                side_words(self.side),
                " now, it is legal: the right is intact, nothing stands between king and rook, \
                 and the king is not in check and crosses or lands on no attacked square",
                &note,
            ]
            .concat(),
            article: "3.8.2",
            squares: vec![],
            pieces: vec![],
        }
    }
}
