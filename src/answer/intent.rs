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
        Regex::new(r"(?x)(?:^|[\s(,;:])(
            [KQRBN][a-h]?[1-8]?x?[a-h][1-8][+\#]?
          | [a-h]x[a-h][1-8](?:=?[QRBNqrbn])?(?:\s?e\.?p\.?)?[+\#]?
          | [a-h][18]=?[QRBN][+\#]?
          | [a-h][1-8][a-h][1-8][qrbn]?
          | [a-h][2-7]
        )(?:[\s?!.,;:)]|$)")
        .expect("valid regex")
    })
}

fn has(q: &str, words: &[&str]) -> bool {
    words.iter().any(|w| q.contains(w))
}

/// Reads a question (original text) into an intent.
pub fn understand(question: &str) -> Intent {
    let q = format!(" {} ", question.to_lowercase().replace(['’', '‘'], "'"));
    let castle_words = has(&q, &["castl", "o-o", "0-0", " castel", "casling"]);
    let mut mv = move_re().captures(question).map(|c| c[1].trim().to_string());
    // A bare pawn square ("e4") counts as a move only in a legality question.
    let legality_words = has(&q, &["legal", "allowed", "can i play", "can i move", "may i play", "is it possible to play", "can white play", "can black play", "illegal"]);
    if let Some(m) = &mv {
        if m.len() == 2 && !legality_words {
            mv = None;
        }
    }
    let topic = if has(&q, &["en passant", "e.p.", " ep ", "enpassant", "en passent", "passant"]) {
        Topic::EnPassant
    } else if castle_words {
        Topic::Castling
    } else if has(&q, &["flag", "time out", "timeout", "run out of time", "ran out of time", "runs out of time", "lose on time", "lost on time", "out of time", "my time ran", "time runs out"]) {
        Topic::Flag
    } else if has(&q, &["resign"]) {
        Topic::Resignation
    } else if has(&q, &["fivefold", "5fold", "5-fold", "threefold", "3fold", "3-fold", "three fold", "repetit", "repeat", "same position", "perpetual"]) {
        Topic::Repetition
    } else if has(&q, &["fifty", "50 move", "50-move", "50 moves", "seventy", "75 move", "75-move", "75 moves"]) {
        Topic::FiftyMoves
    } else if has(&q, &["dead position", "dead draw", "insufficient", "can anyone mate", "can anybody mate", "can either side mate", "mate possible", "possible to mate", "anyone still mate", "can still mate", "can't mate", "cannot mate", "dead"]) {
        Topic::DeadPosition
    } else if has(&q, &["stalemat", "stalmate", "no legal move"]) {
        Topic::Stalemate
    } else if has(&q, &["checkmat", "mate", "mated"]) {
        Topic::Checkmate
    } else if has(&q, &["promot", "queening", "underpromot", "queen my pawn", "=q", "=n", "=r", "=b"]) {
        Topic::Promotion
    } else if mv.is_some() && (legality_words || q.contains('?')) {
        Topic::MoveLegality
    } else if has(&q, &["in check", " check?", "check ", "checked"]) {
        Topic::Check
    } else {
        Topic::General
    };
    let side = if has(&q, &[" white ", "white's", "white?", "white,", " white."]) && !has(&q, &[" black ", "black's", "black?"]) {
        Some(Side::White)
    } else if has(&q, &[" black ", "black's", "black?", "black,", " black."]) && !has(&q, &[" white ", "white's", "white?"]) {
        Some(Side::Black)
    } else {
        None
    };
    let opponent = has(&q, &["opponent", "my rival", "the other player", "he flag", "she flag", "they flag", "his flag", "her flag", "their flag"]);
    let wing = if has(&q, &["queenside", "queen side", "queen's side", "long", "o-o-o", "0-0-0", "a-side"]) {
        Some(Wing::Queenside)
    } else if has(&q, &["kingside", "king side", "king's side", "short", "o-o", "0-0", "h-side"]) {
        Some(Wing::Kingside)
    } else {
        None
    };
    let needs_position = has(&q, &[" here", " this position", " now", " this game", " this ", "my position", " current", "right now"]) && topic != Topic::General;
    Intent { topic, side, opponent, wing, mv, needs_position }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_sides_wings_moves() {
        let i = understand("Can black castle long here?");
        assert_eq!((i.topic, i.side, i.wing), (Topic::Castling, Some(Side::Black), Some(Wing::Queenside)));
        let i = understand("Is Nxe5 legal?");
        assert_eq!((i.topic, i.mv.as_deref()), (Topic::MoveLegality, Some("Nxe5")));
        let i = understand("If my opponent flags now, do I win?");
        assert_eq!(i.topic, Topic::Flag);
        assert!(i.opponent);
        let i = understand("Can I take exd6 e.p.?");
        assert_eq!(i.topic, Topic::EnPassant);
        assert_eq!(understand("what is touch move").topic, Topic::General);
        assert_eq!(understand("Can I claim a draw by threefold repetition?").topic, Topic::Repetition);
    }
}
