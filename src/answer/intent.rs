//! What is asked: the topic, the side, the wing and the move a question is about.

use std::sync::OnceLock;

use regex::Regex;

use super::claims::{Side, Wing};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    Castling,
    EnPassant,
    Promotion,
    MoveLegality,
    Checkmate,
    Stalemate,
    Check,
    DeadPosition,
    Flag,
    Resignation,
    Repetition,
    FiftyMoves,
    /// "Can I claim a draw?" without naming the grounds: repetition and fifty moves both.
    DrawClaim,
    /// Anything else: touch-move, penalties, clocks, conduct… answered from the rulebook.
    General,
}

impl Topic {
    pub fn name(self) -> &'static str {
        match self {
            Topic::Castling => "castling",
            Topic::EnPassant => "en_passant",
            Topic::Promotion => "promotion",
            Topic::MoveLegality => "move_legality",
            Topic::Checkmate => "checkmate",
            Topic::Stalemate => "stalemate",
            Topic::Check => "check",
            Topic::DeadPosition => "dead_position",
            Topic::Flag => "flag",
            Topic::Resignation => "resignation",
            Topic::Repetition => "repetition",
            Topic::FiftyMoves => "fifty_moves",
            Topic::DrawClaim => "draw_claim",
            Topic::General => "general",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Intent {
    pub topic: Topic,
    /// The side the question is about, when it says ("can black castle", "if white flags").
    pub side: Option<Side>,
    /// "my opponent": the side opposite the asker.
    pub opponent: bool,
    pub wing: Option<Wing>,
    /// A move named in the question ("is Nxe5 legal?").
    pub mv: Option<String>,
    /// The question depends on a position ("can I castle here?", "is this a draw?").
    pub needs_position: bool,
}

fn move_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?x)(?:^|[\s(,;:])(
            [KQRBN]?[a-h][1-8][-x][a-h][1-8](?:=?[QRBNqrbn])?[+\#]?
          | [KQRBN][a-h]?[1-8]?x?[a-h][1-8][+\#]?
          | [a-h]x[a-h][1-8](?:=?[QRBNqrbn])?(?:\s?e\.?p\.?)?[+\#]?
          | [a-h][18]=?[QRBNK][+\#]?
          | [a-h][1-8][a-h][1-8][qrbn]?
          | [a-h][2-7]
        )(?:[\s?!.,;:)]|$)",
        )
        .expect("valid regex")
    })
}

fn has(q: &str, words: &[&str]) -> bool {
    words.iter().any(|w| q.contains(w))
}

/// Questions whether a side can still mate at all ("can White checkmate?", "how can the white
/// king mate?"): the dead-position test answers them for each side.
pub(crate) const WHO_CAN_MATE: &[&str] = &[
    "can white mate",
    "can white checkmate",
    "can black mate",
    "can black checkmate",
    "how can white",
    "how can black",
    "how can the white",
    "how can the black",
    "possible to checkmate",
    "checkmate possible",
    "way to mate",
    "way to checkmate",
];

/// Topics chosen by their words alone, in the order they are tried.
const TOPIC_WORDS: &[(Topic, &[&str])] = &[
    (
        Topic::Repetition,
        &[
            "fivefold",
            "5fold",
            "5-fold",
            "threefold",
            "3fold",
            "3-fold",
            "three fold",
            "repetit",
            "repeat",
            "same position",
            "perpetual",
            "three times",
            "3 times",
        ],
    ),
    (
        Topic::FiftyMoves,
        &[
            "fifty",
            "50 move",
            "50-move",
            "50 moves",
            "seventy",
            "75 move",
            "75-move",
            "75 moves",
            "75th",
            "without a capture",
            "without capturing",
            "no capture or pawn",
            "no pawn move",
            "without a pawn move",
            "without moving a pawn",
        ],
    ),
    (
        Topic::EnPassant,
        &[
            "en passant",
            "e.p.",
            " ep ",
            "enpassant",
            "en passent",
            "passant",
            // The capture told without its name: a pawn that came two squares beside ours.
            "in passing",
            "two squares next to",
            "two squares beside",
            "2 squares next to",
            "2 squares beside",
            "jumped past my pawn",
            "pawn that just jumped past",
            "skipped past my pawn",
            "landed beside my",
            "landed next to my",
            "lands beside my",
            "lands next to my",
        ],
    ),
    (
        Topic::Castling,
        &["castl", "o-o", "0-0", " castel", "casling"],
    ),
    (
        Topic::Flag,
        &[
            "flag",
            "time out",
            "timeout",
            "run out of time",
            "ran out of time",
            "runs out of time",
            "lose on time",
            "lost on time",
            "out of time",
            "my time ran",
            "time ran out",
            "time had run out",
            "time expired",
            "clock ran out",
            "loses on time",
            "time runs out",
            "overstep",
            "timed out",
            "time-out",
        ],
    ),
    (Topic::Resignation, &["resign"]),
    (
        Topic::DeadPosition,
        &[
            "dead position",
            "dead draw",
            "insufficient",
            "can anyone mate",
            "can anybody mate",
            "can either side mate",
            "mate possible",
            "possible to mate",
            "anyone still mate",
            "can still mate",
            "can't mate",
            "cannot mate",
            "dead",
            "still win",
            "can he win",
            "can she win",
            "still checkmate",
            "mating material",
            "enough material",
            // A program's draw by material ("it autodraws K+N v K+B").
            "autodraw",
            "auto-draw",
            "auto draw",
        ],
    ),
    (Topic::DeadPosition, WHO_CAN_MATE),
    (Topic::Promotion, &["underpromot", "under-promot"]),
    (Topic::Stalemate, &["stalemat", "stalmate", "no legal move"]),
    (
        Topic::DrawClaim,
        &[
            "claim a draw",
            "claim the draw",
            "claim draw",
            "claim for a draw",
            "claim a tie",
            "draw claim",
            "claiming a draw",
            "claimed a draw",
            // Why a game given move by move was drawn: the grounds a claim rests on.
            "why was this a draw",
            "why was it a draw",
            "why is this a draw",
            "why is it a draw",
            "why was this drawn",
            "why was it drawn",
            "why was the game drawn",
            "why is this drawn",
            "why did it end in a draw",
            "why did the game end in a draw",
        ],
    ),
];

const LEGALITY_WORDS: &[&str] = &[
    "legal",
    "allowed",
    " play ",
    " play?",
    "can i move",
    "is it possible",
    "illegal",
    " push ",
];

/// Reads a question (original text) into an intent.
pub fn understand(question: &str) -> Intent {
    understand_lowered(question, &super::frame::lowered(question))
}

/// [`understand`], with the question already [lowered](super::frame::lowered) as `q`.
pub fn understand_lowered(question: &str, q: &str) -> Intent {
    let legality_words = has(q, LEGALITY_WORDS);
    let mv = pick_move(question, legality_words);
    let topic = topic_of(q, mv.as_deref(), legality_words);
    let needs_position = has(
        q,
        &[
            " here",
            " this position",
            " now",
            " this game",
            " this ",
            "my position",
            " current",
            "right now",
        ],
    ) && topic != Topic::General;
    Intent {
        topic,
        side: side_asked(q),
        opponent: has(
            q,
            &[
                "opponent",
                "my rival",
                "the other player",
                "he flag",
                "she flag",
                "they flag",
                "his flag",
                "her flag",
                "their flag",
            ],
        ),
        wing: wing_asked(q),
        mv,
        needs_position,
    }
}

/// The topic: by its words first, then by the move named and what is said about it.
fn topic_of(q: &str, mv: Option<&str>, legality_words: bool) -> Topic {
    if let Some((topic, _)) = TOPIC_WORDS.iter().find(|(_, words)| has(q, words)) {
        return *topic;
    }
    let promotion_move =
        mv.is_some_and(|m| m.contains('=') || m.ends_with(['Q', 'R', 'B', 'N', 'K']));
    if promotion_move && has(q, &["legal", "allowed", "promot", "can i"]) {
        Topic::MoveLegality
    } else if has(q, &["checkmat", "mate", "mated"]) {
        Topic::Checkmate
    } else if has(q, &["promot", "queening", "underpromot", "queen my pawn"]) {
        Topic::Promotion
    } else if mv.is_some() && (legality_words || q.contains('?')) {
        Topic::MoveLegality
    } else if has(q, &["in check", " check?", "check ", "checked"]) {
        Topic::Check
    } else {
        Topic::General
    }
}

/// The wing a castling question names, if just one.
fn wing_asked(q: &str) -> Option<Wing> {
    let long = has(
        q,
        &[
            "queenside",
            "queen side",
            "queen's side",
            "long",
            "o-o-o",
            "0-0-0",
            "a-side",
        ],
    );
    let short = has(
        q,
        &["kingside", "king side", "king's side", "short", "h-side"],
    ) || q.replace("o-o-o", "").contains("o-o")
        || q.replace("0-0-0", "").contains("0-0");
    // A back-rank square said to be attacked names its wing: "his bishop attacks b1" is about
    // castling long (a square a piece went to, "my king went to f1", does not).
    let (short, long) =
        if !(short || long) && has(q, &["attack", "cover", "control", "guard", "under fire"]) {
            back_rank_wings(q)
        } else {
            (short, long)
        };
    match (short, long) {
        (true, false) => Some(Wing::Kingside),
        (false, true) => Some(Wing::Queenside),
        _ => None,
    }
}

/// Whether the question names a back-rank square of the kingside (f1, g1, h1, f8, g8, h8) and
/// of the queenside (a1 to d1, a8 to d8).
fn back_rank_wings(q: &str) -> (bool, bool) {
    let mut short = false;
    let mut long = false;
    for w in q.split(|c: char| !c.is_ascii_alphanumeric()) {
        match w.as_bytes() {
            [b'f'..=b'h', b'1' | b'8'] => short = true,
            [b'a'..=b'd', b'1' | b'8'] => long = true,
            _ => {}
        }
    }
    (short, long)
}

/// The side a question is about when it names one as the actor ("can black castle", "if
/// white flags", "Black's king"), not merely mentions a piece's colour ("the black bishop").
fn side_asked(q: &str) -> Option<Side> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?x)
            \b(?:can|may|does|did|if|for|is|would|should|could|when|has)\s+(white|black)\b
          | \b(white|black)(?:'s)?\s+(?:can|may|castle|castles|castling|flag|flags|flagged|resign|resigns|to\s+move|to\s+play|claim|claims|wins|loses|lose|win|king\s+(?:moved|went|has|is\s+in)|time|clock|right)\b
          | \b(white|black)\s*\?")
        .expect("valid regex")
    });
    let found: Vec<&str> = re
        .captures_iter(q)
        .filter_map(|c| c.get(1).or(c.get(2)).or(c.get(3)).map(|m| m.as_str()))
        .collect();
    match (found.contains(&"white"), found.contains(&"black")) {
        (true, false) => Some(Side::White),
        (false, true) => Some(Side::Black),
        _ => None,
    }
}

/// The move a question is about: explicit notation (a piece letter, a capture, a promotion,
/// castling, UCI) beats a bare square; a bare square counts only after "play", "is", "push" or
/// before "legal"/"allowed"; among equals the last one mentioned wins.
fn pick_move(question: &str, legality_words: bool) -> Option<String> {
    let mut best: Option<(u8, String)> = None;
    for c in move_re().captures_iter(question) {
        let m = c.get(1).expect("group 1");
        let text = m.as_str().trim().to_string();
        let score = if text.len() > 2 {
            3
        } else {
            let before = question[..m.start()].to_lowercase();
            let after = question[m.end()..].to_lowercase();
            let introduced = ["play ", "is ", "push ", "move ", "move to ", "playing "]
                .iter()
                .any(|w| before.trim_end().ends_with(w.trim_end()));
            let judged = after.trim_start().starts_with("legal")
                || after.trim_start().starts_with("allowed")
                || after.trim_start().starts_with('?');
            if legality_words && (introduced || judged) {
                2
            } else {
                0
            }
        };
        if score > 0 && best.as_ref().is_none_or(|(s, _)| score >= *s) {
            best = Some((score, text));
        }
    }
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_sides_wings_moves() {
        let i = understand("Can black castle long here?");
        assert_eq!(
            (i.topic, i.side, i.wing),
            (Topic::Castling, Some(Side::Black), Some(Wing::Queenside))
        );
        let i = understand("the black king moves g7-g8 and puts itself in check");
        assert_eq!(i.mv.as_deref(), Some("g7-g8"));
        let i = understand("Is Nxe5 legal?");
        assert_eq!(
            (i.topic, i.mv.as_deref()),
            (Topic::MoveLegality, Some("Nxe5"))
        );
        let i = understand("If my opponent flags now, do I win?");
        assert_eq!(i.topic, Topic::Flag);
        assert!(i.opponent);
        let i = understand("Can I take exd6 e.p.?");
        assert_eq!(i.topic, Topic::EnPassant);
        // En passant told without its name.
        for told in [
            "He just pushed his pawn two squares next to mine. Can I take it?",
            "His pawn moved two squares and landed beside my pawn, can I capture it?",
            "Can I take the pawn that just jumped past mine?",
        ] {
            assert_eq!(understand(told).topic, Topic::EnPassant, "{told}");
        }
        assert_eq!(understand("what is touch move").topic, Topic::General);
        assert_eq!(
            understand("Can I claim a draw by threefold repetition?").topic,
            Topic::Repetition
        );
        assert_eq!(
            understand("The black bishop on c4 is pinned. Can I castle short?").side,
            None
        );
        assert_eq!(understand("Can I castle short? And long?").wing, None);
        assert_eq!(
            understand("He says I can't castle because his bishop attacks b1").wing,
            Some(Wing::Queenside)
        );
        assert_eq!(
            understand("can I castle if g1 is attacked?").wing,
            Some(Wing::Kingside)
        );
        assert_eq!(
            understand("castle short even though b1 is attacked?").wing,
            Some(Wing::Kingside)
        );
        assert_eq!(
            understand("My pawn is on e3. Is e5 legal?").mv.as_deref(),
            Some("e5")
        );
        assert_eq!(understand("Black's pawn just stepped d7-d6 next to my e5 pawn. Can I play exd6 en passant now?").mv.as_deref(), Some("exd6"));
        assert_eq!(
            understand("Is a8=K a legal move?").mv.as_deref(),
            Some("a8=K")
        );
    }
}
