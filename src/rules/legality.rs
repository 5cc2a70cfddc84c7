//! Why a move is illegal, in words a player understands, with the article that forbids it.
//!
//! shakmaty decides *whether* a move is legal; this module only explains a refusal. It walks
//! the candidates the notation could mean and reports the one that came closest to legal: no
//! such piece, the piece does not move that way (3.2–3.7), its path is blocked (3.5), or the
//! move would leave or put the king in check (3.9.2).

use serde::Serialize;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role,
    Square, attacks,
};

use super::castling::castling_status;
use super::describe::{color_name, movement_article, piece_on, pieces_on, role_name};
use crate::text::lower_first;

/// A refused move: the reason (completing "this move …" or standing alone) and its articles.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveRejection {
    pub reason: String,
    pub articles: Vec<String>,
    pub kind: RejectionKind,
}

/// What kind of refusal a [`MoveRejection`] is; serialized in `snake_case`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RejectionKind {
    /// The text cannot be read as a move (Appendix C).
    Notation,
    /// More than one piece can make the move as written (C.10).
    Ambiguous,
    /// The piece the move needs is not on the board, or its square is empty (3.1).
    NoPiece,
    /// The move fits the side not to move.
    NotYourTurn,
    /// The destination holds a piece of the mover's own side (3.1).
    OwnPiece,
    /// The piece does not move that way (3.2–3.7).
    WrongWay,
    /// The piece's path is blocked (3.5).
    Blocked,
    /// The move would leave or put the king in check (3.9.2).
    KingSafety,
    /// Castling is not allowed here (3.8.2).
    Castling,
    /// A pawn captures diagonally with nothing to capture, or en passant too late (3.7.3).
    EnPassant,
    /// An impossible promotion: to a king or pawn, by a piece, or missing (3.7.3.3).
    Promotion,
    /// The move is written as a capture but captures nothing.
    NotACapture,
}

impl RejectionKind {
    /// Whether the move is readable and fits a piece on the board but breaks a rule of play
    /// (Articles 3 and 7): the kind of move players dispute, as opposed to a typing slip.
    pub fn breaks_a_rule_of_play(self) -> bool {
        !matches!(
            self,
            RejectionKind::Notation
                | RejectionKind::Ambiguous
                | RejectionKind::NoPiece
                | RejectionKind::NotYourTurn
        )
    }
}

impl MoveRejection {
    pub fn notation(reason: String) -> MoveRejection {
        MoveRejection {
            reason,
            articles: vec!["C.1".into()],
            kind: RejectionKind::Notation,
        }
    }

    fn new(kind: RejectionKind, reason: String, articles: &[&str]) -> MoveRejection {
        MoveRejection {
            reason,
            articles: articles.iter().map(|a| a.to_string()).collect(),
            kind,
        }
    }
}

/// How far a candidate got towards legality; the furthest one explains the refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    WrongWay,
    Blocked,
    Special,
    KingSafety,
}

/// Explains why `san` is not a legal move in `pos`.
pub fn explain_illegal_san(pos: &Chess, san: &San, mode: CastlingMode) -> MoveRejection {
    match *san {
        San::Castle(side) => explain_castling(pos, side),
        San::Put { .. } | San::Null => MoveRejection::new(
            RejectionKind::Notation,
            "is not a chess move: pieces are never dropped and nobody may pass (1.2)".into(),
            &["1.2"],
        ),
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            let ours = pos.board().by_piece(role.of(pos.turn()));
            let candidates: Vec<Square> = ours
                .into_iter()
                .filter(|sq| {
                    file.is_none_or(|f| f == sq.file()) && rank.is_none_or(|r| r == sq.rank())
                })
                // A pawn move written without a capture stays on its file.
                .filter(|sq| role != Role::Pawn || capture || sq.file() == to.file())
                .collect();
            // No piece of ours could even reach the square (or one of ours stands on it), but
            // the other side's could: the move is the other side's, made out of turn.
            let reaches = |sq: Square| {
                role == Role::Pawn
                    || attacks::attacks(sq, role.of(pos.turn()), pos.board().occupied())
                        .contains(to)
            };
            let ours_on_target = pos.board().by_color(pos.turn()).contains(to);
            if (ours_on_target || !candidates.iter().any(|&sq| reaches(sq)))
                && let Some(r) = not_your_turn(pos, |p| san.to_move(p).is_ok(), mode)
            {
                return r;
            }
            if candidates.is_empty() {
                return MoveRejection::new(
                    RejectionKind::NoPiece,
                    format!(
                        "needs a {} {}{}, and there is none on the board",
                        color_name(pos.turn()),
                        role_name(role),
                        match (file, rank) {
                            (Some(f), None) => format!(" on the {}-file", f.char()),
                            (None, Some(r)) => format!(" on rank {}", r.char()),
                            (Some(f), Some(r)) => format!(" on {}{}", f.char(), r.char()),
                            _ => String::new(),
                        }
                    ),
                    &[movement_article(role)],
                );
            }
            explain_candidates(pos, role, &candidates, to, promotion, Some(capture))
        }
    }
}

/// Explains why `uci` is not a legal move in `pos`.
pub fn explain_illegal_uci(pos: &Chess, uci: &UciMove, mode: CastlingMode) -> MoveRejection {
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = *uci
    else {
        return MoveRejection::new(
            RejectionKind::Notation,
            "is not a chess move: pieces are never dropped and nobody may pass (1.2)".into(),
            &["1.2"],
        );
    };
    let board = pos.board();
    let Some(piece) = board.piece_at(from) else {
        return MoveRejection::new(
            RejectionKind::NoPiece,
            format!("starts on {from}, which is empty"),
            &["3.1"],
        );
    };
    if piece.color != pos.turn() {
        return MoveRejection::new(
            RejectionKind::NotYourTurn,
            format!(
                "moves {}, but it is {}'s move (1.2)",
                piece_on(board, from),
                color_name(pos.turn())
            ),
            &["1.2"],
        );
    }
    // A king going two squares sideways, or onto its own rook, is a castling attempt.
    if piece.role == Role::King && from.rank() == to.rank() {
        let onto_own_rook = board.piece_at(to) == Some(pos.turn().rook());
        if from.file().distance(to.file()) == 2 || onto_own_rook {
            let side = CastlingSide::from_king_side(to.file() > from.file());
            let castles = pos.castles();
            if mode == CastlingMode::Standard
                || onto_own_rook
                || castles.rook(pos.turn(), side).is_some()
            {
                return explain_castling(pos, side);
            }
        }
    }
    explain_candidates(pos, piece.role, &[from], to, promotion, None)
}

fn explain_castling(pos: &Chess, side: CastlingSide) -> MoveRejection {
    let status = castling_status(pos, pos.turn(), side, None);
    let reasons: Vec<String> = status.reasons.iter().map(|r| r.text.clone()).collect();
    let mut articles: Vec<String> = status
        .reasons
        .iter()
        .map(|r| r.article.to_string())
        .collect();
    articles.dedup();
    MoveRejection {
        reason: format!("is not allowed: {}", lower_first(&reasons.join(" "))),
        articles,
        kind: RejectionKind::Castling,
    }
}

/// The same position with `color` to move and no en passant capture open (a double step is
/// the other side's last move only in the position as given); `None` when that is no legal
/// position (the side not to move would be in check).
pub fn with_side_to_move(pos: &Chess, color: Color, mode: CastlingMode) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.turn = color;
    setup.ep_square = None;
    setup.position(mode).ok()
}

/// If the move fits the side *not* to move, say so.
fn not_your_turn(
    pos: &Chess,
    fits: impl Fn(&Chess) -> bool,
    mode: CastlingMode,
) -> Option<MoveRejection> {
    let swapped = with_side_to_move(pos, pos.turn().other(), mode)?;
    fits(&swapped).then(|| {
        MoveRejection::new(
            RejectionKind::NotYourTurn,
            format!(
                "would be a {} move, but it is {}'s turn: the players move alternately (1.2)",
                color_name(pos.turn().other()),
                color_name(pos.turn())
            ),
            &["1.2"],
        )
    })
}

fn explain_candidates(
    pos: &Chess,
    role: Role,
    candidates: &[Square],
    to: Square,
    promotion: Option<Role>,
    written_capture: Option<bool>,
) -> MoveRejection {
    let board = pos.board();
    let us = pos.turn();
    if board.color_at(to) == Some(us) {
        return MoveRejection::new(
            RejectionKind::OwnPiece,
            format!(
                "goes to {to}, where {} already stands: a piece never moves onto its own side's piece (3.1)",
                piece_on(board, to)
            ),
            &["3.1"],
        );
    }
    let mut best: Option<(Stage, MoveRejection)> = None;
    let mut consider = |stage: Stage, r: MoveRejection| {
        if best.as_ref().is_none_or(|(s, _)| stage > *s) {
            best = Some((stage, r));
        }
    };
    for &from in candidates {
        match try_candidate(pos, role, from, to, promotion, written_capture) {
            Ok(()) => {}
            Err((stage, r)) => consider(stage, r),
        }
    }
    best.map(|(_, r)| r).unwrap_or_else(|| {
        MoveRejection::new(
            RejectionKind::WrongWay,
            "is not legal in this position".into(),
            &["3.10.2"],
        )
    })
}

/// Tries the move from one candidate square: `Ok` when it is legal as written, otherwise how
/// far it got towards legality and why it stopped there.
fn try_candidate(
    pos: &Chess,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    written_capture: Option<bool>,
) -> Result<(), Refusal> {
    Candidate {
        pos,
        role,
        from,
        to,
        promotion,
        written_capture,
    }
    .try_move()
}

/// A candidate's refusal: the stage it reached, which ranks it against the other candidates,
/// and the explanation.
type Refusal = (Stage, MoveRejection);

/// A refusal at `stage`, in the shape every candidate stage returns.
fn refusal(stage: Stage, kind: RejectionKind, reason: String, articles: &[&str]) -> Refusal {
    (stage, MoveRejection::new(kind, reason, articles))
}

/// Which of a pawn's moves the destination square asks for (3.7).
#[derive(Debug, Clone, Copy)]
enum PawnStep {
    /// One square straight ahead (3.7.1).
    Single,
    /// Two squares straight ahead from the starting rank, over `skipped` (3.7.2).
    Double { skipped: Square },
    /// One square diagonally forward: a capture, perhaps en passant (3.7.3).
    Diagonal,
    /// Any other square, which a pawn can never reach.
    Elsewhere,
}

/// One square the move could start from, with everything the notation said about the move.
/// Its methods are the stages of legality, checked in order; the first that fails explains
/// the refusal.
struct Candidate<'a> {
    pos: &'a Chess,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    /// Whether the move was written as a capture; `None` for UCI, which does not say.
    written_capture: Option<bool>,
}

impl Candidate<'_> {
    /// Checks the way the piece moves and what stands in its way, then king safety, which is
    /// only worth asking about once the move is pseudo-legal.
    fn try_move(&self) -> Result<(), Refusal> {
        let en_passant = if self.role == Role::Pawn {
            self.pawn_path()?
        } else {
            self.piece_path()?;
            false
        };
        self.king_safety(en_passant)
    }

    /// The moving piece in words ("the white knight on g1"), built only for a refusal.
    fn piece(&self) -> String {
        piece_on(self.pos.board(), self.from)
    }

    /// The square offset of one step forward for the side to move's pawns.
    fn forward(&self) -> i32 {
        if self.pos.turn() == Color::White {
            8
        } else {
            -8
        }
    }

    /// Classifies the pawn move by its destination, so that each kind is judged by its own
    /// rule.
    fn pawn_step(&self) -> PawnStep {
        let forward = self.forward();
        let one = self.from.offset(forward);
        if Some(self.to) == one {
            PawnStep::Single
        } else if Some(self.to) == self.from.offset(2 * forward) {
            PawnStep::Double {
                skipped: one.expect("a square two ahead has a square one ahead"),
            }
        } else if attacks::pawn_attacks(self.pos.turn(), self.from).contains(self.to) {
            PawnStep::Diagonal
        } else {
            PawnStep::Elsewhere
        }
    }

    /// A pawn move up to king safety: the step itself, then the promotion it needs or may not
    /// have. `Ok(true)` when the move is an en passant capture, which the final check must
    /// play as one.
    fn pawn_path(&self) -> Result<bool, Refusal> {
        let en_passant = match self.pawn_step() {
            PawnStep::Single => {
                self.single_step()?;
                false
            }
            PawnStep::Double { skipped } => {
                self.double_step(skipped)?;
                false
            }
            PawnStep::Diagonal => self.diagonal_step()?,
            PawnStep::Elsewhere => {
                let (piece, to) = (self.piece(), self.to);
                return Err(refusal(
                    Stage::WrongWay,
                    RejectionKind::WrongWay,
                    format!(
                        "asks {piece} to go to {to}, which a pawn cannot reach: it moves straight ahead and captures one square diagonally forward (3.7)"
                    ),
                    &["3.7"],
                ));
            }
        };
        self.promotion_fits_rank()?;
        Ok(en_passant)
    }

    /// A pawn moves straight ahead only onto an empty square (3.7.1).
    fn single_step(&self) -> Result<(), Refusal> {
        let board = self.pos.board();
        if board.piece_at(self.to).is_none() {
            return Ok(());
        }
        let piece = self.piece();
        Err(refusal(
            Stage::Blocked,
            RejectionKind::Blocked,
            format!(
                "moves {piece} straight onto {}: pawns move forward only onto an empty square and capture diagonally (3.7.1)",
                piece_on(board, self.to)
            ),
            &["3.7.1"],
        ))
    }

    /// Two squares ahead only from the starting rank, and only over two empty squares (3.7.2).
    fn double_step(&self, skipped: Square) -> Result<(), Refusal> {
        let start_rank = self.pos.turn().relative_rank(shakmaty::Rank::Second);
        if self.from.rank() != start_rank {
            let piece = self.piece();
            return Err(refusal(
                Stage::WrongWay,
                RejectionKind::WrongWay,
                format!(
                    "advances {piece} two squares, which a pawn may do only from its starting square (3.7.2)"
                ),
                &["3.7.2"],
            ));
        }
        let board = self.pos.board();
        let block = (Bitboard::from(skipped) | Bitboard::from(self.to)) & board.occupied();
        if block.is_empty() {
            return Ok(());
        }
        let piece = self.piece();
        Err(refusal(
            Stage::Blocked,
            RejectionKind::Blocked,
            format!(
                "advances {piece} two squares, but {} is in the way: both squares must be empty (3.7.2)",
                pieces_on(board, block)
            ),
            &["3.7.2"],
        ))
    }

    /// A diagonal pawn step must capture: a piece on the square, or en passant past it.
    /// `Ok(true)` for an en passant capture. (An own piece there was refused before any
    /// candidate was tried.)
    fn diagonal_step(&self) -> Result<bool, Refusal> {
        let pos = self.pos;
        if pos.board().piece_at(self.to).is_some() {
            return Ok(false);
        }
        if pos.maybe_ep_square() == Some(self.to)
            || pos.ep_square(EnPassantMode::PseudoLegal) == Some(self.to)
        {
            return Ok(true);
        }
        Err(self.nothing_to_capture())
    }

    /// A diagonal step onto an empty square that is no en passant square: a late en passant
    /// when an enemy pawn stands behind it (3.7.3.1, 3.7.3.2), otherwise simply no capture.
    fn nothing_to_capture(&self) -> Refusal {
        let board = self.pos.board();
        let to = self.to;
        let their_pawn = self.pos.turn().other().pawn();
        let behind = to.offset(-self.forward());
        match behind.filter(|b| board.piece_at(*b) == Some(their_pawn)) {
            Some(b) => refusal(
                Stage::Special,
                RejectionKind::EnPassant,
                format!(
                    "captures en passant on {to}, but the pawn on {b} did not just advance two squares: that capture is allowed only on the very next move after the two-square advance (3.7.3.1, 3.7.3.2)"
                ),
                &["3.7.3.2", "3.7.3.1"],
            ),
            None => {
                let piece = self.piece();
                refusal(
                    Stage::Special,
                    RejectionKind::EnPassant,
                    format!(
                        "moves {piece} diagonally to {to}, where there is nothing to capture: a pawn moves diagonally only to capture (3.7.3)"
                    ),
                    &["3.7.3"],
                )
            }
        }
    }

    /// A pawn reaching the last rank must promote, to a queen, rook, bishop or knight, and
    /// no other pawn move promotes (3.7.3.3).
    fn promotion_fits_rank(&self) -> Result<(), Refusal> {
        let to = self.to;
        let last_rank = to.rank() == self.pos.turn().other().backrank();
        let reason = match (last_rank, self.promotion) {
            (true, None) => format!(
                "reaches {to} on the last rank without saying what the pawn becomes: it must be exchanged for a queen, rook, bishop or knight as part of the move (3.7.3.3), e.g. {to}=Q"
            ),
            (true, Some(Role::King | Role::Pawn)) => "promotes to a king or a pawn, which is never allowed: choose a queen, rook, bishop or knight (3.7.3.3)".into(),
            (false, Some(_)) => format!(
                "promotes on {to}, but only a pawn reaching the last rank is promoted (3.7.3.3)"
            ),
            _ => return Ok(()),
        };
        Err(refusal(
            Stage::Special,
            RejectionKind::Promotion,
            reason,
            &["3.7.3.3"],
        ))
    }

    /// A piece move up to king safety: only pawns promote, the piece must move along its own
    /// lines (3.2–3.6), and nothing may stand in between (3.5).
    fn piece_path(&self) -> Result<(), Refusal> {
        if self.promotion.is_some() {
            return Err(refusal(
                Stage::WrongWay,
                RejectionKind::Promotion,
                "asks a piece other than a pawn to promote (3.7.3.3)".into(),
                &["3.7.3.3"],
            ));
        }
        self.piece_reaches()?;
        self.piece_path_clear()
    }

    /// The destination must be on the piece's lines on an empty board. A king trying two
    /// squares sideways gets a hint, since that is castling written the wrong way.
    fn piece_reaches(&self) -> Result<(), Refusal> {
        let (role, from, to) = (self.role, self.from, self.to);
        let reach = attacks::attacks(from, role.of(self.pos.turn()), Bitboard::EMPTY);
        if reach.contains(to) {
            return Ok(());
        }
        let art = movement_article(role);
        let extra = if role == Role::King && from.distance(to) == 2 && from.rank() == to.rank() {
            " (castling is written O-O or O-O-O)"
        } else {
            ""
        };
        let piece = self.piece();
        Err(refusal(
            Stage::WrongWay,
            RejectionKind::WrongWay,
            format!(
                "asks {piece} to go to {to}, and a {} does not move that way ({art}){extra}",
                role_name(role)
            ),
            &[art],
        ))
    }

    /// Bishops, rooks and queens cannot jump over pieces (3.5); the knight can.
    fn piece_path_clear(&self) -> Result<(), Refusal> {
        let board = self.pos.board();
        let blockers = attacks::between(self.from, self.to) & board.occupied();
        if blockers.is_empty() || self.role == Role::Knight {
            return Ok(());
        }
        let (piece, to) = (self.piece(), self.to);
        Err(refusal(
            Stage::Blocked,
            RejectionKind::Blocked,
            format!(
                "moves {piece} to {to}, but {} is in the way: bishops, rooks and queens cannot jump over pieces (3.5)",
                pieces_on(board, blockers)
            ),
            &["3.5", movement_article(self.role)],
        ))
    }

    /// The move is pseudo-legal: it can only fail on king safety (3.9.2), or, when legal, on
    /// a capture sign written over an empty square.
    fn king_safety(&self, en_passant: bool) -> Result<(), Refusal> {
        let (from, to) = (self.from, self.to);
        let target = self.pos.board().piece_at(to);
        let m = if en_passant {
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role: self.role,
                from,
                capture: target.map(|p| p.role),
                to,
                promotion: self.promotion,
            }
        };
        if !self.pos.is_legal(m) {
            return Err(self.exposed_king(m));
        }
        if self.written_capture == Some(true) && target.is_none() && !en_passant {
            return Err(refusal(
                Stage::KingSafety,
                RejectionKind::NotACapture,
                format!("is written as a capture, but {to} is empty"),
                &["C.9"],
            ));
        }
        Ok(())
    }

    /// Why the pseudo-legal move `m` leaves the own king attacked: the king walks into check,
    /// the move does not parry a check, or the piece is pinned.
    fn exposed_king(&self, m: Move) -> Refusal {
        let board = self.pos.board();
        let us = self.pos.turn();
        let to = self.to;
        let mut after = self.pos.clone();
        after.play_unchecked(m);
        let king = if self.role == Role::King {
            to
        } else {
            board.king_of(us).unwrap_or(self.from)
        };
        let attackers = after
            .board()
            .attacks_to(king, us.other(), after.board().occupied());
        let checkers = self.pos.checkers();
        let reason = if self.role == Role::King {
            format!(
                "puts the king on {to}, where {} would attack it: a king may never move into check (3.9.2)",
                pieces_on(board, attackers)
            )
        } else if checkers.any() && (attackers & checkers).any() {
            let pinned = if checkers
                .into_iter()
                .any(|sq| super::mate::is_pinned(board, sq))
            {
                "; a pinned piece gives check all the same (3.9.1)"
            } else {
                ""
            };
            format!(
                "leaves the king in check from {}: when in check you must parry it (3.9.2){pinned}",
                pieces_on(board, checkers)
            )
        } else {
            format!(
                "would expose the {} king on {king} to {}: {} is pinned (3.9.2, 3.1.3)",
                color_name(us),
                pieces_on(board, attackers),
                self.piece()
            )
        };
        refusal(
            Stage::KingSafety,
            RejectionKind::KingSafety,
            reason,
            &["3.9.2", "1.4.1"],
        )
    }
}
