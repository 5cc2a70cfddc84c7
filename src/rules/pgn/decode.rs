//! Bytes to text, the way PGN files come: UTF-8 (a byte-order mark is dropped), or, when the
//! bytes are not UTF-8, Windows-1252 — the code page of ChessBase and most older Windows
//! exports, and a superset of Latin-1 for every printable character.

use std::borrow::Cow;

/// The encoding a text was read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Encoding {
    #[serde(rename = "utf-8")]
    Utf8,
    #[serde(rename = "windows-1252")]
    Windows1252,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Windows1252 => "Windows-1252 (Latin-1)",
        }
    }
}

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Windows-1252 bytes 0x80–0x9F; the five bytes it leaves undefined map to the C1 controls of
/// the same value, as the WHATWG decoder does, so that no byte is ever lost.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// Reads `bytes` as UTF-8 (without a leading byte-order mark) or, failing that, as
/// Windows-1252. Never fails: every byte sequence is some Windows-1252 text.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, Encoding) {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), Encoding::Utf8),
        Err(_) => (
            Cow::Owned(bytes.iter().map(|&b| windows_1252(b)).collect()),
            Encoding::Windows1252,
        ),
    }
}

/// Like [`decode`], taking ownership to avoid a copy when the bytes are UTF-8.
pub fn decode_owned(mut bytes: Vec<u8>) -> (String, Encoding) {
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    match String::from_utf8(bytes) {
        Ok(text) => (text, Encoding::Utf8),
        Err(e) => (
            e.as_bytes().iter().map(|&b| windows_1252(b)).collect(),
            Encoding::Windows1252,
        ),
    }
}

fn windows_1252(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_and_without_bom() {
        assert_eq!(
            decode("[White \"Réti\"]".as_bytes()),
            (Cow::Borrowed("[White \"Réti\"]"), Encoding::Utf8)
        );
        let mut with_bom = BOM.to_vec();
        with_bom.extend_from_slice(b"1. e4 *");
        assert_eq!(decode(&with_bom).0, "1. e4 *");
        assert_eq!(decode_owned(with_bom).0, "1. e4 *");
    }

    #[test]
    fn latin1_and_windows_1252_fall_back() {
        // "Réti" in Latin-1, and curly quotes and the euro sign of Windows-1252.
        let (text, enc) = decode(b"[White \"R\xe9ti\"] {\x93good\x94 \x80}");
        assert_eq!(enc, Encoding::Windows1252);
        assert_eq!(text, "[White \"Réti\"] {\u{201C}good\u{201D} €}");
        let (text, enc) = decode_owned(b"Nimzowitsch \xfc".to_vec());
        assert_eq!(
            (text.as_str(), enc),
            ("Nimzowitsch ü", Encoding::Windows1252)
        );
    }
}
