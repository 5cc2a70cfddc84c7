//! Static word vectors for semantic similarity between a question and a ruling's phrasing.
//!
//! The vectors were fitted once to an open sentence-embedding model (all-MiniLM-L6-v2) by
//! `scripts/fit-embeddings`: each word's vector is chosen so that the weighted mean of a
//! sentence's words (weighted as the matcher weighs them) approximates the model's embedding of
//! the whole sentence, over the rulebook's sentences, in 64 dimensions (PCA), quantised to int8
//! with one scale per word. The binary embeds the file
//! (`rulebook/word-vectors.bin`, format in that script and in `rulebook/README.md`); nothing is
//! downloaded or computed by a model at run time. A sentence is the mean of its known words'
//! vectors, stop words skipped; compare two sentences with [`cosine`].

use std::collections::HashMap;
use std::sync::OnceLock;

/// The distilled vectors, as committed.
pub const EMBEDDED_BYTES: &[u8] = include_bytes!("../../rulebook/word-vectors.bin");

const MAGIC: &[u8; 4] = b"RAWV";
const VERSION: u32 = 1;
const MAX_DIMS: usize = 1024;

/// Words that carry no meaning for matching: skipped when a sentence is embedded.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "am", "an", "and", "any", "are", "as", "at", "be", "been", "being",
    "but", "by", "can", "could", "did", "do", "does", "doing", "for", "from", "had", "has", "have",
    "having", "he", "her", "him", "his", "how", "i", "if", "im", "in", "into", "is", "it", "its",
    "just", "me", "my", "myself", "of", "on", "or", "our", "she", "so", "some", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "us", "was",
    "we", "were", "what", "when", "which", "who", "whom", "why", "will", "with", "would", "you",
    "your",
];

/// [`STOP_WORDS`] as a set: a sentence's every word is looked up (a scan of the list compared
/// each word with 78 others).
static STOP_SET: std::sync::LazyLock<rustc_hash::FxHashSet<&'static str>> =
    std::sync::LazyLock::new(|| STOP_WORDS.iter().copied().collect());

/// Word vectors: a word index and one flat array of `dims`-long vectors.
#[derive(Debug, Clone)]
pub struct WordVectors {
    dims: usize,
    index: rustc_hash::FxHashMap<Box<str>, u32>,
    data: Vec<f32>,
}

/// Reads the file front to back, with an error naming what is wrong and where.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| {
            format!(
                "word vectors: file ends at byte {} while reading {what}",
                self.bytes.len()
            )
        })?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32(&mut self, what: &str) -> Result<f32, String> {
        let b = self.take(4, what)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl WordVectors {
    /// Parses the file format written by `scripts/fit-embeddings` (and `distill-embeddings`).
    pub fn from_bytes(bytes: &[u8]) -> Result<WordVectors, String> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4, "the magic number")? != MAGIC {
            return Err("word vectors: not a word-vectors file (bad magic number)".into());
        }
        let version = r.u32("the version")?;
        if version != VERSION {
            return Err(format!(
                "word vectors: version {version} is not supported (expected {VERSION})"
            ));
        }
        let dims = r.u32("the dimension count")? as usize;
        if dims == 0 || dims > MAX_DIMS {
            return Err(format!(
                "word vectors: {dims} dimensions (expected 1 to {MAX_DIMS})"
            ));
        }
        let count = r.u32("the word count")? as usize;
        // Each record takes at least 1 + 1 + 4 + dims bytes: a wild count fails here, before any
        // allocation.
        let room = (bytes.len() - r.pos) / (6 + dims);
        if count > room {
            return Err(format!(
                "word vectors: {count} words announced but the file has room for at most {room}"
            ));
        }
        let mut index = rustc_hash::FxHashMap::with_capacity_and_hasher(count, Default::default());
        let mut data = Vec::with_capacity(count * dims);
        for i in 0..count {
            let len = r.take(1, "a word length")?[0] as usize;
            let word = std::str::from_utf8(r.take(len, "a word")?)
                .map_err(|_| format!("word vectors: word {i} is not UTF-8"))?;
            if word.is_empty() {
                return Err(format!("word vectors: word {i} is empty"));
            }
            let scale = r.f32("a vector scale")?;
            if !scale.is_finite() {
                return Err(format!(
                    "word vectors: '{word}' has a scale that is not finite"
                ));
            }
            let quantised = r.take(dims, "a vector")?;
            data.extend(quantised.iter().map(|&q| f32::from(q as i8) * scale));
            if index.insert(Box::from(word), i as u32).is_some() {
                return Err(format!("word vectors: '{word}' appears twice"));
            }
        }
        if r.pos != bytes.len() {
            return Err(format!(
                "word vectors: {} unexpected bytes after the last word",
                bytes.len() - r.pos
            ));
        }
        Ok(WordVectors { dims, index, data })
    }

    /// The vectors embedded in the binary, parsed once (a unit test checks the file).
    pub fn embedded() -> &'static WordVectors {
        static VECTORS: OnceLock<WordVectors> = OnceLock::new();
        VECTORS.get_or_init(|| {
            WordVectors::from_bytes(EMBEDDED_BYTES).expect("rulebook/word-vectors.bin is valid")
        })
    }

    /// Length of every vector.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The vector of one word as [`words`] spells it (lower case, no apostrophes); a plural
    /// falls back to its singular.
    pub fn vector(&self, word: &str) -> Option<&[f32]> {
        let i = self.index.get(word).or_else(|| {
            let singular = word.strip_suffix('s').filter(|s| s.len() > 2)?;
            self.index.get(singular)
        })?;
        let start = *i as usize * self.dims;
        Some(&self.data[start..start + self.dims])
    }

    /// Mean of the vectors of the text's known words, stop words skipped; `None` when no word
    /// is known.
    pub fn sentence(&self, text: &str) -> Option<Vec<f32>> {
        self.sentence_with(text, |_| 1.0)
    }

    /// As [`WordVectors::sentence`], each word weighted by `weights` (an IDF, say); a word
    /// missing from `weights` weighs 1.
    pub fn sentence_weighted(
        &self,
        text: &str,
        weights: &HashMap<String, f32>,
    ) -> Option<Vec<f32>> {
        self.sentence_with(text, |word| weights.get(word).copied().unwrap_or(1.0))
    }

    /// As [`WordVectors::sentence`], each word weighted by `weight(word)`; words of weight 0
    /// or less are skipped.
    pub fn sentence_with(&self, text: &str, weight: impl Fn(&str) -> f32) -> Option<Vec<f32>> {
        let mut sum = vec![0.0f32; self.dims];
        let mut total = 0.0f32;
        for word in words(text) {
            if STOP_SET.contains(word.as_str()) {
                continue;
            }
            let Some(v) = self.vector(&word) else {
                continue;
            };
            let w = weight(&word);
            if w.is_nan() || w <= 0.0 {
                continue;
            }
            for (s, x) in sum.iter_mut().zip(v) {
                *s += w * x;
            }
            total += w;
        }
        if total == 0.0 {
            return None;
        }
        sum.iter_mut().for_each(|s| *s /= total);
        Some(sum)
    }
}

/// The words of a text as the vectors are keyed: runs of ASCII letters and digits, lower case,
/// apostrophes dropped ("don't" → "dont").
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .map(|w| {
            w.chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase())
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
}

/// Cosine similarity; 0 when either vector is all zeros or the lengths differ.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    dot / (na.sqrt() * nb.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim(a: &str, b: &str) -> f32 {
        let v = WordVectors::embedded();
        cosine(&v.sentence(a).unwrap(), &v.sentence(b).unwrap())
    }

    #[test]
    fn the_embedded_file_loads() {
        let v = WordVectors::from_bytes(EMBEDDED_BYTES).unwrap();
        assert_eq!(v.dims(), 64);
        assert!(v.len() > 5_000, "{} words", v.len());
        for word in [
            "flag", "clock", "castle", "timeout", "phone", "passant", "dont",
        ] {
            assert!(v.vector(word).is_some(), "{word} missing");
        }
        assert!(
            v.vector("flags").is_some(),
            "plural falls back to the singular"
        );
    }

    #[test]
    fn words_split_like_the_distiller() {
        let w: Vec<String> = words("Don't I lose on TIME? e.p. 50-move rule’s").collect();
        assert_eq!(
            w,
            [
                "dont", "i", "lose", "on", "time", "e", "p", "50", "move", "rules"
            ]
        );
    }

    // The vectors are fitted so that a sentence's mean means what the sentence does; a word
    // alone ("flag" against "time") is not what they are for, so sentences are compared.
    #[test]
    fn a_fallen_flag_is_nearer_running_out_of_time_than_castling() {
        assert!(sim("my flag fell", "I ran out of time") > sim("my flag fell", "can I castle"));
        assert!(sim("my phone rang", "my mobile went off") > sim("my phone rang", "can I castle"));
    }

    #[test]
    fn where_a_pawn_lands_is_nearer_where_it_goes() {
        let question = "where does my pawn go";
        assert!(sim("where does the pawn end up", question) > sim("who won the game", question));
        assert!(
            sim("which square does my pawn land on", question) > sim("my phone rang", question)
        );
    }

    #[test]
    fn weights_change_the_mean() {
        let v = WordVectors::embedded();
        let plain = v.sentence("flag clock").unwrap();
        let weights = HashMap::from([("clock".to_string(), 10.0)]);
        let weighted = v.sentence_weighted("flag clock", &weights).unwrap();
        let clock = v.vector("clock").unwrap();
        assert!(cosine(&weighted, clock) > cosine(&plain, clock));
        assert!(v.sentence("the of and").is_none(), "stop words only");
        assert!(v.sentence("zzqxv").is_none(), "unknown words only");
    }

    #[test]
    fn a_bad_file_is_an_error_not_a_panic() {
        assert!(WordVectors::from_bytes(b"").is_err());
        assert!(
            WordVectors::from_bytes(b"NOPE\x01\0\0\0")
                .unwrap_err()
                .contains("magic")
        );
        let mut wrong_version = EMBEDDED_BYTES.to_vec();
        wrong_version[4] = 9;
        assert!(
            WordVectors::from_bytes(&wrong_version)
                .unwrap_err()
                .contains("version")
        );
        // Every truncation fails cleanly.
        for cut in [5, 16, 17, 100, EMBEDDED_BYTES.len() - 1] {
            assert!(
                WordVectors::from_bytes(&EMBEDDED_BYTES[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut trailing = EMBEDDED_BYTES.to_vec();
        trailing.push(0);
        assert!(
            WordVectors::from_bytes(&trailing)
                .unwrap_err()
                .contains("after")
        );
        let mut huge_count = EMBEDDED_BYTES.to_vec();
        huge_count[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(
            WordVectors::from_bytes(&huge_count)
                .unwrap_err()
                .contains("room")
        );
        let mut zero_dims = EMBEDDED_BYTES.to_vec();
        zero_dims[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert!(WordVectors::from_bytes(&zero_dims).is_err());
        let mut bad_utf8 = EMBEDDED_BYTES.to_vec();
        bad_utf8[17] = 0xff;
        assert!(WordVectors::from_bytes(&bad_utf8).is_err());
    }

    #[test]
    fn embedded_vectors_load() {
        // How long loading takes is a benchmark's business (start-up in BENCHMARKS.md).
        let v = WordVectors::from_bytes(EMBEDDED_BYTES).unwrap();
        assert!(!v.is_empty());
    }
}
