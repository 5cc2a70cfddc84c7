//! Which way a yes/no question is put. "Can I castle out of check?" and "Is it illegal to castle
//! out of check?" ask the same thing, and a bare "Yes" answers one of them and means the opposite
//! for the other. The rulings (whose headings are put one way) and the position layer's verdict on
//! a move both read the question here, and say a verdict in words when a bare "Yes" or "No" would
//! mislead.

use std::sync::LazyLock;

use regex::Regex;

/// Which way a question about permission is put: whether something may be done ("Can I…?",
/// "Is it allowed…?") or whether it is forbidden ("Is it illegal…?", "Is it against the
/// rules…?"). A ruling's "Yes" answers one of them and means the opposite for the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// "Can I…?", "Is it allowed…?", "Is Nxe5 legal?": a "Yes" grants.
    MayIt,
    /// "Is it illegal…?", "Is it against the rules…?", "Is Kd2 illegal?": a "Yes" forbids.
    IsItForbidden,
}

/// A move as the question names it ("nxe5", "kd2", "o-o", "e8=q"), asked about like "it" ("is
/// kd2 illegal?").
const MOVE: &str = r"[kqrbn]?[a-h]?[1-8]?x?[a-h][1-8](=?[qrbn])?[+#]?|o-o(-o)?|0-0(-0)?|castling";

impl Permission {
    /// How a lower-cased question is put; `None` when it asks neither way or both ("is it legal
    /// or illegal?"), or asks something else ("what happens…?"). "Can I…?" counts at the start of
    /// any of its sentences ("I played Qh5. Can he play Nc6?").
    pub fn asked_in(lower: &str) -> Option<Permission> {
        static MAY_SENTENCE: LazyLock<Regex> = LazyLock::new(|| may(r"(^|[.?!;]\s)\s*(can|may)"));
        Permission::read(lower, &MAY_SENTENCE)
    }

    /// How a ruling's lower-cased heading is put. "Can I…?" counts only when the heading is that
    /// question: in "My opponent made an illegal move. Can I claim a win?" the ruling's "No" is
    /// about the claim, not about the move a question may call illegal.
    pub fn of_heading(lower: &str) -> Option<Permission> {
        static MAY_HEADING: LazyLock<Regex> = LazyLock::new(|| may(r"^\s*(can|may)"));
        Permission::read(lower, &MAY_HEADING)
    }

    fn read(lower: &str, may: &Regex) -> Option<Permission> {
        static FORBIDDEN: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(&format!(r"\b(is|was|would) (it|that|this|{MOVE})( really)? (illegal|against the rules|forbidden|not allowed|prohibited|cheating)\b"))
                .expect("valid regex")
        });
        match (FORBIDDEN.is_match(lower), may.is_match(lower)) {
            (true, false) => Some(Permission::IsItForbidden),
            (false, true) => Some(Permission::MayIt),
            _ => None,
        }
    }
}

/// The words that ask whether something may be done, with `can_may` where "can I" / "may I" may
/// stand.
fn may(can_may: &str) -> Regex {
    Regex::new(&format!(
        r"\b(is|was) (it|that|this|{MOVE}) (allowed|legal|permitted)\b|\b(am|was) i allowed\b|{can_may} (i|you|he|she|we|a|an|the|my|white|black)\b"
    ))
    .expect("valid regex")
}

/// A ruling's bare "Yes"/"No", written for a question put the other way round, said in words
/// instead. `written`: how the ruling's heading is put. Under "Can I…?" a "Yes" grants
/// permission; under "Is it illegal to…?" a "Yes" refuses it.
pub(super) fn said_in_words(text: &str, written: Permission) -> String {
    match bare_yes_or_no(text) {
        Some((yes, mark, rest)) => {
            let allowed = yes == (written == Permission::MayIt);
            let verdict = if allowed {
                "It is allowed"
            } else {
                "It is not allowed"
            };
            let mark = if mark == '.' { '.' } else { ':' };
            format!("{verdict}{mark} {rest}")
        }
        None => text.to_string(),
    }
}

/// A text's bare "Yes" or "No" opening ("Yes: …", "No, …", "No. …"): whether it says yes, the
/// mark after it, and the rest of the text.
pub(crate) fn bare_yes_or_no(text: &str) -> Option<(bool, char, &str)> {
    let (yes, after) = match text.strip_prefix("Yes") {
        Some(after) => (true, after),
        None => (false, text.strip_prefix("No")?),
    };
    let mark = after
        .chars()
        .next()
        .filter(|c| matches!(c, ':' | ',' | '.'))?;
    let rest = after[mark.len_utf8()..].strip_prefix(' ')?;
    Some((yes, mark, rest))
}

/// The words that make a statement negative ("so I can't claim it, right?", "is it true that
/// you cannot castle…?"), as regex alternatives.
const NEGATION: &str = r"not|no|never|cannot|can't|cant|can\s+not|isn't|isnt|doesn't|doesnt|don't|dont|won't|wont|mustn't|shouldn't|nobody|nothing";

/// "Was the arbiter right?", "Is the DOP correct in his decision?", "Was I correct?", "Is the
/// decision of the arbiter correct?": the verb is the group `verb`, the person asked about the
/// group `who`.
pub(super) const NAMED_PERSON_IS_RIGHT: &str = concat!(
    r"\b(?P<verb>was|is|were|are)\s+(the\s+)?(?P<who>arbiter|arbitor|td|director|dop|referee|organi[sz]er|captain|he|she|they|i|my opponent)('s)?\s+(\w+\s+){0,2}(right|correct|wrong|incorrect)\b",
    r"|\b(?P<verb2>was|is)\s+(the|his|her|this|that)\s+(decision|ruling|call)\s+(of|by)\s+(the\s+)?(?P<who2>arbiter|arbitor|td|director|dop|referee|organi[sz]er|captain)\s+(right|correct|wrong|incorrect)\b",
);

/// Whether the question asks if someone's decision or statement is right ("Was the arbiter
/// right?", "Is the DOP correct in his decision?", "Who is right?", "Is that true?"), rather
/// than asking about the move or the rule itself: a ruling's bare "Yes" or "No" answers its own
/// heading, not that, and would read as a verdict on the decision or the statement.
pub fn asks_whether_someone_is_right(lower: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        let asks = concat!(
            r"|\bwho(\s+is|'s)\s+right\b",
            r"|\b(is|was)\s+(that|this)\s+(right|true|correct|fair)\b",
            // A statement followed by a one-word question ("… if you still have your queen. True?").
            r"|(^|[.!?;:]\s*)(true|fair|correct|right|really)\s*\?",
        );
        // A negative statement with a tag ("so i cant claim 3fold right?"): a bare "Yes" would
        // read as agreeing that it is not allowed.
        let negative_tag = format!(r"|\b({NEGATION})\b[^?.!]*[\s,]right\s*\?");
        Regex::new(&format!("{NAMED_PERSON_IS_RIGHT}{asks}{negative_tag}")).expect("valid regex")
    });
    RE.is_match(lower) || asks_whether_a_saying_is_true(lower)
}

/// "Is it true…?" asks about a saying. Followed by the saying itself ("Is it true that a king
/// on the far side draws?"), it asks what the saying asks, and a ruling on that question
/// answers it with its own "Yes" or "No" — unless the saying is negative ("Is it true that you
/// can't castle after a check?"), where the ruling's "Yes" would read as agreeing.
fn asks_whether_a_saying_is_true(lower: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(is|was)\s+it\s+(true|correct)\b(\s+or\s+not)?(?P<that>\s+that\b(?P<saying>[^?]*))?")
            .expect("valid regex")
    });
    static NEGATIVE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!(r"\b({NEGATION})\b")).expect("valid regex"));
    RE.captures(lower).is_some_and(|c| match c.name("saying") {
        Some(saying) => NEGATIVE.is_match(saying.as_str()),
        None => true,
    })
}

/// `text` without its bare "Yes" or "No" opening, the rest capitalised.
pub(crate) fn without_bare_yes_or_no(text: &str) -> String {
    match bare_yes_or_no(text) {
        Some((_, _, rest)) => crate::text::capitalise_first(rest),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yes_or_no_written_for_the_other_way_of_asking_is_said_in_words() {
        use Permission::*;
        assert_eq!(
            Permission::asked_in("is it illegal to castle out of check?"),
            Some(IsItForbidden)
        );
        assert_eq!(
            Permission::asked_in("can a pawn move backwards?"),
            Some(MayIt)
        );
        assert_eq!(
            Permission::asked_in("is it allowed to castle twice?"),
            Some(MayIt)
        );
        assert_eq!(
            Permission::asked_in("what happens after an illegal move?"),
            None
        );
        assert_eq!(
            Permission::asked_in("i played qh5. can he play nc6?"),
            Some(MayIt)
        );
        assert_eq!(Permission::asked_in("is kd2 illegal?"), Some(IsItForbidden));
        assert_eq!(Permission::asked_in("is o-o legal here?"), Some(MayIt));
        assert_eq!(Permission::asked_in("this is not allowed, is it?"), None);
        assert_eq!(
            said_in_words("No: a pawn never retreats.", MayIt),
            "It is not allowed: a pawn never retreats."
        );
        assert_eq!(
            said_in_words("Yes, once per game.", MayIt),
            "It is allowed: once per game."
        );
        assert_eq!(
            said_in_words("Only with the arbiter's permission.", MayIt),
            "Only with the arbiter's permission."
        );
        // Under "Is it illegal to take the king?", "Yes" forbids.
        assert_eq!(
            said_in_words("Yes: capturing the king is never legal.", IsItForbidden),
            "It is not allowed: capturing the king is never legal."
        );
    }
    #[test]
    fn questions_whether_someone_is_right() {
        use super::asks_whether_someone_is_right as asks;
        assert!(asks("the dop says no. is the dop correct in his decision?"));
        assert!(asks("was the arbiter right to forfeit him?"));
        assert!(asks("he says it's a draw, i say i won. who's right?"));
        assert!(!asks("can i castle out of check?"));
        assert!(asks(
            "my coach says castling out of check is fine. is that true?"
        ));
        assert!(!asks("is it right to resign in a lost position?"));
        assert!(asks("no scoresheet in blitz so i cant claim 3fold right?"));
        assert!(asks("i don't have to say check, right?"));
        assert!(!asks("i can claim the draw now, right?"));
        assert!(asks(
            "the arbiter let the pawn capture stand - was that right?"
        ));
        assert!(asks("then he sent me out of the hall. was that fair?"));
        assert!(asks(
            "a kid in my club says you can't promote to a queen if you still have one. true?"
        ));
        assert!(asks("he claimed the win. is it true?"));
        assert!(!asks(
            "is it true that if you get your king to the other side of the board it's a draw?"
        ));
        assert!(asks("is it true that you can't castle after a check?"));
    }
}
