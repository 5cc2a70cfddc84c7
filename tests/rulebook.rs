//! The rulebook is complete and consistent: every article of the 2023 Laws (the list in
//! tests/data/fide-articles.txt, taken from the project's outline) has exactly one heading,
//! every article cited anywhere exists, every internal link and anchor resolves, no page or
//! numbered section is empty.

use std::collections::{HashMap, HashSet};

use rules_arbiter::answer::polarity::Permission;
use rules_arbiter::rulebook::{PageKind, Rulebook, find_article_refs};

fn book() -> Rulebook {
    Rulebook::embedded().expect("the embedded rulebook loads")
}

#[test]
fn every_article_has_exactly_one_heading() {
    let book = book();
    let list = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fide-articles.txt"
    ))
    .unwrap();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for p in &book.passages {
        if let Some(a) = &p.article {
            *counts.entry(a.clone()).or_default() += 1;
        }
    }
    let mut problems = Vec::new();
    for number in list.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match counts.get(number) {
            None => problems.push(format!("{number}: no heading")),
            Some(1) => {}
            Some(n) => problems.push(format!("{number}: {n} headings")),
        }
    }
    for (number, n) in &counts {
        if *n > 1 {
            problems.push(format!("{number}: {n} headings"));
        }
    }
    problems.sort();
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_two_rulings_share_a_question() {
    // A ruling pasted twice, or two rulings for one question, would split its phrasings and
    // give the page two sections with one anchor.
    let book = book();
    let mut seen = HashSet::new();
    let twice: Vec<&str> = book
        .passages
        .iter()
        .filter(|p| p.ruling.is_some())
        .filter(|p| !seen.insert(p.title.to_lowercase()))
        .map(|p| p.title.as_str())
        .collect();
    assert!(twice.is_empty(), "rulings asked twice: {twice:?}");
}

#[test]
fn every_cited_article_exists() {
    let book = book();
    let mut missing = Vec::new();
    for page in &book.pages {
        for &i in &page.passages {
            let p = &book.passages[i];
            for (_, number) in find_article_refs(&p.text) {
                if book.article(&number).is_none() {
                    missing.push(format!("{} #{}: cites {number}", page.path, p.anchor));
                }
            }
        }
        for alias in page.aliases.iter().chain(&page.keywords) {
            for (_, number) in find_article_refs(alias) {
                if book.article(&number).is_none() {
                    missing.push(format!("{} front matter: {number}", page.path));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_internal_link_resolves() {
    let book = book();
    let anchors: HashSet<(String, String)> = book
        .passages
        .iter()
        .map(|p| (p.page.clone(), p.anchor.clone()))
        .collect();
    let href = regex::Regex::new(r#"href="(/rulebook/[^"]*)""#).unwrap();
    let relative = regex::Regex::new(r#"href="([^"/#][^":]*)""#).unwrap();
    let mut broken = Vec::new();
    let mut links = 0;
    for page in &book.pages {
        for cap in href.captures_iter(&page.html) {
            links += 1;
            let url = &cap[1]["/rulebook/".len()..];
            let (target, anchor) = url.split_once('#').unwrap_or((url, ""));
            let target = target.trim_end_matches(".md");
            if book.page(target).is_none() {
                broken.push(format!("{}: link to missing page {url}", page.path));
            } else if !anchor.is_empty()
                && !anchors.contains(&(target.to_string(), anchor.to_string()))
            {
                broken.push(format!("{}: link to missing anchor {url}", page.path));
            }
        }
        // Relative Markdown links must not be used: they break under /rulebook/{page}.
        for cap in relative.captures_iter(&page.html) {
            broken.push(format!("{}: relative link {}", page.path, &cap[1]));
        }
    }
    assert!(
        links > 100,
        "article numbers in the text should be linked ({links} links)"
    );
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn no_page_or_section_is_empty() {
    let book = book();
    let mut empty = Vec::new();
    for page in &book.pages {
        let words: usize = page
            .passages
            .iter()
            .map(|&i| book.passages[i].text.split_whitespace().count())
            .sum();
        if words < 30 {
            empty.push(format!("{}: only {words} words", page.path));
        }
        for &i in &page.passages {
            let p = &book.passages[i];
            // A group heading may be followed directly by its sub-articles.
            let has_children = page.passages.iter().any(|&j| {
                book.passages[j].heading_path.len() > p.heading_path.len()
                    && book.passages[j].heading_path.starts_with(&p.heading_path)
            });
            if p.text.trim().is_empty() && !has_children {
                empty.push(format!("{} #{}: empty section", page.path, p.anchor));
            }
        }
    }
    assert!(empty.is_empty(), "{}", empty.join("\n"));
}

#[test]
fn kinds_and_counts() {
    let book = book();
    let count = |k: PageKind| book.pages.iter().filter(|p| p.kind == k).count();
    assert!(
        count(PageKind::Law) >= 19,
        "a page per Article 1–12, Appendix A–D and Guideline I–III"
    );
    assert!(count(PageKind::Guide) >= 10);
    let rulings: Vec<_> = book
        .passages
        .iter()
        .filter(|p| p.ruling.is_some())
        .collect();
    assert!(
        rulings.len() >= 500,
        "at least 500 rulings, found {}",
        rulings.len()
    );
    for p in &rulings {
        let meta = p.ruling.as_ref().unwrap();
        assert!(
            (3..=12).contains(&meta.asked.len()),
            "{} #{}: a ruling has three to twelve 'asked:' lines",
            p.page,
            p.anchor
        );
        for a in &meta.articles {
            assert!(
                book.article(a).is_some(),
                "{} #{}: article {a} has no heading",
                p.page,
                p.anchor
            );
        }
        assert!(
            !p.text.trim().is_empty(),
            "{} #{}: no text",
            p.page,
            p.anchor
        );
    }
    for p in &book.passages {
        for fen in &p.fens {
            assert!(
                rules_arbiter::rules::Game::new(Some(fen)).is_ok(),
                "{} #{}: bad FEN {fen}",
                p.page,
                p.anchor
            );
        }
    }
}

/// A ruling that opens with "Yes" or "No" answers one polarity of question: its phrasings must
/// not ask both "is it allowed?" and "is it illegal?", or one of them gets the opposite answer
/// ("Is it against the rules to refuse a draw?" — "No"; "Was I allowed to refuse?" — "No").
/// Such a ruling opens with the decision in words instead ("Refusing is always allowed: …").
#[test]
fn yes_or_no_answers_one_polarity_of_question() {
    let opens_yes_or_no = regex::Regex::new(r"^(Yes|No)\b").unwrap();
    for p in book().passages.iter().filter(|p| p.ruling.is_some()) {
        if !opens_yes_or_no.is_match(p.text.trim_start()) {
            continue;
        }
        let meta = p.ruling.as_ref().unwrap();
        let phrasings: Vec<&str> = std::iter::once(p.title.as_str())
            .chain(meta.asked.iter().map(String::as_str))
            .collect();
        // Read with the answer layer's reader of a question (`Permission::asked_in`, which with
        // `Permission::of_heading` decides when a bare Yes/No is said in words), the heading
        // too: stricter than the answer layer, which reads a heading only as a whole question.
        let asked = |way| {
            phrasings
                .iter()
                .find(move |q| Permission::asked_in(&q.to_lowercase()) == Some(way))
        };
        let asks_illegal = asked(Permission::IsItForbidden);
        let asks_allowed = asked(Permission::MayIt);
        assert!(
            asks_illegal.is_none() || asks_allowed.is_none(),
            "{} #{}: opens with Yes/No but is asked both {:?} and {:?}",
            p.page,
            p.anchor,
            asks_illegal.unwrap(),
            asks_allowed.unwrap()
        );
    }
}
