//! Byte offsets ↔ LSP positions. LSP counts lines split at `\n`, `\r\n` or `\r`, and
//! characters in UTF-16 code units (the default position encoding, the only one every client
//! speaks). The language server works in byte offsets internally and converts at the edge.

/// The start of every line of a text, as byte offsets.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    starts.push(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The LSP position (line, UTF-16 column) of a byte offset; offsets past the end clamp to it.
    pub fn position(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(text, offset.min(self.len));
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        let slice = &text[start..offset];
        let col = if slice.is_ascii() {
            slice.len()
        } else {
            slice.chars().map(char::len_utf16).sum()
        };
        (line as u32, col as u32)
    }

    /// The byte offset of an LSP position. A line past the end means the end of the text; a
    /// column past the end of its line means the end of that line (before its terminator), as
    /// the protocol asks.
    pub fn offset(&self, text: &str, line: u32, character: u32) -> usize {
        let line = line as usize;
        if line >= self.starts.len() {
            return self.len;
        }
        let start = self.starts[line];
        let end = self.starts.get(line + 1).copied().unwrap_or(self.len);
        let mut units = 0usize;
        for (i, c) in text[start..end].char_indices() {
            if c == '\n' || c == '\r' || units >= character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_utf16_units_and_all_line_endings() {
        let text = "a\r\nb\rc\n{é𝄞} Nf3";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.position(text, 0), (0, 0));
        assert_eq!(idx.position(text, 3), (1, 0));
        assert_eq!(idx.position(text, 5), (2, 0));
        let nf3 = text.find("Nf3").unwrap();
        // "{é𝄞} " is 1 + 1 + 2 + 1 + 1 = 6 UTF-16 units.
        assert_eq!(idx.position(text, nf3), (3, 6));
        assert_eq!(idx.offset(text, 3, 6), nf3);
        assert_eq!(
            idx.offset(text, 0, 99),
            1,
            "a column past the end stops before the line break"
        );
        assert_eq!(idx.offset(text, 9, 0), text.len());
    }
}
