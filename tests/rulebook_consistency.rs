//! The rulebook states each key fact the same way on every page.
//!
//! Facts such as "a first illegal move in rapid costs one minute" or "K+2N v K: the knights'
//! flag falling is a draw" are written on the law page and restated in guides, FAQ answers and
//! rulings. Restatements drift (the audit of the 2023 rulebook found five facts that already had),
//! so this test reads every Markdown page under `rulebook/` sentence by sentence and checks the
//! numbers and results that matter at the board:
//!
//! - illegal moves and wrong claims: 1 minute in rapid and in blitz (A.3), 2 minutes in standard
//!   play (7.5.5, 9.5.3); only a *second* illegal move loses;
//! - time and material: in K+2N v K the knights' own flag only draws (6.9, A.5.3);
//! - repetition: threefold and fivefold need not be consecutive (9.2, 9.6.1); fifty moves are a
//!   claim (9.3), seventy-five moves are automatic (9.6.2);
//! - the displaced-pieces remedy (pause the clock, call the arbiter: 7.4.2), the assistant's
//!   clock adjustment (6.2.6, 8.1.6: "adjusts", not "may adjust"), the inverted rook (a rook);
//! - the figures of A.1/B.1 (60 times the increment), 8.4 (30 seconds) and III.4 (5 seconds);
//! - no table-of-contents sentences ("Section 6.3 explains…") in laws, guides or rulings.
//!
//! Every folder is checked (laws, guides, faq, rulings); violations are listed per folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use regex::Regex;

/// One sentence of running text, cleaned of Markdown and lower-cased for matching.
struct Sentence {
    folder: String,
    file: String,
    line: usize,
    /// The nearest heading above the sentence, lower-cased.
    heading: String,
    /// The sentence is that heading itself.
    is_heading: bool,
    text: String,
}

const FOLDERS: [&str; 4] = ["laws", "guides", "faq", "rulings"];

/// `RULEBOOK_DIR` points the test at another copy (for example an older revision, to see what
/// the checks would have caught); by default it reads the crate's own `rulebook/`.
fn rulebook_dir() -> PathBuf {
    std::env::var_os("RULEBOOK_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("rulebook"))
}

fn markdown_files(folder: &str) -> Vec<PathBuf> {
    let dir = rulebook_dir().join(folder);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files
}

/// Markdown emphasis, links and typography removed; lower case; single spaces.
fn clean(text: &str) -> String {
    static LINK: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let link = LINK.get_or_init(|| Regex::new(r"\[([^\]]*)\]\([^)]*\)").unwrap());
    let text = link.replace_all(text, "$1");
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '*' | '`' => {}
            '\u{2018}' | '\u{2019}' => out.push('\''),
            '\u{201c}' | '\u{201d}' => out.push('"'),
            '\u{2013}' | '\u{2014}' => out.push('-'),
            '\u{00a0}' => out.push(' '),
            c => out.extend(c.to_lowercase()),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits running text into sentences: after `.`, `!` or `?` followed by a space and a capital,
/// a digit, an opening quote or bracket, or Markdown emphasis. Dotted article numbers ("7.5.5")
/// and move numbers ("1.e4") have no space after the dot and stay whole.
fn split_sentences(unit: &str) -> Vec<String> {
    let chars: Vec<char> = unit.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..chars.len() {
        if matches!(chars[i], '.' | '!' | '?')
            && i + 2 < chars.len()
            && chars[i + 1] == ' '
            && (chars[i + 2].is_uppercase()
                || chars[i + 2].is_ascii_digit()
                || matches!(chars[i + 2], '*' | '"' | '(' | '\u{201c}'))
        {
            out.push(chars[start..=i].iter().collect::<String>());
            start = i + 2;
        }
    }
    if start < chars.len() {
        out.push(chars[start..].iter().collect());
    }
    out
}

/// Reads one page: front matter skipped except `summary`, fenced blocks skipped, the metadata
/// lines of rulings (`- asked:` and the like) skipped; paragraphs, list items and headings
/// become units, units become sentences.
fn sentences_of(folder: &str, path: &Path) -> Vec<Sentence> {
    let source = std::fs::read_to_string(path).expect("page is readable");
    let file = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
    let mut units: Vec<(usize, String, String, bool)> = Vec::new(); // (line, heading, text, is heading)
    let mut heading = String::new();
    let mut current: Option<(usize, String)> = None;
    let mut in_front_matter = false;
    let mut in_fence = false;
    let flush = |current: &mut Option<(usize, String)>,
                 units: &mut Vec<(usize, String, String, bool)>,
                 heading: &str| {
        if let Some((line, text)) = current.take() {
            units.push((line, heading.to_string(), text, false));
        }
    };
    for (i, raw) in source.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line == "+++" {
            in_front_matter = !in_front_matter;
            continue;
        }
        if in_front_matter {
            if let Some(rest) = line.strip_prefix("summary = ") {
                units.push((
                    line_no,
                    String::new(),
                    rest.trim_matches('"').to_string(),
                    false,
                ));
            }
            continue;
        }
        if line.starts_with("```") {
            flush(&mut current, &mut units, &heading);
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if line.is_empty() {
            flush(&mut current, &mut units, &heading);
            continue;
        }
        if line.starts_with('#') {
            flush(&mut current, &mut units, &heading);
            heading = clean(line.trim_start_matches('#'));
            units.push((
                line_no,
                heading.clone(),
                line.trim_start_matches('#').to_string(),
                true,
            ));
            continue;
        }
        if ["- asked:", "- articles:", "- context:", "- position:"]
            .iter()
            .any(|p| line.starts_with(p))
        {
            flush(&mut current, &mut units, &heading);
            continue;
        }
        let starts_item = line.starts_with("- ")
            || line.starts_with("* ")
            || line.split_once(". ").is_some_and(|(n, _)| {
                !n.is_empty() && n.len() <= 2 && n.chars().all(|c| c.is_ascii_digit())
            });
        if starts_item {
            flush(&mut current, &mut units, &heading);
        }
        match &mut current {
            Some((_, text)) => {
                text.push(' ');
                text.push_str(line);
            }
            None => current = Some((line_no, line.to_string())),
        }
    }
    flush(&mut current, &mut units, &heading);

    let mut out = Vec::new();
    for (line, heading, text, is_heading) in units {
        for s in split_sentences(&text) {
            let text = clean(&s);
            if !text.is_empty() {
                out.push(Sentence {
                    folder: folder.to_string(),
                    file: file.clone(),
                    line,
                    heading: heading.clone(),
                    is_heading,
                    text,
                });
            }
        }
    }
    out
}

fn all_sentences() -> Vec<Sentence> {
    let mut all = Vec::new();
    for folder in FOLDERS {
        for path in markdown_files(folder) {
            all.extend(sentences_of(folder, &path));
        }
    }
    all
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("bad pattern {pattern}: {e}"))
}

/// The compiled vocabulary the rules share.
struct Vocab {
    illegal_move: Regex,
    wrong_claim: Regex,
    rapid_or_blitz: Regex,
    one_minute: Regex,
    two_minutes: Regex,
    two_minutes_contrasted: Regex,
    any_minutes: Regex,
    standard: Regex,
    literal_b2: Regex,
    history: Regex,
    other_rules: Regex,
    guidelines_iii: Regex,
    penalty_word: Regex,
}

impl Vocab {
    fn new() -> Self {
        Vocab {
            illegal_move: re(r"\billegal moves?\b|\bpressing the clock without (making a|moving)"),
            wrong_claim: re(
                r"\b(wrong|incorrect|false|mistaken|unfounded|failed|rejected) (draw |threefold |repetition |fifty-move |50-move )?claims?\b|\bclaim (is|turns out|was|proves) (wrong|incorrect|unfounded|false)",
            ),
            rapid_or_blitz: re(r"\b(rapid|blitz)\b"),
            one_minute: re(
                r"\b(one|1|a)[ -]minute\b|\b(one|1) extra minute|\ba minute\b|\bone\b[^.;]{0,12}\brapid\b",
            ),
            two_minutes: re(r"\b(two|2)[ -](extra |more )?minutes?\b"),
            two_minutes_contrasted: re(
                r"\b(instead of|rather than|not|from|of) (two|2)[ -](extra |more )?minutes?\b|\b(two|2)[ -]minutes? (in|for) standard|\bstandard[^;]{0,40}\b(two|2)[ -](extra |more )?minutes?",
            ),
            any_minutes: re(r"\b(one|two|1|2|a)[ -](extra |more )?minutes?\b"),
            standard: re(r"\b(standard|classical|slow)\b"),
            literal_b2: re(
                r"\bb\.2\b|\bfull(y)? supervis|one arbiter (per|for each|for one) game|read (literally|strictly)|literal",
            ),
            history: re(
                r"\b(2014|2017|2018)\b|before 2023|older (rules|editions|sources)|\bold(er)? fide|used to\b|still (say|quote)|websites|many clubs|by habit",
            ),
            other_rules: re(r"us chess|not fide|online|server|lichess|chess\.com|federation"),
            guidelines_iii: re(
                r"\biii\.|guidelines iii|without increment|no increment|increment for both",
            ),
            penalty_word: re(
                r"\b(time )?penalty\b|\bpenalties\b|\bextra time\b|\b(7\.5\.5|9\.5\.3)\b",
            ),
        }
    }
}

struct Violation {
    folder: String,
    message: String,
}

fn check(all: &[Sentence]) -> Vec<Violation> {
    check_counting(all).0
}

/// How many sentences each family of checks actually looked at, so that a pattern which stops
/// matching anything (after a rewording) is noticed instead of passing vacuously.
#[derive(Default, Debug)]
struct Coverage {
    penalty_in_rapid_or_blitz: usize,
    penalty_in_standard: usize,
    knights_flag: usize,
    repetition_consecutive: usize,
    fifty_or_seventy_five: usize,
}

fn check_counting(all: &[Sentence]) -> (Vec<Violation>, Coverage) {
    let v = Vocab::new();
    let mut seen = Coverage::default();
    let mut out = Vec::new();
    let mut flag = |s: &Sentence, rule: &str| {
        out.push(Violation {
            folder: s.folder.clone(),
            message: format!("{}:{}: [{rule}] {}", s.file, s.line, s.text),
        });
    };

    // Knights' own flag: a clause that has the knights' side running out of time.
    let knights_flag = re(
        r"knights'? (own )?flag (falls|fell|drops|is down)|(side|player) with the (two )?knights (runs|ran|is) out of time|(side|player) with the (two )?knights oversteps|knights run out of time|(side|player) (with|holding) the (two )?knights'? flag",
    );
    let knights_win =
        re(r"\b(lose|loses|lost|wins?|won)\b|(bare|lone) king (wins|loses)|knights? (side )?wins?");
    let two_knights = re(r"two knights|2 knights|k\+2n|\bkn?nk\b");
    let flag_loses_anyway = re(
        r"(player|side) whose flag falls (\w+ )?loses|whoever (oversteps|runs out of time|flags) (\w+ )?loses|whichever (side|player)('s flag falls| oversteps| runs out of time) (\w+ )?loses",
    );
    let fivefold = re(r"fivefold|five-fold|5-fold|\b5fold|five (times|occurrences|repetitions)");
    let threefold = re(r"threefold|three-fold|3-fold|third time|three (times|occurrences)");
    let consecutive = re(r"\bconsecutive(ly)?\b|\bin a row\b|\bsuccessive\b");
    let not_consecutive = re(
        r"not necessarily|need not|needn't|do not need|does not need|don't need|doesn't need|not have to|no longer|dropped|gone|removed|not required|is not required|any order|not consecutive|no need",
    );
    let seventy_five =
        re(r"\b(seventy-five|seventy five|75)[ -]move|\b(seventy-five|seventy five|75) moves\b");
    let automatic =
        re(r"\bautomatic(ally)?\b|\bby itself\b|\bwithout (a|any) claim\b|\bno claim\b");
    let unsupervised = re(
        r"without full supervision|not fully supervised|unsupervised|without (the )?supervision",
    );
    let smaller_penalty = re(r"(smaller|lighter|reduced|halved|lower) (time )?penalt");
    let next_move_window = re(
        r"before (you make |making |he or she makes |the opponent makes )?(your|his or her|their|the opponent's|his|her) (own )?next move|before (the opponent )?(replying|replies)|before making (a|any) move",
    );
    let unsupervised_or_b3 = re(
        r"without full supervision|not fully supervised|unsupervised|without (the )?supervision|\bb\.3\b|\ba\.5[ ,);]|\ba\.5$|no arbiter|partial supervision|without a\.4|ordinary (rapid|blitz)|open (rapid|blitz)|typical (rapid|blitz)",
    );
    let fivefold_history = re(r"before 2017|pre-2017|before the 2017|editions before 2017");
    let fifty_automatic = re(
        r"\b(fifty|50)[ -]moves?\b[^;.]{0,40}\bautomatic|\bautomatic(ally)?\b[^;.]{0,30}\b(fifty|50)[ -]moves?\b",
    );
    let not_automatic = re(
        r"not an? automatic|not automatic|never automatic|only (on|when|if)|must (be )?claim|needs? a claim|until (someone|the player|a player)|online|server|lichess|chess\.com|seventy|\b75\b|fivefold|five times|not fide",
    );
    let claim_required = re(
        r"must be claimed|only on a (correct )?claim|needs a claim|has to be claimed|must claim",
    );
    let n_move_rule = re(r"\b(\d+)-move (rule|draw)");
    let press_back = re(
        r"press(es|ing)? the clock back|press(es|ing)? (his|her|their|the) (own )?clock to restart|restart (the offender's|your|his|her) (clock|time) by pressing",
    );
    let press_back_ok = re(
        r"us chess|11c|not fide|must not|does not|do not|not simply|never|instead of|rather than",
    );
    let assistant = re(r"\bassistant\b");
    let may_adjust = re(r"\b(may|might|can|could) (then )?adjust\b");
    let clock_word = re(r"\bclock|\btime\b");
    let inverted_rook_queen = re(
        r"(upside-down|upside down|inverted|turned-over|turned over) rook (is|counts as|may stand for|stands for|can stand for|is accepted as|becomes) a queen",
    );
    let times_increment = re(r"(\w+) times (the|any) increment");
    let eight_four = re(r"five minutes|5 minutes|five-minute|5-minute");
    let record_word = re(r"record|scoresheet|score|writ|notat");
    let increment_seconds = re(r"\b(\d+|five|ten|thirty|fifteen)[ -]seconds?\b");
    let ask_increment = re(
        r"ask (the arbiter )?for (an |a )?(\w+[ -]second )?increment|asking for an increment|request(s|ing)? (an |a )?(\w+[ -]second )?increment",
    );
    let toc = re(
        r"\b(article|section|appendix|guidelines?|chapter|part|page)( [0-9a-z]+(\.[0-9a-z]+)*)? deals with\b|\bthis (section|page|article|appendix|part|chapter)\b|\bsection \d|\bsections? below\b|\bthe following items?\b|\b(is|are) (covered|explained) (in|by) (\d|[a-d]\.\d|article|section|appendix|guidelines|the \w+ guide)|\b(is|are) (covered|dealt with|explained) below\b|\b(article|appendix|guidelines?|section|chapter|part) [0-9a-z]+(\.[0-9a-z]+)* (covers|explains|describes|sets out|lists|tells|deals)\b|\bset out below\b|\blisted below\b|\bexplained below\b|\bdescribed below\b|\bdealt with below\b",
    );

    for s in all {
        let t = s.text.as_str();
        // Questions state nothing, and a ruling's heading is the scenario as a player puts it
        // (matched, never shown as the answer); the answers are what is checked.
        if t.ends_with('?') || (s.is_heading && s.folder == "rulings") {
            continue;
        }
        // A sentence about another rule set (US Chess, servers), or under such a heading.
        let other_rules = v.other_rules.is_match(t) || v.other_rules.is_match(&s.heading);
        let rapid_context = v.rapid_or_blitz.is_match(t) || v.rapid_or_blitz.is_match(&s.heading);

        // 1. Penalty figures for a first illegal move or a wrong claim.
        let penalty_topic =
            v.illegal_move.is_match(t) || v.wrong_claim.is_match(t) || v.penalty_word.is_match(t);
        let in_guidelines_iii = v.guidelines_iii.is_match(t)
            || s.heading.contains("iii.")
            || s.file.ends_with("guidelines-iii.md");
        if penalty_topic && v.any_minutes.is_match(t) && !in_guidelines_iii {
            let rapid = v.rapid_or_blitz.is_match(t);
            if rapid {
                seen.penalty_in_rapid_or_blitz += 1;
            } else if v.standard.is_match(t) || v.two_minutes.is_match(t) {
                seen.penalty_in_standard += 1;
            }
            let exempt_two = v.literal_b2.is_match(t) || v.history.is_match(t) || other_rules;
            let two = v.two_minutes.is_match(t) && !v.two_minutes_contrasted.is_match(t);
            if rapid && two && !v.one_minute.is_match(t) && !exempt_two {
                flag(s, "rapid/blitz penalty must be 1 minute (A.3)");
            }
            if rapid
                && v.standard.is_match(t)
                && v.two_minutes.is_match(t)
                && !v.one_minute.is_match(t)
                && !exempt_two
            {
                flag(
                    s,
                    "sentence names standard and rapid/blitz but not the 1 minute of A.3",
                );
            }
            if !rapid_context
                && v.standard.is_match(t)
                && v.one_minute.is_match(t)
                && !v.two_minutes.is_match(t)
                && !t.contains("instead of")
            {
                flag(s, "standard-play penalty must be 2 minutes (7.5.5, 9.5.3)");
            }
        }
        // A.3 covers every rapid game; only the procedure of A.5 depends on supervision.
        if v.rapid_or_blitz.is_match(t) && unsupervised.is_match(t) && smaller_penalty.is_match(t) {
            flag(
                s,
                "the 1-minute penalty of A.3 applies to every rapid game, supervised or not",
            );
        }
        // The short window of A.5.2 exists only without full supervision (A.4, B.2 games use 7.5.1).
        if v.rapid_or_blitz.is_match(t)
            && next_move_window.is_match(t)
            && (v.illegal_move.is_match(t) || t.contains("a.5.2"))
            && !unsupervised_or_b3.is_match(t)
            && !unsupervised_or_b3.is_match(&s.heading)
            && !other_rules
        {
            flag(
                s,
                "the before-the-next-move window of A.5.2 applies only without full supervision",
            );
        }
        // A first illegal move never loses a FIDE game.
        if re_first_illegal_loses(t) && !v.history.is_match(t) && !other_rules {
            flag(s, "only a second illegal move loses (7.5.5)");
        }

        // 2. King and two knights against king: the knights' own flag only draws.
        for m in knights_flag.find_iter(t) {
            seen.knights_flag += 1;
            // What the sentence says about that flag: the words up to the next ';' or '.'
            // after it, and back to the previous ',' or ';' before it.
            let after = &t[m.end()..];
            let after = &after[..after.find([';', '.']).unwrap_or(after.len()).min(80)];
            let before = &t[..m.start()];
            let before = &before[before.rfind([',', ';', '.']).map_or(0, |i| i + 1)..];
            if other_rules {
                continue;
            }
            if knights_win.is_match(after) || knights_win.is_match(before) {
                flag(s, "K+2N v K: the knights' flag falling is a draw (6.9)");
            } else if !after.contains("draw") && !before.contains("draw") {
                flag(
                    s,
                    "K+2N v K: the knights' flag falling must be called a draw (6.9)",
                );
            }
        }
        if two_knights.is_match(t) && flag_loses_anyway.is_match(t) && !other_rules {
            flag(
                s,
                "K+2N v K: 'whoever oversteps loses' is wrong for two knights (A.5.3)",
            );
        }

        // 3. Repetitions need not be consecutive.
        if (fivefold.is_match(t) || threefold.is_match(t)) && consecutive.is_match(t) {
            seen.repetition_consecutive += 1;
        }
        if fifty_automatic.is_match(t) || seventy_five.is_match(t) {
            seen.fifty_or_seventy_five += 1;
        }
        if (fivefold.is_match(t) || threefold.is_match(t))
            && consecutive.is_match(t)
            && !not_consecutive.is_match(t)
            && !v.history.is_match(t)
        {
            flag(s, "repetitions need not be consecutive (9.2, 9.6.1)");
        }
        if fivefold.is_match(t) && consecutive.is_match(t) && fivefold_history.is_match(t) {
            flag(
                s,
                "the consecutive fivefold rule was the 2014 edition's alone (before 2014 there was none)",
            );
        }
        if fivefold.is_match(t) && claim_required.is_match(t) && !automatic.is_match(t) {
            flag(s, "fivefold repetition is automatic, no claim (9.6.1)");
        }

        // 4. Fifty moves is a claim; seventy-five moves is automatic.
        // "the automatic draws" names 9.6 as a group; it says nothing about fifty moves.
        let without_group = t.replace("automatic draws", "draws of 9.6");
        if fifty_automatic.is_match(&without_group) && !not_automatic.is_match(t) && !other_rules {
            flag(
                s,
                "the fifty-move rule needs a claim (9.3); only 75 moves is automatic (9.6.2)",
            );
        }
        if seventy_five.is_match(t) && claim_required.is_match(t) && !automatic.is_match(t) {
            flag(s, "seventy-five moves draws without a claim (9.6.2)");
        }
        for cap in n_move_rule.captures_iter(t) {
            if !matches!(&cap[1], "50" | "75") {
                flag(s, "the FIDE move-count rules are 50 (9.3) and 75 (9.6.2)");
            }
        }

        // 5. Displaced pieces: pause the clock and call the arbiter (7.4.2).
        if press_back.is_match(t) && !press_back_ok.is_match(t) && !other_rules {
            flag(
                s,
                "displaced pieces: pause the clock and call the arbiter (7.4.2), not press it back",
            );
        }

        // 6. The clock of a player with an assistant is adjusted (6.2.6, 8.1.6).
        if (assistant.is_match(t) || assistant.is_match(&s.heading))
            && may_adjust.is_match(t)
            && clock_word.is_match(t)
        {
            flag(
                s,
                "assistant: the arbiter adjusts the clock (6.2.6, 8.1.6), it is not optional",
            );
        }

        // 7. An inverted rook is a rook under FIDE.
        if inverted_rook_queen.is_match(t) && !other_rules {
            flag(
                s,
                "an upside-down rook is a rook under FIDE (US Chess differs)",
            );
        }

        // 8. Figures of A.1/B.1, 8.4 and III.4.
        for cap in times_increment.captures_iter(t) {
            if !matches!(&cap[1], "60" | "sixty") {
                flag(
                    s,
                    "rapid/blitz limits count 60 times the increment (A.1, B.1)",
                );
            }
        }
        if eight_four.is_match(t) && record_word.is_match(t) && t.contains("increment") {
            for cap in increment_seconds.captures_iter(t) {
                if !matches!(&cap[1], "30" | "thirty")
                    && !t.contains("example")
                    && !t.contains("10 seconds per move, or")
                {
                    flag(
                        s,
                        "the recording exemption turns on an increment of 30 seconds (8.4)",
                    );
                }
            }
        }
        if ask_increment.is_match(t) {
            for cap in increment_seconds.captures_iter(t) {
                if !matches!(&cap[1], "5" | "five") {
                    flag(s, "the increment asked for under III.4 is 5 seconds");
                }
            }
        }

        // 9. No table-of-contents sentences outside the FAQ.
        if s.folder != "faq" && toc.is_match(t) {
            flag(s, "table-of-contents sentence: state the rule itself");
        }
    }
    (out, seen)
}

/// "An illegal move loses" in the present tense, without "second".
fn re_first_illegal_loses(t: &str) -> bool {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r#"\b(an|a|one|the|first|any|a completed|a single) (completed )?illegal move (loses|forfeits|costs the game|means a loss)|"illegal move loses""#,
        )
        .unwrap()
    });
    re.is_match(t) && !t.contains("second") && !t.contains("2nd")
}

#[test]
fn the_sentence_splitter_keeps_article_numbers_whole() {
    let parts = split_sentences(
        "The penalty is 2 minutes (7.5.5). In rapid it is 1 minute (A.3). See 9.2.",
    );
    assert_eq!(parts.len(), 3, "{parts:?}");
    assert!(parts[0].ends_with("(7.5.5)."));
}

#[test]
fn the_rules_catch_the_drift_they_are_meant_to_catch() {
    let sentence = |text: &str| Sentence {
        folder: "test".into(),
        file: "test.md".into(),
        line: 1,
        heading: String::new(),
        is_heading: false,
        text: clean(text),
    };
    let bad = [
        "In rapid chess a first illegal move gives the opponent two extra minutes.",
        "In blitz an incorrect draw claim costs 2 minutes.",
        "In standard play a first illegal move costs one minute.",
        "If the knights' flag falls, the bare king wins.",
        "King and two knights against a bare king: the player whose flag falls loses.",
        "Fivefold repetition requires five consecutive repetitions.",
        "The fifty-move rule draws the game automatically.",
        "In practice the opponent presses the clock back to restart yours.",
        "The arbiter may then adjust that player's clock for the assistant.",
        "An upside-down rook counts as a queen.",
        "In blitz an illegal move loses.",
        "Article 9 deals with draws.",
        "Section 6.3 explains how time is counted.",
        "Rapid and blitz games without full supervision use a smaller penalty (A.3).",
        "In rapid and blitz, point out the illegal move before you make your own next move (A.5.2).",
        "Editions before 2017 required five repetitions in consecutive alternate moves.",
    ];
    for text in bad {
        let found = check(&[sentence(text)]);
        assert!(!found.is_empty(), "not caught: {text}");
    }
    let good = [
        "In rapid, and in blitz under B.3, a first illegal move costs 1 minute (A.3).",
        "A first illegal move gives the opponent 2 extra minutes in standard play, 1 minute in rapid and in blitz under B.3.",
        "If the knights' flag falls, it is a draw, because a bare king can never mate.",
        "The five occurrences need not be consecutive.",
        "Online servers end the game automatically at fifty moves.",
        "Not FIDE: US Chess lets the opponent press the clock back.",
        "The arbiter adjusts that player's clock fairly.",
        "Read literally, an illegal move in blitz under B.2 would cost two minutes.",
    ];
    for text in good {
        let found = check(&[sentence(text)]);
        assert!(
            found.is_empty(),
            "false alarm on: {text}\n{}",
            found
                .iter()
                .map(|v| v.message.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn key_facts_read_the_same_on_every_page() {
    let all = all_sentences();
    assert!(
        all.iter().filter(|s| s.folder == "laws").count() > 1000,
        "the law pages should be read ({} sentences)",
        all.len()
    );
    // The checks must keep finding the statements they guard on the law pages and guides.
    let own: Vec<Sentence> = all
        .iter()
        .filter(|s| s.folder == "laws" || s.folder == "guides")
        .map(|s| Sentence {
            folder: s.folder.clone(),
            file: s.file.clone(),
            line: s.line,
            heading: s.heading.clone(),
            is_heading: s.is_heading,
            text: s.text.clone(),
        })
        .collect();
    let (_, seen) = check_counting(&own);
    let thin = !(seen.penalty_in_rapid_or_blitz >= 10
        && seen.penalty_in_standard >= 5
        && seen.knights_flag >= 3
        && seen.repetition_consecutive >= 3
        && seen.fifty_or_seventy_five >= 5);

    let violations = check(&all);
    if violations.is_empty() && !thin {
        return;
    }
    let mut report = String::new();
    if thin {
        let _ = writeln!(
            report,
            "\n== a check no longer finds the sentences it guards on laws/ and guides/: {seen:?}"
        );
    }
    for folder in FOLDERS {
        let here: Vec<&Violation> = violations.iter().filter(|v| v.folder == folder).collect();
        if here.is_empty() {
            continue;
        }
        let _ = writeln!(
            report,
            "\n== rulebook/{folder}: {} violation(s)",
            here.len()
        );
        for v in here {
            let _ = writeln!(report, "{}", v.message);
        }
    }
    panic!(
        "{} sentence(s) contradict the canonical statements:{report}",
        violations.len()
    );
}
