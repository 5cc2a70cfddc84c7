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

/// A refused move: the reason (completing "this move …" or standing alone) and its articles.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveRejection {
    pub reason: String,
    pub articles: Vec<String>,
    /// `notation`, `ambiguous`, `no_piece`, `not_your_turn`, `own_piece`, `wrong_way`,
    /// `blocked`, `king_safety`, `castling`, `en_passant`, `promotion`, `not_a_capture`.
    pub kind: &'static str,
}

impl MoveRejection {
    pub fn notation(reason: String) -> MoveRejection {
        MoveRejection {
            reason,
            articles: vec!["C.1".into()],
            kind: "notation",
        }
    }

    fn new(kind: &'static str, reason: String, articles: &[&str]) -> MoveRejection {
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
            "notation",
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
            if candidates.is_empty() {
                if let Some(r) = not_your_turn(pos, |p| san.to_move(p).is_ok(), mode) {
                    return r;
                }
                return MoveRejection::new(
                    "no_piece",
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
            "notation",
            "is not a chess move: pieces are never dropped and nobody may pass (1.2)".into(),
            &["1.2"],
        );
    };
    let board = pos.board();
    let Some(piece) = board.piece_at(from) else {
        return MoveRejection::new(
            "no_piece",
            format!("starts on {from}, which is empty"),
            &["3.1"],
        );
    };
    if piece.color != pos.turn() {
        return MoveRejection::new(
            "not_your_turn",
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
        reason: format!("is not allowed: {}", reasons.join(" ")),
        articles,
        kind: "castling",
    }
}

/// If the move fits the side *not* to move, say so.
fn not_your_turn(
    pos: &Chess,
    fits: impl Fn(&Chess) -> bool,
    mode: CastlingMode,
) -> Option<MoveRejection> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.swap_turn();
    setup.ep_square = None;
    let swapped: Chess = setup.position(mode).ok()?;
    fits(&swapped).then(|| {
        MoveRejection::new(
            "not_your_turn",
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
            "own_piece",
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
            "wrong_way",
            "is not legal in this position".into(),
            &["3.10.2"],
        )
    })
}

fn try_candidate(
    pos: &Chess,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    written_capture: Option<bool>,
) -> Result<(), (Stage, MoveRejection)> {
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    let target = board.piece_at(to);
    let piece = piece_on(board, from);
    let art = movement_article(role);
    let mut en_passant = false;

    if role == Role::Pawn {
        let dir: i32 = if us == Color::White { 8 } else { -8 };
        let one = from.offset(dir);
        let two = from.offset(2 * dir);
        let start_rank = us.relative_rank(shakmaty::Rank::Second);
        if Some(to) == one {
            if target.is_some() {
                return Err((
                    Stage::Blocked,
                    MoveRejection::new(
                        "blocked",
                        format!(
                            "moves {piece} straight onto {}: pawns move forward only onto an empty square and capture diagonally (3.7.1)",
                            piece_on(board, to)
                        ),
                        &["3.7.1"],
                    ),
                ));
            }
        } else if Some(to) == two {
            if from.rank() != start_rank {
                return Err((
                    Stage::WrongWay,
                    MoveRejection::new(
                        "wrong_way",
                        format!(
                            "advances {piece} two squares, which a pawn may do only from its starting square (3.7.2)"
                        ),
                        &["3.7.2"],
                    ),
                ));
            }
            let between = Bitboard::from(one.expect("a pawn on its start rank has a square ahead"));
            if (between | Bitboard::from(to)).intersects(occupied) {
                let block = (between | Bitboard::from(to)) & occupied;
                return Err((
                    Stage::Blocked,
                    MoveRejection::new(
                        "blocked",
                        format!(
                            "advances {piece} two squares, but {} is in the way: both squares must be empty (3.7.2)",
                            pieces_on(board, block)
                        ),
                        &["3.7.2"],
                    ),
                ));
            }
        } else if attacks::pawn_attacks(us, from).contains(to) {
            if target.is_none() {
                if pos.maybe_ep_square() == Some(to)
                    || pos.ep_square(EnPassantMode::PseudoLegal) == Some(to)
                {
                    en_passant = true;
                } else {
                    let behind = to.offset(-dir);
                    let adjacent_pawn =
                        behind.filter(|b| board.piece_at(*b) == Some(us.other().pawn()));
                    let reason = match adjacent_pawn {
                        Some(b) => format!(
                            "captures en passant on {to}, but the pawn on {b} did not just advance two squares: that capture is allowed only on the very next move after the two-square advance (3.7.3.1, 3.7.3.2)"
                        ),
                        None => format!(
                            "moves {piece} diagonally to {to}, where there is nothing to capture: a pawn moves diagonally only to capture (3.7.3)"
                        ),
                    };
                    let arts: &[&str] = if adjacent_pawn.is_some() {
                        &["3.7.3.2", "3.7.3.1"]
                    } else {
                        &["3.7.3"]
                    };
                    return Err((
                        Stage::Special,
                        MoveRejection::new("en_passant", reason, arts),
                    ));
                }
            }
        } else {
            return Err((
                Stage::WrongWay,
                MoveRejection::new(
                    "wrong_way",
                    format!(
                        "asks {piece} to go to {to}, which a pawn cannot reach: it moves straight ahead and captures one square diagonally forward (3.7)"
                    ),
                    &["3.7"],
                ),
            ));
        }
        let last_rank = to.rank() == us.other().backrank();
        match (last_rank, promotion) {
            (true, None) => return Err((Stage::Special, MoveRejection::new("promotion", format!("reaches {to} on the last rank without saying what the pawn becomes: it must be exchanged for a queen, rook, bishop or knight as part of the move (3.7.3.3), e.g. {}=Q", to), &["3.7.3.3"]))),
            (true, Some(Role::King | Role::Pawn)) => return Err((Stage::Special, MoveRejection::new("promotion", "promotes to a king or a pawn, which is never allowed: choose a queen, rook, bishop or knight (3.7.3.3)".into(), &["3.7.3.3"]))),
            (false, Some(_)) => return Err((Stage::Special, MoveRejection::new("promotion", format!("promotes on {to}, but only a pawn reaching the last rank is promoted (3.7.3.3)"), &["3.7.3.3"]))),
            _ => {}
        }
    } else {
        if promotion.is_some() {
            return Err((
                Stage::WrongWay,
                MoveRejection::new(
                    "promotion",
                    "asks a piece other than a pawn to promote (3.7.3.3)".into(),
                    &["3.7.3.3"],
                ),
            ));
        }
        let reach = attacks::attacks(from, role.of(us), Bitboard::EMPTY);
        if !reach.contains(to) {
            let extra = if role == Role::King && from.distance(to) == 2 && from.rank() == to.rank()
            {
                " (castling is written O-O or O-O-O)".to_string()
            } else {
                String::new()
            };
            return Err((
                Stage::WrongWay,
                MoveRejection::new(
                    "wrong_way",
                    format!(
                        "asks {piece} to go to {to}, and a {} does not move that way ({art}){extra}",
                        role_name(role)
                    ),
                    &[art],
                ),
            ));
        }
        let blockers = attacks::between(from, to) & occupied;
        if blockers.any() && role != Role::Knight {
            return Err((
                Stage::Blocked,
                MoveRejection::new(
                    "blocked",
                    format!(
                        "moves {piece} to {to}, but {} is in the way: bishops, rooks and queens cannot jump over pieces (3.5)",
                        pieces_on(board, blockers)
                    ),
                    &["3.5", art],
                ),
            ));
        }
    }

    // The move is pseudo-legal: it can only fail on king safety (or written capture mismatch).
    let m = if en_passant {
        Move::EnPassant { from, to }
    } else {
        Move::Normal {
            role,
            from,
            capture: target.map(|p| p.role),
            to,
            promotion,
        }
    };
    if pos.is_legal(m) {
        if written_capture == Some(true) && target.is_none() && !en_passant {
            return Err((
                Stage::KingSafety,
                MoveRejection::new(
                    "not_a_capture",
                    format!("is written as a capture, but {to} is empty"),
                    &["C.9"],
                ),
            ));
        }
        return Ok(());
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let king = if role == Role::King {
        to
    } else {
        board.king_of(us).unwrap_or(from)
    };
    let attackers = after
        .board()
        .attacks_to(king, us.other(), after.board().occupied());
    let checkers = pos.checkers();
    let reason = if role == Role::King {
        format!(
            "puts the king on {to}, where {} would attack it: a king may never move into check (3.9.2)",
            pieces_on(board, attackers)
        )
    } else if checkers.any() && (attackers & checkers).any() {
        format!(
            "leaves the king in check from {}: when in check you must parry it (3.9.2)",
            pieces_on(board, checkers)
        )
    } else {
        format!(
            "would expose the {} king on {king} to {}: {piece} is pinned (3.9.2, 3.1.3)",
            color_name(us),
            pieces_on(board, attackers)
        )
    };
    Err((
        Stage::KingSafety,
        MoveRejection::new("king_safety", reason, &["3.9.2", "1.4.1"]),
    ))
}
