//! Who a question names, read from its words alone: "I", "my opponent", "he"/"she", "White",
//! "Black", "the player with king and bishop", "the side to move"; the armies it describes ("I
//! have king and bishop", "his bare king"); and the actor a verb has ("if **his** flag falls").
//! The frame, the position answers and the flag verdict all read players through this module;
//! resolving an actor to a colour against a position is [`super::position::actors`]'s job.

use std::sync::OnceLock;

use regex::Regex;
use shakmaty::Role;

use super::claims::Side;

/// Who a question says acts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    Asker,
    Opponent,
    White,
    Black,
    /// "The player with king and bishop": the pieces named.
    Holding(Vec<PieceKind>),
    /// "The side to move", "the player whose clock runs".
    ToMove,
}

/// A kind of chess piece named in a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceKind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl PieceKind {
    /// The board's piece kind.
    pub fn role(self) -> Role {
        match self {
            PieceKind::King => Role::King,
            PieceKind::Queen => Role::Queen,
            PieceKind::Rook => Role::Rook,
            PieceKind::Bishop => Role::Bishop,
            PieceKind::Knight => Role::Knight,
            PieceKind::Pawn => Role::Pawn,
        }
    }
}

impl From<Role> for PieceKind {
    fn from(role: Role) -> PieceKind {
        match role {
            Role::King => PieceKind::King,
            Role::Queen => PieceKind::Queen,
            Role::Rook => PieceKind::Rook,
            Role::Bishop => PieceKind::Bishop,
            Role::Knight => PieceKind::Knight,
            Role::Pawn => PieceKind::Pawn,
        }
    }
}

/// Words that name the side to move as the actor ("the player to move", "whose clock").
pub const SIDE_TO_MOVE_PHRASES: [&str; 6] = [
    "side to move",
    "player to move",
    "player on move",
    "whose clock",
    "whose turn",
    "having the move",
];

/// The words of a flag falling: their subject is the player out of time ("if **his** flag
/// falls", "**White** ran out of time").
pub const FLAG_VERBS: &[&str] = &[
    "flag",
    "time out",
    "timeout",
    "timed out",
    "times out",
    "out of time",
    "lose on time",
    "lost on time",
    "loses on time",
    "time ran",
    "time runs out",
    "clock ran",
    "overstep",
];

/// The actor a word names, if it names one.
pub fn actor_word(word: &str) -> Option<Actor> {
    match word.trim_end_matches("'s") {
        "i" | "i'm" | "i've" | "i'd" | "my" | "me" => Some(Actor::Asker),
        "he" | "she" | "his" | "her" | "him" | "they" | "their" | "opponent" | "opponents" => {
            Some(Actor::Opponent)
        }
        "white" => Some(Actor::White),
        "black" => Some(Actor::Black),
        _ => None,
    }
}

/// The kind of piece a word names ("bishop", "knights").
pub fn piece_word(word: &str) -> Option<PieceKind> {
    Some(match word.trim_end_matches("es").trim_end_matches('s') {
        "king" => PieceKind::King,
        "queen" => PieceKind::Queen,
        "rook" => PieceKind::Rook,
        "bishop" | "bishop'" => PieceKind::Bishop,
        "knight" => PieceKind::Knight,
        "pawn" => PieceKind::Pawn,
        _ => return None,
    })
}

/// The piece kinds named at the start of `text` ("king, bishop and pawn vs…"), with whether
/// the list reads as a whole army ("bare king", "only…", followed by "vs", "left", "alone").
pub fn piece_list(text: &str) -> Option<(Vec<PieceKind>, bool)> {
    const FILLER: &[&str] = &[
        "a", "an", "one", "two", "three", "the", "single", "and", "plus", "&", "+", "with", "his",
        "her", "my",
    ];
    // "My king only goes to c1" says where it goes, not that the king is all there is.
    const ONLY_DOES: &[&str] = &[
        "goes", "go", "moves", "move", "moved", "went", "lands", "land", "crosses", "passes",
        "needs", "can", "could", "has", "had", "gets",
    ];
    let mut kinds = Vec::new();
    let mut whole = false;
    let mut words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '+' || c == '&'))
        .filter(|w| !w.is_empty())
        .peekable();
    while let Some(word) = words.next() {
        if FILLER.contains(&word) {
            continue;
        }
        if matches!(word, "bare" | "lone" | "alone" | "naked")
            || kinds.is_empty() && matches!(word, "only" | "just")
        {
            whole = true;
            continue;
        }
        if let Some(army) = material_shorthand(word) {
            for k in army {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            continue;
        }
        match piece_word(word) {
            Some(k) => {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            None => {
                let only_does =
                    word == "only" && words.peek().is_some_and(|w| ONLY_DOES.contains(w));
                whole |= !only_does
                    && matches!(word, "vs" | "v" | "versus" | "against" | "left" | "only");
                break;
            }
        }
    }
    (!kinds.is_empty()).then_some((kinds, whole))
}

/// An army in the endgame shorthand players write ("k+n", "kbn", "k+r+p"): a king and at
/// least one other piece letter, a `+` between them or not.
fn material_shorthand(word: &str) -> Option<Vec<PieceKind>> {
    piece_letters(word).filter(|kinds| kinds.len() > 1)
}

/// An army in piece letters, king first ("kn", "k+r", "kbn", "k"), lower case.
pub fn piece_letters(word: &str) -> Option<Vec<PieceKind>> {
    let letters: Vec<char> = word.chars().filter(|&c| c != '+').collect();
    if letters.first() != Some(&'k') || letters.len() > 6 {
        return None;
    }
    letters
        .iter()
        .map(|c| {
            Some(match c {
                'k' => PieceKind::King,
                'q' => PieceKind::Queen,
                'r' => PieceKind::Rook,
                'b' => PieceKind::Bishop,
                'n' => PieceKind::Knight,
                'p' => PieceKind::Pawn,
                _ => return None,
            })
        })
        .collect()
}

fn explicit_colour() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?x)
            \b(?P<me>i(?:'m|\s+am|\s+was)\s+(?:playing\s+)?(?:as\s+|with\s+)?(?:the\s+)?
               | i\s+(?:play|played|have|had)\s+(?:as\s+|with\s+)?(?:the\s+)?
               | (?:playing|play)\s+(?:as\s+|with\s+)?(?:the\s+)?
               | as\s+
               | i\s*\(\s*)
              (?P<mine>white|black)\b(?P<after>\s+\w+)?
          | \b(?:my\s+)?opponent\s+(?:(?:is|was|has|had|plays|played)\s+(?:playing\s+)?(?:as\s+|with\s+)?(?:the\s+)?|\(\s*)
              (?P<theirs>white|black)\b(?P<after2>\s+\w+)?",
        )
        .expect("valid regex")
    })
}

fn side_word(w: &str) -> Side {
    if w == "white" {
        Side::White
    } else {
        Side::Black
    }
}

/// A colour said outright for the asker.
pub fn named_asker(lower: &str) -> Option<Side> {
    for c in explicit_colour().captures_iter(lower) {
        let after = c
            .name("after")
            .or(c.name("after2"))
            .map(|m| m.as_str().trim());
        // "I have the black bishop" names a piece, not the asker's colour.
        if after.is_some_and(|w| piece_word(w).is_some()) {
            continue;
        }
        if let Some(m) = c.name("mine") {
            return Some(side_word(m.as_str()));
        }
        if let Some(m) = c.name("theirs") {
            return Some(side_word(m.as_str()).other());
        }
    }
    None
}

/// Where material is described, and for whom.
pub const ASKER_HOLDS: &[&str] = &[
    "i have ",
    "i had ",
    "i've got ",
    "i have got ",
    "i still have ",
    "i only have ",
    "i only had ",
    "i am left with ",
    "i'm left with ",
    "i was left with ",
    "i was down to ",
    "i'm down to ",
    "i am down to ",
    "i've only got ",
    "with my ",
    "only my ",
    "my ",
    "me: ",
    "i ran out of time with ",
    "i timed out with ",
    "i flagged with ",
    "i lost on time with ",
    "my flag fell with ",
    "i resigned with ",
    "i resigned when i had ",
];
pub const OPPONENT_HOLDS: &[&str] = &[
    "he has ",
    "she has ",
    "he had ",
    "she had ",
    "he's got ",
    "she's got ",
    "he only has ",
    "she only has ",
    "he only had ",
    "she only had ",
    "he still has ",
    "he still had ",
    "she still had ",
    "he was left with ",
    "she was left with ",
    "he was down to ",
    "she was down to ",
    "opponent has ",
    "opponent had ",
    "opponent only has ",
    "opponent only had ",
    "opponent still has ",
    "opponent still had ",
    "opponent was left with ",
    "opponent was down to ",
    "only his ",
    "only her ",
    "his ",
    "her ",
    "opponent's ",
    "opponent: ",
    // "I had K+B, my opponent K+B": the verb left out after the first army.
    "opponent ",
    "opponent, ",
    "he ran out of time with ",
    "she ran out of time with ",
    "he timed out with ",
    "she timed out with ",
    "he flagged with ",
    "she flagged with ",
    "opponent ran out of time with ",
    "opponent timed out with ",
    "opponent flagged with ",
    "his flag fell with ",
    "her flag fell with ",
    "he resigned with ",
    "she resigned with ",
    "opponent resigned with ",
    "he resigned when he had ",
    "she resigned when she had ",
    "opponent resigned when he had ",
    "opponent resigned when she had ",
];

/// Material said to belong to the asker or the opponent ("I have king and bishop", "vs his
/// bare king"); a possessive counts only when it reads as a whole army ("my king and bishop vs",
/// "his lone king"), not as one piece ("his king can't move").
pub fn holdings(lower: &str) -> Vec<(Actor, Vec<PieceKind>, bool)> {
    let starts = word_starts(lower);
    let mut out = Vec::new();
    for (actor, anchors) in [
        (Actor::Asker, ASKER_HOLDS),
        (Actor::Opponent, OPPONENT_HOLDS),
    ] {
        for anchor in anchors {
            let possessive = matches!(
                *anchor,
                "my " | "his " | "her " | "opponent's " | "with my "
            );
            for i in occurrences(lower, &starts, anchor) {
                let only_before = lower[..i].trim_end().ends_with("only");
                if let Some((kinds, whole)) = piece_list(&lower[i + anchor.len()..])
                    && (!possessive || whole || only_before)
                {
                    out.push((actor.clone(), kinds, whole || only_before));
                }
            }
        }
    }
    out
}

/// Where a word begins: every ASCII letter that does not follow one (each anchor of
/// [`holdings`] begins with a letter).
fn word_starts(lower: &str) -> Vec<usize> {
    let b = lower.as_bytes();
    (0..b.len())
        .filter(|&i| b[i].is_ascii_alphabetic() && (i == 0 || !b[i - 1].is_ascii_alphabetic()))
        .collect()
}

/// Where `anchor` (which begins with an ASCII letter and cannot overlap itself) occurs in
/// `lower` at the start of a word, in order: the occurrences `match_indices` gives that no
/// letter precedes, found without setting up a substring search for each anchor.
fn occurrences<'a>(
    lower: &'a str,
    starts: &'a [usize],
    anchor: &'a str,
) -> impl Iterator<Item = usize> + 'a {
    let (b, a) = (lower.as_bytes(), anchor.as_bytes());
    starts
        .iter()
        .copied()
        .filter(move |&i| b[i] == a[0] && b[i..].starts_with(a))
}

/// The pieces named after "the player with" / "the side with".
fn holding_subject(text: &str) -> Option<Vec<PieceKind>> {
    [
        "player with ",
        "side with ",
        "one with ",
        "player who has ",
        "side that has ",
    ]
    .iter()
    .find_map(|a| text.find(a).map(|i| i + a.len()))
    .and_then(|i| piece_list(&text[i..]))
    .map(|(k, _)| k)
}

/// The actor the verb of the question has: the last actor named before the first of `verbs`
/// in its sentence ("if **his** flag falls", "can **Black** castle", "the **player with king
/// and bishop** flagged"), or one named right after it ("castling for **Black**").
pub fn subject(lower: &str, verbs: &[&str]) -> Option<Actor> {
    // The verb of the question sentence, if one has it ("White castled. Can Black castle?").
    let mut found: Vec<usize> = verbs
        .iter()
        .flat_map(|v| lower.match_indices(v).map(|(i, _)| i))
        .collect();
    found.sort_unstable();
    let in_question = |i: &usize| {
        lower[*i..]
            .find(['.', '?', '!', ';', '\n'])
            .is_some_and(|end| lower[*i + end..].starts_with('?'))
    };
    let at = found
        .iter()
        .copied()
        .find(in_question)
        .or(found.first().copied())?;
    let start = lower[..at]
        .rfind(['.', '?', '!', ';', '\n'])
        .map_or(0, |i| i + 1);
    let before = &lower[start..at];
    if let Some(a) = last_actor(before) {
        return Some(a);
    }
    let end = lower[at..]
        .find(['.', '?', '!', ';', '\n'])
        .map_or(lower.len(), |i| at + i);
    let after = &lower[at..end];
    [" for ", " by ", " of "].iter().find_map(|p| {
        let i = after.find(p)? + p.len();
        first_word_actor(&after[i..])
    })
}

fn first_word_actor(text: &str) -> Option<Actor> {
    let mut ws = text.split_whitespace();
    let mut w = ws.next()?;
    if matches!(w, "the" | "my") {
        if w == "my" && ws.clone().next().is_some_and(|n| n.starts_with("opponent")) {
            return Some(Actor::Opponent);
        }
        w = ws.next()?;
    }
    actor_word(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        .filter(|_| ws.next().is_none_or(|n| piece_word(n).is_none()))
}

/// The last actor named in a stretch of text.
fn last_actor(text: &str) -> Option<Actor> {
    let mut best: Option<(usize, Actor)> = None;
    let mut consider = |at: usize, a: Actor| {
        if best.as_ref().is_none_or(|(b, _)| at >= *b) {
            best = Some((at, a));
        }
    };
    for phrase in SIDE_TO_MOVE_PHRASES {
        if let Some(i) = text.rfind(phrase) {
            consider(i, Actor::ToMove);
        }
    }
    if let Some(kinds) = holding_subject(text) {
        let at = [
            "player with",
            "side with",
            "one with",
            "player who",
            "side that",
        ]
        .iter()
        .filter_map(|p| text.rfind(p))
        .max()
        .unwrap_or(0);
        consider(at, Actor::Holding(kinds));
    }
    let words: Vec<(usize, &str)> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .scan(0usize, |pos, w| {
            let at = *pos;
            *pos += w.len() + 1;
            Some((at, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    for (i, (at, w)) in words.iter().enumerate() {
        let Some(a) = actor_word(w) else { continue };
        // "the black bishop" names a piece's colour, not who acts — unless the piece is the
        // one acting, right before the verb ("can the white king checkmate": the text ends at
        // the verb, here "check" of "checkmate" at most after the piece).
        let piece_follows = words
            .get(i + 1)
            .is_some_and(|(_, n)| piece_word(n).is_some());
        let piece_acts = i + 3 >= words.len();
        if matches!(a, Actor::White | Actor::Black)
            && piece_follows
            && !piece_acts
            && !w.ends_with("'s")
        {
            continue;
        }
        consider(*at, a);
    }
    best.map(|(_, a)| a)
}

/// Everyone a question names, each once, in a fixed order: the asker, the opponent, White,
/// Black, the holder of the pieces it describes first ("the player with king and bishop", "I
/// had king and bishop"), the side to move.
pub fn actors_in(lower: &str) -> Vec<Actor> {
    let named: Vec<Actor> = crate::text::words(lower).filter_map(actor_word).collect();
    let mut out: Vec<Actor> = [Actor::Asker, Actor::Opponent, Actor::White, Actor::Black]
        .into_iter()
        .filter(|a| named.contains(a))
        .collect();
    let held = holding_subject(lower).or_else(|| {
        holdings(lower)
            .into_iter()
            .next()
            .map(|(_, kinds, _)| kinds)
    });
    out.extend(held.map(Actor::Holding));
    if SIDE_TO_MOVE_PHRASES.iter().any(|p| lower.contains(p)) {
        out.push(Actor::ToMove);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`occurrences`] finds every occurrence, which is what `match_indices` finds only when
    /// no anchor can overlap itself (no proper prefix of it is also its suffix); each anchor
    /// begins with an ASCII letter.
    #[test]
    fn armies_in_endgame_shorthand() {
        use PieceKind::*;
        assert_eq!(
            piece_list("k+n, he has k+p"),
            Some((vec![King, Knight], false))
        );
        assert_eq!(
            piece_list("kbn vs k"),
            Some((vec![King, Bishop, Knight], true))
        );
        assert_eq!(piece_list("krp left"), Some((vec![King, Rook, Pawn], true)));
        assert_eq!(piece_list("king only"), Some((vec![King], true)));
        assert_eq!(
            piece_list("king only goes to c1"),
            Some((vec![King], false))
        );
        assert_eq!(piece_list("k"), None);
        assert_eq!(piece_list("kind of"), None);
        let h = holdings(" my opponent's flag fell. i have k+n, he has k+p. ");
        assert!(
            h.contains(&(Actor::Asker, vec![King, Knight], false)),
            "{h:?}"
        );
        assert!(
            h.contains(&(Actor::Opponent, vec![King, Pawn], false)),
            "{h:?}"
        );
    }

    #[test]
    fn holding_anchors_cannot_overlap_themselves() {
        for anchor in ASKER_HOLDS.iter().chain(OPPONENT_HOLDS) {
            assert!(anchor.as_bytes()[0].is_ascii_alphabetic(), "{anchor}");
            for k in 1..anchor.len() {
                assert!(!anchor.ends_with(&anchor[..k]), "{anchor}");
            }
        }
    }

    #[test]
    fn holdings_are_found_as_by_match_indices() {
        let by_match_indices = |lower: &str, anchor: &str| -> Vec<usize> {
            lower
                .match_indices(anchor)
                .map(|(i, _)| i)
                .filter(|&i| i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphabetic())
                .collect()
        };
        for lower in [
            "i have king and bishop, he has his lone king. this his my  my king",
            "é my king — only my rook; opponent's rook, opponent: king; me: rook",
            "myself hiss i've got i have got i still have",
            "",
        ] {
            let starts = word_starts(lower);
            for anchor in ASKER_HOLDS.iter().chain(OPPONENT_HOLDS) {
                let found: Vec<usize> = occurrences(lower, &starts, anchor).collect();
                assert_eq!(found, by_match_indices(lower, anchor), "{lower} / {anchor}");
            }
        }
    }

    #[test]
    fn a_coloured_piece_before_the_verb_is_its_side() {
        assert_eq!(
            subject(" how can the white king checkmate? ", &["mate"]),
            Some(Actor::White)
        );
        assert_eq!(
            subject(" the black bishop is on c4. can white mate? ", &["mate"]),
            Some(Actor::White)
        );
    }

    #[test]
    fn subjects() {
        assert_eq!(
            subject(" i ran out of time ", &["out of time"]),
            Some(Actor::Asker)
        );
        assert_eq!(subject(" his flag fell ", &["flag"]), Some(Actor::Opponent));
        assert_eq!(
            subject(" can black castle? ", &["castl"]),
            Some(Actor::Black)
        );
        assert_eq!(
            subject(" the black bishop covers f1. can i castle? ", &["castl"]),
            Some(Actor::Asker)
        );
        assert_eq!(
            subject(" is castling allowed for white here? ", &["castl"]),
            Some(Actor::White)
        );
        assert_eq!(
            subject(" the player with king, bishop and pawn flagged ", &["flag"]),
            Some(Actor::Holding(vec![
                PieceKind::King,
                PieceKind::Bishop,
                PieceKind::Pawn
            ]))
        );
        assert_eq!(subject(" who wins when the flag falls? ", &["flag"]), None);
        assert_eq!(
            subject(" white castled. can black castle now? ", &["castl"]),
            Some(Actor::Black)
        );
        assert_eq!(
            subject(" the side to move flagged ", &["flag"]),
            Some(Actor::ToMove)
        );
    }
}
