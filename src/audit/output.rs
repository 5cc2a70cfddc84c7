//! The audit's outputs: a readable report (one line per finding, then a summary with counts),
//! JSON lines (one object per finding), and CSV (one row per finding).

use std::io::{self, Write};

use super::run::Totals;
use super::{Finding, FindingKind, Severity};

/// What each kind of finding means, for the summary.
pub fn kind_meaning(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::IllegalMove => "illegal moves (the game cannot be judged past them)",
        FindingKind::Ambiguous => "ambiguous moves (more than one piece could make them)",
        FindingKind::Notation => "words that are not moves",
        FindingKind::NullMove => "null moves (a pass; the Laws allow none)",
        FindingKind::AfterEnd => "moves played after the game had ended",
        FindingKind::Result => "results the final position contradicts",
        FindingKind::ResultTag => "Result tags that disagree with the movetext",
        FindingKind::TimeForfeit => "results on time the Laws decide otherwise (6.9)",
        FindingKind::TimeForfeitUpheld => {
            "losses on time that stand: the opponent could still mate (6.9)"
        }
        FindingKind::Undecided => "losses on time the solver could not decide",
        FindingKind::MissedClaim => "draw claims the loser could have made",
        FindingKind::NotStandard => "games in a variant, not standard chess (not judged)",
        FindingKind::Fen => "FEN tags that cannot be used as given",
        FindingKind::Syntax => "PGN syntax problems",
        FindingKind::Encoding => "inputs read as Windows-1252 (not UTF-8)",
        FindingKind::TooLarge => "games too large to read",
        FindingKind::Internal => "internal errors",
    }
}

/// One finding as a line of the readable report.
pub fn line(f: &Finding) -> String {
    let mut s = String::new();
    if let Some(file) = &f.file {
        s.push_str(file);
        s.push(':');
    }
    s.push_str(&format!("game {}", f.game));
    if let (Some(w), Some(b)) = (&f.white, &f.black) {
        s.push_str(&format!(" ({w} - {b})"));
    }
    if let Some(ply) = f.ply {
        s.push_str(&format!(" ply {ply}"));
        if let Some(m) = &f.move_text {
            s.push_str(&format!(" ({m})"));
        }
    }
    s.push_str(&format!(": {} {}", f.severity.name(), f.kind.as_str()));
    if !f.articles.is_empty() {
        s.push_str(&format!(" [{}]", f.articles.join(", ")));
    }
    s.push_str(": ");
    s.push_str(&f.message);
    if !f.helpmate.is_empty() && !f.message.contains(&f.helpmate[0]) {
        s.push_str(&format!(
            " Helpmate: {}",
            crate::rules::report::short_line(&f.helpmate)
        ));
    }
    s
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The summary at the end of the readable report.
pub fn summary(t: &Totals) -> String {
    let mut s = String::new();
    let secs = t.elapsed.as_secs_f64().max(1e-9);
    s.push_str(&format!(
        "Audited {} game{} ({} plies) from {} input{} in {:.1} s ({} games/s).\n",
        thousands(t.games as u64),
        if t.games == 1 { "" } else { "s" },
        thousands(t.plies),
        t.inputs,
        if t.inputs == 1 { "" } else { "s" },
        secs,
        thousands((t.games as f64 / secs) as u64)
    ));
    s.push_str(&format!(
        "{} game{} with an error; {} errors, {} warnings, {} notes.\n",
        thousands(t.games_with_errors as u64),
        if t.games_with_errors == 1 { "" } else { "s" },
        thousands(t.errors as u64),
        thousands(t.warnings as u64),
        thousands(t.infos as u64)
    ));
    if t.not_standard > 0 || t.unreadable > 0 {
        s.push_str(&format!(
            "Not judged: {} in a variant (not standard chess), {} not readable to the end.\n",
            thousands(t.not_standard as u64),
            thousands(t.unreadable as u64)
        ));
    }
    let on_time: usize = t.timeouts.values().sum();
    if on_time > 0 {
        let get = |k: &str| thousands(t.timeouts.get(k).copied().unwrap_or(0) as u64);
        s.push_str(&format!(
            "Results on time: {} recorded; {} stand, {} to change (6.9: a loss where the opponent could not mate, or a draw where it could), {} undecided, {} ended on the board before the flag.\n",
            thousands(on_time as u64),
            get("upheld"),
            get("wrong"),
            get("undecided"),
            get("ended_before")
        ));
    }
    if !t.by_kind.is_empty() {
        s.push_str("Findings by kind:\n");
        let mut kinds: Vec<(&FindingKind, &usize)> = t.by_kind.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.as_str().cmp(b.0.as_str())));
        for (kind, n) in kinds {
            s.push_str(&format!(
                "  {:>9}  {:<20} {}\n",
                thousands(*n as u64),
                kind.as_str(),
                kind_meaning(*kind)
            ));
        }
    }
    s
}

/// Quotes a CSV field when it needs it (RFC 4180).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub const CSV_HEADER: &str =
    "file,game,ply,move,kind,severity,articles,recorded,expected,white,black,site,message,helpmate";

/// One finding as a CSV row (no line end).
pub fn csv_row(f: &Finding) -> String {
    let opt = |o: &Option<String>| o.as_deref().map(csv_field).unwrap_or_default();
    [
        opt(&f.file),
        f.game.to_string(),
        f.ply.map(|p| p.to_string()).unwrap_or_default(),
        opt(&f.move_text),
        f.kind.as_str().to_string(),
        f.severity.name().to_string(),
        csv_field(&f.articles.join(" ")),
        opt(&f.recorded),
        opt(&f.expected),
        opt(&f.white),
        opt(&f.black),
        opt(&f.site),
        csv_field(&f.message),
        csv_field(&f.helpmate.join(" ")),
    ]
    .join(",")
}

/// How findings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One line per error and warning (and note, with `all`), then the summary.
    Text {
        all: bool,
    },
    Json,
    Csv,
}

/// Writes each finding as the format wants it.
pub fn write_finding(out: &mut impl Write, format: Format, f: &Finding) -> io::Result<()> {
    match format {
        Format::Text { all } => {
            if all || f.severity != Severity::Info {
                writeln!(out, "{}", line(f))?;
            }
        }
        Format::Json => {
            serde_json::to_writer(&mut *out, f)?;
            out.write_all(b"\n")?;
        }
        Format::Csv => writeln!(out, "{}", csv_row(f))?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_thousands() {
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(12), "12");
    }
}
