//! The question frame: what kind of question was asked, its sub-questions, who acts, in what
//! setting, and what was already done — read from the text alone, before any matching.
//!
//! The frame wraps the [`Intent`] (topic, side, wing, move) that position answers use, and adds
//! what rulebook answers need: the question kind, the sub-questions of a multi-part question,
//! the settings it names (rapid, blitz, Chess960…) and the acts it reports ("I played",
//! "he claimed").

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use crate::rulebook::Setting;

use super::actors::{Actor, actors_in};
use super::intent::{Intent, understand_lowered};

/// What sort of answer the asker wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionKind {
    /// "Can I castle…?", "Is it a draw?" — answered yes or no.
    YesNo,
    /// "What happens if…?", "What should the arbiter do?" — a ruling.
    Ruling,
    /// "Who wins?", "What is the result?", "Do I win or is it a draw?"
    Result,
    /// "Do I win?", "Is it a win?" — a result asked yes or no, so that "No: …" decides it.
    ResultYesNo,
    /// "How do I claim…?"
    HowTo,
    /// "What is en passant?"
    Definition,
    /// "Which draws…?", "Why can't…?", "When…?", "Where…?" — an open question: answered
    /// without a bare yes or no.
    Open,
    /// "Should I…?", "Is it better to…?" — a choice the Laws may leave to the player.
    Advice,
    /// A statement that asks nothing ("Rook under attack should not be allowed to castle"):
    /// a ruling's bare "Yes" or "No" would not say whether the statement is right.
    Statement,
    /// Anything else.
    Other,
}

/// Something the question says already happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// A move was played ("I played Qb6", "after he pushed…").
    Played,
    /// A draw or a win was claimed.
    Claimed,
    /// A draw was offered.
    Offered,
    /// A piece was touched.
    Touched,
    /// A flag fell.
    Flagged,
    Resigned,
}

/// The reading of a question.
#[derive(Debug, Clone)]
pub struct Frame {
    pub kind: QuestionKind,
    /// The sub-questions, each a question that can be answered alone; one for a simple question.
    pub parts: Vec<String>,
    pub actors: Vec<Actor>,
    /// Settings the question names (empty: none named, so standard FIDE rules).
    pub settings: Vec<Setting>,
    pub acts: Vec<Act>,
    /// Topic, side, wing and move, for position answers.
    pub intent: Intent,
    /// The term asked to be defined inside a sentence or around a swear word
    /// ([`embedded_definition`]): the question is then matched as "What is <term>?".
    pub defined: Option<String>,
    /// The question as word cues are matched against it ([`lowered`]).
    pub lower: String,
}

/// A question lower-cased, curly apostrophes made straight, with a space at each end so that
/// cues written with spaces (" he ", " i'") also match the first and last word.
pub fn lowered(question: &str) -> String {
    format!(" {} ", question.to_lowercase().replace(['’', '‘'], "'"))
}

impl Frame {
    /// Reads a question.
    pub fn read(question: &str) -> Frame {
        let lower = lowered(question);
        let defined = embedded_definition(&lower);
        Frame {
            kind: match defined {
                Some(_) => QuestionKind::Definition,
                None => kind_of(&lower),
            },
            defined,
            parts: sub_questions(&without_asides(question)),
            actors: actors_in(&lower),
            settings: settings_in(&lower),
            acts: acts_in(&lower),
            intent: understand_lowered(question, &lower),
            lower,
        }
    }

    /// Whether the question reports that a move was already played.
    pub fn reports_played_move(&self) -> bool {
        self.acts.contains(&Act::Played)
    }
}

/// How many moves the story says were played, from its first count ("about 8 moves in", "on
/// move 12", "after twelve moves", "at the 15th move"); a time control's move count ("40 moves
/// in 90 minutes", "40/90") is none.
pub fn moves_told(lower: &str) -> Option<u32> {
    static COUNT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"\bmove\s+(?:no\.?\s*|number\s+)?(\d{1,3})\b|\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty)(?:st|nd|rd|th)?\s+(?:full\s+)?moves?\b(\s+in\s+\d)?",
        )
        .expect("valid regex")
    });
    if !lower.contains("move") {
        return None;
    }
    COUNT.captures_iter(lower).find_map(|c| {
        if c.get(3).is_some() {
            return None;
        }
        crate::text::number(c.get(1).or_else(|| c.get(2))?.as_str())
    })
}

/// A quiz's or a forum's label before the question ("Q: …", "Question: …", "Quiz - …"): not
/// part of it ("Q" would otherwise be read as a queen).
pub fn without_quiz_label(question: &str) -> &str {
    static LABEL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?i:(?:(?:exam|test|seminar|arbiter|practice)\s+)?(?:q|question|quiz|scenario|case|problem)\s*\d*\s*(?::\s*|[.)]\s+|\s-\s+))+")
            .expect("valid regex")
    });
    match LABEL.find(question) {
        Some(m) if m.end() < question.len() => &question[m.end()..],
        _ => question,
    }
}

/// The setting stated only as the frame of the story: an appendix ("Rapid 20+5 under Appendix
/// A.5.", "(Appendix B.3 applies)", "the regulations apply B.3 because …") or a time control
/// spelt out ("Time control is 90 minutes with 30 seconds added per move from move 1.", "The time
/// limit was 40 moves in 90 minutes, then 30 minutes.", "a standard game (90 minutes + 30 seconds
/// per move)"). The settings are read from the whole question; left out of the text that is
/// matched, so that the story's own rule is found rather than the appendix's heading or the
/// rulings that explain increments. A comparison in
/// brackets ("(like when you castle with 2 hands)") is left out too: it names another case
/// than the one asked about.
pub fn without_asides(question: &str) -> std::borrow::Cow<'_, str> {
    static APPENDIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\s*\(?\s*(?:,\s*)?(?:so\s+|and\s+)?(?:(?:under|per|with|following)\s+appendix\s+[a-d](?:\.\d+)*(?:\s+applies)?|appendix\s+[a-d](?:\.\d+)*\s+applies|(?:the\s+)?(?:regulations|rules)\s+apply\s+(?:appendix\s+)?[a-d]\.\d+(?:\.\d+)*(?:\s+because\s+[^.;?]*)?)\s*\)?",
        )
        .expect("valid regex")
    });
    static TIME_CONTROL_STATED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?ix)
            \b(?:the\s+)?time\s+(?:control|limit)\s+(?:(?:for\s+(?:the|this|that)\s+games?\s+)?(?:is|was|:)\s|\d|g\s?/)[^.;?!]*[.;]
            | \s*\(\s*\d{1,3}\s*(?:minutes?|mins?|m)?\s*(?:\+|plus)\s*\d{1,2}\s*(?:seconds?|secs?|s)?(?:\s+(?:per|a|each)\s+move)?(?:\s+from\s+move\s+(?:1|one))?\s*\)",
        )
        .expect("valid regex")
    });
    // "In a game of 90 minutes with 30 seconds increment from move one, …"
    static MINUTES_AND_SECONDS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?ix)\b\d{1,3}\s*(?:minutes?|mins?)\b(?:\s+\w+){0,4}?\s+\d{1,2}\s*(?:seconds?|secs?)\b
            (?:\s+(?:increment|incremental|added|add|bonus|delay))?
            (?:\s+(?:per|a|each|for\s+each|for\s+every)\s+move)?
            (?:\s+(?:from|starting\s+from|since)\s+(?:the\s+)?(?:first\s+move|move\s+(?:1|one)))?",
        )
        .expect("valid regex")
    });
    static COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\s*\(\s*(?:just\s+|exactly\s+)?(?:like|as\s+(?:when|with|if|in)|same\s+as|similar\s+to)\s[^()]{0,100}\)",
        )
        .expect("valid regex")
    });
    let appendix = mentions(question, "appendix") || mentions(question, "apply");
    let bracket = question.contains('(');
    let time_control =
        mentions(question, "time control") || mentions(question, "time limit") || bracket;
    let minutes_and_seconds = mentions(question, "minute")
        && mentions(question, "second")
        // The increment decides whether a player may stop recording (8.4).
        && !["record", "writ", "scoresheet", "score sheet", "notation"]
            .iter()
            .any(|w| mentions(question, w));
    if !appendix && !time_control && !minutes_and_seconds {
        return std::borrow::Cow::Borrowed(question);
    }
    // Each pattern copies the text only when it finds something to leave out.
    let mut stripped = std::borrow::Cow::Borrowed(question);
    for (wanted, pattern) in [
        (appendix, &*APPENDIX),
        (time_control, &*TIME_CONTROL_STATED),
        (minutes_and_seconds, &*MINUTES_AND_SECONDS),
        (bracket, &*COMPARISON),
    ] {
        if !wanted {
            continue;
        }
        if let std::borrow::Cow::Owned(left) = pattern.replace_all(&stripped, "") {
            stripped = std::borrow::Cow::Owned(left);
        }
    }
    // Only a story told around the mention: a question that is little more than it asks
    // about the setting.
    if stripped.split_whitespace().count() < 8 {
        return std::borrow::Cow::Borrowed(question);
    }
    stripped
}

/// "Opp", players' slang for the opponent ("opp flagged", "my opp's queen"), written out, so that
/// the actors and the rulings read it as they read "opponent".
fn opp_as_opponent(text: &str) -> std::borrow::Cow<'_, str> {
    static OPP: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b([Oo])pp(s|'s)?\b").expect("valid regex"));
    if !text.contains("pp") {
        return std::borrow::Cow::Borrowed(text);
    }
    OPP.replace_all(text, "${1}pponent$2")
}

/// Chat spellings written out ("do u have to", "ur clock", "cant", "doesnt"), so that the
/// question's kind, actors and polarity are read as in the spelled-out question.
pub(super) fn chat_speak_written_out(text: &str) -> std::borrow::Cow<'_, str> {
    const WRITTEN_OUT: &[(&str, &str)] = &[
        ("u", "you"),
        ("ur", "your"),
        ("pls", "please"),
        ("plz", "please"),
        ("bc", "because"),
        ("cuz", "because"),
        ("coz", "because"),
        ("ppl", "people"),
        ("abt", "about"),
        ("dont", "don't"),
        ("cant", "can't"),
        ("doesnt", "doesn't"),
        ("didnt", "didn't"),
        ("isnt", "isn't"),
        ("wasnt", "wasn't"),
        ("wont", "won't"),
        ("shouldnt", "shouldn't"),
        ("couldnt", "couldn't"),
        ("wouldnt", "wouldn't"),
        ("hasnt", "hasn't"),
        ("havent", "haven't"),
        ("im", "I'm"),
        ("ive", "I've"),
    ];
    static CHAT: LazyLock<Regex> = LazyLock::new(|| {
        let words: Vec<&str> = WRITTEN_OUT.iter().map(|(w, _)| *w).collect();
        Regex::new(&format!(r"(?i)\b(?:{})\b", words.join("|"))).expect("valid regex")
    });
    CHAT.replace_all(text, |c: &regex::Captures| {
        let word = c[0].to_ascii_lowercase();
        // "U-2000", "U1800", "U.S.": a rating class or an abbreviation, not "you".
        let next = text[c.get(0).map_or(0, |m| m.end())..].chars().next();
        if word == "u" && next.is_some_and(|n| matches!(n, '-' | '.' | '0'..='9')) {
            return c[0].to_string();
        }
        WRITTEN_OUT
            .iter()
            .find(|(w, _)| *w == word)
            .map_or(c[0].to_string(), |(_, out)| (*out).to_string())
    })
}

/// Whether `text` holds `word` (ASCII), whatever its letters' case, without lower-casing a
/// copy of the text: the cheap test before a rewrite's regex.
fn mentions(text: &str, word: &str) -> bool {
    text.as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

/// The names other chess traditions give the pieces and check, as players write them in
/// English ("the horse", "my soldier", "the elephant", "his tower", "a second lady", "gives
/// chess to my king", "make castle"), written as the Laws name them.
pub(super) fn calques_as_chess_terms(text: &str) -> std::borrow::Cow<'_, str> {
    static CALQUE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\b(horse|horses|soldier|soldiers|elephant|elephants|tower|towers|lady|ladies|(?:give|gives|gave|giving|given)\s+(?:a\s+)?chess|make\s+(?:a\s+)?castle|made\s+(?:a\s+)?castle)\b",
        )
        .expect("valid regex")
    });
    // Cheap cues first: most questions have none, and the regex would cost more on them.
    const CUES: [&str; 13] = [
        "horse",
        "soldier",
        "elephant",
        "tower",
        "lady",
        "ladies",
        "give chess",
        "gives chess",
        "gave chess",
        "giving chess",
        "given chess",
        "e a chess",
        "e castle",
    ];
    if !CUES.iter().any(|c| mentions(text, c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    CALQUE.replace_all(text, |c: &regex::Captures| {
        let word = c[1].to_lowercase();
        let term = match word.split_whitespace().next().unwrap_or_default() {
            "horse" => "knight",
            "horses" => "knights",
            "soldier" => "pawn",
            "soldiers" => "pawns",
            "elephant" => "bishop",
            "elephants" => "bishops",
            "tower" => "rook",
            "towers" => "rooks",
            "lady" => "queen",
            "ladies" => "queens",
            "give" => "give check",
            "gives" => "gives check",
            "gave" => "gave check",
            "giving" => "giving check",
            "given" => "given check",
            "make" => "castle",
            _ => "castled",
        };
        term.to_string()
    })
}

/// "Castle" used as a name for the rook ("can a pawn take the castle?", "his other castle")
/// written as "rook": after a determiner it names a piece, unless a word of castling follows
/// ("the castle rights", "a castle kingside").
fn castle_as_rook(text: &str) -> std::borrow::Cow<'_, str> {
    static PIECE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\b(a|the|his|her|my|your|their|its|other|that|this|both|two)\s+(castles?)\b(\s+\w+)?",
        )
        .expect("valid regex")
    });
    const CASTLING_WORDS: [&str; 9] = [
        "kingside",
        "queenside",
        "short",
        "long",
        "right",
        "rights",
        "move",
        "rule",
        "rules",
    ];
    if !mentions(text, "castle") {
        return std::borrow::Cow::Borrowed(text);
    }
    PIECE.replace_all(text, |c: &regex::Captures| {
        let next = c.get(3).map_or("", |m| m.as_str());
        if CASTLING_WORDS.contains(&next.trim().to_ascii_lowercase().as_str()) {
            return c[0].to_string();
        }
        let rook = if c[2].len() > "castle".len() {
            "rooks"
        } else {
            "rook"
        };
        format!("{} {rook}{next}", &c[1])
    })
}

/// "Queen" used as a verb ("can you queen a pawn twice?", "he queened his pawn") written as
/// the promotion it means, so that matching does not read a queen on the board.
fn queening_as_promotion(text: &str) -> std::borrow::Cow<'_, str> {
    static QUEENING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\bqueen(s|ed|ing)? (a|my|his|her|the|your|their|that|this|one|two) (pawns?)\b",
        )
        .expect("valid regex")
    });
    if !mentions(text, "queen") {
        return std::borrow::Cow::Borrowed(text);
    }
    QUEENING.replace_all(text, |c: &regex::Captures| {
        let ending = c.get(1).map(|m| m.as_str().to_ascii_lowercase());
        let verb = match ending.as_deref() {
            Some("ed") => "promoted",
            Some("ing") => "promoting",
            Some(_) => "promotes",
            None => "promote",
        };
        format!("{verb} {} {} to a queen", &c[2], &c[3])
    })
}

/// A move written with the mate sign ("Qh7#", "O-O-O#") says checkmate: the search, which
/// reads words, would drop the sign.
fn mate_sign_spelt(text: &str) -> std::borrow::Cow<'_, str> {
    static MATE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?)#")
            .expect("valid regex")
    });
    if !text.contains('#') {
        return std::borrow::Cow::Borrowed(text);
    }
    MATE.replace_all(text, "$1 checkmate")
}

/// A castling sign ("14.0-0", "played O-O-O") says castling in words, which the matching
/// reads: the sign alone is notation. Written with zeros it counts only after a move number or
/// a verb of playing, since "0-0" can also be a score.
fn castling_sign_spelt(text: &str) -> std::borrow::Cow<'_, str> {
    static SIGN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i:\b(?:\d+\s*\.+\s*|play(?:ed|s|ing)?\s+|then\s+))(0-0-0|0-0)\b|\b(O-O-O|O-O)\b",
        )
        .expect("valid regex")
    });
    if !text.contains("-0") && !text.contains("-O") {
        return std::borrow::Cow::Borrowed(text);
    }
    SIGN.replace_all(text, |c: &regex::Captures| {
        let sign = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
        let side = if sign.len() == 5 {
            "queenside"
        } else {
            "kingside"
        };
        format!("{} (castled {side})", &c[0])
    })
}

/// Material written with piece letters ("K and R against K and N", "K+B") spelt out as piece
/// names, so that matching sees "king and rook". A lone "B" counts as a bishop only when a
/// lone "K" is there too (otherwise it is more likely "player B").
pub fn spell_out_pieces(text: &str) -> String {
    let text = &opp_as_opponent(text);
    let text = &calques_as_chess_terms(text);
    let text = &castle_as_rook(text);
    let text = &mate_sign_spelt(text);
    let text = &castling_sign_spelt(text);
    let text = &queening_as_promotion(text);
    let is_letter_token = |t: &str, l: &str| t == l;
    let tokens: Vec<&str> = text
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '+' | ',' | '.' | '?' | '(' | ')' | ';' | ':' | '/')
        })
        .collect();
    let has_king = tokens.iter().any(|t| is_letter_token(t, "K"));
    if !has_king
        && !tokens
            .iter()
            .any(|t| matches!(*t, "Q" | "R" | "N") || material_signature(t).is_some())
    {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let name = match word.as_str() {
            "K" => Some("king"),
            "Q" => Some("queen"),
            "R" => Some("rook"),
            "N" => Some("knight"),
            "B" if has_king => Some("bishop"),
            "P" if has_king => Some("pawn"),
            _ => None,
        };
        // A whole army in one word ("KBN", "KRP"), when other pieces are named in capitals
        // too: "KN" alone could be anything.
        let army = || {
            (has_king && word.len() > 1)
                .then(|| army_spelt(word))
                .flatten()
        };
        // "K+2N": two of a piece, written with its count.
        let counted = || {
            let (count, letter) = word.split_at_checked(1)?;
            let count = match count {
                "2" => "two",
                "3" => "three",
                _ => return None,
            };
            let piece = match letter {
                "N" => "knights",
                "B" => "bishops",
                "R" => "rooks",
                "Q" => "queens",
                _ => return None,
            };
            has_king.then(|| format!("{count} {piece}"))
        };
        match (
            name,
            material_signature(word).or_else(army).or_else(counted),
        ) {
            (Some(name), _) => out.push_str(name),
            (None, Some(spelt)) => out.push_str(&spelt),
            (None, None) => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '\'' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(if c == '+' { ' ' } else { c });
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A material signature as endgame tables and engines write it ("KNvKQ", "KBNvK", "KRvsKB"):
/// both sides' men spelt out, "king and knight against king and queen".
fn material_signature(word: &str) -> Option<String> {
    let (left, right) = word.split_once("vs").or_else(|| word.split_once('v'))?;
    Some(format!(
        "{} against {}",
        army_spelt(left)?,
        army_spelt(right)?
    ))
}

/// One side's army in capitals, "K" then piece letters ("KBN", "KRP", "KNN", "K"), in words:
/// "king and bishop and knight", "king and two knights".
fn army_spelt(men: &str) -> Option<String> {
    let rest = men.strip_prefix('K')?;
    // Each kind of piece once, with how many there are, in the order first named.
    let mut counted: Vec<(&str, usize)> = Vec::new();
    for c in rest.chars() {
        let name = match c {
            'Q' => "queen",
            'R' => "rook",
            'B' => "bishop",
            'N' => "knight",
            'P' => "pawn",
            _ => return None,
        };
        match counted.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => counted.push((name, 1)),
        }
    }
    let men = counted.into_iter().map(|(name, count)| match count {
        1 => name.to_string(),
        2 => format!("two {name}s"),
        3 => format!("three {name}s"),
        n => format!("{n} {name}s"),
    });
    Some(
        std::iter::once("king".to_string())
            .chain(men)
            .collect::<Vec<_>>()
            .join(" and "),
    )
}

fn has(q: &str, words: &[&str]) -> bool {
    words.iter().any(|w| q.contains(w))
}

/// The kind of the (first) question sentence.
fn kind_of(q: &str) -> QuestionKind {
    let q = &without_intensifiers(q);
    let asked = q
        .split_inclusive('?')
        .find(|s| s.contains('?'))
        .unwrap_or(q)
        .trim_start_matches(|c: char| !c.is_alphanumeric());
    // Where a cue may open the sentence: its start, and after each of these separators (none
    // of which overlaps itself, so every occurrence is found).
    let mut starts = vec![0];
    for p in [". ", ", ", "— ", "- ", "; ", ": ", " but ", " so "] {
        starts.extend(asked.match_indices(p).map(|(i, _)| i + p.len()));
    }
    // Typed without a question mark, the question often ends the line unmarked ("touched rook
    // first then king can i castle"): a cue may open any of its last few words.
    if !asked.contains('?') {
        starts.extend(
            last_words_starts(asked, 12)
                .filter(|&i| UNMARKED_ASKS.iter().any(|a| asked[i..].starts_with(a))),
        );
    }
    // A lead-in that only sets the scene ("In chess can you…", "So can I…") does not open
    // the question: the cue may follow it.
    starts.extend(
        LEAD_INS
            .iter()
            .find(|l| asked.starts_with(*l))
            .map(|l| l.len()),
    );
    let opens = |ws: &[&str]| {
        ws.iter()
            .any(|w| starts.iter().any(|&i| asked[i..].starts_with(w)))
    };
    let kind = KIND_CUES
        .iter()
        .find(|c| has(q, c.anywhere) || opens(c.opening))
        .map_or(QuestionKind::Other, |c| c.kind);
    match kind {
        // "Do I win or is it a draw?" offers a choice: a bare "No" would not decide it.
        QuestionKind::ResultYesNo if asked.contains(" or ") => QuestionKind::Result,
        // "Do I wait for a claim or do I step in?" asks which of two: a bare "Yes" answers
        // neither.
        QuestionKind::YesNo if offers_two_courses(asked) => QuestionKind::Ruling,
        QuestionKind::Other if !q.contains('?') => QuestionKind::Statement,
        kind => kind,
    }
}

/// The inverted openings that ask a question even unmarked, at the end of a line.
const UNMARKED_ASKS: &[&str] = &[
    "can i ",
    "can he ",
    "can she ",
    "can we ",
    "can you ",
    "could i ",
    "do i ",
    "does he ",
    "does she ",
    "does it ",
    "is it ",
    "is that ",
    "is this ",
    "should i ",
    "must i ",
    "may i ",
    "am i ",
    "did i ",
    "who wins",
    "what happens",
];

/// Where each of the last `n` words of `text` starts (after a space), last first.
fn last_words_starts(text: &str, n: usize) -> impl Iterator<Item = usize> + '_ {
    text.rmatch_indices(' ').take(n).map(|(i, _)| i + 1)
}

/// A yes/no question that offers two courses, each with its own asking verb ("…, or do I…",
/// "… or should he…").
fn offers_two_courses(asked: &str) -> bool {
    const SECOND: &[&str] = &[
        " or do i ",
        " or should i ",
        " or must i ",
        " or can i ",
        " or do we ",
        " or should we ",
        " or does he ",
        " or does she ",
        " or should he ",
        " or should she ",
        " or must he ",
        " or must she ",
        " or do you ",
        " or should the ",
        " or does the ",
        " or must the ",
    ];
    SECOND.iter().any(|s| asked.contains(s))
}

/// Swear words and the like that only add force ("what the fuck is en passant", "how on earth
/// can he castle"): taken out before the question's kind is read.
const INTENSIFIERS: &[&str] = &[
    " in the fuck ",
    " the fuck ",
    " in the hell ",
    " the hell ",
    " the heck ",
    " on earth ",
    " fucking ",
    " freaking ",
    " frickin ",
];

/// `lower` without [`INTENSIFIERS`] (a space kept where each was).
fn without_intensifiers(lower: &str) -> std::borrow::Cow<'_, str> {
    let mut out = std::borrow::Cow::Borrowed(lower);
    for w in INTENSIFIERS {
        if out.contains(w) {
            out = std::borrow::Cow::Owned(out.replace(w, " "));
        }
    }
    out
}

/// The term a question asks to have defined when it asks it inside a sentence or with a swear
/// word around it: "I'd like to know what en passant is", "can someone tell me what a flag
/// is", "what the fuck is en passant". At most four words, and a term, not "the rule when…"
/// or "that". A plain "What is en passant?" is read by the kind cues and matched as it is.
pub fn embedded_definition(lower: &str) -> Option<String> {
    static DEFINE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)
            (?P<lead>^|[.!?;:,]\s|\b(?:know|wondering|wonder|tell\ me|explain|curious\ (?:about|as\ to)?)\s)\s*
            (?:
                what(?:'s|\ is|\ are)\s+(?:an?\s+)?(?P<a>[a-z0-9'\ -]{2,40}?)
              | what\s+(?:an?\s+)?(?P<b>[a-z0-9'\ -]{2,40}?)\s+(?:is|are|means?)
              | what\s+(?:does|do)\s+(?:an?\s+)?(?P<c>[a-z0-9'\ -]{2,40}?)\s+mean
            )
            \s*(?:in\ chess\s*)?[?.!]*\s*$",
        )
        .expect("valid regex")
    });
    // Most questions have neither a "what" nor a lead-in: no regex for them.
    const LEADS: [&str; 5] = ["know", "wonder", "tell me", "explain", "curious"];
    if !lower.contains("what") {
        return None;
    }
    let plain = without_intensifiers(lower);
    let intensified = matches!(plain, std::borrow::Cow::Owned(_));
    if !intensified && !LEADS.iter().any(|l| lower.contains(l)) {
        return None;
    }
    let caps = DEFINE.captures(plain.trim())?;
    // Led by "know", "tell me"…, not by the start of the text or of a sentence.
    let embedded = caps
        .name("lead")
        .is_some_and(|l| l.as_str().trim_end().ends_with(char::is_alphabetic));
    if !(embedded || intensified) {
        return None;
    }
    let term = ["a", "b", "c"]
        .iter()
        .find_map(|g| caps.name(g))?
        .as_str()
        .trim();
    let words: Vec<&str> = term.split_whitespace().collect();
    let generic = words.iter().any(|w| {
        matches!(
            *w,
            "rule"
                | "rules"
                | "ruling"
                | "result"
                | "difference"
                | "if"
                | "when"
                | "the"
                | "that"
                | "this"
                | "it"
                | "happens"
                | "happening"
                | "penalty"
                | "next"
                | "wrong"
                | "right"
                | "valid"
                | "legal"
                | "illegal"
                | "allowed"
                | "possible"
                | "correct"
                | "required"
                | "needed"
                | "expected"
                | "before"
                | "after"
                | "going"
                | "done"
        )
    });
    ((1..=4).contains(&words.len()) && !generic).then(|| term.to_string())
}

/// Words that open a question without being its cue.
const LEAD_INS: &[&str] = &[
    "in chess ",
    "in chess, ",
    "in a chess game ",
    "in a chess game, ",
    "so ",
    "so, ",
    "and ",
    "but ",
    "also ",
    "ok so ",
    "quick question ",
];

/// The words that show a question's kind: anywhere in the text, or opening the (first)
/// question sentence.
struct KindCue {
    kind: QuestionKind,
    anywhere: &'static [&'static str],
    opening: &'static [&'static str],
}

/// Tried in order: the first kind whose cue appears wins ("Who wins if I castle?" asks for a
/// result before it is a yes/no question).
const KIND_CUES: &[KindCue] = &[
    KindCue {
        kind: QuestionKind::Result,
        anywhere: &[
            "who wins",
            "who won",
            "who loses",
            "who lost",
            "what is the result",
            "what's the result",
            "result of the game",
            // A match decided by the game ("Armageddon … stalemate. Who goes through?").
            "who goes through",
            "who advances",
            "who qualifies",
            "who progresses",
            // Two results to choose from: a bare "Yes" or "No" picks neither.
            "draw or loss",
            "draw or a loss",
            "draw or win",
            "draw or a win",
            "win or draw",
            "win or a draw",
            "loss or draw",
            "loss or a draw",
            "or a win?",
            "or a draw?",
            "or a loss?",
        ],
        opening: &[],
    },
    KindCue {
        kind: QuestionKind::ResultYesNo,
        anywhere: &[
            "is it a win",
            "do i win",
            "did i win",
            "do i lose",
            "did i lose",
            "does he win",
            "does she win",
            "mean i win",
            "mean i won",
            "mean i lose",
            "mean i lost",
            "have i won",
            "have i lost",
            "so i win",
            "so i won",
        ],
        opening: &[],
    },
    KindCue {
        kind: QuestionKind::Result,
        anywhere: &["result?", "the result", "who won?", "outcome?"],
        opening: &[],
    },
    KindCue {
        kind: QuestionKind::Advice,
        anywhere: &[],
        opening: &[
            "should i",
            "should we",
            "is it better",
            "would it be better",
            "which is better",
            "what should i play",
            "do you recommend",
        ],
    },
    KindCue {
        kind: QuestionKind::HowTo,
        anywhere: &[],
        opening: &[
            "how do",
            "how can",
            "how does",
            "how should",
            "how exactly",
            "how precisely",
            "how to",
            "how many",
            "how much",
            "how long",
            "how late",
        ],
    },
    KindCue {
        kind: QuestionKind::Ruling,
        anywhere: &[
            "what is the ruling",
            "what's the ruling",
            "correct ruling",
            "right ruling",
            "proper ruling",
            "ruling?",
            "what now",
            "what happens",
            "what's correct",
            "what is correct",
            "what's the correct",
            "what is the correct",
            "what's right?",
            "what is right?",
            // "What is the decision this time?" asks for a ruling, not what a decision is.
            "what is the decision",
            "what's the decision",
            "what is the arbiter's decision",
            "what's the arbiter's decision",
            "what is the verdict",
            "what's the verdict",
            "what is the outcome",
            "what's the outcome",
        ],
        opening: &[
            "what happens",
            "what should",
            "what does the arbiter",
            "what will",
            "what now",
            "what would",
            "what can",
            "what do",
            "what must",
            "what am i supposed to",
        ],
    },
    KindCue {
        kind: QuestionKind::Definition,
        anywhere: &[],
        opening: &[
            "what is",
            "what's",
            "what are",
            "what constitutes",
            "what counts as",
            "what qualifies as",
            "define",
            "meaning of",
            "what does",
        ],
    },
    KindCue {
        kind: QuestionKind::Open,
        anywhere: &[],
        opening: &["which ", "why ", "when ", "where "],
    },
    KindCue {
        kind: QuestionKind::YesNo,
        anywhere: &[],
        opening: &[
            "can ",
            "is ",
            "are ",
            "do ",
            "does ",
            "did ",
            "may ",
            "must ",
            "was ",
            "were ",
            "has ",
            "have ",
            "am i",
            "will ",
            "would ",
            "could ",
            "isn't",
            "is'nt",
            "shouldn't",
        ],
    },
];

/// Splits a multi-part question: several question sentences, numbered items, or "…, or if …"
/// (the shared opening — "Can I castle" — is carried over to each part). Statements before a
/// question stay with it as its context; a short follow-up ("Right?") stays with the part before.
pub fn sub_questions(question: &str) -> Vec<String> {
    let text = question.trim();
    let numbered = split_numbered(text);
    if numbered.len() >= 2 {
        return numbered;
    }
    let inline = split_inline_numbered(text);
    if inline.len() >= 2 {
        return inline;
    }
    let mut split = SentenceParts::default();
    let sentences = question_sentences(text);
    let asks_something =
        |l: &&str| l.chars().any(char::is_alphanumeric) && l.trim_end().ends_with('?');
    let mut follows_a_protest = false;
    for (i, sentence) in sentences.iter().enumerate() {
        let s = sentence.trim();
        let protests = protests_the_story(s);
        // What follows a protest ("pinned??" gives a lone "?") asks nothing more.
        let after_protest = std::mem::replace(&mut follows_a_protest, protests);
        if s.is_empty() || (after_protest && !s.chars().any(char::is_alphanumeric)) {
            continue;
        }
        let protest_asked_about = protests && sentences[i + 1..].iter().any(asks_something);
        if s.ends_with('?') && !protest_asked_about {
            split.question(s);
        } else {
            split.statement(s);
        }
    }
    split.finish(text)
}

/// The parts of a question, built sentence by sentence ([`sub_questions`]).
#[derive(Default)]
struct SentenceParts {
    parts: Vec<String>,
    /// Statements not yet given to a part: the context of the next question.
    pending: String,
    /// The statements before the first question: the story every later numbered question asks
    /// about ("He castled although his king had moved. 1) … 2) If I had noticed later, what
    /// would the ruling have been?").
    story: String,
}

impl SentenceParts {
    /// A closing statement without a question: context for the last part, or for the next.
    fn statement(&mut self, s: &str) {
        match self.parts.last_mut() {
            Some(last) => {
                last.push(' ');
                last.push_str(s);
            }
            None => self.pending = s.to_string(),
        }
    }

    /// A question: a part of its own, or the last part asked again or carried on.
    fn question(&mut self, s: &str) {
        // A cut marked in a quotation ("(…) So the time does not matter?") is not an opening.
        let opening = s.trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | '…' | '.')
        });
        if self.parts.is_empty() {
            self.story = [self.pending.as_str(), statements_before_question(s)]
                .join(" ")
                .trim()
                .to_string();
        }
        // Only a numbered item shares the story: other later questions often ask something
        // of their own.
        let context: &str = if self.parts.is_empty() {
            &self.pending
        } else if numbered_item(opening) {
            &self.story
        } else {
            ""
        };
        let full = if context.is_empty() {
            s.to_string()
        } else {
            format!("{context} {s}")
        };
        self.pending.clear();
        let content_words = content_word_count(s);
        let continues = self.continued_by(s, opening, content_words);
        match self.parts.last_mut() {
            Some(last) if content_words < 3 || continues => {
                last.push(' ');
                last.push_str(s);
            }
            _ => self.parts.push(full),
        }
    }

    /// Whether question `s` (opening with `opening`) carries on the last part rather than
    /// asking something of its own.
    fn continued_by(&self, s: &str, opening: &str, content_words: usize) -> bool {
        let exemplifies_the_last = self
            .parts
            .last()
            .is_some_and(|last| last.split_whitespace().count() <= VAGUE_WORDS)
            && opens_with_any(opening, EXAMPLE_OPENINGS);
        // "…while I'm on move? And what about when it's my opponent's move?": a short "what
        // about" asks the question before it again of another case, and says little alone.
        let varies_the_last =
            content_words <= VARIANT_WORDS && opens_with_any(opening, VARIANT_OPENINGS);
        // "…the rules for writing on the score sheet? Are those the legal moves of the
        // match?": a short question about "those" asks about what the one before named.
        let points_back =
            content_words <= POINTING_BACK_WORDS && opens_with_any(opening, POINTING_BACK_OPENINGS);
        opens_with_any(opening, CONTINUATION_OPENINGS)
            || points_back
            || is_alternative_of_the_last(opening)
            || exemplifies_the_last
            || varies_the_last
            || checks_the_story(s)
    }

    /// The parts, a lone one split on "…, or if …" / "… and …?" when it asks two things.
    fn finish(mut self, text: &str) -> Vec<String> {
        if !self.pending.is_empty() {
            self.parts.push(self.pending);
        }
        if self.parts.len() == 1
            && let Some(split) =
                split_or_if(&self.parts[0]).or_else(|| split_and_asking(&self.parts[0]))
        {
            return split;
        }
        if self.parts.is_empty() {
            self.parts.push(text.to_string());
        }
        self.parts
    }
}

/// The words of a sentence that say something: longer than three letters and not a follow-up
/// word ("what", "about", …).
fn content_word_count(s: &str) -> usize {
    s.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| w.len() > 3 && !FOLLOW_UP_WORDS.contains(&w.as_str()))
        .count()
}

/// A closing check on what the story told, tagged "…, right?" with "this", "that" or "it"
/// for the story ("I'm new, but this has got to be a bug, right?"): it asks nothing alone.
fn checks_the_story(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    let tagged = [", right?", ", correct?", ", true?", ", no?"]
        .iter()
        .any(|t| lower.trim_end().ends_with(t));
    tagged && crate::text::words(&lower).any(|w| matches!(w, "this" | "that" | "it"))
}

/// Whether a question opens with an item number: "2) If I had…", "(b) What…", "3. Can…".
fn numbered_item(opening: &str) -> bool {
    let mark = opening.trim_start_matches('(');
    let rest = mark.trim_start_matches(|c: char| c.is_ascii_digit());
    let lettered = mark
        .strip_prefix(|c: char| c.is_ascii_lowercase())
        .filter(|r| r.starts_with(')'));
    (rest.len() < mark.len() && rest.starts_with([')', '.'])) || lettered.is_some()
}

/// The statements a question sentence opens with ("He castled although his king had moved!
/// Later we noticed. 1) Would he have to move his king?"): the text up to the last sentence
/// end (a '.' or '!' before a space) before the question's own sentence.
fn statements_before_question(sentence: &str) -> &str {
    crate::text::last_sentence_end(sentence, &['.', '!']).map_or("", |end| sentence[..end].trim())
}

/// Openings of a question that draws a conclusion from the one before ("White timed out, so
/// White can't win? So, Black can't win either, so it's a draw?"), or that goes on with the
/// story after a question quoted without quotation marks ("he said draw? and I said ok …"):
/// one question, not two.
const CONTINUATION_OPENINGS: &[&str] = &[
    "and i ",
    "and he ",
    "and she ",
    "and we ",
    "and they ",
    "and my ",
    "and his ",
    "and her ",
    "but i ",
    "but he ",
    "but she ",
    "but my ",
    "but his ",
    "so ",
    "so,",
    "then ",
    "and so ",
    "surely ",
    "and what if we",
    "and what if i'd",
    "and what if it had",
    "and would it",
    "would it have been",
    "would it be the same",
    "and then ",
    "and while ",
    "therefore",
    "hence ",
    "thus ",
    "which means",
    "in that case",
    "bearing in mind",
    "keeping in mind",
    "given that",
    "considering that",
    "considering the",
    "taking into account",
    "even though",
    "even if",
    "knowing that",
    "i mean",
];

/// Openings of a question that asks the one before it again of another case.
const VARIANT_OPENINGS: &[&str] = &[
    "and what about",
    "what about",
    "how about",
    "and how about",
    "does this also apply",
    "does that also apply",
    "does it also apply",
    "does the same apply",
    "does the same rule apply",
    "do the same rules apply",
    "is it the same",
    "is that the same",
    "is this the same",
];

/// Openings of a question whose subject is something the question before it named.
const POINTING_BACK_OPENINGS: &[&str] = &[
    "are those ",
    "are these ",
    "were those ",
    "were these ",
    "is that ",
    "is this ",
    "was that ",
    "was this ",
    "does that ",
    "does this ",
    "do those ",
    "do these ",
];

/// How many content words a question pointing back may have and still lean on the one before.
const POINTING_BACK_WORDS: usize = 6;

/// How many content words a "what about" question may have and still lean on the one before.
const VARIANT_WORDS: usize = 7;

/// Whether a question sentence is a protest in the telling, not the question asked: "But" and a
/// statement's word order ("… said it's illegal. But my pawn isn't pinned?? … Is the TD
/// right?"). A question word or a verb after "But" ("But does the move still stand?") asks.
fn protests_the_story(sentence: &str) -> bool {
    let asked = statements_before_question(sentence);
    let own = sentence[asked.len()..].trim_start_matches(|c: char| !c.is_alphanumeric());
    let mut words = crate::text::words(own);
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("but"))
        && words.next().is_some_and(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "my" | "his"
                    | "her"
                    | "the"
                    | "i"
                    | "he"
                    | "she"
                    | "it"
                    | "this"
                    | "that"
                    | "there"
            )
        })
}

/// Whether `sentence` opens with one of `openings`, whatever its letters' case.
fn opens_with_any(sentence: &str, openings: &[&str]) -> bool {
    openings.iter().any(|o| {
        sentence
            .get(..o.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(o))
    })
}

/// Openings of an example or a rewording ("Does it matter whose move it is? For instance, if
/// …"): they belong to a short question before them, which says little without them.
const EXAMPLE_OPENINGS: &[&str] = &[
    "for instance",
    "for example",
    "e.g.",
    "i.e.",
    "in other words",
];

/// How many words a question may have and still need the example after it.
const VAGUE_WORDS: usize = 8;

/// "Or" opening a sentence without a question of its own ("Are you allowed to move? Or you
/// cannot make any move?", "…? or not?") offers the other answer to the question before it;
/// "Or does it cover any violation?" asks a new one.
fn is_alternative_of_the_last(sentence: &str) -> bool {
    const ASKING: &[&str] = &[
        "does", "do", "did", "is", "are", "was", "were", "can", "could", "should", "would", "will",
        "must", "may", "might", "has", "have", "what", "how", "who", "when", "where", "why",
        "which", "if",
    ];
    let mut words = sentence.split_whitespace().map(|w| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    });
    words.next().is_some_and(|w| w == "or")
        && words.next().is_none_or(|w| !ASKING.contains(&w.as_str()))
}

/// Words that make a short follow-up ("Shouldn't I have won?", "Is that really right?")
/// without adding a question of its own.
const FOLLOW_UP_WORDS: &[&str] = &[
    "shouldn't",
    "should",
    "wouldn't",
    "would",
    "couldn't",
    "could",
    "have",
    "been",
    "that",
    "this",
    "right",
    "correct",
    "really",
    "true",
    "then",
    "there",
    "isn't",
    "wasn't",
    "doesn't",
];

/// The text cut after each question mark, except one inside quotation marks: a question quoted
/// from the game ("he said \"Do you want a draw?\" and then…") is part of the story, not a
/// question to answer.
fn question_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_straight = false;
    let mut curly_depth = 0usize;
    // A stray quotation mark (an inch sign, a typo) quotes nothing.
    let straight_pairs = text.matches('"').count().is_multiple_of(2);
    for (i, c) in text.char_indices() {
        match c {
            '"' if straight_pairs => in_straight = !in_straight,
            '“' => curly_depth += 1,
            '”' => curly_depth = curly_depth.saturating_sub(1),
            '?' if !in_straight && curly_depth == 0 => {
                out.push(&text[start..=i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// "1. … 2. …" or "a) … b) …" items.
fn split_numbered(text: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        let rest = l
            .strip_prefix(|c: char| c.is_ascii_digit())
            .and_then(|r| r.strip_prefix(['.', ')']))
            .or_else(|| {
                l.strip_prefix(|c: char| c.is_ascii_lowercase())
                    .and_then(|r| r.strip_prefix(')'))
            });
        match rest {
            Some(r) if !r.trim().is_empty() => items.push(r.trim().to_string()),
            _ if !items.is_empty() && !l.is_empty() => {
                let last = items.last_mut().expect("non-empty");
                last.push(' ');
                last.push_str(l);
            }
            _ => {}
        }
    }
    items
}

/// The most words an introduction to numbered questions may have ("Arbiter here, standard
/// game, 50-move stuff:"); a longer one is the story the items ask about, and stays with them.
const INTRODUCTION_WORDS: usize = 15;

/// "3 things from my first tournament (G/90+30): 1) can I walk around …? 2) I straightened my
/// pieces … why? 3) …": questions numbered within a line, "1)", "(1)", "a)" or "(a)" in
/// sequence, each mark after a space and before one, after a short introduction that belongs
/// to none of them. Items that are not questions (steps of a procedure, claims to check) or
/// that follow a story ("1) How would the TD decide? 2) What if he said it was an accident?")
/// are left to the sentence split, which keeps the story with them.
fn split_inline_numbered(text: &str) -> Vec<String> {
    let styles: [fn(usize) -> String; 4] = [
        |i| format!("{})", i + 1),
        |i| format!("({})", i + 1),
        |i| format!("{})", char::from(b'a' + i as u8)),
        |i| format!("({})", char::from(b'a' + i as u8)),
    ];
    let Some((introduction, items)) = styles
        .iter()
        .map(|&mark| items_marked(text, mark))
        .find(|(_, items)| items.len() >= 2)
    else {
        return Vec::new();
    };
    let questions = items.iter().filter(|i| i.ends_with('?')).count();
    if introduction.split_whitespace().count() > INTRODUCTION_WORDS || 2 * questions < items.len() {
        return Vec::new();
    }
    items
}

/// The words before the first mark and the items of `text` marked `mark(0)`, `mark(1)`, … in
/// order (at most 26).
fn items_marked(text: &str, mark: fn(usize) -> String) -> (&str, Vec<String>) {
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    for i in 0..26 {
        let m = mark(i);
        let found = text[from..]
            .match_indices(&m)
            .map(|(at, _)| from + at)
            .find(|&at| {
                let before = text[..at].chars().next_back();
                let after = text[at + m.len()..].chars().next();
                before.is_none_or(char::is_whitespace) && after.is_some_and(char::is_whitespace)
            });
        let Some(at) = found else { break };
        starts.push((at, at + m.len()));
        from = at + m.len();
    }
    let introduction = starts.first().map_or(text, |&(at, _)| &text[..at]);
    let ends = starts.iter().skip(1).map(|&(at, _)| at).chain([text.len()]);
    let items = starts
        .iter()
        .zip(ends)
        .map(|(&(_, body), end)| text[body..end].trim().to_string())
        .filter(|item| !item.is_empty())
        .collect();
    (introduction, items)
}

/// "Can I promote to a second queen, and also can I leave it as a pawn?", "where do king and
/// rook end up, and can I castle on my first move?": a question joined to another by "and"
/// and an asking word is two questions.
fn split_and_asking(q: &str) -> Option<Vec<String>> {
    const ASKING: &[&str] = &[
        "can", "may", "must", "do", "does", "is", "are", "what", "when", "who", "how", "should",
        "will", "would", "could", "where", "which",
    ];
    let lower = q.to_lowercase();
    // A question from its first word, or from the first after an opening phrase ("In Chess960,
    // where…"): not a story that ends in questions.
    let first_word = |text: &str| {
        text.split_whitespace()
            .next()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string())
    };
    let asks = |text: &str| {
        let opens_asking = |t: &str| first_word(t).is_some_and(|w| ASKING.contains(&w.as_str()));
        opens_asking(text)
            || text
                .split_once(',')
                .is_some_and(|(_, rest)| opens_asking(rest))
    };
    if lower.split_whitespace().count() > 45 {
        return None;
    }
    let (cut, skip) = [", and also ", " and also ", ", and "]
        .iter()
        .filter_map(|sep| lower.find(sep).map(|i| (i, sep.len())))
        .find(|&(i, skip)| {
            let next = lower[i + skip..]
                .split_whitespace()
                .next()
                .unwrap_or_default();
            ASKING.contains(&next)
        })?;
    // Sentences before the question's own are context for both parts ("My daughter plays
    // her first rated event. Must she …, and can she …?").
    let opening = lower[..cut].rfind(['.', '!', '?']).map_or(0, |i| i + 1);
    let context = q[..opening].trim();
    let first = q[opening..cut].trim();
    let second = q[cut + skip..].trim();
    let words = |s: &str| s.split_whitespace().count();
    // "…, and would that avoid a penalty?" and "…, and does he lose time for it?" ask about
    // the first question's answer.
    let second_words: Vec<&str> = lower[cut + skip..]
        .split_whitespace()
        .map(|w| w.trim_end_matches(['?', '.', '!']))
        .collect();
    let back = |w: Option<&&str>| matches!(w, Some(&("that" | "it" | "this")));
    let refers_back = back(second_words.get(1)) || back(second_words.last());
    if refers_back
        || !asks(lower[opening..cut].trim_start())
        || words(first) < 4
        || words(second) < 4
    {
        return None;
    }
    let with_context = |part: String| match context {
        "" => part,
        _ => format!("{context} {part}"),
    };
    Some(vec![
        with_context(format!("{}?", first.trim_end_matches('?'))),
        with_context(crate::text::capitalise_first(second)),
    ])
}

/// "Can I castle if my king was in check earlier, or if my rook is attacked?" →
/// ["Can I castle if my king was in check earlier?", "Can I castle if my rook is attacked?"].
fn split_or_if(q: &str) -> Option<Vec<String>> {
    let lower = q.to_lowercase();
    let (cut, skip) = [", or if ", " or if ", ", or when ", "; or if "]
        .iter()
        .find_map(|sep| lower.find(sep).map(|i| (i, sep.len())))?;
    let first = &q[..cut];
    let second = q[cut + skip..].trim_end_matches('?').trim();
    let lower_first = first.to_lowercase();
    let opening = lower_first
        .find(" if ")
        .or_else(|| lower_first.find(" when "))?;
    let prefix = &first[..opening];
    let joiner = if lower[cut..].contains("when") {
        "when"
    } else {
        "if"
    };
    Some(vec![
        format!("{}?", first.trim_end_matches('?').trim()),
        format!("{prefix} {joiner} {second}?"),
    ])
}

/// The settings' cues, in the order settings are reported.
const SETTING_CUES: [(Setting, &[&str]); 8] = [
    (Setting::Rapid, &["rapid", "quickplay", "quick play"]),
    (
        Setting::Blitz,
        &["blitz", "bullet", "five minute", "lightning"],
    ),
    (Setting::Armageddon, &["armageddon", "draw odds"]),
    (
        Setting::Online,
        &[
            "online",
            "lichess",
            "chess.com",
            "chesscom",
            "internet",
            " app ",
            "server",
        ],
    ),
    (
        Setting::UsChess,
        &["uscf", "us chess", "u.s. chess", "usa ", "american"],
    ),
    (
        Setting::Chess960,
        &[
            "960",
            "fischer random",
            "fischerandom",
            "freestyle",
            "chess 960",
            // A king that starts anywhere but the e-file.
            "king starts on b",
            "king starts on c",
            "king starts on d",
            "king starts on f",
            "king starts on g",
            "king starts out on",
            "k starts out on",
            "k starts on",
            "random starting position",
            "random start position",
        ],
    ),
    (
        Setting::Unsupervised,
        &[
            "no arbiter",
            "without an arbiter",
            "without arbiter",
            "unsupervised",
            "no td",
            "casual game",
            "friendly game",
            "no referee",
        ],
    ),
    (
        Setting::Standard,
        &[
            "classical",
            "standard game",
            "slow game",
            "long game",
            "standard time",
            "fide rated classical",
        ],
    ),
];

/// Settings named in a question.
pub fn settings_in(q: &str) -> Vec<Setting> {
    // One pass over the question for all the cues (a set of alternations of the cues as
    // literals, one per setting) instead of a substring search per cue: a setting is found
    // when any of its cues occurs anywhere, as with `has`, in the table's order.
    static CUES: LazyLock<RegexSet> = LazyLock::new(|| {
        RegexSet::new(SETTING_CUES.iter().map(|(_, words)| {
            words
                .iter()
                .map(|w| regex::escape(w))
                .collect::<Vec<_>>()
                .join("|")
        }))
        .expect("valid regex set")
    });
    let q = &without_false_setting_cues(q);
    let mut found: Vec<Setting> = CUES
        .matches(q)
        .into_iter()
        .map(|i| SETTING_CUES[i].0)
        .collect();
    if let Some(s) = time_control_in(q) {
        // The time control stated decides the kind of game (A.1, B.1): "our 10+5 blitz night"
        // is rapid under the Laws, whatever the event calls it.
        // It takes the place of the first kind named (settings keep the table's order); what
        // stands before that place names no kind, so the place survives the removal.
        let at = found
            .iter()
            .position(|f| GAME_KIND_SETTINGS.contains(f))
            .unwrap_or(found.len());
        found.retain(|f| !GAME_KIND_SETTINGS.contains(f));
        found.insert(at, s);
    }
    found
}

/// The settings that are kinds of game by their time (A.1, B.1).
pub(super) const GAME_KIND_SETTINGS: [Setting; 3] =
    [Setting::Standard, Setting::Rapid, Setting::Blitz];

/// The question with the words that look like a setting's cue but are not one blanked out:
/// looking something up online ("I couldn't find anything online", "I read online that…")
/// says where the asker searched, not that the game was played online; "blitz" as a verb ("to
/// blitz moves on the opponent's time", "blitzing out") is about playing fast, in any game;
/// "it stands like in blitz" compares with another kind of game;
/// "Hello chess.com" greets a forum; "not a rapid or blitz game" names the settings the game
/// was not played in; "less than five minutes on his clock" is time left, not a five-minute game.
pub(super) fn without_false_setting_cues(q: &str) -> std::borrow::Cow<'_, str> {
    static FALSE_CUES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?x)
            \b(?:find|found|finding|look|looked|looking|read|reading|search|searched|searching
               |saw|seen|see|googled|checked|research|researched)\b(?:\s+\S+){0,3}?\s+(?:online|(?:on\s+|in\s+)?the\s+internet)\b
            | \b(?:online|internet)\s+(?:that|sources?|articles?|resources?|research|says?|said|forums?|searches?)\b
            | \b(?:like\s+(?:in\s+)?|as\s+in\s+)(?:rapid|blitz|bullet)\b
            | \b(?:like|as|than)\s+(?:it\s+is\s+|it's\s+)?(?:online|on\s+the\s+internet)\b
            | \bto\s+blitz\b | \bblitz(?:ing|ed)\b | \bblitz\s+(?:out\s+)?(?:his|her|my|their|your)?\s*moves\b
            | \b(?:hello|hi|hey|dear|thanks|thank\ you)\s*,?\s+chess\.com\b
            | \bchess\.com\s+(?:community|forums?|members|users)\b
            | \b(?:not|isn't|wasn't|non-?)\s*(?:an?\s+)?(?:rapid|blitz|bullet|online)
              (?:\s+(?:or|nor)\s+(?:rapid|blitz|bullet|online))?\b
            | \b(?:not|isn't|wasn't|aren't|weren't)\s+(?:being\s+)?played\s+(?:under|with|by|in|as)\s+
              (?:the\s+)?(?:an?\s+)?(?:rapid|blitz|bullet|online)
              (?:\s+(?:or|nor)\s+(?:rapid|blitz|bullet|online))?\b
            | \bquick\s?play\s+finish(?:es|ing)?\b
            | \b(?:less\s+than|fewer\s+than|under|below|within|only|last|final)\s+five\s+minutes?\b
            | \bfive\s+minutes?\s+(?:left|remaining|to\s+go|on\s+(?:his|her|my|their|your|the)\s+clock)\b",
        )
        .expect("valid regex")
    });
    if [
        "five minute",
        "online",
        "internet",
        "blitz",
        "chess.com",
        "rapid",
        "bullet",
        "quickplay",
        "quick play",
    ]
    .iter()
    .any(|cue| q.contains(cue))
    {
        FALSE_CUES.replace_all(q, " ")
    } else {
        std::borrow::Cow::Borrowed(q)
    }
}

/// A time control as [`time_control_in`] reads it.
static TIME_CONTROL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \b(\d{1,3})\s?[+|]\s?(\d{1,2})\b
        | \b(\d{1,3})[\s-]?min(?:ute)?s?\s+(?:game|games|chess|time\ control|per\ (?:side|player)|each|rapid|blitz|tournament|event|match|swiss|round)\b
        | \bg\s?/\s?(\d{1,3})\b
        | \b(\d{1,3})\s?min(?:ute)?s?\s?(?:\+|plus|with)\s?(?:an?\s)?(?:increment\sof\s)?(\d{1,2})\s?(?:s|secs?|seconds?)\b",
    )
    .expect("valid regex")
});

/// Whether a text can hold a match of [`TIME_CONTROL`]: each alternative has a literal the
/// text must hold ('+' or '|', "min", '/'). The regex's own search cannot use its lazy DFA
/// on a text with a non-ASCII byte (its Unicode `\b`), and falls back to an engine that costs
/// many times more; most questions name no time control.
fn may_hold_time_control(q: &str) -> bool {
    q.contains(['+', '|', '/']) || q.contains("min")
}

/// The kind of game a time control written in the question makes ("15+10", "a 45 minute
/// game", "G/30"), by the rule of A.1 and B.1: the base time in minutes plus the increment in
/// seconds (its total over 60 moves), ten or less is blitz, under 60 rapid, else standard.
/// Time left on a clock ("with 3 minutes left") is not a time control.
fn time_control_in(q: &str) -> Option<Setting> {
    if !may_hold_time_control(q) {
        return None;
    }
    let c = TIME_CONTROL.captures(q)?;
    let number = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
    let total = match (number(1).or(number(5)), number(2).or(number(6))) {
        (Some(base), Some(increment)) => base + increment,
        _ => number(3).or(number(4))?,
    };
    GameKind::of_minutes(total).map(Setting::from)
}

/// The kind of game a time control makes (A.1, B.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    Blitz,
    Rapid,
    Standard,
}

impl GameKind {
    /// The kind for a total in minutes (base minutes plus increment seconds, the increment
    /// counted over 60 moves): 10 or less is blitz, under 60 rapid, else standard; `None` for 0.
    pub fn of_minutes(total: u32) -> Option<GameKind> {
        Some(match total {
            0 => return None,
            1..=10 => GameKind::Blitz,
            11..=59 => GameKind::Rapid,
            _ => GameKind::Standard,
        })
    }
}

impl From<GameKind> for Setting {
    fn from(kind: GameKind) -> Setting {
        match kind {
            GameKind::Blitz => Setting::Blitz,
            GameKind::Rapid => Setting::Rapid,
            GameKind::Standard => Setting::Standard,
        }
    }
}

fn acts_in(q: &str) -> Vec<Act> {
    let table: [(Act, &[&str]); 6] = [
        (
            Act::Played,
            &[
                "i played",
                "i moved",
                "he played",
                "she played",
                "he moved",
                "she moved",
                "after ",
                "he just",
                "she just",
                "i just",
                "opponent played",
                "opponent moved",
                "i pushed",
                "he pushed",
            ],
        ),
        (
            Act::Claimed,
            &[
                "claimed",
                "i claim",
                "he claim",
                "she claim",
                "my claim",
                "his claim",
            ],
        ),
        (
            Act::Offered,
            &["offered", "offer a draw", "draw offer", "offering"],
        ),
        (Act::Touched, &["touched", "touch "]),
        (
            Act::Flagged,
            &[
                "flag fell",
                "flagged",
                "flag dropped",
                "ran out of time",
                "run out of time",
                "lost on time",
                "timed out",
                "times out",
                "time out",
                "timeout",
                "flag falls",
                "flag fall",
                "time ran out",
                "time runs out",
                "runs out of time",
                "time expired",
                "time had expired",
                "out of time",
            ],
        ),
        (Act::Resigned, &["resigned", "resigns"]),
    ];
    table
        .iter()
        .filter(|(_, words)| has(q, words))
        .map(|(a, _)| *a)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::actors::PieceKind;
    use crate::rulebook::Passage;

    #[test]
    fn a_king_starting_off_the_e_file_is_chess960() {
        assert!(
            settings_in("what if your king starts on g and rooks on f and h?")
                .contains(&Setting::Chess960)
        );
        assert!(
            settings_in("what do you do if the k starts out on either c1 or g1?")
                .contains(&Setting::Chess960)
        );
        assert!(
            !settings_in("the king starts on e1 and the queen on d1").contains(&Setting::Chess960)
        );
    }

    #[test]
    fn a_castle_after_a_determiner_is_a_rook() {
        assert_eq!(
            spell_out_pieces("can a pawn take the castle if his other castle backs him up?"),
            "can a pawn take the rook if his other rook backs him up?"
        );
        assert_eq!(
            spell_out_pieces(
                "my soldier reach last line, I want new lady; his horse gives chess to my king, I make castle"
            ),
            "my pawn reach last line, I want new queen; his knight gives check to my king, I castle"
        );
        assert_eq!(
            spell_out_pieces("opp flagged, my opp's queen and the opps"),
            "opponent flagged, my opponent's queen and the opponents"
        );
        assert_eq!(
            spell_out_pieces("the opposite colour"),
            "the opposite colour"
        );
        for q in [
            "can I castle out of check?",
            "I lost the castle rights",
            "is a castle kingside legal here?",
        ] {
            assert_eq!(spell_out_pieces(q), q);
        }
    }

    #[test]
    fn words_that_only_look_like_a_setting_are_none() {
        for q in [
            "i couldn't find anything online that said you could",
            "i read online that you can castle out of check",
            "i searched for it online but no luck",
            "i've been looking on the internet for some reference to this procedure",
            "i searched the internet and found nothing",
            "i thought that's a draw, like online, because two knights can't force mate",
        ] {
            assert!(!settings_in(q).contains(&Setting::Online), "{q}");
        }
        for q in [
            "i was playing online",
            "in an online blitz game",
            "online chess",
        ] {
            assert!(settings_in(q).contains(&Setting::Online), "{q}");
        }
        for q in [
            "is it illegal for a player to blitz moves on the opponent's time?",
            "he was blitzing out his moves",
            "with less than five minutes on his clock he stopped writing",
            "he had five minutes left",
        ] {
            assert!(!settings_in(q).contains(&Setting::Blitz), "{q}");
        }
        assert!(
            !settings_in("hello chess.com. is it required to write down notation in tournaments?")
                .contains(&Setting::Online)
        );
        assert!(settings_in("a blitz game: can he blitz out moves?").contains(&Setting::Blitz));
        assert!(settings_in("a five minute game: who wins?").contains(&Setting::Blitz));
        assert_eq!(
            settings_in("normal chess rules, so not a rapid or blitz game. he flagged"),
            []
        );
        assert_eq!(settings_in("a rapid game, not blitz"), [Setting::Rapid]);
        assert_eq!(
            settings_in("tournament is not being played under blitz rules. sudden death"),
            []
        );
        assert_eq!(settings_in("it wasn't played as a rapid game"), []);
    }

    #[test]
    fn a_choice_of_results_and_a_match_decided_ask_for_the_result() {
        for q in [
            "Armageddon tiebreak: the game ended in stalemate. Who goes through?",
            "The 75th move was checkmate. Is that a draw under the 75-move rule or a win?",
            "My flag fell after I stalemated him. Draw or loss?",
        ] {
            assert_eq!(kind_of(&lowered(q)), QuestionKind::Result, "{q}");
        }
    }

    #[test]
    fn a_definition_asked_inside_a_sentence_or_with_a_swear_word() {
        let term = |q: &str| embedded_definition(&lowered(q));
        assert_eq!(
            term("Sure would be nice to know what in the fuck en passant is").as_deref(),
            Some("en passant")
        );
        assert_eq!(
            term("what the hell is en passant").as_deref(),
            Some("en passant")
        );
        assert_eq!(
            term("can someone tell me what a flag is?").as_deref(),
            Some("flag")
        );
        // Asked plainly: the kind cues read it, and it is matched as written.
        assert_eq!(term("What is en passant?"), None);
        // Not a term.
        assert_eq!(
            term("I had a game drawn by the 50 move rule. I want to know what that is"),
            None
        );
        assert_eq!(
            term("i'd like to know what the rule is when both flags fall"),
            None
        );
        assert_eq!(
            term("Both bishops on dark squares. Need to know what's valid before Thursday."),
            None
        );
        assert_eq!(
            Frame::read("Sure would be nice to know what in the fuck en passant is").kind,
            QuestionKind::Definition
        );
        assert_eq!(
            kind_of(&lowered("how the hell can he castle?")),
            QuestionKind::HowTo
        );
    }

    /// `extra`, then every passage's text and `more` of each passage, lower case: the texts
    /// the cue tests run over.
    fn rulebook_texts(extra: &[&str], more: impl Fn(&Passage) -> Vec<&str>) -> Vec<String> {
        let book = crate::rulebook::Rulebook::embedded().unwrap();
        let mut texts: Vec<String> = extra.iter().map(|t| t.to_string()).collect();
        texts.extend(book.passages.iter().map(|p| p.text.to_lowercase()));
        texts.extend(book.passages.iter().flat_map(|p| {
            more(p)
                .into_iter()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        }));
        texts
    }

    #[test]
    fn settings_are_found_as_by_each_cue() {
        let texts = rulebook_texts(
            &[
                "a 15+10 rapid game on lichess, no arbiter",
                "usa  blitz app  chess 960 classical",
                "in an app game",
                "",
            ],
            |p| vec![p.title.as_str()],
        );
        for q in &texts {
            // Both read the text with the look-alike cues blanked out.
            let cues = without_false_setting_cues(q);
            let mut expected: Vec<Setting> = SETTING_CUES
                .iter()
                .filter(|(_, words)| has(&cues, words))
                .map(|(s, _)| *s)
                .collect();
            if let Some(s) = time_control_in(&cues) {
                // The time control replaces the kinds of game named, in the first one's place.
                let kinds: Vec<usize> = (0..expected.len())
                    .filter(|&i| GAME_KIND_SETTINGS.contains(&expected[i]))
                    .collect();
                match kinds.first() {
                    Some(&first) => {
                        expected[first] = s;
                        for &i in kinds[1..].iter().rev() {
                            expected.remove(i);
                        }
                    }
                    None => expected.push(s),
                }
            }
            assert_eq!(settings_in(q), expected, "{q}");
        }
    }

    #[test]
    fn time_controls_are_looked_for_only_where_one_can_be() {
        let texts = rulebook_texts(
            &[
                "a 15+10 rapid game, ½ point",
                "g/30 in café",
                "a 45 minute game — who wins?",
                "٣+٢ blitz",
                "3 | 2 blitz",
            ],
            |p| p.phrasings().collect(),
        );
        let mut found = 0;
        for q in &texts {
            let matched = TIME_CONTROL.is_match(q);
            assert!(may_hold_time_control(q) || !matched, "{q}");
            found += usize::from(matched);
        }
        assert!(found >= 5, "{found}");
    }

    #[test]
    fn kinds() {
        let k = |q: &str| Frame::read(q).kind;
        assert_eq!(k("Can I castle out of check?"), QuestionKind::YesNo);
        assert_eq!(
            k("In chess can you kill when your in check"),
            QuestionKind::YesNo
        );
        assert_eq!(k("A phone rang, who loses?"), QuestionKind::Result);
        assert_eq!(k("Should I always take a queen?"), QuestionKind::Advice);
        assert_eq!(k("What happens if my flag falls?"), QuestionKind::Ruling);
        assert_eq!(k("How do I claim a draw?"), QuestionKind::HowTo);
        assert_eq!(k("What is en passant?"), QuestionKind::Definition);
        assert_eq!(
            k(
                "White castles through check and presses the clock, Black claims. What is the decision this time?"
            ),
            QuestionKind::Ruling
        );
        assert_eq!(
            k("Which draws does the arbiter declare without a claim?"),
            QuestionKind::Open
        );
        assert_eq!(k("Why can't my king take his queen?"), QuestionKind::Open);
        assert_eq!(k("I took his king. Do I win?"), QuestionKind::ResultYesNo);
        assert_eq!(
            k("He has no moves, doesn't that mean I win?"),
            QuestionKind::ResultYesNo
        );
        assert_eq!(k("Do I lose or is it a draw?"), QuestionKind::Result);
        assert_eq!(
            k("Do I wait for a claim or do I step in?"),
            QuestionKind::Ruling
        );
        assert_eq!(k("Can I castle here?"), QuestionKind::YesNo);
        assert_eq!(
            k("Rook under attack should not be allowed to castle"),
            QuestionKind::Statement
        );
        assert_eq!(k("Castling through check?"), QuestionKind::Other);
        assert_eq!(
            k("Two-handed castling is penalised as illegal. But does the move stand?"),
            QuestionKind::YesNo
        );
        assert_eq!(
            k("He moved into check and the arbiter let him play on. What's correct?"),
            QuestionKind::Ruling
        );
    }

    #[test]
    fn the_moves_a_story_tells_are_counted() {
        for (story, moves) in [
            (
                " round 3, about 8 moves in, we realised we had the wrong colours ",
                Some(8),
            ),
            (
                " we noticed on move 12 that the colours were wrong ",
                Some(12),
            ),
            (" after twelve moves we saw the board was turned ", Some(12)),
            (" at the 15th move the arbiter came ", Some(15)),
            (
                " 40 moves in 90 minutes, then at move 20 we saw it ",
                Some(20),
            ),
            (
                " we played with the wrong colours, does the game count? ",
                None,
            ),
            (" i moved my king and ", None),
        ] {
            assert_eq!(moves_told(story), moves, "{story}");
        }
    }

    #[test]
    fn a_counted_piece_is_spelt_out() {
        assert_eq!(
            spell_out_pieces("K+2N vs K is a dead draw?"),
            "king two knights vs king is a dead draw?"
        );
        // Without a king named, "2B" may be anything.
        assert_eq!(spell_out_pieces("board 2B"), "board 2B");
    }

    #[test]
    fn a_castling_sign_says_castling() {
        assert_eq!(
            castling_sign_spelt("White played 14.0-0 which was illegal"),
            "White played 14.0-0 (castled kingside) which was illegal"
        );
        assert_eq!(
            castling_sign_spelt("can I play O-O-O here?"),
            "can I play O-O-O (castled queenside) here?"
        );
        assert_eq!(
            castling_sign_spelt("the match stood at 0-0 after two games"),
            "the match stood at 0-0 after two games"
        );
    }

    #[test]
    fn a_mate_sign_says_checkmate() {
        assert_eq!(
            spell_out_pieces("I played Qh7# but forgot the clock"),
            "I played Qh7 checkmate but forgot the clock"
        );
        assert_eq!(
            mate_sign_spelt("exd8=Q# and O-O-O#"),
            "exd8=Q checkmate and O-O-O checkmate"
        );
        assert_eq!(mate_sign_spelt("board #3, rule #1"), "board #3, rule #1");
    }

    #[test]
    fn a_quiz_label_is_no_part_of_the_question() {
        assert_eq!(
            without_quiz_label("Q: Blitz 5+0. Who wins?"),
            "Blitz 5+0. Who wins?"
        );
        assert_eq!(
            without_quiz_label("Question 3: can I castle?"),
            "can I castle?"
        );
        assert_eq!(without_quiz_label("Q: Q: Ruling?"), "Ruling?");
        // A queen's letter in a move, or "Q-side", is no label.
        assert_eq!(without_quiz_label("Qxf7 mate?"), "Qxf7 mate?");
        assert_eq!(
            without_quiz_label("Q-side castling with the a-rook attacked?"),
            "Q-side castling with the a-rook attacked?"
        );
        assert_eq!(without_quiz_label("Q. Who wins?"), "Who wins?");
        assert_eq!(without_quiz_label("Quiz - who wins?"), "who wins?");
        assert_eq!(without_quiz_label("Q:"), "Q:");
        assert_eq!(
            without_quiz_label("Exam question: In a standard game, who wins?"),
            "In a standard game, who wins?"
        );
        assert_eq!(
            without_quiz_label("Scenario 2: My flag fell."),
            "My flag fell."
        );
        assert_eq!(without_quiz_label("Case closed?"), "Case closed?");
    }

    #[test]
    fn an_appendix_named_as_the_setting_is_left_out_of_the_matched_text() {
        assert_eq!(
            without_asides(
                "Rapid 20+5 under Appendix A.5. Black claims the fifty-move rule. What is the ruling?"
            ),
            "Rapid 20+5. Black claims the fifty-move rule. What is the ruling?"
        );
        assert_eq!(
            without_asides(
                "Blitz 3+2 (Appendix B.3 applies). Black castles with two hands. What penalty applies?"
            ),
            "Blitz 3+2. Black castles with two hands. What penalty applies?"
        );
        assert_eq!(
            without_asides(
                "Blitz event; the regulations apply B.3 because not every game has its own arbiter. White makes his first illegal move of the game."
            ),
            "Blitz event;. White makes his first illegal move of the game."
        );
        // The appendix asked about stays.
        for asked in [
            "What does Appendix A.5 say about illegal moves?",
            "Does appendix B.3 apply to my club's blitz night?",
        ] {
            assert_eq!(without_asides(asked), asked);
        }
    }

    #[test]
    fn a_comparison_in_brackets_is_left_out_of_the_matched_text() {
        assert_eq!(
            without_asides(
                "He moves with his right hand and presses the clock with his left, so I claimed an illegal move (like when you castle with 2 hands). Do I get a minute?"
            ),
            "He moves with his right hand and presses the clock with his left, so I claimed an illegal move. Do I get a minute?"
        );
        let asked = "Can I castle (king and rook with two hands) in blitz?";
        assert_eq!(without_asides(asked), asked);
    }

    #[test]
    fn a_time_control_stated_as_the_setting_is_left_out_of_the_matched_text() {
        assert_eq!(
            without_asides(
                "Time control is 90 minutes for the game with 30 seconds added per move from move 1. A player stops writing down the moves. What should the arbiter do?"
            ),
            " A player stops writing down the moves. What should the arbiter do?"
        );
        assert_eq!(
            without_asides(
                "In a standard game (90 minutes + 30 seconds per move) the arbiter sees a flag fall. What should he do?"
            ),
            "In a standard game the arbiter sees a flag fall. What should he do?"
        );
        assert_eq!(
            without_asides(
                "Time control 40 moves in 90 minutes, then 30 minutes with 30 seconds added per move. White's clock ran all game. What should the arbiter do?"
            ),
            " White's clock ran all game. What should the arbiter do?"
        );
        assert_eq!(
            without_asides(
                "The time limit was 40 moves in 90 minutes, then 30 minutes. The clock needed a firm press. What should the arbiter do?"
            ),
            " The clock needed a firm press. What should the arbiter do?"
        );
        assert_eq!(
            without_asides(
                "In a game of 90 minutes with 30 seconds increment from move one, White played Ke8 and claimed mate. Is it mate?"
            ),
            "In a game of , White played Ke8 and claimed mate. Is it mate?"
        );
        // The increment decides whether recording may stop (8.4): it stays in such a story.
        let recording =
            "We play 60 minutes with 30 seconds per move. Must I keep writing my moves?";
        assert_eq!(without_asides(recording), recording);
        // The time control asked about stays.
        for asked in [
            "What is the time control for a rapid game?",
            "Our time control is 90+30. Is that rapid?",
        ] {
            assert_eq!(without_asides(asked), asked);
        }
    }

    #[test]
    fn an_example_belongs_to_a_short_question_before_it_only() {
        let vague = "Does it matter whose move it is? For instance if a position appears once with White to move and once with Black to move, do both count towards the repetition?";
        assert_eq!(sub_questions(vague).len(), 1);
        let full = "Can an opponent move their king into check when it is the only piece he can move? For example, how about moving the king into the line of a rook?";
        assert_eq!(sub_questions(full).len(), 2);
    }

    #[test]
    fn queen_as_a_verb_is_a_promotion() {
        assert_eq!(
            queening_as_promotion("Can you queen a pawn twice?"),
            "Can you promote a pawn to a queen twice?"
        );
        assert_eq!(
            queening_as_promotion("he queened his pawn with check"),
            "he promoted his pawn to a queen with check"
        );
        assert_eq!(
            queening_as_promotion("my queen took his pawn"),
            "my queen took his pawn"
        );
    }

    #[test]
    fn chat_spellings_are_written_out_and_squares_left_alone() {
        assert_eq!(
            chat_speak_written_out("ep do u have to do it right away, cant u wait? Bb4 stays"),
            "ep do you have to do it right away, can't you wait? Bb4 stays"
        );
        assert_eq!(
            chat_speak_written_out("Im sure ur flag fell"),
            "I'm sure your flag fell"
        );
        assert_eq!(
            chat_speak_written_out("sections down to U-2000 and U1800, can u say"),
            "sections down to U-2000 and U1800, can you say"
        );
        assert!(matches!(
            chat_speak_written_out("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_surely_follow_up_belongs_to_the_question_before() {
        for story in [
            "A spectator told the arbiter that my king had moved before I castled. What happens now? Surely it's too late after 8 moves?",
            "About 8 moves in, we realised we'd been playing the wrong colours. What happens now? And what if we'd only noticed at move 15?",
            "His flag fell and I claimed. Was the arbiter right? And would it have been the same if it was my flag?",
            "Can I walk around the hall while it's my move? And while my opponent is thinking?",
            "Do I need permission to leave while I'm on move? And what about when it's my opponent's move?",
            "If I knock over a piece in blitz, must I put it back on my own time? Does this also apply to rapid and classical?",
        ] {
            assert_eq!(sub_questions(story).len(), 1, "{story}");
        }
    }

    #[test]
    fn a_short_question_about_those_leans_on_the_one_before() {
        assert_eq!(
            sub_questions(
                "What are the rules for writing on the score sheet? Are those the legal moves of \
                 the match? What happens if one player wrote some moves and played others?"
            ),
            [
                "What are the rules for writing on the score sheet? Are those the legal moves \
                 of the match?",
                "What happens if one player wrote some moves and played others?"
            ]
        );
        // Asking something of its own about "this" is a part of its own.
        assert_eq!(
            sub_questions("What happens when they notice it later? Could this trick be used in a tournament game?")
                .len(),
            2
        );
    }

    #[test]
    fn parts() {
        assert_eq!(
            sub_questions(
                "Can I castle if my king was in check earlier, or if my rook is attacked?"
            ),
            [
                "Can I castle if my king was in check earlier?",
                "Can I castle if my rook is attacked?"
            ]
        );
        assert_eq!(
            sub_questions("In a rapid game he castled with one hand. The TD said I lose. Right?")
                .len(),
            1
        );
        // A protest in the telling ("But my pawn isn't pinned??") is story, not a question of
        // its own; "But does …?" still asks.
        assert_eq!(
            sub_questions(
                "I took en passant and the TD said it's illegal. But my pawn isn't pinned?? \
                 His pawn is between the rook and my king. Is the TD right?"
            )
            .len(),
            1
        );
        assert_eq!(
            sub_questions("Can I castle out of check? But does castling keep my rights?").len(),
            2
        );
        assert_eq!(
            sub_questions("1. Can a pawn promote to a king?\n2. Must I claim a threefold?").len(),
            2
        );
        assert_eq!(
            sub_questions(
                "3 things from my first rated tournament (G/90+30): 1) can I get up while its my \
                 opponents move? 2) I straightened my pieces and he complained - why? 3) do I \
                 have to keep writing?"
            ),
            [
                "can I get up while its my opponents move?",
                "I straightened my pieces and he complained - why?",
                "do I have to keep writing?"
            ]
        );
        assert_eq!(
            sub_questions(
                "Arbiter here, 50-move stuff: (a) can he claim after touching a piece? (b) when \
                 does the game end by itself?"
            )
            .len(),
            2
        );
        // Questions after a story keep it: the sentence split decides.
        let first = &sub_questions(
            "An opponent tipped over his king in disgust after a blunder, then saw he could \
             still win and asked to keep playing, so I called the arbiter over to the board at \
             once. 1) How would the TD decide on this? 2) What if he said it was an accident?",
        )[0];
        assert!(first.split_whitespace().count() > 20, "{first}");
        // Numbered questions after a story each keep it; an unnumbered later question asks
        // something of its own.
        let items = sub_questions(
            "He castled long although his king had moved twice earlier in the game. We both \
             noticed it only a few moves later. 1) Would he \
             have to move his king? 2) If I had noticed after a move or two, what then?",
        );
        assert!(items[1].starts_with("He castled long"), "{items:?}");
        let own = sub_questions(
            "He castled long although his king had moved. Was that legal? Is touch-move \
             the rule for my own pieces too?",
        );
        assert!(own[1].starts_with("Is touch-move"), "{own:?}");
        // Two questions joined by "and" after a sentence of context keep the context each.
        assert_eq!(
            sub_questions(
                "My son plays his first rated event. Must he write his opponent's moves too, \
                 and can he write his own move first?"
            ),
            [
                "My son plays his first rated event. Must he write his opponent's moves too?",
                "My son plays his first rated event. Can he write his own move first?"
            ]
        );
        // A closing "this must be a bug, right?" checks the story and stays with it.
        assert_eq!(
            sub_questions(
                "I moved my pawn from c2 to c4 and the computer took it with its d4 pawn on \
                 c3?? I'm a chess noob, but this has got to be some kind of bug, right?"
            )
            .len(),
            1
        );
        // A second question about the first one's answer is not asked alone.
        assert_eq!(
            sub_questions(
                "Can a player with a broken arm use an assistant to press the clock, and does \
                 he lose time for it?"
            )
            .len(),
            1
        );
        // Steps of a procedure are not questions.
        assert_eq!(
            sub_questions("How to claim: 1) Pause the clock. 2) Call the arbiter.").len(),
            1
        );
        // A lone "a)" or items out of order are not a list.
        assert_eq!(
            sub_questions("Plan a) was to castle. Can I castle now?").len(),
            1
        );
        // A cut marked before a follow-up does not hide its opening.
        assert_eq!(
            sub_questions(
                "Why is it a draw when his time ran out? (…) So the time does not matter?"
            )
            .len(),
            1
        );
        assert_eq!(
            sub_questions("Is fivefold automatic? Does threefold need three moves in a row?").len(),
            2
        );
        assert_eq!(
            sub_questions(
                "In Chess960, where do the king and rook end up after castling on the g-side, and can I castle on my very first move?"
            ),
            [
                "In Chess960, where do the king and rook end up after castling on the g-side?",
                "Can I castle on my very first move?"
            ]
        );
        assert_eq!(
            sub_questions("You are playing as black, and are well into the endgame. What now?")
                .len(),
            1
        );
        assert_eq!(
            sub_questions("A phone rang in my pocket. Can I say it is someone else's, and would that avoid a penalty?").len(),
            1
        );
        assert_eq!(
            sub_questions("Isn't the default time thirty minutes? Shouldn't I have won?").len(),
            1
        );
        assert_eq!(
            sub_questions(
                "White timed out, so White can't win? So Black can't win either, so it's a draw?"
            )
            .len(),
            1
        );
        assert_eq!(
            sub_questions(
                "He stopped the clock and said draw? and I said ok. Then he said he meant \
                 something else. Is it a draw?"
            )
            .len(),
            1
        );
        assert_eq!(
            sub_questions(
                "Is it just leaving the king in check? Or does it cover any violation of the laws?"
            )
            .len(),
            2
        );
        assert_eq!(
            sub_questions(
                "He said \"Do you want a draw?\" and I accepted. Then he said “Draw? Never!” Is it a draw?"
            )
            .len(),
            1
        );
        assert_eq!(
            sub_questions(
                "He touched his king. Could I have claimed the win? Bearing in mind the king \
                 does not have a square to move to?"
            )
            .len(),
            1
        );
        assert_eq!(
            sub_questions(
                "Are you allowed to make a move when you're in check? or you cannot make any move?"
            )
            .len(),
            1
        );
    }

    #[test]
    fn piece_letters_are_spelt_out() {
        assert_eq!(
            spell_out_pieces("White has K and R, black has K+N. Result?"),
            "White has king and rook, black has king knight. Result?"
        );
        assert_eq!(spell_out_pieces("Player B lost"), "Player B lost");
        assert_eq!(
            spell_out_pieces("I have K+N and he has K+P, his flag fell"),
            "I have king knight and he has king pawn, his flag fell"
        );
        assert_eq!(
            spell_out_pieces("KBN vs K, does the K win on time?"),
            "king and bishop and knight vs king, does the king win on time?"
        );
        // Without a king named apart, a capital P or an army word is left alone.
        assert_eq!(spell_out_pieces("P1 vs P2, KN"), "P1 vs P2, KN");
        assert_eq!(
            spell_out_pieces("a draw if you have KNvKQ and the queen times out"),
            "a draw if you have king and knight against king and queen and the queen times out"
        );
        assert_eq!(
            spell_out_pieces("KBNvsK is a win"),
            "king and bishop and knight against king is a win"
        );
        assert_eq!(
            spell_out_pieces("KNN vs K, is it a draw?"),
            "king and two knights vs king, is it a draw?"
        );
        assert_eq!(spell_out_pieces("Kv is not one"), "Kv is not one");
        assert_eq!(spell_out_pieces("Is Nf3 legal?"), "Is Nf3 legal?");
    }

    #[test]
    fn settings_actors_acts() {
        let f = Frame::read("In blitz he flagged while I had king and bishop. Who wins?");
        assert_eq!(f.settings, [Setting::Blitz]);
        assert!(f.actors.contains(&Actor::Opponent));
        assert!(
            f.actors
                .contains(&Actor::Holding(vec![PieceKind::King, PieceKind::Bishop]))
        );
        assert!(f.acts.contains(&Act::Flagged));
        assert!(Frame::read("I played Qb6 and his king can't move").reports_played_move());
    }

    #[test]
    fn a_question_after_a_comma_has_its_kind() {
        let kind = |q: &str| Frame::read(q).kind;
        assert_eq!(
            kind("my opponent is eating loudly, what can I do?"),
            QuestionKind::Ruling
        );
        assert_eq!(kind("he flagged, can I claim?"), QuestionKind::YesNo);
        // Without a question mark, the ask that ends the line.
        assert_eq!(
            kind("article 4.4 touched rook first then king can i castle"),
            QuestionKind::YesNo
        );
        assert_eq!(
            kind("the arbiter said I can play on and I did"),
            QuestionKind::Statement
        );
    }

    #[test]
    fn time_controls_name_their_setting_and_time_left_does_not() {
        let setting = |q: &str| Frame::read(q).settings;
        assert_eq!(setting("In a 15+10 game he flagged"), [Setting::Rapid]);
        assert_eq!(setting("3+2, he castled with two hands"), [Setting::Blitz]);
        assert_eq!(setting("in a 3|2 game he flagged"), [Setting::Blitz]);
        assert_eq!(
            setting("our 45 minute game, he had 3 minutes left"),
            [Setting::Rapid]
        );
        assert_eq!(
            setting("a 90 min game with 30 s increment"),
            [Setting::Standard]
        );
        assert_eq!(setting("G/30 with delay"), [Setting::Rapid]);
        assert_eq!(
            setting("In a 15 minute plus 10 second game he made an illegal move"),
            [Setting::Rapid]
        );
        assert_eq!(
            setting("with 5 minutes and 30 seconds left he offered a draw"),
            []
        );
        assert_eq!(setting("I had one minute and 90 seconds left"), []);
        assert_eq!(setting("with 5 minutes left he offered a draw"), []);
    }
}
