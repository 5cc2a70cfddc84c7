//! Questions written in another language (rulebook/languages.toml): the chess terms of a
//! German, French, Dutch, Spanish, Italian, Portuguese, Polish, Swedish, Norwegian, Danish,
//! Czech, Turkish or Russian question, read in their English
//! words, and its moves written with English piece letters. The rulebook and its rulings are
//! English; a question in another language would otherwise match only the passages that list
//! foreign piece names (C.3, D.2.1). Data, not code, so that maintainers can add terms.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;
use rustc_hash::{FxHashMap, FxHashSet};

/// The languages the glossary reads, by their section in languages.toml.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    German,
    French,
    Dutch,
    Spanish,
    Italian,
    Portuguese,
    Polish,
    Swedish,
    /// Bokmål (what `whatlang` detects).
    Norwegian,
    Danish,
    Czech,
    Turkish,
    Russian,
}

impl Language {
    const ALL: [Language; 13] = [
        Language::German,
        Language::French,
        Language::Dutch,
        Language::Spanish,
        Language::Italian,
        Language::Portuguese,
        Language::Polish,
        Language::Swedish,
        Language::Norwegian,
        Language::Danish,
        Language::Czech,
        Language::Turkish,
        Language::Russian,
    ];

    /// The section of languages.toml that holds this language's terms.
    pub fn code(self) -> &'static str {
        match self {
            Language::German => "de",
            Language::French => "fr",
            Language::Dutch => "nl",
            Language::Spanish => "es",
            Language::Italian => "it",
            Language::Portuguese => "pt",
            Language::Polish => "pl",
            Language::Swedish => "sv",
            Language::Norwegian => "no",
            Language::Danish => "da",
            Language::Czech => "cs",
            Language::Turkish => "tr",
            Language::Russian => "ru",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Language::German => "German",
            Language::French => "French",
            Language::Dutch => "Dutch",
            Language::Spanish => "Spanish",
            Language::Italian => "Italian",
            Language::Portuguese => "Portuguese",
            Language::Polish => "Polish",
            Language::Swedish => "Swedish",
            Language::Norwegian => "Norwegian",
            Language::Danish => "Danish",
            Language::Czech => "Czech",
            Language::Turkish => "Turkish",
            Language::Russian => "Russian",
        }
    }

    fn lang(self) -> whatlang::Lang {
        match self {
            Language::German => whatlang::Lang::Deu,
            Language::French => whatlang::Lang::Fra,
            Language::Dutch => whatlang::Lang::Nld,
            Language::Spanish => whatlang::Lang::Spa,
            Language::Italian => whatlang::Lang::Ita,
            Language::Portuguese => whatlang::Lang::Por,
            Language::Polish => whatlang::Lang::Pol,
            Language::Swedish => whatlang::Lang::Swe,
            Language::Norwegian => whatlang::Lang::Nob,
            Language::Danish => whatlang::Lang::Dan,
            Language::Czech => whatlang::Lang::Ces,
            Language::Turkish => whatlang::Lang::Tur,
            Language::Russian => whatlang::Lang::Rus,
        }
    }

    fn of(lang: whatlang::Lang) -> Option<Language> {
        Some(match lang {
            whatlang::Lang::Deu => Language::German,
            whatlang::Lang::Fra => Language::French,
            whatlang::Lang::Nld => Language::Dutch,
            whatlang::Lang::Spa => Language::Spanish,
            whatlang::Lang::Ita => Language::Italian,
            whatlang::Lang::Por => Language::Portuguese,
            whatlang::Lang::Pol => Language::Polish,
            whatlang::Lang::Swe => Language::Swedish,
            whatlang::Lang::Nob => Language::Norwegian,
            whatlang::Lang::Dan => Language::Danish,
            whatlang::Lang::Ces => Language::Czech,
            whatlang::Lang::Tur => Language::Turkish,
            whatlang::Lang::Rus => Language::Russian,
            _ => return None,
        })
    }

    /// The English letter of a piece letter in this language's notation (Appendix C.3), if
    /// it is one: German "S" is a knight (N), French "F" a bishop (B).
    fn english_piece(self, letter: char) -> Option<char> {
        let table: &[(char, char)] = match self {
            Language::German => &[('K', 'K'), ('D', 'Q'), ('T', 'R'), ('L', 'B'), ('S', 'N')],
            Language::Dutch => &[('K', 'K'), ('D', 'Q'), ('T', 'R'), ('L', 'B'), ('P', 'N')],
            Language::French => &[('R', 'K'), ('D', 'Q'), ('T', 'R'), ('F', 'B'), ('C', 'N')],
            Language::Spanish | Language::Italian => {
                &[('R', 'K'), ('D', 'Q'), ('T', 'R'), ('A', 'B'), ('C', 'N')]
            }
            Language::Portuguese => &[('R', 'K'), ('D', 'Q'), ('T', 'R'), ('B', 'B'), ('C', 'N')],
            Language::Polish => &[('K', 'K'), ('H', 'Q'), ('W', 'R'), ('G', 'B'), ('S', 'N')],
            Language::Swedish | Language::Norwegian | Language::Danish => {
                &[('K', 'K'), ('D', 'Q'), ('T', 'R'), ('L', 'B'), ('S', 'N')]
            }
            Language::Czech => &[('K', 'K'), ('D', 'Q'), ('V', 'R'), ('S', 'B'), ('J', 'N')],
            Language::Turkish => &[('Ş', 'K'), ('V', 'Q'), ('K', 'R'), ('F', 'B'), ('A', 'N')],
            // The king's "Кр" is two letters: moves with it stay as written.
            Language::Russian => &[('Ф', 'Q'), ('Л', 'R'), ('С', 'B'), ('К', 'N')],
        };
        table.iter().find(|(l, _)| *l == letter).map(|(_, e)| *e)
    }
}

/// One word of a glossary key: a whole word, or a stem (`reklamier*`) that begins words.
#[derive(Debug, Clone, PartialEq)]
enum KeyWord {
    Whole(String),
    Stem(String),
}

impl KeyWord {
    fn matches(&self, word: &str) -> bool {
        match self {
            KeyWord::Whole(w) => w == word,
            KeyWord::Stem(s) => word.starts_with(s.as_str()),
        }
    }

    fn without_accents(&self) -> KeyWord {
        match self {
            KeyWord::Whole(w) => KeyWord::Whole(without_accents(w).into_owned()),
            KeyWord::Stem(s) => KeyWord::Stem(without_accents(s).into_owned()),
        }
    }
}

/// A word without its accents: "réclamer" is "reclamer", "král" "kral", "för" "for" (letters
/// decomposed, their combining marks dropped; "ø", "ł" and "ß" have none and stay), and
/// Turkish dotless "ı" as the "i" of a keyboard without it ("kural dışı" typed "kural disi").
fn without_accents(word: &str) -> Cow<'_, str> {
    use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};
    if word.is_ascii() {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(
            word.nfd()
                .filter(|&c| !is_combining_mark(c))
                .map(|c| if c == 'ı' { 'i' } else { c })
                .collect(),
        )
    }
}

#[derive(Debug, Clone)]
struct Entry {
    key: Vec<KeyWord>,
    /// The key without its accents, for questions typed without them ("reclamer",
    /// "illegal", "kral").
    bare: Vec<KeyWord>,
    english: String,
}

impl Entry {
    /// Whether the key is its own English, of one word or several ("blitz", "illegal*",
    /// "touch move"): such a key says nothing of the language a text is written in.
    fn is_own_english(&self) -> bool {
        let words = self.key.iter().map(|k| match k {
            KeyWord::Whole(w) | KeyWord::Stem(w) => w.as_str(),
        });
        words.eq(self.english.split(' '))
    }
}

/// Every language's terms.
#[derive(Debug, Clone, Default)]
pub struct Glossary {
    tables: Vec<Table>,
    /// Every word of every language's keys but those that are their own English, for telling
    /// cheaply whether a text could be in one of them: whole words, and stems by their first
    /// four letters.
    whole_words: FxHashSet<String>,
    stems: FxHashMap<String, Vec<String>>,
}

/// A question read in English: its language, and the English of its terms, moves and
/// numbers in the order it has them.
#[derive(Debug, Clone, PartialEq)]
pub struct InEnglish {
    pub language: Language,
    pub text: String,
}

impl InEnglish {
    /// Its first `at_most` English terms, each once, for telling the asker how the question
    /// was read (moves and numbers left out).
    pub fn terms(&self, at_most: usize) -> Vec<&str> {
        let mut terms: Vec<&str> = Vec::new();
        for term in self.text.split(' ').map(|t| t.trim_end_matches('?')) {
            let is_word = term.chars().all(char::is_alphabetic);
            if is_word && !term.is_empty() && !terms.contains(&term) && terms.len() < at_most {
                terms.push(term);
            }
        }
        terms
    }
}

pub const EMBEDDED: &str = include_str!("../../rulebook/languages.toml");

/// The shortest stem allowed: a shorter one begins too many unrelated words.
const MIN_STEM_CHARS: usize = 4;

/// The first `MIN_STEM_CHARS` letters of a word (the whole of a shorter one): stems are filed
/// by them, and a word can begin only the stems filed under its own.
fn stem_prefix(word: &str) -> &str {
    word.char_indices()
        .nth(MIN_STEM_CHARS)
        .map_or(word, |(at, _)| &word[..at])
}

impl Glossary {
    pub fn parse(text: &str) -> Result<Glossary, String> {
        let sections: BTreeMap<String, BTreeMap<String, String>> =
            toml::from_str(text).map_err(|e| format!("languages.toml: {e}"))?;
        let mut tables = Vec::new();
        for (code, terms) in sections {
            let language = Language::ALL
                .into_iter()
                .find(|l| l.code() == code)
                .ok_or_else(|| format!("languages.toml: no language has the code [{code}]"))?;
            let entries = terms
                .into_iter()
                .map(|(key, english)| {
                    let key = key_words(&key)
                        .map_err(|e| format!("languages.toml [{code}] \"{key}\": {e}"))?;
                    Ok(Entry {
                        bare: key.iter().map(KeyWord::without_accents).collect(),
                        key,
                        english,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            tables.push(Table::new(language, entries));
        }
        let (whole_words, stems) = known_words(&tables);
        Ok(Glossary {
            tables,
            whole_words,
            stems,
        })
    }

    /// Whether a word is a word of some language's keys (or begins with one of its stems).
    /// Only as written: without their accents, many words are English ones ("pièce",
    /// "légal"), and an English question would look foreign.
    fn knows(&self, word: &str) -> bool {
        self.whole_words.contains(word)
            || self
                .stems
                .get(stem_prefix(word))
                .is_some_and(|stems| stems.iter().any(|s| word.starts_with(s.as_str())))
    }

    /// Whether a text could be in one of the glossary's languages: it is not plainly English,
    /// and the glossary knows at least two of its words and 35 % of them (questions in those
    /// languages: 40 % or more; `whatlang` then decides).
    fn may_be_foreign(&self, text: &str) -> bool {
        if reads_as_english(text) {
            return false;
        }
        let (mut words, mut known) = (0usize, 0usize);
        for word in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            words += 1;
            let lower = if word.chars().any(char::is_uppercase) {
                std::borrow::Cow::Owned(lower_case(word))
            } else {
                std::borrow::Cow::Borrowed(word)
            };
            known += usize::from(self.knows(&lower));
        }
        known >= MIN_KNOWN_WORDS && 20 * known >= 7 * words
    }

    pub fn embedded() -> Glossary {
        Glossary::parse(EMBEDDED).expect("the embedded glossary parses (tested)")
    }

    /// The question in English, if it is written in one of the glossary's languages:
    /// `whatlang` says so reliably, or, for a text too short for it to be sure ("Darf man
    /// rochieren?"), its best guess among English and the glossary's languages is one of them
    /// and the glossary knows more than half of its words. `None` for English.
    pub fn in_english(&self, question: &str) -> Option<InEnglish> {
        static AMONG_OURS: LazyLock<whatlang::Detector> = LazyLock::new(|| {
            let mut langs: Vec<whatlang::Lang> = Language::ALL.iter().map(|l| l.lang()).collect();
            langs.push(whatlang::Lang::Eng);
            whatlang::Detector::with_allowlist(langs)
        });
        if !self.may_be_foreign(question) {
            return None;
        }
        // A reliable detection of one of ours is taken as it is; anything else (unsure, or sure
        // of a language we do not read, as a Norwegian story can be taken for a neighbour of
        // it) is a guess among ours that the glossary must then confirm.
        let sure = whatlang::detect(question)
            .filter(whatlang::Info::is_reliable)
            .and_then(|info| Language::of(info.lang()));
        let (language, sure) = match sure {
            Some(language) => (language, true),
            None => (Language::of(AMONG_OURS.detect(question)?.lang())?, false),
        };
        let table = self.tables.iter().find(|t| t.language == language)?;
        let read = translate(question, table);
        let known = read.known_words >= MIN_KNOWN_WORDS && 2 * read.known_words > read.words;
        (sure || known).then_some(InEnglish {
            language,
            text: read.text,
        })
    }
}

/// Every word of every language's keys but those that are their own English ("blitz",
/// "illegal*", "touch move" say nothing of the language): whole words, and stems by their first letters.
#[allow(clippy::type_complexity)]
fn known_words(tables: &[Table]) -> (FxHashSet<String>, FxHashMap<String, Vec<String>>) {
    let mut whole_words = FxHashSet::default();
    let mut stems: FxHashMap<String, Vec<String>> = FxHashMap::default();
    // A word of a key that its English also says ("illegal" of "illegal hamle", "illegal
    // move") is a loanword: it says nothing of the language either.
    fn foreign_words(e: &Entry) -> impl Iterator<Item = &KeyWord> {
        e.key.iter().filter(|k| match k {
            KeyWord::Whole(w) | KeyWord::Stem(w) => !e.english.split(' ').any(|x| x == w),
        })
    }
    for word in tables.iter().flat_map(|table| {
        table
            .entries
            .iter()
            .filter(|e| !e.is_own_english())
            .flat_map(foreign_words)
    }) {
        match word {
            KeyWord::Whole(w) => {
                whole_words.insert(w.clone());
            }
            KeyWord::Stem(s) => {
                stems
                    .entry(stem_prefix(s).to_string())
                    .or_default()
                    .push(s.clone());
            }
        }
    }
    (whole_words, stems)
}

/// Common English words that the glossary's languages do not share ("in", "is", "was", "a"
/// and "of" are theirs too).
const ENGLISH_MARKERS: &[&str] = &[
    "the", "to", "you", "my", "and", "it", "can", "if", "he", "what", "does", "do", "for", "that",
    "this", "with", "his", "me", "not", "or", "have", "be", "are", "when", "your", "she", "her",
    "they", "would", "should", "there", "him", "did", "has", "had", "will", "an", "at", "by",
    "from", "how", "which", "who", "why",
];

/// Whether a text is plainly English: at least two of its words, and one in eight, are common
/// English words. Questions in the glossary's languages have at most one in eleven (the dev
/// questions). `whatlang` costs some 60 µs on a question of a few hundred characters, more
/// than the rest of an answer, so it runs only on the texts this and the glossary's own
/// words cannot place.
fn reads_as_english(text: &str) -> bool {
    let (mut words, mut english) = (0usize, 0usize);
    for word in text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
    {
        words += 1;
        if word.len() <= 6 && ENGLISH_MARKERS.iter().any(|m| m.eq_ignore_ascii_case(word)) {
            english += 1;
        }
    }
    english >= 2 && 8 * english >= words
}

/// How many of a question's words the glossary must know for a short text to count as
/// written in the guessed language.
const MIN_KNOWN_WORDS: usize = 2;

/// A question translated: the English, and how many of its words the glossary knew.
struct Translation {
    text: String,
    words: usize,
    known_words: usize,
}

/// A key's words, split as questions are (`peut-on` is two words), each checked.
fn key_words(key: &str) -> Result<Vec<KeyWord>, String> {
    let mut out = Vec::new();
    for raw in key.split(' ') {
        let (word, stem) = match raw.strip_suffix('*') {
            Some(w) => (w, true),
            None => (raw, false),
        };
        let parts = words_in(word);
        if parts.is_empty() || word.contains('*') {
            return Err(format!("'{raw}' is not a word (a '*' may only end one)"));
        }
        if stem && (parts.len() > 1 || word.chars().count() < MIN_STEM_CHARS) {
            return Err(format!(
                "the stem '{raw}' must be one word of at least {MIN_STEM_CHARS} letters"
            ));
        }
        let last = parts.len() - 1;
        for (i, part) in parts.into_iter().enumerate() {
            out.push(if stem && i == last {
                KeyWord::Stem(part)
            } else {
                KeyWord::Whole(part)
            });
        }
    }
    Ok(out)
}

/// The lower-case letter and digit runs of a text: "l'arbitre" is "l" and "arbitre", "50
/// Züge" is "50" and "züge".
fn words_in(text: &str) -> Vec<String> {
    lower_case(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// A text in lower case, with Turkish "İ" as "i": Rust's lower case of it is "i" and a
/// combining dot, which is not a letter and would split "İlk" into "i" and "lk".
fn lower_case(text: &str) -> String {
    if text.contains('İ') {
        text.replace('İ', "i").to_lowercase()
    } else {
        text.to_lowercase()
    }
}

/// A piece of a question on its way to English.
enum Token {
    Word(Word),
    /// A move or an article number, kept (in English notation).
    Kept(String),
    /// The end of a question ("?").
    Asked,
}

/// A word of a question, as written and without its accents.
struct Word {
    text: String,
    bare: String,
}

fn tokens(question: &str, language: Language) -> Vec<Token> {
    let mut out = Vec::new();
    for raw in question.split_whitespace() {
        let trimmed = raw.trim_matches(|c: char| {
            matches!(c, ',' | ';' | ':' | '(' | ')' | '"' | '«' | '»' | '!')
        });
        let bare = trimmed.trim_end_matches(['?', '.']);
        if let Some(english) = english_move(bare, language) {
            out.push(Token::Kept(english));
        } else if bare.chars().any(|c| c.is_ascii_digit())
            && !bare.chars().all(|c| c.is_ascii_digit())
        {
            out.push(Token::Kept(without_suffix(bare).to_string()));
        } else {
            out.extend(words_in(bare).into_iter().map(|text| {
                let bare = without_accents(&text).into_owned();
                Token::Word(Word { text, bare })
            }));
        }
        if trimmed.ends_with('?') {
            out.push(Token::Asked);
        }
    }
    out
}

/// A number, article or square with a suffix after an apostrophe (Turkish "4.8’e",
/// "40'ıncı"): the number alone, as the search reads article numbers.
fn without_suffix(kept: &str) -> &str {
    match kept.find(['’', '\'']) {
        Some(i) if kept[..i].chars().any(|c| c.is_ascii_digit()) => &kept[..i],
        _ => kept,
    }
}

fn translate(question: &str, table: &Table) -> Translation {
    let tokens = tokens(question, table.language);
    let mut out: Vec<String> = Vec::new();
    let words = tokens
        .iter()
        .filter(|t| matches!(t, Token::Word(_)))
        .count();
    let mut known_words = 0;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Kept(k) => out.push(k.clone()),
            Token::Asked => match out.last_mut() {
                Some(last) if !last.ends_with('?') => last.push('?'),
                _ => {}
            },
            Token::Word(w) => {
                if let Some((entry, as_written)) = table.longest_entry(&tokens[i..], w) {
                    let len = entry.key.len();
                    if !entry.english.is_empty() {
                        out.push(entry.english.clone());
                    }
                    // Without their accents many words are English ("piece", "legal"): only
                    // a word matched as written tells the language.
                    if as_written && !entry.is_own_english() {
                        known_words += len;
                    }
                    i += len;
                    continue;
                }
                // A number no phrase took ("nach 45 Zügen") is kept as it is.
                if w.text.chars().all(|c| c.is_ascii_digit()) {
                    out.push(w.text.clone());
                }
            }
        }
        i += 1;
    }
    Translation {
        text: out.join(" "),
        words,
        known_words,
    }
}

/// One language's terms, with the entries each word of a question may begin, filed by their
/// first key word as written and without accents (a whole word under itself, a stem under its
/// `stem_prefix`), so that a word is compared with a few keys rather than the whole table.
#[derive(Debug, Clone)]
struct Table {
    language: Language,
    entries: Vec<Entry>,
    by_whole_word: FxHashMap<String, Vec<u32>>,
    by_stem_prefix: FxHashMap<String, Vec<u32>>,
}

impl Table {
    fn new(language: Language, entries: Vec<Entry>) -> Table {
        let mut by_whole_word: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        let mut by_stem_prefix: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        for (i, entry) in entries.iter().enumerate() {
            for first in [entry.key.first(), entry.bare.first()]
                .into_iter()
                .flatten()
            {
                let slot = match first {
                    KeyWord::Whole(w) => by_whole_word.entry(w.clone()),
                    KeyWord::Stem(s) => by_stem_prefix.entry(stem_prefix(s).to_string()),
                }
                .or_default();
                if slot.last() != Some(&(i as u32)) {
                    slot.push(i as u32);
                }
            }
        }
        Table {
            language,
            entries,
            by_whole_word,
            by_stem_prefix,
        }
    }

    /// The longest entry whose key begins `tokens` (the first of which is `first`), as written
    /// or else without accents (of two as long, the one that matched as written, then the
    /// later in the table), and whether it matched as written.
    fn longest_entry(&self, tokens: &[Token], first: &Word) -> Option<(&Entry, bool)> {
        let mut candidates: Vec<u32> = Vec::new();
        for word in [first.text.as_str(), first.bare.as_str()] {
            candidates.extend(self.by_whole_word.get(word).into_iter().flatten());
            candidates.extend(
                self.by_stem_prefix
                    .get(stem_prefix(word))
                    .into_iter()
                    .flatten(),
            );
        }
        candidates.sort_unstable();
        candidates.dedup();
        let begins = |key: &[KeyWord], word: fn(&Word) -> &str| {
            key.len() <= tokens.len()
                && key.iter().zip(tokens).all(|(k, t)| match t {
                    Token::Word(w) => k.matches(word(w)),
                    _ => false,
                })
        };
        candidates
            .into_iter()
            .map(|i| &self.entries[i as usize])
            .filter_map(|e| {
                if begins(&e.key, |w| &w.text) {
                    Some((e, true))
                } else {
                    begins(&e.bare, |w| &w.bare).then_some((e, false))
                }
            })
            .max_by_key(|(e, as_written)| (e.key.len(), *as_written))
    }
}

/// A move in the language's notation ("Sxh5", "19...Td8", "d8D"), written with English
/// piece letters; `None` for anything else.
fn english_move(token: &str, language: Language) -> Option<String> {
    static MOVE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\d+\.+)?(\p{Lu}?)([a-h]?[1-8]?x?[a-h][1-8])(=?)(\p{Lu}?)([+#]?)$")
            .expect("the move pattern is valid")
    });
    if matches!(token, "0-0" | "0-0-0" | "O-O" | "O-O-O") {
        return Some(token.to_string());
    }
    let caps = MOVE.captures(token)?;
    let letter = |i: usize| caps.get(i).and_then(|m| m.as_str().chars().next());
    let piece = match letter(2) {
        Some(l) => Some(language.english_piece(l)?),
        None => None,
    };
    let promotion = match letter(5) {
        Some(l) => Some(language.english_piece(l)?),
        None => None,
    };
    let mut out = caps.get(1).map_or("", |m| m.as_str()).to_string();
    out.extend(piece);
    out.push_str(&caps[3]);
    out.push_str(&caps[4]);
    out.extend(promotion);
    out.push_str(&caps[6]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary(text: &str) -> Glossary {
        Glossary::parse(text).unwrap()
    }

    #[test]
    fn the_embedded_glossary_parses() {
        let g = Glossary::embedded();
        assert!(g.tables.len() >= 6, "{} languages", g.tables.len());
    }

    #[test]
    fn stems_whole_words_and_the_longest_phrase_are_read() {
        let g = glossary(
            "[de]\n\"reklamier*\" = \"claim\"\n\"remis\" = \"draw\"\n\"turm\" = \"rook\"\n\
             \"wer gewinnt\" = \"who wins\"\n\"wer\" = \"who\"\n\"der\" = \"\"\n",
        );
        let read = translate(
            "Wer gewinnt, wenn der Spieler nach dem Turmzug in Runde 5 Remis reklamiert, während die Uhr nach 10.2 läuft?",
            &g.tables[0],
        );
        // "Turmzug" is not "turm": whole words only, unless a stem; "der" is known, not said.
        assert_eq!(read.text, "who wins 5 draw claim 10.2?");
        assert_eq!((read.known_words, read.words), (5, 18));
        let read = InEnglish {
            language: Language::German,
            text: read.text,
        };
        assert_eq!(read.terms(3), ["who", "wins", "draw"]);
    }

    #[test]
    fn a_question_is_read_only_when_the_glossary_knows_enough_of_it() {
        let g = Glossary::embedded();
        let read = g
            .in_english("Wer gewinnt, wenn der Gegner nach dem Turmzug Remis reklamiert, während die Uhr läuft?")
            .unwrap();
        assert_eq!(read.language, Language::German);
        assert!(read.text.starts_with("who wins"), "{}", read.text);
        assert!(!g.may_be_foreign("castling rules"));
        assert!(!g.may_be_foreign("illegal move penalty blitz"));
        assert!(!g.may_be_foreign("Can I castle if my king was in check before?"));
    }

    #[test]
    fn moves_get_english_piece_letters() {
        let de = Language::German;
        assert_eq!(english_move("Sxh5", de).as_deref(), Some("Nxh5"));
        assert_eq!(english_move("19...Td8", de).as_deref(), Some("19...Rd8"));
        assert_eq!(english_move("8.Lxb8", de).as_deref(), Some("8.Bxb8"));
        assert_eq!(english_move("d8D", de).as_deref(), Some("d8Q"));
        assert_eq!(english_move("e4", de).as_deref(), Some("e4"));
        assert_eq!(
            english_move("Fxe5", Language::French).as_deref(),
            Some("Bxe5")
        );
        assert_eq!(
            english_move("Cf3", Language::Spanish).as_deref(),
            Some("Nf3")
        );
        // Not a piece letter of the language, or not a move at all.
        assert_eq!(english_move("Nf3", de), None);
        assert_eq!(english_move("10.2", de), None);
        assert_eq!(english_move("Zug", de), None);
    }

    #[test]
    fn english_and_short_texts_are_left_alone() {
        let g = Glossary::embedded();
        for q in [
            "Can I castle after my king has been in check?",
            "My opponent's phone rang during the game. Who wins?",
            "Remis?",
            "Can You Capture Your Own Piece to Escape Check?",
            "What happens when a pawn reaches the opposite side?",
            "Is en passant legal?",
            // Loanwords that are their own English tell no language.
            "en passant a move later",
            "deadline for claiming touch move",
        ] {
            assert_eq!(g.in_english(q), None, "{q}");
        }
    }

    /// The English of `q`, which must be read as written in `language`.
    fn read_as(g: &Glossary, q: &str, language: Language) -> String {
        let read = g.in_english(q).unwrap_or_else(|| panic!("not read: {q}"));
        assert_eq!(read.language, language, "{q}");
        read.text
    }

    #[test]
    fn short_questions_are_read_when_the_glossary_knows_their_words() {
        let g = Glossary::embedded();
        let text = read_as(
            &g,
            "Darf man rochieren, wenn der König vorher im Schach stand?",
            Language::German,
        );
        assert!(text.contains("castl") && text.contains("king"), "{text}");
    }

    /// Each question must be read as written in its language, and its English say `says`.
    fn assert_read(cases: &[(&str, Language, &str)]) {
        let g = Glossary::embedded();
        for &(q, language, says) in cases {
            let text = read_as(&g, q, language);
            assert!(text.contains(says), "{q}: {text}");
        }
    }

    #[test]
    fn scandinavian_and_czech_questions_are_read() {
        assert_read(&[
            (
                "En spiller setter sin motstander patt. Men før han rekker å trykke på klokka, går tiden hans ut. Hvem vinner?",
                Language::Norwegian,
                "stalemate",
            ),
            (
                "Min mobiltelefon ringde i spellokalen under ronden. Förlorar jag partiet direkt?",
                Language::Swedish,
                "phone",
            ),
            (
                "Må jeg rokere, hvis kongen stod i skak tidligere i partiet, men tårnet ikke har flyttet?",
                Language::Danish,
                "castle",
            ),
            (
                "Hráli jsme rapid bez bonifikace. Soupeři spadl praporek, ale já mám jen krále a jezdce. Je to remíza?",
                Language::Czech,
                "flag",
            ),
        ]);
        assert_eq!(english_move("Jf3", Language::Czech).as_deref(), Some("Nf3"));
        assert_eq!(
            english_move("Sf3", Language::Swedish).as_deref(),
            Some("Nf3")
        );
    }

    #[test]
    fn turkish_and_russian_questions_are_read() {
        assert_read(&[
            (
                "Rakibim vezirine dokundu ama sonra atıyla oynadı. Dokunulan taş kuralı gereği vezirle oynamak zorunda değil mi?",
                Language::Turkish,
                "touch",
            ),
            // Capital dotted "İ" and "ı" typed as "i" (a keyboard without Turkish letters).
            (
                "İTİRAZ ettim: hizli satrancta rakibim kural disi hamle yapti ve saate basti. Hakem ne karar vermeli?",
                Language::Turkish,
                "illegal",
            ),
            (
                "Играли блиц, у соперника упал флаг, но у меня остался только король и конь. Кто выиграл?",
                Language::Russian,
                "flag",
            ),
        ]);
        assert_eq!(lower_case("İlk"), "ilk");
        // A suffix after an apostrophe leaves the article number ("madde 4.8’e": "to 4.8").
        assert_eq!(without_suffix("4.8’e"), "4.8");
        assert_eq!(without_suffix("40'ıncı"), "40");
        assert_eq!(without_suffix("Kxe5"), "Kxe5");
        assert_eq!(
            english_move("Ae5", Language::Turkish).as_deref(),
            Some("Ne5")
        );
        assert_eq!(
            english_move("Фxd5", Language::Russian).as_deref(),
            Some("Qxd5")
        );
    }

    #[test]
    fn words_typed_without_their_accents_are_read() {
        let g = Glossary::embedded();
        let text = read_as(
            &g,
            "Les noirs ont joue un coup illegal et les blancs ont mate ensuite. Les noirs peuvent-ils encore reclamer?",
            Language::French,
        );
        assert!(text.contains("illegal") && text.contains("claim"), "{text}");
        // Without accents, "pièce" and "légal" are English words: they do not make an English
        // question French.
        assert_eq!(g.in_english("mate by a pinned piece legal?"), None);
    }

    #[test]
    fn bad_keys_are_refused_with_the_key_named() {
        for (text, says) in [
            ("[de]\n\"zu*\" = \"to\"\n", "zu*"),
            ("[de]\n\"re*mis\" = \"draw\"\n", "re*mis"),
            ("[xx]\n\"remis\" = \"draw\"\n", "[xx]"),
        ] {
            let e = Glossary::parse(text).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }
}
