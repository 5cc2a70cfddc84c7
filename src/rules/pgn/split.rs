//! Files of any size, one game at a time: [`Splitter`] cuts a byte stream where the tokenizer
//! would start a new game (after a result outside variations, or at a tag pair that follows
//! movetext), without holding more than one game in memory; [`GameReader`] decodes each
//! piece, tokenizes it and numbers the games.
//!
//! The splitter is a small state machine that mirrors the tokenizer's view of comments, tag
//! pairs, variations and results, so that it never cuts inside a game; if it leaves two games
//! in one piece, the tokenizer still tells them apart, and the numbering stays right.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::decode::{BOM, Encoding, decode_owned};
use super::movetext::{self, GameText, SyntaxProblem, is_result};

/// The largest game kept whole, in bytes (annotated games are rarely over 100 KiB). Bytes past
/// it are counted and skipped, and the game is reported as too large to read.
pub const MAX_GAME_BYTES: usize = 4 << 20;

/// The bytes of one game (rarely several, or none: text between games).
#[derive(Debug, Clone, Default)]
pub struct RawGame {
    pub bytes: Vec<u8>,
    /// The size of the game when it was larger than the limit (only the first bytes are kept).
    pub oversized: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Normal,
    Brace,
    LineComment,
    Tag { quoted: bool, escaped: bool },
}

/// Cuts a PGN byte stream into games.
pub struct Splitter<R> {
    reader: R,
    scan: Scan,
    first: bool,
    eof: bool,
}

/// The splitter's state between two bytes.
struct Scan {
    limit: usize,
    cur: RawGame,
    size: u64,
    ready: VecDeque<RawGame>,
    mode: Mode,
    line_start: bool,
    has_movetext: bool,
    depth: usize,
    word: [u8; 8],
    word_len: usize,
    word_long: bool,
}

fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace()
        || matches!(
            c,
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'"'
        )
}

impl<R: BufRead> Splitter<R> {
    pub fn new(reader: R) -> Splitter<R> {
        Splitter::with_limit(reader, MAX_GAME_BYTES)
    }

    pub fn with_limit(reader: R, limit: usize) -> Splitter<R> {
        Splitter {
            reader,
            scan: Scan::new(limit),
            first: true,
            eof: false,
        }
    }

    /// Reads until at least one piece is ready or the input ends.
    fn fill(&mut self) -> io::Result<()> {
        while self.scan.ready.is_empty() && !self.eof {
            let data = self.reader.fill_buf()?;
            if data.is_empty() {
                self.eof = true;
                self.scan.finish();
                break;
            }
            let len = data.len();
            let mut from = 0;
            if self.first {
                self.first = false;
                if data.starts_with(BOM) {
                    from = BOM.len();
                }
            }
            self.scan.bytes(&data[from..]);
            self.reader.consume(len);
        }
        Ok(())
    }
}

impl Scan {
    fn new(limit: usize) -> Scan {
        Scan {
            limit,
            cur: RawGame::default(),
            size: 0,
            ready: VecDeque::new(),
            mode: Mode::Normal,
            line_start: true,
            has_movetext: false,
            depth: 0,
            word: [0; 8],
            word_len: 0,
            word_long: false,
        }
    }

    /// The end of the input.
    fn finish(&mut self) {
        if self.mode == Mode::Normal && (self.word_len > 0 || self.word_long) {
            self.end_word();
        }
        self.cut();
    }

    fn push_slice(&mut self, bytes: &[u8]) {
        self.size += bytes.len() as u64;
        let room = self.limit.saturating_sub(self.cur.bytes.len());
        self.cur
            .bytes
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
        if bytes.len() > room {
            self.cur.oversized = Some(self.size);
        }
    }

    /// Feeds a run of bytes; comments are skipped over whole.
    fn bytes(&mut self, data: &[u8]) {
        let mut i = 0;
        while i < data.len() {
            let end = match self.mode {
                Mode::Brace => data[i..].iter().position(|&c| c == b'}'),
                Mode::LineComment => data[i..].iter().position(|&c| c == b'\n' || c == b'\r'),
                _ => None,
            };
            match (self.mode, end) {
                (Mode::Brace | Mode::LineComment, None) => {
                    self.push_slice(&data[i..]);
                    self.line_start = false;
                    return;
                }
                (Mode::Brace | Mode::LineComment, Some(p)) => {
                    self.push_slice(&data[i..i + p]);
                    self.line_start = false;
                    i += p;
                }
                _ => {}
            }
            self.byte(data[i]);
            i += 1;
        }
    }

    fn push(&mut self, b: u8) {
        self.size += 1;
        if self.cur.bytes.len() < self.limit {
            self.cur.bytes.push(b);
        } else {
            self.cur.oversized = Some(self.size);
        }
    }

    /// Ends the current piece here (the next byte starts a new one).
    fn cut(&mut self) {
        let capacity = (self.cur.bytes.len() + 1024).min(self.limit);
        let piece = std::mem::replace(
            &mut self.cur,
            RawGame {
                bytes: Vec::with_capacity(capacity),
                oversized: None,
            },
        );
        self.size = 0;
        self.has_movetext = false;
        self.depth = 0;
        if piece.bytes.iter().any(|b| !b.is_ascii_whitespace()) {
            self.ready.push_back(piece);
        }
    }

    /// The word just read ended: a result outside variations ends the game.
    fn end_word(&mut self) {
        let result = !self.word_long
            && self.depth == 0
            && std::str::from_utf8(&self.word[..self.word_len]).is_ok_and(is_result);
        self.word_len = 0;
        self.word_long = false;
        if result {
            self.cut();
        }
    }

    fn byte(&mut self, b: u8) {
        let line_start = std::mem::replace(&mut self.line_start, b == b'\n' || b == b'\r');
        match self.mode {
            Mode::Brace => {
                if b == b'}' {
                    self.mode = Mode::Normal;
                }
                self.push(b);
            }
            Mode::LineComment => {
                if b == b'\n' || b == b'\r' {
                    self.mode = Mode::Normal;
                }
                self.push(b);
            }
            Mode::Tag { quoted, escaped } => {
                self.mode = match b {
                    b'\n' | b'\r' => Mode::Normal,
                    _ if escaped => Mode::Tag {
                        quoted,
                        escaped: false,
                    },
                    b'\\' if quoted => Mode::Tag {
                        quoted,
                        escaped: true,
                    },
                    b'"' => Mode::Tag {
                        quoted: !quoted,
                        escaped: false,
                    },
                    b']' if !quoted => Mode::Normal,
                    _ => self.mode,
                };
                self.push(b);
            }
            Mode::Normal => {
                // A `%` opening a line is an escape line, not the start of a word.
                let escape = b == b'%' && line_start && self.word_len == 0;
                if !(is_delimiter(b) || escape) {
                    if self.word_len < self.word.len() {
                        self.word[self.word_len] = b;
                        self.word_len += 1;
                    } else {
                        self.word_long = true;
                    }
                    self.has_movetext = true;
                    self.push(b);
                    return;
                }
                if self.word_len > 0 || self.word_long {
                    self.end_word();
                }
                match b {
                    b'%' => self.mode = Mode::LineComment,
                    b';' => self.mode = Mode::LineComment,
                    b'{' => self.mode = Mode::Brace,
                    b'[' => {
                        if self.has_movetext {
                            self.cut();
                        }
                        self.mode = Mode::Tag {
                            quoted: false,
                            escaped: false,
                        };
                    }
                    b'(' => {
                        self.depth += 1;
                        self.has_movetext = true;
                    }
                    b')' => self.depth = self.depth.saturating_sub(1),
                    b'$' => self.has_movetext = true,
                    _ => {}
                }
                self.push(b);
            }
        }
    }
}

impl<R: BufRead> Iterator for Splitter<R> {
    type Item = io::Result<RawGame>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Err(e) = self.fill() {
            self.eof = true;
            return Some(Err(e));
        }
        self.scan.ready.pop_front().map(Ok)
    }
}

/// One game read from a stream, ready to be judged (on any thread).
#[derive(Debug, Clone)]
pub struct ReadGame {
    /// 1-based position of the game in its input.
    pub index: usize,
    /// The text the game was read from; the spans of `game` and `problems` point into it.
    pub text: Arc<str>,
    pub game: GameText,
    /// Syntax problems met while reading this game.
    pub problems: Vec<SyntaxProblem>,
    pub encoding: Encoding,
    /// The game's size when it was over [`MAX_GAME_BYTES`]: only its beginning was read.
    pub oversized: Option<u64>,
}

impl ReadGame {
    /// The text of a span of this game.
    pub fn slice(&self, span: &movetext::Span) -> &str {
        &self.text[span.clone()]
    }
}

/// Every game of a byte stream, in order, each decoded and tokenized.
pub struct GameReader<R> {
    splitter: Splitter<R>,
    next_index: usize,
    pending: VecDeque<ReadGame>,
    orphans: Vec<SyntaxProblem>,
}

impl<R: BufRead> GameReader<R> {
    pub fn new(reader: R) -> GameReader<R> {
        GameReader {
            splitter: Splitter::new(reader),
            next_index: 1,
            pending: VecDeque::new(),
            orphans: Vec::new(),
        }
    }

    fn read_piece(&mut self, raw: RawGame) {
        let (text, encoding) = decode_owned(raw.bytes);
        let text: Arc<str> = Arc::from(text);
        let read = movetext::read(&text);
        let mut problems = read.problems;
        let count = read.games.len();
        if count == 0 {
            // Text outside any game (a stray brace…): reported with the next game.
            self.orphans.append(&mut problems);
            return;
        }
        for (k, game) in read.games.into_iter().enumerate() {
            let mut mine: Vec<SyntaxProblem> = std::mem::take(&mut self.orphans);
            if k + 1 == count {
                mine.append(&mut problems);
            } else {
                let (inside, rest): (Vec<_>, Vec<_>) = problems
                    .into_iter()
                    .partition(|p| p.span.start < game.span.end);
                mine.extend(inside);
                problems = rest;
            }
            self.pending.push_back(ReadGame {
                index: self.next_index,
                text: Arc::clone(&text),
                game,
                problems: mine,
                encoding,
                oversized: raw.oversized,
            });
            self.next_index += 1;
        }
    }
}

impl<R: BufRead> Iterator for GameReader<R> {
    type Item = io::Result<ReadGame>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.pending.is_empty() {
            match self.splitter.next()? {
                Ok(raw) => self.read_piece(raw),
                Err(e) => return Some(Err(e)),
            }
        }
        self.pending.pop_front().map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<String> {
        Splitter::new(text.as_bytes())
            .map(|p| String::from_utf8(p.unwrap().bytes).unwrap())
            .collect()
    }

    #[test]
    fn cuts_after_results_and_before_tags_that_follow_movetext() {
        let text = "[Event \"a\"]\n\n[Site \"b\"]\n1. e4 e5 1-0\n\n[Event \"c\"]\n1. d4 { a ] [comment 1-0 } d5 (1... Nf6 0-1) *\n1. c4\n[Event \"e\"]\n1. Nf3 1/2-1/2";
        let got = pieces(text);
        assert_eq!(got.len(), 4, "{got:#?}");
        assert!(got[0].starts_with("[Event \"a\"]") && got[0].ends_with("1-0"));
        assert!(got[1].contains("(1... Nf6 0-1) *"), "{got:#?}");
        assert_eq!(got[2].trim(), "1. c4");
        assert!(got[3].ends_with("1/2-1/2"));
    }

    #[test]
    fn numbers_games_like_the_tokenizer_and_reads_crlf_bom_and_latin1() {
        let mut bytes = BOM.to_vec();
        bytes.extend_from_slice(
            b"[White \"R\xe9ti\"]\r\n\r\n1. Nf3 d5 *\r\n\r\n1. e4 e5 1-0 1. d4 d5 0-1\r\n",
        );
        let games: Vec<ReadGame> = GameReader::new(&bytes[..]).map(Result::unwrap).collect();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].game.tag("White").unwrap().value, "Réti");
        assert_eq!(games[0].encoding, Encoding::Windows1252);
        assert_eq!(games[2].index, 3);
        assert_eq!(games[2].slice(&games[2].game.moves[0].span), "d4");
    }

    #[test]
    fn oversized_games_keep_their_beginning() {
        let text = format!(
            "[Event \"big\"]\n1. e4 {{{}}} e5 *\n[Event \"next\"]\n1. d4 *",
            "x".repeat(100)
        );
        let raw: Vec<RawGame> = Splitter::with_limit(text.as_bytes(), 40)
            .map(Result::unwrap)
            .collect();
        assert_eq!(raw.len(), 2);
        assert_eq!(raw[0].bytes.len(), 40);
        assert!(raw[0].oversized.unwrap() > 100);
        assert_eq!(raw[1].oversized, None);
    }
}
