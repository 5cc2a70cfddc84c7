//! Castling: the right to castle (lost for good, 3.8.2.1) and castling now (prevented for the
//! moment, 3.8.2.2), for the side the question asks about — which need not be the side to move.

use std::sync::LazyLock;

use regex::Regex;
use shakmaty::CastlingMode;

use super::{PositionAsk, PositionRuling, Ruled, lower_first, side_name};
use crate::answer::actors::{Actor, subject};
use crate::answer::claims::{ClaimSubject, Side, Wing, castling_status};
use crate::answer::intent::Topic;
use crate::answer::polarity::{
    asks_whether_someone_is_right, bare_yes_or_no, without_bare_yes_or_no,
};
use crate::rules::castling::{CastlingStatus, castling_status as status_in};
use crate::rules::legality::with_side_to_move;

pub struct Castling;

const VERBS: &[&str] = &["castl", "o-o", "0-0", "casling", "castel"];

impl PositionRuling for Castling {
    fn topic(&self) -> &'static str {
        "castling"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        ask.topic == Topic::Castling
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        let actor = subject(&ask.lower, VERBS);
        let side = ask.actors.side_or_mover(actor.as_ref());
        let wings = match ask.frame.intent.wing {
            Some(w) => vec![w],
            None => vec![Wing::Kingside, Wing::Queenside],
        };
        let mut ruled = Ruled::default();
        let mut parts = Vec::new();
        let first = castling_status(ask.report, side, wings[0]);
        for (i, &wing) in wings.iter().enumerate() {
            parts.push(if side == ask.mover() {
                to_move(ask, side, wing, (i > 0).then_some(first), &mut ruled)
            } else {
                not_to_move(ask, side, wing, &mut ruled)
            });
        }
        ruled.decision = merged(&parts).unwrap_or_else(|| joined(&parts));
        if let Some(moved) = reported_move(ask, side, &wings) {
            ruled.decision = moved.overruling(side, &ruled.decision);
            ruled.deciding.insert(0, "3.8.2.1".into());
        }
        if side == ask.mover() && (ask.report.in_check || ask.mentions(&["check"])) {
            ruled.claim(ask.claim(ClaimSubject::InCheck));
        }
        if ask.game.mode == CastlingMode::Chess960 {
            ruled.detail.push(
                "This is Chess960: castling puts king and rook on the same squares as in standard chess, and the same conditions apply (Guidelines II.3)."
                    .into(),
            );
        }
        ruled
    }
}

/// One sentence for both wings when they have the same answer for the same reason ("No: White
/// has lost the right to castle on both sides for good: the king moved…").
fn merged(parts: &[String]) -> Option<String> {
    let [short, long] = parts else {
        return None;
    };
    let plain = |s: &str| {
        s.replace(wing_words(Wing::Kingside), "")
            .replace(wing_words(Wing::Queenside), "")
    };
    (plain(short) == plain(long))
        .then(|| short.replace(wing_words(Wing::Kingside), "on both sides"))
}

/// The wings' sentences one after the other, the second without a bare "Yes:"/"No:" that
/// only repeats the first's ("No: … lost the right to castle short … No: … lost the right to
/// castle long …" says "No" once).
fn joined(parts: &[String]) -> String {
    let verdict = |s: &str| bare_yes_or_no(s).map(|(yes, _, _)| yes);
    match parts {
        [first, second] if verdict(first).is_some() && verdict(first) == verdict(second) => {
            format!("{first} {}", without_bare_yes_or_no(second))
        }
        _ => parts.join(" "),
    }
}

/// "short (O-O)" or "long (O-O-O)".
pub(super) fn wing_words(wing: Wing) -> &'static str {
    match wing {
        Wing::Kingside => "short (O-O)",
        Wing::Queenside => "long (O-O-O)",
    }
}

fn reasons_text(st: &CastlingStatus) -> String {
    st.reasons
        .iter()
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

fn cite_and_mark(ruled: &mut Ruled, st: &CastlingStatus) {
    for r in &st.reasons {
        ruled.marks.extend(r.squares.iter().cloned());
        ruled.marks.extend(r.pieces.iter().cloned());
        ruled.deciding.push(r.article.into());
    }
    if !st.right {
        ruled.deciding.insert(0, "3.8.2.1".into());
    } else if !st.legal {
        ruled.deciding.insert(0, "3.8.2.2".into());
    }
}

fn claims(ask: &PositionAsk, ruled: &mut Ruled, color: Side, wing: Wing) {
    ruled.claim(ask.claim(ClaimSubject::CastlingRight { color, wing }));
    ruled.claim(ask.claim(ClaimSubject::CastlingLegal { color, wing }));
}

/// The right is kept, but castling is prevented for the moment.
fn held_up(st: &CastlingStatus) -> bool {
    st.right && !st.legal
}

/// The side to move: castling now, or why not. `before`: the wing already answered; when it
/// too is held up for the moment, but for another reason, this one is said "…either" rather
/// than with the same opening clause again (for the same reason [`merged`] makes one sentence
/// of the two).
fn to_move(
    ask: &PositionAsk,
    side: Side,
    wing: Wing,
    before: Option<&CastlingStatus>,
    ruled: &mut Ruled,
) -> String {
    let st = castling_status(ask.report, side, wing);
    let name = side_name(side);
    let reason = reasons_text(st);
    // "He says I can't castle; is he right?": a bare yes or no would answer the claim, not
    // the castling, so the fact is stated without one.
    let verdict = match (asks_whether_someone_is_right(&ask.lower), st.legal) {
        (true, _) => "",
        (false, true) => "Yes: ",
        (false, false) => "No: ",
    };
    let sentence = if st.legal || !st.right {
        format!("{verdict}{}.", reason.trim_end_matches('.'))
    } else if before.is_some_and(|b| held_up(b) && reasons_text(b) != reason) {
        format!(
            "Castling {} is not possible now either: {}",
            wing_words(wing),
            lower_first(&reason)
        )
    } else {
        format!(
            "Not right now: {name} keeps the right to castle {}, but {}",
            wing_words(wing),
            lower_first(&reason)
        )
    };
    cite_and_mark(ruled, st);
    claims(ask, ruled, side, wing);
    sentence
}

/// The side not to move: the right, and whether castling would be possible on its turn if
/// the position stayed as it is.
fn not_to_move(ask: &PositionAsk, side: Side, wing: Wing, ruled: &mut Ruled) -> String {
    let st = castling_status(ask.report, side, wing);
    let name = side_name(side);
    let mover = side_name(ask.mover());
    claims(ask, ruled, side, wing);
    if !st.right {
        cite_and_mark(ruled, st);
        return format!("No: {}.", reasons_text(st).trim_end_matches('.'));
    }
    ruled.deciding.push("3.8.2.1".into());
    let now = format!(
        "Not now, since it is {mover}'s move; {name} keeps the right to castle {} (3.8.2.1)",
        wing_words(wing)
    );
    match on_turn_of(ask, side, wing) {
        Some(t) if t.legal => format!(
            "{now}, and if the position is the same when it is {name}'s turn, {name} may castle then."
        ),
        Some(t) => {
            cite_and_mark(ruled, &t);
            format!(
                "{now}, but as the position stands {name} could not castle on its turn either: {}",
                lower_first(&reasons_text(&t))
            )
        }
        None => format!("{now}."),
    }
}

/// Castling for `side` in the same position with that side to move.
fn on_turn_of(ask: &PositionAsk, side: Side, wing: Wing) -> Option<CastlingStatus> {
    let flipped = with_side_to_move(ask.game.current(), side.color(), ask.game.mode)?;
    let cs = wing.castling_side();
    Some(status_in(
        &flipped,
        side.color(),
        cs,
        ask.game.right_lost_by(side.color(), cs),
    ))
}

/// A king or rook the question says moved earlier in the game: a FEN cannot show it (its
/// castling field is the asker's word too), so the right is lost for good whatever the field
/// says (3.8.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReportedMove {
    King,
    Rook(Option<Wing>),
}

impl ReportedMove {
    /// The decision for a right the FEN keeps but the asker's story has lost, the checker's
    /// reading of the position kept after it.
    fn overruling(self, side: Side, by_the_fen: &str) -> String {
        let name = side_name(side);
        let lost = match self {
            ReportedMove::King => format!(
                "No, if {name}'s king has already moved in this game: the right to castle is then lost for good on both sides, even if the king went back to its square (3.8.2.1)."
            ),
            ReportedMove::Rook(wing) => format!(
                "No, not with a rook that has already moved in this game: the right to castle{} with it is lost for good, even if it went back to its corner (3.8.2.1).",
                wing.map_or(String::new(), |w| format!(" {}", wing_words(w)))
            ),
        };
        format!(
            "{lost} The position as given still marks the right; read alone, it says: {}",
            lower_first(&without_bare_yes_or_no(by_the_fen))
        )
    }
}

/// Who moved what, as the question tells it: "my king went to f1 and came back", "he had
/// moved his h-rook", "the king has moved before". Negations ("has not moved", "never moved")
/// are not read; nor is a move that is only supposed ("if my king moves").
static MOVED: LazyLock<[Regex; 2]> = LazyLock::new(|| {
    let owner = r"(?P<owner>my|his|her|their|the|white's|black's|white|black)";
    let piece = r"(?P<piece>king|(?P<wing>[ah]-?|king-?side |queen-?side )?rook)";
    let verb = r"(?:moved|went|came back|returned|stepped|walked)";
    let story = format!(
        r"\b{owner}\s+{piece}\s+(?:(?:has|had|was|already|previously|earlier|once|before|been)\s+)*{verb}\b"
    );
    let deed =
        format!(r"\b(?:i|he|she|they|white|black) (?:had |has )?moved\s+{owner}\s+{piece}\b");
    [story, deed].map(|p| Regex::new(&p).expect("moved-piece regex"))
});

/// The reported move of `side`'s king or of a rook on an asked wing, when the position still
/// keeps a right the report takes away.
fn reported_move(ask: &PositionAsk, side: Side, wings: &[Wing]) -> Option<ReportedMove> {
    if !(ask.mentions(&[
        "moved",
        "went",
        "came back",
        "returned",
        "stepped",
        "walked",
    ])) {
        return None;
    }
    let caps = MOVED
        .iter()
        .flat_map(|re| re.captures_iter(&ask.lower))
        .find(|c| {
            let owner = match &c["owner"] {
                "my" => Some(Actor::Asker),
                "his" | "her" | "their" => Some(Actor::Opponent),
                "white" | "white's" => Some(Actor::White),
                "black" | "black's" => Some(Actor::Black),
                _ => None,
            };
            owner.is_none_or(|o| ask.actors.side_or_mover(Some(&o)) == side)
        })?;
    let moved = if &caps["piece"] == "king" {
        ReportedMove::King
    } else {
        ReportedMove::Rook(caps.name("wing").map(|w| match w.as_str().as_bytes()[0] {
            b'a' | b'q' => Wing::Queenside,
            _ => Wing::Kingside,
        }))
    };
    let keeps = |w: Wing| castling_status(ask.report, side, w).right;
    let kept = match moved {
        ReportedMove::King => wings.iter().any(|&w| keeps(w)),
        ReportedMove::Rook(Some(w)) => wings.contains(&w) && keeps(w),
        ReportedMove::Rook(None) => wings.len() == 1 && keeps(wings[0]),
    };
    kept.then_some(moved)
}
