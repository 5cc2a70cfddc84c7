//! The position report: every verdict the checker can give on the current position of a game,
//! each with a reason in words and the article it rests on. The keys follow the contract in
//! ARCHITECTURE.md (`fen`, `turn`, `legal_moves`, `castling`, `en_passant`, `repetition`,
//! `fifty_moves`, `dead_position`, `flag`, `outcome`, …).

use std::collections::HashMap;

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position};

use super::castling::{CastlingStatus, castling_status};
use super::describe::{capitalised, color_name, pieces_on};
use super::game::{Game, position_identity};
use super::legality::MoveRejection;
use super::notation::{resolve_move, san_plus, san_plus_all, uci};
use super::winnability::{SanLine, SolverBudget, Verdict, Winnability, winnability_both};

/// Options for building a report.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    pub budget: SolverBudget,
    /// Skip the solver (dead position, flag, resignation become `null`).
    pub skip_solver: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub fen: String,
    pub turn: &'static str,
    pub fullmove: u32,
    pub in_check: bool,
    pub checkmate: bool,
    pub stalemate: bool,
    pub legal_moves: Vec<String>,
    pub legal_moves_san: Vec<String>,
    pub check: CheckInfo,
    pub castling: ByColorJson<Wings>,
    pub en_passant: Vec<String>,
    pub en_passant_info: EnPassantInfo,
    pub promotions: Vec<Promotion>,
    pub repetition: Repetition,
    pub fifty_moves: FiftyMoves,
    pub dead_position: Option<bool>,
    pub dead_position_info: DeadPosition,
    pub flag: ByColorJson<Option<String>>,
    pub flag_info: ByColorJson<Ruling>,
    pub resignation: ByColorJson<Ruling>,
    pub outcome: Option<GameOutcome>,
    pub history: Vec<HistoryMove>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_check: Option<MoveCheck>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ByColorJson<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColorJson<T> {
    /// The same question asked of each side's value, e.g. the result out of each side's ruling.
    fn map<U>(&self, f: impl Fn(&T) -> U) -> ByColorJson<U> {
        ByColorJson {
            white: f(&self.white),
            black: f(&self.black),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Wings {
    pub kingside: CastlingStatus,
    pub queenside: CastlingStatus,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckInfo {
    pub checkers: Vec<String>,
    pub reason: String,
    pub article: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct EnPassantInfo {
    /// The square a pawn just skipped with a two-square advance, if any.
    pub target: Option<String>,
    pub captures_san: Vec<String>,
    pub reason: String,
    pub articles: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Promotion {
    pub from: String,
    pub to: String,
    pub choices: Vec<String>,
    pub article: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Repetition {
    /// How many times the current position has occurred (including now).
    pub count: usize,
    /// Plies after which it occurred (0 = the start position).
    pub plies: Vec<usize>,
    pub threefold_now: bool,
    pub threefold_by_move: Vec<String>,
    pub threefold_by_move_san: Vec<String>,
    pub fivefold: bool,
    pub reason: String,
    pub articles: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FiftyMoves {
    pub halfmove_clock: u32,
    pub claim_now: bool,
    pub claim_by_move: Vec<String>,
    pub claim_by_move_san: Vec<String>,
    pub seventy_five: bool,
    pub reason: String,
    pub articles: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeadPosition {
    pub white_can_mate: Option<bool>,
    pub black_can_mate: Option<bool>,
    /// A series of legal moves ending in mate by White / Black (SAN), as proof.
    pub white_helpmate: SanLine,
    pub black_helpmate: SanLine,
    pub reason: String,
    pub article: &'static str,
}

/// What happens if that side's flag falls (or that side resigns) now.
#[derive(Debug, Clone, Serialize)]
pub struct Ruling {
    pub result: Option<String>,
    pub reason: String,
    pub articles: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct GameOutcome {
    pub result: String,
    pub reason: String,
    pub article: &'static str,
    pub explanation: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistoryMove {
    pub ply: usize,
    pub number: String,
    pub san: String,
    pub uci: String,
}

/// `--move M`: is it legal here, and if not, why.
#[derive(Debug, Clone, Serialize)]
pub struct MoveCheck {
    pub input: String,
    pub legal: bool,
    pub san: Option<String>,
    pub uci: Option<String>,
    pub reason: String,
    pub articles: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejection: Option<MoveRejection>,
}

impl Report {
    /// Whether the move asked about was refused only because it is the other side's turn.
    pub fn move_refused_as_out_of_turn(&self) -> bool {
        self.move_check
            .as_ref()
            .and_then(|mc| mc.rejection.as_ref())
            .is_some_and(|r| r.kind == super::legality::RejectionKind::NotYourTurn)
    }
}

fn result_for_winner(winner: Color) -> String {
    match winner {
        Color::White => "1-0".into(),
        Color::Black => "0-1".into(),
    }
}

/// Builds the report for the game's current position.
///
/// The legal moves are written out once, in UCI and SAN, and shared by the repetition and
/// fifty-move checks; the solver's two verdicts are shared by the dead position, the outcome,
/// and the flag and resignation rulings.
pub fn check(game: &Game, move_text: Option<&str>, opts: CheckOptions) -> Report {
    let pos = game.current();
    let mode = game.mode;
    let legal = pos.legal_moves();
    let legal_moves: Vec<String> = legal.iter().map(|m| uci(*m, mode)).collect();
    let legal_moves_san = san_plus_all(pos, &legal);
    let checkers = pos.checkers();
    let in_check = checkers.any();
    let checkmate = in_check && legal.is_empty();
    let stalemate = !in_check && legal.is_empty();
    let ep_moves: Vec<Move> = pos.en_passant_moves().into_iter().collect();

    let notations = MoveNotations {
        uci: &legal_moves,
        san: &legal_moves_san,
    };
    let repetition = repetition(game, pos, &legal, &notations);
    let fifty_moves = fifty_moves(pos, &legal, &notations);

    // The solver: can each side still mate? With each side's helpmate line in SAN, which the
    // dead-position proof and the flag reasons share.
    let [white, black] = solver_verdicts(pos, mode, opts, checkmate);
    let dead_position = dead_position_verdict(&white.winnability, &black.winnability);
    let outcome = outcome(
        pos,
        checkmate,
        stalemate,
        &repetition,
        &fifty_moves,
        dead_position,
    );
    let flag_info = ByColorJson {
        white: flag_ruling(Color::White, &black, outcome.as_ref()),
        black: flag_ruling(Color::Black, &white, outcome.as_ref()),
    };
    let resignation = ByColorJson {
        white: resignation_ruling(Color::White, &black.winnability, outcome.as_ref()),
        black: resignation_ruling(Color::Black, &white.winnability, outcome.as_ref()),
    };

    Report {
        fen: fen_text(pos),
        turn: color_name(pos.turn()),
        fullmove: pos.fullmoves().get(),
        in_check,
        checkmate,
        stalemate,
        legal_moves,
        legal_moves_san,
        check: check_info(pos, checkers, checkmate, stalemate),
        castling: castling_report(game, pos),
        en_passant: ep_moves.iter().map(|m| uci(*m, mode)).collect(),
        en_passant_info: en_passant_info(pos, &ep_moves),
        promotions: promotions(&legal),
        repetition,
        fifty_moves,
        dead_position,
        dead_position_info: dead_position_info(dead_position, [white, black]),
        flag: flag_info.map(|ruling| ruling.result.clone()),
        flag_info,
        resignation,
        outcome,
        history: history(game),
        move_check: move_text.map(|text| check_move(game, pos, text)),
        warnings: game.warnings.clone(),
    }
}

/// The position's FEN (en passant square only when a capture there is legal), written straight
/// into a `String` by shakmaty's `append_to_string`: the same text as its `Display`, which goes
/// through a `Formatter` a character at a time.
fn fen_text(pos: &Chess) -> String {
    let mut text = String::with_capacity(96);
    Fen::from_position(pos, EnPassantMode::Legal).append_to_string(&mut text);
    text
}

/// Check, mate or stalemate of the side to move, in words, with the article that decides it.
fn check_info(pos: &Chess, checkers: Bitboard, checkmate: bool, stalemate: bool) -> CheckInfo {
    let turn = pos.turn();
    let board = pos.board();
    let reason = if checkmate {
        format!(
            "{} is checkmated by {}: in check with no legal move (5.1.1)",
            capitalised(turn),
            pieces_on(board, checkers)
        )
    } else if checkers.any() {
        format!(
            "{} is in check from {} and must parry it (3.9.1, 3.9.2)",
            capitalised(turn),
            pieces_on(board, checkers)
        )
    } else if stalemate {
        format!(
            "{} is not in check but has no legal move: stalemate (5.2.1)",
            capitalised(turn)
        )
    } else {
        [capitalised(turn), " is not in check"].concat()
    };
    let article = if checkmate {
        "5.1.1"
    } else if stalemate {
        "5.2.1"
    } else {
        "3.9.1"
    };
    CheckInfo {
        checkers: checkers.into_iter().map(|s| s.to_string()).collect(),
        reason,
        article,
    }
}

/// Castling for both sides on both wings, whoever is to move: a right can be lost or kept
/// by either side at any time, so the report always shows all four.
fn castling_report(game: &Game, pos: &Chess) -> ByColorJson<Wings> {
    ByColorJson {
        white: wings(game, pos, Color::White),
        black: wings(game, pos, Color::Black),
    }
}

/// One side's castling on each wing, naming the move that lost a right when the history
/// shows it.
fn wings(game: &Game, pos: &Chess, color: Color) -> Wings {
    let status = |side| castling_status(pos, color, side, game.right_lost_by(color, side));
    Wings {
        kingside: status(CastlingSide::KingSide),
        queenside: status(CastlingSide::QueenSide),
    }
}

/// The position is dead when neither side can mate, and alive as soon as one side can; while
/// either verdict is open and the other does not settle it, so is the answer.
fn dead_position_verdict(white: &Winnability, black: &Winnability) -> Option<bool> {
    match (white.decided(), black.decided()) {
        (Some(false), Some(false)) => Some(true),
        (Some(true), _) | (_, Some(true)) => Some(false),
        _ => None,
    }
}

/// What happens if `flagged`'s flag falls now (6.9): the opponent wins if they could still
/// mate by some series of legal moves (their helpmate line is quoted as proof), otherwise it
/// is a draw. Once the game is over, the flag changes nothing.
fn flag_ruling(flagged: Color, opponent: &Verdict, over: Option<&GameOutcome>) -> Ruling {
    let opp = flagged.other();
    if let Some(o) = over {
        // The contract never lets the flagged side win, so when the flagged side has already
        // won (it gave mate) the value is null and `outcome` carries the result.
        let flagged_won = o.result == result_for_winner(flagged);
        return Ruling {
            result: (!flagged_won).then(|| o.result.clone()),
            reason: [
                "the game is already over (",
                &o.reason,
                ": ",
                &o.result,
                "), so a flag falling now changes nothing (6.9)",
            ]
            .concat(),
            articles: vec!["6.9", o.article],
        };
    }
    match &opponent.winnability {
        Winnability::Winnable { .. } => Ruling {
            result: Some(result_for_winner(opp)),
            reason: {
                let example = if opponent.helpmate_san.is_empty() {
                    String::new()
                } else {
                    opponent.helpmate_san.short()
                };
                [
                    "if ",
                    color_name(flagged),
                    "'s flag falls, ",
                    color_name(opp),
                    " wins: ",
                    color_name(opp),
                    " could still checkmate by a series of legal moves",
                    if example.is_empty() {
                        ""
                    } else {
                        ", for example "
                    },
                    &example,
                    " (6.9)",
                ]
                .concat()
            },
            articles: vec!["6.9"],
        },
        Winnability::Unwinnable => Ruling {
            result: Some("1/2-1/2".into()),
            reason: [
                "if ",
                color_name(flagged),
                "'s flag falls, the game is drawn: ",
                color_name(opp),
                " cannot checkmate by any series of legal moves (6.9)",
            ]
            .concat(),
            articles: vec!["6.9"],
        },
        Winnability::Undetermined { why } => Ruling {
            result: None,
            reason: ["undetermined: ", why, " (6.9)"].concat(),
            articles: vec!["6.9"],
        },
    }
}

/// What happens if `resigner` resigns now (5.1.2): the opponent wins, unless the opponent
/// cannot mate by any series of legal moves, in which case the game stays drawn (new in
/// 2023). Once the game is over, resigning changes nothing.
fn resignation_ruling(
    resigner: Color,
    opponent: &Winnability,
    over: Option<&GameOutcome>,
) -> Ruling {
    let opp = resigner.other();
    if let Some(o) = over {
        return Ruling {
            result: Some(o.result.clone()),
            reason: [
                "the game is already over (",
                &o.reason,
                ": ",
                &o.result,
                "); resigning now changes nothing (5.1.2)",
            ]
            .concat(),
            articles: vec!["5.1.2", o.article],
        };
    }
    match opponent {
        Winnability::Winnable { .. } => Ruling {
            result: Some(result_for_winner(opp)),
            reason: [
                "if ",
                color_name(resigner),
                " resigns, ",
                color_name(opp),
                " wins (5.1.2)",
            ]
            .concat(),
            articles: vec!["5.1.2"],
        },
        Winnability::Unwinnable => Ruling {
            result: Some("1/2-1/2".into()),
            reason: [
                "if ",
                color_name(resigner),
                " resigns, the game is still drawn: ",
                color_name(opp),
                " cannot checkmate by any series of legal moves (5.1.2, new in 2023)",
            ]
            .concat(),
            articles: vec!["5.1.2"],
        },
        Winnability::Undetermined { why } => Ruling {
            result: None,
            reason: ["undetermined: ", why, " (5.1.2)"].concat(),
            articles: vec!["5.1.2"],
        },
    }
}

/// The moves played so far, numbered as on a scoresheet, in SAN and UCI.
fn history(game: &Game) -> Vec<HistoryMove> {
    game.plies
        .iter()
        .enumerate()
        .map(|(i, p)| HistoryMove {
            ply: i + 1,
            number: p.number.clone(),
            san: p.san.clone(),
            uci: p.uci.clone(),
        })
        .collect()
}

/// Both sides' verdicts: from the solver, or known without it after a mate, or "not asked".
fn solver_verdicts(
    pos: &Chess,
    mode: CastlingMode,
    opts: CheckOptions,
    checkmate: bool,
) -> [Verdict; 2] {
    let verdict = |winnability| Verdict {
        winnability,
        helpmate_san: SanLine::default(),
    };
    if checkmate {
        // The mating side has mated; the mated side cannot mate any more.
        return Color::ALL.map(|c| {
            verdict(if c == pos.turn() {
                Winnability::Unwinnable
            } else {
                Winnability::Winnable { helpmate: vec![] }
            })
        });
    }
    if opts.skip_solver {
        return Color::ALL.map(|_| {
            verdict(Winnability::Undetermined {
                why: "not asked".into(),
            })
        });
    }
    winnability_both(pos, mode, opts.budget)
}

/// The dead-position verdict explained, with each side's helpmate line (SAN) as the proof.
fn dead_position_info(dead_position: Option<bool>, [white, black]: [Verdict; 2]) -> DeadPosition {
    let white_can_mate = white.winnability.decided();
    let black_can_mate = black.winnability.decided();
    DeadPosition {
        white_can_mate,
        black_can_mate,
        white_helpmate: white.helpmate_san,
        black_helpmate: black.helpmate_san,
        reason: match dead_position {
            Some(true) => "neither side can checkmate by any series of legal moves: the position is dead and the game is drawn at once (5.2.2)".into(),
            Some(false) => {
                let who = match (white_can_mate, black_can_mate) {
                    (Some(true), Some(true)) => "both sides",
                    (Some(true), _) => "White",
                    _ => "Black",
                };
                format!("not a dead position: {who} can still checkmate by some series of legal moves (5.2.2)")
            }
            None => "not decided within the solver budget: whether the position is dead is left open (5.2.2)".into(),
        },
        article: "5.2.2",
    }
}

fn check_move(game: &Game, pos: &Chess, text: &str) -> MoveCheck {
    match resolve_move(pos, text, game.mode) {
        Ok(m) => {
            let san = san_plus(pos, m);
            let what = describe_legal_move(pos, m);
            MoveCheck {
                input: text.to_string(),
                legal: true,
                uci: Some(uci(m, game.mode)),
                reason: format!("{san} is legal: {what}"),
                articles: vec![article_for_move(m).to_string()],
                san: Some(san),
                rejection: None,
            }
        }
        Err(r) => MoveCheck {
            input: text.to_string(),
            legal: false,
            san: None,
            uci: None,
            reason: format!("{} {}", text.trim(), r.reason),
            articles: r.articles.clone(),
            rejection: Some(r),
        },
    }
}

/// The article that governs a legal move of this kind.
pub fn article_for_move(m: Move) -> &'static str {
    match m {
        Move::Castle { .. } => "3.8.2",
        Move::EnPassant { .. } => "3.7.3.1",
        Move::Normal {
            promotion: Some(_), ..
        } => "3.7.3.3",
        Move::Normal { role, .. } => super::describe::movement_article(role),
        Move::Put { .. } => "3.10.2",
    }
}

/// What a legal move does, in words.
pub fn describe_legal_move(pos: &Chess, m: Move) -> String {
    use super::describe::role_name;
    let mut parts = Vec::new();
    match m {
        Move::Castle { .. } => parts.push("castling: king and rook move together (3.8.2)".to_string()),
        Move::EnPassant { from, to } => parts.push(format!("the pawn on {from} captures en passant on {to}, removing the pawn that had just advanced two squares (3.7.3.1)")),
        Move::Normal { role, from, capture, to, promotion } => {
            let mut s = format!("the {} on {from} goes to {to}", role_name(role));
            if let Some(c) = capture {
                s.push_str(&format!(", capturing the {}", role_name(c)));
            }
            if let Some(p) = promotion {
                let comma = if capture.is_some() { "," } else { "" };
                s.push_str(&format!("{comma} and promotes to a {} (3.7.3.3)", role_name(p)));
            }
            parts.push(s);
        }
        Move::Put { .. } => {}
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        parts.push("it is checkmate (5.1.1)".into());
    } else if after.is_check() {
        parts.push("it gives check (3.9.1)".into());
    } else if after.is_stalemate() {
        parts.push("it stalemates the opponent (5.2.1)".into());
    }
    parts.join("; ")
}

/// " from the rook on h5": what would attack the capturing side's king once both pawns have
/// left their squares; empty when nothing would.
fn checker_after_en_passant(pos: &Chess, from: shakmaty::Square, to: shakmaty::Square) -> String {
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(Move::EnPassant { from, to });
    let board = after.board();
    let Some(king) = board.king_of(us) else {
        return String::new();
    };
    board
        .attacks_to(king, us.other(), board.occupied())
        .first()
        .and_then(|sq| board.piece_at(sq).map(|p| (sq, p.role)))
        .map_or_else(String::new, |(sq, role)| {
            format!(" from the {} on {sq}", super::describe::role_name(role))
        })
}

fn en_passant_info(pos: &Chess, ep_moves: &[Move]) -> EnPassantInfo {
    let target = pos.maybe_ep_square();
    let captures_san: Vec<String> = ep_moves.iter().map(|m| san_plus(pos, *m)).collect();
    let (reason, articles) = match (target, ep_moves.is_empty()) {
        (None, _) => (
            "no pawn has just advanced two squares, so there is no en passant capture now (3.7.3.1, 3.7.3.2)".to_string(),
            vec!["3.7.3.1", "3.7.3.2"],
        ),
        (Some(t), false) => (
            format!(
                "the pawn that just advanced two squares can be captured en passant on {t}: {} {} legal, but only on this move (3.7.3.1, 3.7.3.2)",
                captures_san.join(" or "),
                if captures_san.len() == 1 { "is" } else { "are" }
            ),
            vec!["3.7.3.1", "3.7.3.2"],
        ),
        (Some(t), true) => {
            // A pawn stands beside, but the capture is illegal (pinned or exposing the king), or none stands beside.
            let us = pos.turn();
            let beside = shakmaty::attacks::pawn_attacks(us.other(), t) & pos.board().by_piece(us.pawn());
            if beside.any() {
                let from = beside.first().expect("a pawn beside");
                (
                    format!("a pawn just advanced two squares past {t}, but capturing it en passant would expose the {} king to check{}, so it is not allowed (3.7.3.1, 3.9.2)", color_name(us), checker_after_en_passant(pos, from, t)),
                    vec!["3.7.3.1", "3.9.2"],
                )
            } else {
                (
                    format!("a pawn just advanced two squares past {t}, but no {} pawn stands beside it to capture en passant (3.7.3.1)", color_name(us)),
                    vec!["3.7.3.1"],
                )
            }
        }
    };
    EnPassantInfo {
        target: target.map(|t| t.to_string()),
        captures_san,
        reason,
        articles,
    }
}

fn promotions(legal: &shakmaty::MoveList) -> Vec<Promotion> {
    let mut out: Vec<Promotion> = Vec::new();
    for m in legal {
        if let Move::Normal {
            from,
            to,
            promotion: Some(p),
            ..
        } = *m
        {
            let choice = p.upper_char().to_string();
            match out
                .iter_mut()
                .find(|x| x.from == from.to_string() && x.to == to.to_string())
            {
                Some(existing) => existing.choices.push(choice),
                None => out.push(Promotion {
                    from: from.to_string(),
                    to: to.to_string(),
                    choices: vec![choice],
                    article: "3.7.3.3",
                }),
            }
        }
    }
    out
}

/// UCI and SAN of the legal moves, in `legal_moves()` order, written once per report.
struct MoveNotations<'a> {
    uci: &'a [String],
    san: &'a [String],
}

fn repetition(
    game: &Game,
    pos: &Chess,
    legal: &shakmaty::MoveList,
    notations: &MoveNotations,
) -> Repetition {
    // Index the game's positions by hash, then confirm with full FIDE equality.
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
    let positions: Vec<&Chess> = game.positions().collect();
    for (i, p) in positions.iter().enumerate() {
        by_hash.entry(position_identity(p)).or_default().push(i);
    }
    let occurrences = |p: &Chess| -> Vec<usize> {
        by_hash
            .get(&position_identity(p))
            .map(|v| v.iter().copied().filter(|&i| positions[i] == p).collect())
            .unwrap_or_default()
    };
    let plies = occurrences(pos);
    let count = plies.len();
    let mut threefold_by_move = Vec::new();
    let mut threefold_by_move_san = Vec::new();
    // A move can only bring about a third occurrence if some position already occurred twice.
    let any_twice = by_hash.values().any(|v| v.len() >= 2);
    for (i, m) in legal.iter().enumerate().filter(|_| any_twice) {
        let mut after = pos.clone();
        after.play_unchecked(*m);
        if occurrences(&after).len() >= 2 {
            threefold_by_move.push(notations.uci[i].clone());
            threefold_by_move_san.push(notations.san[i].clone());
        }
    }
    let threefold_now = count >= 3;
    let fivefold = count >= 5;
    let turn = capitalised(pos.turn());
    let reason = if fivefold {
        format!(
            "this position has now occurred {count} times: the game is drawn automatically (9.6.1)"
        )
    } else if threefold_now {
        format!(
            "this position has occurred {count} times (after plies {}): {turn}, having the move, may claim a draw (9.2.2)",
            join_nums(&plies)
        )
    } else if !threefold_by_move_san.is_empty() {
        format!(
            "{turn} may claim a draw by writing {} on the scoresheet and declaring it to the arbiter without playing it: that move would make the position occur for the third time (9.2.1)",
            threefold_by_move_san.join(" or ")
        )
    } else if count == 2 {
        format!(
            "this position has occurred twice (after plies {}); a third occurrence would allow a claim (9.2)",
            join_nums(&plies)
        )
    } else {
        "this position has not occurred before in the game given".into()
    };
    let articles = if fivefold {
        vec!["9.6.1", "9.2.3"]
    } else if threefold_now {
        vec!["9.2.2", "9.2.3"]
    } else if !threefold_by_move.is_empty() {
        vec!["9.2.1", "9.2.3"]
    } else {
        vec!["9.2", "9.2.3"]
    };
    Repetition {
        count,
        plies,
        threefold_now,
        threefold_by_move,
        threefold_by_move_san,
        fivefold,
        reason,
        articles,
    }
}

fn join_nums(v: &[usize]) -> String {
    v.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn fifty_moves(pos: &Chess, legal: &shakmaty::MoveList, notations: &MoveNotations) -> FiftyMoves {
    let clock = pos.halfmoves();
    let has_moves = !legal.is_empty();
    let claim_now = clock >= 100 && has_moves;
    let seventy_five = clock >= 150 && has_moves;
    let mut claim_by_move = Vec::new();
    let mut claim_by_move_san = Vec::new();
    if clock >= 99 {
        for (i, m) in legal.iter().enumerate() {
            if m.is_zeroing() {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(*m);
            if after.halfmoves() >= 100 && !after.legal_moves().is_empty() {
                claim_by_move.push(notations.uci[i].clone());
                claim_by_move_san.push(notations.san[i].clone());
            }
        }
    }
    let turn = capitalised(pos.turn());
    let full = clock / 2;
    let reason = if seventy_five {
        format!(
            "{clock} half-moves ({full} moves each) without a capture or pawn move: the game is drawn automatically (9.6.2)"
        )
    } else if claim_now {
        format!(
            "{clock} half-moves ({full} moves each) without a capture or pawn move: {turn}, having the move, may claim a draw (9.3.2)"
        )
    } else if !claim_by_move_san.is_empty() {
        format!(
            "{clock} half-moves without a capture or pawn move: {turn} may claim a draw by writing {} on the scoresheet and declaring it without playing it (9.3.1)",
            claim_by_move_san
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(" or ")
        )
    } else {
        format!(
            "{clock} half-moves since the last capture or pawn move; a claim needs 100 (fifty moves by each player) (9.3)"
        )
    };
    let articles = if seventy_five {
        vec!["9.6.2"]
    } else if claim_now {
        vec!["9.3.2"]
    } else if !claim_by_move.is_empty() {
        vec!["9.3.1"]
    } else {
        vec!["9.3"]
    };
    FiftyMoves {
        halfmove_clock: clock,
        claim_now,
        claim_by_move,
        claim_by_move_san,
        seventy_five,
        reason,
        articles,
    }
}

fn outcome(
    pos: &Chess,
    checkmate: bool,
    stalemate: bool,
    rep: &Repetition,
    fifty: &FiftyMoves,
    dead: Option<bool>,
) -> Option<GameOutcome> {
    let turn = pos.turn();
    if checkmate {
        return Some(GameOutcome {
            result: result_for_winner(turn.other()),
            reason: "checkmate".into(),
            article: "5.1.1",
            explanation: format!(
                "{} is checkmated: {} wins (5.1.1)",
                capitalised(turn),
                color_name(turn.other())
            ),
        });
    }
    if stalemate {
        return Some(GameOutcome {
            result: "1/2-1/2".into(),
            reason: "stalemate".into(),
            article: "5.2.1",
            explanation: format!(
                "{} has no legal move and is not in check: stalemate, a draw (5.2.1)",
                capitalised(turn)
            ),
        });
    }
    if rep.fivefold {
        return Some(GameOutcome {
            result: "1/2-1/2".into(),
            reason: "fivefold repetition".into(),
            article: "9.6.1",
            explanation: rep.reason.clone(),
        });
    }
    if fifty.seventy_five {
        return Some(GameOutcome {
            result: "1/2-1/2".into(),
            reason: "seventy-five moves".into(),
            article: "9.6.2",
            explanation: fifty.reason.clone(),
        });
    }
    if dead == Some(true) {
        return Some(GameOutcome { result: "1/2-1/2".into(), reason: "dead position".into(), article: "5.2.2", explanation: "neither side can checkmate by any series of legal moves: dead position, a draw (5.2.2)".into() });
    }
    None
}

/// A helpmate line short enough for a sentence; the full line stays in `dead_position_info`.
pub fn short_line(line: &[String]) -> String {
    if line.len() <= 12 {
        line.join(" ")
    } else {
        format!(
            "{} … {} ({} half-moves)",
            line[..6].join(" "),
            line[line.len() - 3..].join(" "),
            line.len()
        )
    }
}
