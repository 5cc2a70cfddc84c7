//! Clock annotations in comments: `[%clk 0:03:12]` (the mover's clock after the move, as
//! lichess, chess.com and DGT boards write it) and `[%emt 0:00:07]` (the time the move took).

use std::time::Duration;

/// The clock annotations of one comment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clocks {
    pub clk: Option<Duration>,
    pub emt: Option<Duration>,
}

/// Reads `[%clk …]` and `[%emt …]` from a comment's text.
pub fn clocks(comment: &str) -> Clocks {
    let mut out = Clocks::default();
    let mut rest = comment;
    while let Some(at) = rest.find("[%") {
        rest = &rest[at + 2..];
        let end = rest.find(']').unwrap_or(rest.len());
        let command = &rest[..end];
        let mut parts = command.split_whitespace();
        let (name, value) = (parts.next(), parts.next());
        if let (Some(name), Some(value)) = (name, value) {
            match name {
                "clk" => out.clk = parse_duration(value),
                "emt" => out.emt = parse_duration(value),
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out
}

/// "1:02:03", "2:03", "3.5", "0:00:00.4" → a duration; `None` for anything else.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let mut seconds = 0f64;
    let mut fields = 0;
    for part in text.split(':') {
        fields += 1;
        if fields > 3 || part.is_empty() {
            return None;
        }
        let value: f64 = part.parse().ok()?;
        if !value.is_finite() || value < 0.0 {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    (seconds < 1e9).then(|| Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_clk_and_emt() {
        let c = clocks(" [%eval 0.17] [%clk 0:02:59.5] [%emt 0:00:03] ");
        assert_eq!(c.clk, Some(Duration::from_millis(179_500)));
        assert_eq!(c.emt, Some(Duration::from_secs(3)));
        assert_eq!(clocks("[%clk 0:00:00]").clk, Some(Duration::ZERO));
        assert_eq!(clocks("a plain comment").clk, None);
        assert_eq!(clocks("[%clk nonsense]").clk, None);
        assert_eq!(parse_duration("1:00:00"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_duration("1::0"), None);
    }
}
