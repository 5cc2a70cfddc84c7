//! Small helpers for the sentences every layer writes (the checker's reasons, the answers,
//! hovers and the CLI's report).

/// `s` with its first letter in upper case, for a reason or clause that opens a sentence.
pub fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A sentence fragment with its first letter in lower case, unless it starts with a name.
pub fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if !(s.starts_with("White") || s.starts_with("Black")) => {
            f.to_lowercase().collect::<String>() + c.as_str()
        }
        Some(f) => f.to_string() + c.as_str(),
        None => String::new(),
    }
}

/// A count as players write it, in digits or a number word up to twenty and the tens to
/// ninety ("12", "twelve", "forty").
pub fn number(word: &str) -> Option<u32> {
    const SMALL: [&str; 20] = [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    const TENS: [&str; 7] = [
        "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    if let Some(i) = SMALL.iter().position(|w| *w == word) {
        return Some(i as u32 + 1);
    }
    if let Some(i) = TENS.iter().position(|w| *w == word) {
        return Some(30 + 10 * i as u32);
    }
    // Digits only: `parse` would also take a sign ("+2").
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// The words of `text`, in order: its runs of letters, digits and apostrophes ("opponent's",
/// "i'm"); everything else separates them.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
}

/// Where the last sentence of `text` that `marks` end, followed by a space, stops: the byte
/// just after its mark ("He castled. Later we noticed. 1) Would…" stops after "noticed.";
/// "...Qxd1 then" ends nothing: a move's dots are followed by a letter). `None` when no sentence
/// ends in `text`.
pub fn last_sentence_end(text: &str, marks: &[char]) -> Option<usize> {
    text.char_indices()
        .rev()
        .find(|&(i, c)| marks.contains(&c) && text[i + 1..].starts_with(char::is_whitespace))
        .map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_last_sentence_end_is_a_mark_before_a_space() {
        let text = "He castled. Black took ...Qxd1 then her flag";
        assert_eq!(super::last_sentence_end(text, &['.', '!']), Some(11));
        assert_eq!(super::last_sentence_end("...Qxd1 then", &['.']), None);
        assert_eq!(super::last_sentence_end("Why? Then", &['.', '!']), None);
    }

    #[test]
    fn counts_in_digits_and_words() {
        for (word, n) in [
            ("12", Some(12)),
            ("twelve", Some(12)),
            ("one", Some(1)),
            ("twenty", Some(20)),
            ("forty", Some(40)),
            ("ninety", Some(90)),
            ("dozen", None),
            ("+2", None),
            ("", None),
        ] {
            assert_eq!(super::number(word), n, "{word}");
        }
    }

    use super::capitalise_first;

    #[test]
    fn only_the_first_letter_changes() {
        assert_eq!(capitalise_first("rook on h1 moved"), "Rook on h1 moved");
        assert_eq!(capitalise_first("échec"), "Échec");
        assert_eq!(capitalise_first(""), "");
    }
}
