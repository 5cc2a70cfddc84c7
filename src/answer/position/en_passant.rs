//! En passant: which captures are available now, and for one that is not, why — the pawn came
//! one square at a time, or made its two-square advance earlier than the last move (3.7.3.1,
//! 3.7.3.2) — read from the game's history.

use shakmaty::{Color, Position, Rank, Role, Square};

use super::{PositionAsk, PositionRuling, Ruled, sentence, side_name};
use crate::answer::actors::subject;
use crate::answer::claims::{ClaimSubject, Side};
use crate::answer::intent::Topic;
use crate::rules::describe::color_name;

pub struct EnPassant;

impl PositionRuling for EnPassant {
    fn topic(&self) -> &'static str {
        "en_passant"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::EnPassant
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let info = &ask.report.en_passant_info;
        let candidates = candidates(ask);
        // A piece move the question names ("… 10. Bxd7+ …" in a quoted game) is not the
        // capture asked about: only a pawn can capture en passant.
        let tested = ask.tested_move.as_deref().filter(|mv| pawn_shaped(mv));
        let asked: Vec<&Candidate> = match tested {
            Some(mv) => candidates.iter().filter(|c| c.fits(mv)).collect(),
            None => candidates.iter().collect(),
        };
        let capturer =
            subject(&ask.lower, &["take", "capture"]).and_then(|a| ask.actors.side_of(&a));
        let wrong_side = capturer.is_some_and(|s| s != ask.mover());
        // The pawn did just advance two squares and the asked capture is refused only because it
        // would leave the capturer's king in check: 3.9.2 decides that, before the en passant
        // articles.
        let exposes_king = !wrong_side
            && info.articles.contains(&"3.9.2")
            && asked
                .iter()
                .any(|c| info.target.as_deref() == Some(&c.target.to_string()));
        let mut ruled = match (tested, asked.is_empty()) {
            _ if wrong_side => not_on_move(ask),
            (Some(mv), true) => named_move(ask, mv),
            (_, false) => candidates_ruling(ask, &asked),
            (None, true) => Ruled::new(format!(
                "No en passant capture is possible now: {}",
                info.reason
            )),
        };
        // Every capture available now is stated, so each gets its claim.
        for san in &info.captures_san {
            ruled.claim(ask.claim(ClaimSubject::EnPassant { mv: san.clone() }));
        }
        // The claim the decision rests on leads: an available capture after "Yes".
        let yes = ruled.decision.starts_with("Yes");
        ruled
            .claims
            .sort_by_key(|c| c.value != serde_json::Value::Bool(yes));
        ruled.marks.extend(info.target.iter().cloned());
        if exposes_king {
            ruled.cite(["3.9.2"]);
        }
        ruled.cite(["3.7.3.1", "3.7.3.2"]);
        ruled
    }
}

/// Whether a move as written could be a pawn's ("exd6", "e5d6", "d6"): it starts with a file
/// letter, where a piece move starts with the piece's capital ("Bxd7") and castling with "O".
fn pawn_shaped(mv: &str) -> bool {
    mv.trim_start()
        .starts_with(|c: char| ('a'..='h').contains(&c))
}

/// En passant asked for the side not on move: only the side to move may capture, and only on
/// this move.
fn not_on_move(ask: &PositionAsk) -> Ruled {
    let mover = ask.mover();
    Ruled::new(format!(
        "No: it is {}'s move, not {}'s, and an en passant capture can only be made by the side to move, on the move right after the enemy pawn's two-square advance (3.7.3.2). {}",
        side_name(mover),
        side_name(mover.other()),
        sentence(&ask.report.en_passant_info.reason)
    ))
}

/// A capture that would be en passant if the enemy pawn had just advanced two squares: a pawn
/// of the side to move on its fifth rank beside an enemy pawn, the square behind that empty.
struct Candidate {
    from: Square,
    /// The enemy pawn beside it.
    victim: Square,
    /// Where the capture would land.
    target: Square,
    /// As a player writes it: "exd6".
    san: String,
    legal: bool,
}

impl Candidate {
    /// Whether a move named in the question means this capture ("exd6", "e5xd6", "d6").
    fn fits(&self, mv: &str) -> bool {
        let m = mv
            .trim()
            .trim_end_matches(['+', '#', '!', '?'])
            .to_lowercase();
        let m = m.trim_end_matches("e.p.").trim_end_matches("ep").trim();
        let target = self.target.to_string();
        m == target
            || m == self.san
            || m == format!("{}{}", self.from, target)
            || m == format!("{}x{}", self.from, target)
    }

    /// Whether the question names this capture or the pawn it would take ("the d-pawn",
    /// "d5", "exd6").
    fn named_in(&self, ask: &PositionAsk) -> bool {
        let file = self.victim.file().char();
        ask.mentions(&[
            &format!("{file}-pawn"),
            &format!("{file} pawn"),
            &format!("{file}-file"),
            &self.victim.to_string(),
            &self.target.to_string(),
            &self.san,
        ])
    }
}

fn candidates(ask: &PositionAsk) -> Vec<Candidate> {
    let pos = ask.game.current();
    let us = pos.turn();
    let board = pos.board();
    let fifth = if us == Color::White {
        Rank::Fifth
    } else {
        Rank::Fourth
    };
    let behind = if us == Color::White {
        Rank::Sixth
    } else {
        Rank::Third
    };
    let mut out = Vec::new();
    for from in board.by_piece(us.pawn()) {
        if from.rank() != fifth {
            continue;
        }
        for file in [from.file().offset(-1), from.file().offset(1)]
            .into_iter()
            .flatten()
        {
            let victim = Square::from_coords(file, fifth);
            let target = Square::from_coords(file, behind);
            if board.piece_at(victim) != Some(us.other().pawn())
                || board.occupied().contains(target)
            {
                continue;
            }
            let san = format!("{}x{}", from.file().char(), target);
            let legal = pos
                .en_passant_moves()
                .into_iter()
                .any(|m| m.from() == Some(from) && m.to() == target);
            out.push(Candidate {
                from,
                victim,
                target,
                san,
                legal,
            });
        }
    }
    out
}

fn named_move(ask: &PositionAsk, mv: &str) -> Ruled {
    let c = ask.claim(ClaimSubject::EnPassant { mv: mv.to_string() });
    let yes = c.value == serde_json::Value::Bool(true);
    let info = &ask.report.en_passant_info;
    let mut ruled = Ruled::new(if yes {
        format!(
            "Yes: {mv} is a legal en passant capture now: {}",
            info.reason
        )
    } else {
        format!(
            "No: {mv} is not an en passant capture here: {}",
            info.reason
        )
    });
    ruled.claim(c);
    ruled
}

fn candidates_ruling(ask: &PositionAsk, asked: &[&Candidate]) -> Ruled {
    let info = &ask.report.en_passant_info;
    let (legal, not): (Vec<&&Candidate>, Vec<&&Candidate>) = asked.iter().partition(|c| c.legal);
    let mut ruled = if legal.is_empty() {
        let names: Vec<String> = not.iter().map(|c| c.san.clone()).collect();
        Ruled::new(format!(
            "No: {} is not allowed as an en passant capture now.",
            names.join(" or ")
        ))
    } else {
        Ruled::new(format!("Yes: {}", info.reason))
    };
    // Asked in general and a capture is there: a pawn that cannot be taken is news only when
    // the question names it.
    let general = !legal.is_empty() && ask.tested_move.is_none();
    for c in not.iter().filter(|c| !general || c.named_in(ask)) {
        ruled.detail.push(why_not(ask, c));
        ruled.claim(ask.claim(ClaimSubject::EnPassant { mv: c.san.clone() }));
        ruled
            .marks
            .extend([c.victim.to_string(), c.target.to_string()]);
    }
    ruled
}

/// Why a pawn beside ours cannot be taken en passant, from how it got there.
fn why_not(ask: &PositionAsk, c: &Candidate) -> String {
    let info = &ask.report.en_passant_info;
    if info.target.as_deref() == Some(&c.target.to_string()) {
        // It did just advance two squares: the capture is illegal for another reason.
        return sentence(&info.reason);
    }
    let them = ask.game.current().turn().other();
    let owner = side_name(Side::of(them));
    let arrivals: Vec<(usize, Square, Square)> = ask
        .game
        .plies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.color == them && p.m.role() == Role::Pawn)
        .filter_map(|(i, p)| Some((i, p.m.from()?, p.m.to())))
        .collect();
    let last = ask.game.plies.len();
    let Some(&(i, from, _)) = arrivals.iter().rev().find(|(_, _, to)| *to == c.victim) else {
        let why = match (ask.game.plies.is_empty(), info.target.as_deref()) {
            (false, _) => "it was already there when the moves given begin".to_string(),
            (true, None) => "the position given has no en passant square".to_string(),
            (true, Some(t)) => format!("the en passant square of the position given is {t}"),
        };
        return format!(
            "The {} pawn on {} did not just arrive with a two-square advance: {why}, so it cannot be taken en passant (3.7.3.1, 3.7.3.2).",
            color_name(them),
            c.victim,
        );
    };
    let ply = &ask.game.plies[i];
    let when = if i + 1 == last {
        "on the last move".to_string()
    } else {
        format!("on move {} {}", ply.number, ply.san)
    };
    if from.file() != c.victim.file() {
        return format!(
            "{owner}'s pawn reached {} by capturing ({when}), not with a two-square advance, so there is no en passant (3.7.3.1).",
            c.victim
        );
    }
    if from.rank().distance(c.victim.rank()) == 2 {
        return format!(
            "{owner}'s pawn advanced two squares to {} {when}, not on the last move: en passant must be played on the very next move or the right is gone (3.7.3.2).",
            c.victim
        );
    }
    format!(
        "{owner}'s pawn came to {} one square at a time ({from}-{} {when}), so it never passed {} with a two-square advance: en passant needs that advance on the last move (3.7.3.1).",
        c.victim, c.victim, c.target
    )
}
