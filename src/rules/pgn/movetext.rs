//! The PGN tokenizer every front end shares (the language server, `check --pgn`, the API and
//! `arbiter audit`): it keeps the byte span of everything it reads, so a problem can be shown
//! exactly where it is.
//!
//! It reads tag pairs, `{…}` and `;` comments, `%` escape lines, variations `( … )`, NAGs
//! `$n`, annotation glyphs (`!`, `?!`…), move numbers (`12.`, `12...`, glued `12.e4`), moves,
//! null moves (`--`, `Z0`, `0000`) and results. It splits the text into games the way PGN
//! readers do: a game ends at its result, or where a tag pair follows movetext. It never
//! fails; what it cannot read becomes a move token (which the replay then names, with its ply,
//! as unreadable) or a syntax problem.

use std::ops::Range;

pub type Span = Range<usize>;

/// How serious a finding is; mapped 1:1 onto LSP severities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

/// A tag pair `[Name "value"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    /// The value with `\"` and `\\` unescaped.
    pub value: String,
    /// From `[` to `]`.
    pub span: Span,
    /// The value between the quotes.
    pub value_span: Span,
}

/// A move as written: the SAN and its check or mate sign, without annotation glyphs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveToken {
    pub span: Span,
}

/// One game: its tags, its main line and its result, with their places in the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameText {
    /// From the first to the last token of the game.
    pub span: Span,
    pub tags: Vec<Tag>,
    /// The main line, in order.
    pub moves: Vec<MoveToken>,
    /// Moves inside variations: tokenised for hovers, never checked.
    pub variation_moves: Vec<Span>,
    /// The result token at the end of the movetext, and its text.
    pub result: Option<(Span, String)>,
    /// Comments of the main line (`{…}`), each with the number of main-line moves before it:
    /// `%clk` and `%emt` annotations live there.
    pub comments: Vec<Comment>,
}

/// A `{…}` comment of the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// The text between the braces.
    pub span: Span,
    /// How many main-line moves precede it (0: before the first move).
    pub after: usize,
}

impl GameText {
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }
}

/// Something in the text that is not well-formed PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxProblem {
    pub span: Span,
    pub severity: Severity,
    pub message: String,
}

/// A whole PGN text, read.
#[derive(Debug, Clone, Default)]
pub struct PgnText {
    pub games: Vec<GameText>,
    pub problems: Vec<SyntaxProblem>,
}

impl PgnText {
    /// The game whose span contains `offset` (its end included, for a cursor just after it).
    pub fn game_at(&self, offset: usize) -> Option<(usize, &GameText)> {
        let i = self.games.partition_point(|g| g.span.end < offset);
        let g = self.games.get(i)?;
        (g.span.start <= offset && offset <= g.span.end).then_some((i, g))
    }
}

/// The results PGN knows (and "½-½", which people type).
pub fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
}

/// A null move as PGN writers spell it (ChessBase `Z0`, `--`, UCI `0000`, `@@@@`): a pass,
/// which no Law allows, but which databases use for an unknown or skipped move.
pub fn is_null_move(word: &str) -> bool {
    matches!(word, "--" | "Z0" | "0000" | "@@@@")
}

/// "½-½" → "1/2-1/2"; other results unchanged.
pub fn normalise_result(word: &str) -> &str {
    if word == "½-½" { "1/2-1/2" } else { word }
}

fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace()
        || matches!(
            c,
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'"'
        )
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')
        .map_or(bytes.len(), |p| from + p)
}

struct Reader<'a> {
    text: &'a str,
    games: Vec<GameText>,
    problems: Vec<SyntaxProblem>,
    cur: GameText,
    started: bool,
    in_movetext: bool,
    /// Where each open variation began.
    parens: Vec<usize>,
}

impl<'a> Reader<'a> {
    fn touch(&mut self, span: &Span) {
        if !self.started {
            self.cur.span = span.clone();
            self.started = true;
        } else {
            self.cur.span.end = span.end;
        }
    }

    fn movetext(&mut self, span: &Span) {
        self.touch(span);
        self.in_movetext = true;
    }

    fn problem(&mut self, span: Span, severity: Severity, message: impl Into<String>) {
        self.problems.push(SyntaxProblem {
            span,
            severity,
            message: message.into(),
        });
    }

    fn finish(&mut self) {
        for open in std::mem::take(&mut self.parens) {
            self.problem(
                open..open + 1,
                Severity::Warning,
                "this variation is never closed with ')'",
            );
        }
        if self.started {
            self.games.push(std::mem::take(&mut self.cur));
        }
        self.cur = GameText::default();
        self.started = false;
        self.in_movetext = false;
    }

    /// Reads the whole text, game by game. Only line starts are tracked here, because a `%`
    /// escape is one only in the first column; everything else is one token at a time.
    fn run(mut self) -> PgnText {
        let bytes = self.text.as_bytes();
        let mut i = if self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let mut line_start = true;
        while i < bytes.len() {
            if bytes[i] == b'\n' || bytes[i] == b'\r' {
                line_start = true;
                i += 1;
                continue;
            }
            i = if bytes[i] == b'%' && line_start {
                line_end(bytes, i)
            } else {
                self.token(i)
            };
            line_start = false;
        }
        self.finish();
        PgnText {
            games: self.games,
            problems: self.problems,
        }
    }

    /// Reads the token (or whitespace byte, or `;` comment) starting at `i` and returns where
    /// reading goes on.
    fn token(&mut self, i: usize) -> usize {
        let text = self.text;
        let bytes = text.as_bytes();
        match bytes[i] {
            c if c.is_ascii_whitespace() => i + 1,
            b';' => line_end(bytes, i),
            b'{' => self.brace_comment(i),
            b'[' => {
                if self.in_movetext {
                    // A tag after movetext starts the next game (the last one had no result).
                    self.finish();
                }
                self.tag(i)
            }
            b'(' => {
                self.parens.push(i);
                self.movetext(&(i..i + 1));
                i + 1
            }
            b')' => {
                if self.parens.pop().is_none() {
                    self.problem(i..i + 1, Severity::Warning, "')' closes no variation");
                } else {
                    self.touch(&(i..i + 1));
                }
                i + 1
            }
            b'$' => self.nag(i),
            c @ (b'}' | b']' | b'"') => {
                self.problem(
                    i..i + 1,
                    Severity::Warning,
                    format!("unexpected '{}' in the movetext", c as char),
                );
                i + 1
            }
            _ => {
                let mut j = i;
                while j < bytes.len() && !is_delimiter(bytes[j]) {
                    j += 1;
                }
                self.words(i, j);
                j
            }
        }
    }

    /// A `{…}` comment at `open`; returns where reading goes on. Comments on a game's main
    /// line are recorded with the number of moves before them, so that they can be placed
    /// between moves; those inside variations or before a game are skipped. An unclosed
    /// comment has no end to find, so the rest of the file is read as one, with a warning.
    fn brace_comment(&mut self, open: usize) -> usize {
        let bytes = self.text.as_bytes();
        match bytes[open + 1..].iter().position(|&c| c == b'}') {
            Some(p) => {
                if self.parens.is_empty() && self.started {
                    let after = self.cur.moves.len();
                    self.cur.comments.push(Comment {
                        span: open + 1..open + 1 + p,
                        after,
                    });
                }
                open + 1 + p + 1
            }
            None => {
                self.problem(
                    open..open + 1,
                    Severity::Warning,
                    "this comment is never closed with '}': the rest of the file is read as a comment",
                );
                bytes.len()
            }
        }
    }

    /// A NAG (`$1`) at `dollar`; returns where reading goes on. A bare `$` is kept as
    /// movetext (with a warning) so that the game's span still covers it.
    fn nag(&mut self, dollar: usize) -> usize {
        let digits = self.text.as_bytes()[dollar + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits == 0 {
            self.problem(
                dollar..dollar + 1,
                Severity::Warning,
                "'$' must be followed by a number (a NAG such as $1)",
            );
        }
        self.movetext(&(dollar..dollar + 1 + digits));
        dollar + 1 + digits
    }

    /// A run of non-delimiter bytes; non-ASCII whitespace (a no-break space…) splits it further.
    fn words(&mut self, start: usize, end: usize) {
        let slice = &self.text[start..end];
        if slice.is_ascii() {
            self.word(start, end);
            return;
        }
        let mut word_start: Option<usize> = None;
        for (k, ch) in slice.char_indices() {
            if ch.is_whitespace() {
                if let Some(s) = word_start.take() {
                    self.word(start + s, start + k);
                }
            } else if word_start.is_none() {
                word_start = Some(k);
            }
        }
        if let Some(s) = word_start {
            self.word(start + s, end);
        }
    }

    fn word(&mut self, start: usize, end: usize) {
        let w = &self.text[start..end];
        let span = start..end;
        if is_result(w) {
            if self.parens.is_empty() {
                self.touch(&span);
                self.cur.result = Some((span, w.to_string()));
                self.finish();
            } else {
                self.problem(
                    span.clone(),
                    Severity::Warning,
                    "a result inside a variation is ignored",
                );
                self.touch(&span);
            }
            return;
        }
        // Move numbers: "12", "12.", "12...", possibly glued to the move ("12.e4"); "0000" is
        // the UCI null move, not a number.
        let digits = w.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && w != "0000" {
            let dots = w[digits..].bytes().take_while(|&c| c == b'.').count();
            if dots > 0 || digits == w.len() {
                self.movetext(&(start..start + digits + dots));
                if digits + dots < w.len() {
                    self.word(start + digits + dots, end);
                }
                return;
            }
        }
        if w.bytes().all(|c| c == b'.')
            || w == "…"
            || w.eq_ignore_ascii_case("e.p.")
            || w.eq_ignore_ascii_case("e.p")
        {
            // "12. ... e5": the dots only repeat the move number; "exd6 e.p." marks en passant.
            self.movetext(&span);
            return;
        }
        // Annotation glyphs glued to the move ("Nf3!?") are not part of it.
        let mv_len = w.trim_end_matches(['!', '?']).len();
        if mv_len == 0 {
            self.movetext(&span);
            return;
        }
        let mv = start..start + mv_len;
        self.movetext(&span);
        if self.parens.is_empty() {
            self.cur.moves.push(MoveToken { span: mv });
        } else {
            self.cur.variation_moves.push(mv);
        }
    }

    /// A tag pair starting at `[`; returns where reading goes on.
    fn tag(&mut self, open: usize) -> usize {
        let bytes = self.text.as_bytes();
        let n = bytes.len();
        let malformed = |me: &mut Self| {
            let end = line_end(bytes, open);
            me.problem(
                open..end,
                Severity::Warning,
                "this tag pair is malformed: write [Name \"value\"] on one line",
            );
            end
        };
        let mut j = open + 1;
        while j < n && (bytes[j] == b' ' || bytes[j] == b'\t') {
            j += 1;
        }
        let name_start = j;
        while j < n && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
            j += 1;
        }
        let name_end = j;
        if name_end == name_start {
            return malformed(self);
        }
        while j < n && (bytes[j] == b' ' || bytes[j] == b'\t') {
            j += 1;
        }
        if j >= n || bytes[j] != b'"' {
            return malformed(self);
        }
        j += 1;
        let value_start = j;
        let mut escaped = false;
        loop {
            if j >= n || bytes[j] == b'\n' || bytes[j] == b'\r' {
                return malformed(self);
            }
            match bytes[j] {
                b'\\' => {
                    escaped = true;
                    j += 2;
                    continue;
                }
                b'"' => break,
                _ => j += 1,
            }
        }
        let value_end = j.min(n);
        j += 1;
        while j < n && (bytes[j] == b' ' || bytes[j] == b'\t') {
            j += 1;
        }
        if j >= n || bytes[j] != b']' {
            return malformed(self);
        }
        j += 1;
        let raw = &self.text[value_start..value_end];
        let value = if escaped {
            raw.replace("\\\"", "\"").replace("\\\\", "\\")
        } else {
            raw.to_string()
        };
        let span = open..j;
        self.touch(&span);
        self.cur.tags.push(Tag {
            name: self.text[name_start..name_end].to_string(),
            value,
            span,
            value_span: value_start..value_end,
        });
        j
    }
}

/// Reads every game of a PGN text, with spans.
pub fn read(text: &str) -> PgnText {
    Reader {
        text,
        games: Vec::new(),
        problems: Vec::new(),
        cur: GameText::default(),
        started: false,
        in_movetext: false,
        parens: Vec::new(),
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves<'a>(text: &'a str, g: &GameText) -> Vec<&'a str> {
        g.moves.iter().map(|m| &text[m.span.clone()]).collect()
    }

    #[test]
    fn reads_tags_moves_comments_variations_and_results() {
        let text = "[Event \"Test \\\"quoted\\\"\"]\n[Result \"1-0\"]\n\n1.e4 {a comment (not a variation)} e5 ; to the end\n2. Nf3!? $1 (2. Bc4 Nf6) 2... Nc6 3.Bb5+ 1-0\n\n[Event \"Two\"]\n1. d4 d5 *\n";
        let pgn = read(text);
        assert!(pgn.problems.is_empty(), "{:?}", pgn.problems);
        assert_eq!(pgn.games.len(), 2);
        let g = &pgn.games[0];
        assert_eq!(g.tag("event").unwrap().value, "Test \"quoted\"");
        assert_eq!(moves(text, g), ["e4", "e5", "Nf3", "Nc6", "Bb5+"]);
        assert_eq!(
            g.variation_moves
                .iter()
                .map(|s| &text[s.clone()])
                .collect::<Vec<_>>(),
            ["Bc4", "Nf6"]
        );
        assert_eq!(g.result.as_ref().unwrap().1, "1-0");
        assert_eq!(&text[g.tag("Result").unwrap().value_span.clone()], "1-0");
        assert_eq!(moves(text, &pgn.games[1]), ["d4", "d5"]);
        assert!(text[pgn.games[1].span.clone()].starts_with("[Event \"Two\"]"));
        assert!(text[pgn.games[1].span.clone()].ends_with('*'));
    }

    #[test]
    fn tags_after_movetext_start_a_new_game_and_problems_are_reported() {
        let text = "1. e4 e5 (1... c5\n[Event \"x\"]\n1. d4 } Nf6 [broken\n";
        let pgn = read(text);
        assert_eq!(pgn.games.len(), 2);
        assert_eq!(pgn.games[0].result, None);
        let msgs: Vec<&str> = pgn.problems.iter().map(|p| p.message.as_str()).collect();
        assert!(msgs.iter().any(|m| m.contains("never closed")), "{msgs:?}");
        assert!(
            msgs.iter().any(|m| m.contains("unexpected '}'")),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| m.contains("malformed")), "{msgs:?}");
        assert_eq!(moves(text, &pgn.games[1]), ["d4", "Nf6"]);
    }

    #[test]
    fn castling_with_zeros_is_a_move_not_a_result() {
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 0-1";
        let pgn = read(text);
        assert_eq!(moves(text, &pgn.games[0]).last(), Some(&"0-0"));
        assert_eq!(pgn.games[0].result.as_ref().unwrap().1, "0-1");
    }

    #[test]
    fn unicode_whitespace_splits_words() {
        let text = "1.\u{a0}e4\u{a0}e5 *";
        let pgn = read(text);
        assert_eq!(moves(text, &pgn.games[0]), ["e4", "e5"]);
        let text = "1. e4 Nf6 2. e5 d5 3. exd6 e.p. *";
        assert_eq!(moves(text, &read(text).games[0]).last(), Some(&"exd6"));
    }
}
