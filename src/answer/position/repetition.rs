//! Repetition: the threefold claim, now or by declaring a move (9.2.1, 9.2.2), the fivefold
//! rule (9.6.1), and — what players ask most — why a repetition they counted does not count:
//! the same pieces on the same squares are not the same position when castling rights or an
//! en passant capture differ (9.2.3).

use shakmaty::{CastlingSide, Chess, Color, Position};

use super::{PositionAsk, PositionRuling, Ruled, ended_by_mate_or_stalemate, side_name};
use crate::answer::actors::subject;
use crate::answer::claims::{ClaimSubject, Side};
use crate::answer::intent::Topic;
use crate::rules::Game;
use crate::rules::describe::{capitalised, side_words};
use crate::rules::notation::san_plus;
use crate::text::capitalise_first;

pub struct Repetition;

impl PositionRuling for Repetition {
    fn topic(&self) -> &'static str {
        "repetition"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::Repetition
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        if let Some(r) = ended_by_mate_or_stalemate(
            ask,
            "any repetition or move-count rule is applied (9.6.2)",
            ClaimSubject::Fivefold,
        ) {
            return r;
        }
        let mut ruled = if ask.mentions(&["fivefold", "five times", "5fold", "5-fold", "5 times"]) {
            fivefold(ask)
        } else {
            threefold(ask)
        };
        ruled.claim(ask.claim(ClaimSubject::ThreefoldClaim));
        ruled.claim(ask.claim(ClaimSubject::Fivefold));
        ruled.cite(ask.report.repetition.articles.iter().copied());
        ruled.tells_outcome = ask.report.repetition.fivefold;
        ruled.detail.extend(how_it_counted(ask));
        if let Some(note) = near_miss(ask) {
            ruled.detail.push(format!("{note} {SAME_POSITION}"));
            ruled.deciding.push("9.2.3".into());
        }
        let asked = subject(&ask.lower, &["claim", "repet", "threefold", "draw"])
            .map(|a| ask.actors.side_or_mover(Some(&a)));
        if asked.is_some_and(|s| s != ask.mover()) {
            ruled.detail.push(format!(
                "Only the player whose turn it is can claim (9.2.1); here that is {}.",
                side_name(ask.mover())
            ));
        }
        ruled
    }
}

fn fivefold(ask: &PositionAsk) -> Ruled {
    let r = &ask.report.repetition;
    let mut ruled = Ruled::new(if r.fivefold && ask.asks_to_play_on() {
        format!("No, the game is over: {}", r.reason)
    } else if r.fivefold {
        format!("Yes: {}", r.reason)
    } else {
        format!(
            "No: the position has occurred {} time{} so far; the game ends by itself only when the same position appears for the fifth time (9.6.1). {}",
            r.count,
            if r.count == 1 { "" } else { "s" },
            capitalise_first(&r.reason)
        )
    });
    ruled.deciding.push("9.6.1".into());
    ruled.claim(ask.claim(ClaimSubject::Fivefold));
    ruled
}

fn threefold(ask: &PositionAsk) -> Ruled {
    let r = &ask.report.repetition;
    let turn = capitalised(ask.game.current().turn());
    Ruled::new(if r.fivefold {
        format!("The game is already drawn: {}", r.reason)
    } else if r.threefold_now || !r.threefold_by_move.is_empty() {
        format!("Yes, {turn} can claim a draw: {}", r.reason)
    } else {
        format!("No threefold claim is available now: {}", r.reason)
    })
}

/// For a position that has occurred three times, what players doubt about the count: that
/// the position at the start counts, that the occurrences need not follow one another, and
/// that a two-square pawn advance beside an enemy pawn changes nothing when the en passant
/// capture was not legal (9.2, 9.2.3.1).
fn how_it_counted(ask: &PositionAsk) -> Vec<String> {
    let r = &ask.report.repetition;
    if !r.threefold_now {
        return Vec::new();
    }
    let mut notes = Vec::new();
    if r.plies.first() == Some(&0) {
        notes
            .push("The position at the start counts as an occurrence like any other (9.2).".into());
    }
    if r.plies.windows(2).any(|w| w[1] - w[0] != 4) {
        notes.push(
            "The occurrences need not be consecutive: other moves in between do not matter (9.2)."
                .into(),
        );
    }
    let positions: Vec<&Chess> = ask.game.positions().collect();
    for &ply in &r.plies {
        let Some(pos) = positions.get(ply) else {
            continue;
        };
        if let Some(note) = double_step_note(pos) {
            notes.push(format!("{} {note}", capitalise_first(&when(ask.game, ply))));
        }
    }
    notes
}

/// Why an occurrence right after a pawn's double step counts although the pawn could in
/// principle have been taken en passant: no capture was legal then, so the possible moves were
/// the same (9.2.3.1). `None` after any other move, or when the capture was legal.
fn double_step_note(pos: &Chess) -> Option<&'static str> {
    use shakmaty::EnPassantMode;
    pos.ep_square(EnPassantMode::Always)?;
    if pos.legal_ep_square().is_some() {
        return None;
    }
    Some(if pos.ep_square(EnPassantMode::PseudoLegal).is_some() {
        "the en passant capture was not legal (it would have left the capturer's king in check), so that position counts as the same position (9.2.3.1)."
    } else {
        "a pawn had just advanced two squares, but no pawn stood beside it to take it en passant, so that position counts as the same position (9.2.3.1)."
    })
}

/// Earlier positions with the same pieces on the same squares and the same side to move.
fn same_placement<'g>(game: &'g Game, pos: &Chess) -> Vec<(usize, &'g Chess)> {
    game.positions()
        .enumerate()
        .filter(|(_, p)| p.board() == pos.board() && p.turn() == pos.turn())
        .collect()
}

/// Why a placement seen three times (now, or after some move) is not a threefold repetition.
pub(super) fn near_miss(ask: &PositionAsk) -> Option<String> {
    let pos = ask.game.current();
    let now = same_placement(ask.game, pos);
    let identical = now.iter().filter(|(_, p)| *p == pos).count();
    if now.len() >= 3 && identical < 3 {
        let opening = format!(
            "The pieces have stood like this with {} to move {} times",
            capitalised(pos.turn()),
            now.len()
        );
        return Some(explain(ask.game, pos, &now, identical, opening));
    }
    if let Some(note) = other_side_to_move(ask.game, pos, now.len()) {
        return Some(note);
    }
    if ask.report.repetition.threefold_now || !ask.report.repetition.threefold_by_move.is_empty() {
        return earlier_near_miss(ask.game);
    }
    for m in pos.legal_moves() {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let seen = same_placement(ask.game, &after);
        let identical = seen.iter().filter(|(_, p)| **p == after).count() + 1;
        if seen.len() >= 2 && identical < 3 {
            let san = san_plus(pos, m);
            let opening = format!(
                "{san} would put the pieces on the same squares for the {} time",
                ordinal(seen.len() + 1)
            );
            return Some(explain(ask.game, &after, &seen, identical, opening));
        }
    }
    None
}

/// The pieces standing as now three times or more, some of them with the other side to move
/// ("after 16. Kg1" had Black to move): those are other positions (9.2.3).
fn other_side_to_move(game: &Game, pos: &Chess, same_side: usize) -> Option<String> {
    let others: Vec<String> = game
        .positions()
        .enumerate()
        .filter(|(_, p)| p.board() == pos.board() && p.turn() != pos.turn())
        .map(|(i, _)| when(game, i))
        .collect();
    (same_side < 3 && same_side + others.len() >= 3).then(|| {
        let which = match others.as_slice() {
            [one] => format!("the one {one} had"),
            _ => format!("those {} had", others.join(" and ")),
        };
        format!(
            "The pieces have stood like this {} times, but {which} {} to move, which is another position: the same player must have the move (9.2.3).",
            same_side + others.len(),
            capitalised(!pos.turn()),
        )
    })
}

/// What makes two positions the same, said once after the near misses.
pub(super) const SAME_POSITION: &str = "Positions are the same only with the same castling rights and the same en passant possibilities (9.2.3).";

/// The longest game [`earlier_near_miss`] compares every position of with every other.
const NEAR_MISS_PLIES: usize = 600;

/// The earlier placements, other than the current one, that stood on the board three times or
/// more without being the same position three times (at most three of them): the repetitions
/// players count wrongly when the claim that does hold rests on another position.
fn earlier_near_miss(game: &Game) -> Option<String> {
    if game.plies.len() > NEAR_MISS_PLIES {
        return None;
    }
    let current = game.current();
    let notes: Vec<String> = game
        .positions()
        .enumerate()
        .filter(|(_, p)| p.board() != current.board() || p.turn() != current.turn())
        .map(|(i, p)| (i, same_placement(game, p)))
        .filter(|(i, seen)| seen.first().is_some_and(|(first, _)| first == i))
        .filter_map(|(_, seen)| {
            let &(last_at, last) = seen.last()?;
            let identical = seen.iter().filter(|(_, q)| *q == last).count();
            (seen.len() >= 3 && identical < 3).then(|| {
                let opening = format!(
                    "The pieces also stood as {} {} times",
                    when(game, last_at),
                    number_word(seen.len())
                );
                explain(game, last, &seen, identical, opening)
            })
        })
        .take(3)
        .collect();
    (!notes.is_empty()).then(|| notes.join(" "))
}

fn number_word(n: usize) -> String {
    match n {
        3 => "three".into(),
        4 => "four".into(),
        5 => "five".into(),
        _ => n.to_string(),
    }
}

/// `opening` (where the pieces stood, and how often) and which of those occurrences differed
/// from `pos`, and how.
fn explain(
    game: &Game,
    pos: &Chess,
    seen: &[(usize, &Chess)],
    identical: usize,
    opening: String,
) -> String {
    let differences: Vec<String> = seen
        .iter()
        .filter(|(_, p)| *p != pos)
        .map(|(i, p)| format!("{} {}", when(game, *i), difference(p, pos)))
        .collect();
    format!(
        "{opening}, but only {identical} of those count as the same position: {}.",
        differences.join("; ")
    )
}

fn ordinal(n: usize) -> &'static str {
    match n {
        1 => "first",
        2 => "second",
        3 => "third",
        4 => "fourth",
        _ => "fifth",
    }
}

/// "at the start of the moves given", "after 12. Kf1".
fn when(game: &Game, index: usize) -> String {
    match index.checked_sub(1).and_then(|i| game.plies.get(i)) {
        None => "at the start".into(),
        Some(p) => format!("after {} {}", p.number, p.san),
    }
}

/// What differed between an earlier occurrence and this position: castling rights or e.p.
fn difference(then: &Chess, now: &Chess) -> String {
    let mut parts = Vec::new();
    for color in [Color::White, Color::Black] {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let (a, b) = (
                then.castles().has(color, side),
                now.castles().has(color, side),
            );
            if a != b {
                parts.push(format!(
                    "{} {} castle {}",
                    side_name(Side::of(color)),
                    if a { "could still" } else { "could not yet" },
                    side_words(side)
                ));
            }
        }
    }
    if then.legal_ep_square() != now.legal_ep_square() {
        parts.push(match then.legal_ep_square() {
            Some(sq) => format!("an en passant capture on {sq} was possible"),
            None => "no en passant capture was possible".into(),
        });
    }
    if parts.is_empty() {
        "the position differed".into()
    } else {
        parts.join(" and ")
    }
}
