//! Reading the Markdown files into pages and passages.

use std::collections::HashMap;
use std::path::Path;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use rust_embed::RustEmbed;
use serde::Deserialize;

use super::articles::{anchor_for_article, article_of_heading, find_article_refs, slug};
use super::render::render_page_html;
use super::ruling::{PhraseGroups, split_ruling};
use super::{ArticleEntry, Page, PageKind, Passage};

#[derive(RustEmbed)]
#[folder = "rulebook/"]
#[include = "*.md"]
#[include = "phrases.toml"]
#[exclude = "README.md"]
struct EmbeddedRulebook;

/// The phrase groups that rulings' `premise:` and `unless:` lines name (`@bare-king`).
const PHRASES_FILE: &str = "phrases.toml";

/// Why the rulebook could not be loaded: which file and what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{path}: {message}")]
    Page { path: String, message: String },
    #[error("reading {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("the rulebook has no pages")]
    Empty,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    title: String,
    kind: PageKind,
    #[serde(default)]
    summary: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    keywords: Vec<String>,
}

/// The whole rulebook, immutable once loaded.
#[derive(Debug, Clone)]
pub struct Rulebook {
    pub pages: Vec<Page>,
    pub passages: Vec<Passage>,
    /// A hash of every file's path and content: the index records it to know it is current.
    pub hash: String,
    /// Look-ups only (FxHash: fixed keys from the rulebook, many look-ups a question).
    by_article: rustc_hash::FxHashMap<String, usize>,
    by_page: rustc_hash::FxHashMap<String, usize>,
}

impl Rulebook {
    /// The copy compiled into the binary.
    pub fn embedded() -> Result<Rulebook, LoadError> {
        let files: Vec<(String, String)> = EmbeddedRulebook::iter()
            .filter_map(|path| {
                let file = EmbeddedRulebook::get(&path)?;
                Some((
                    path.to_string(),
                    String::from_utf8_lossy(&file.data).into_owned(),
                ))
            })
            .collect();
        Rulebook::from_files(files)
    }

    /// A copy on disk (every `*.md` below `dir` except README.md, and `phrases.toml`).
    pub fn from_dir(dir: &Path) -> Result<Rulebook, LoadError> {
        let mut files = Vec::new();
        collect_md(dir, dir, &mut files)?;
        Rulebook::from_files(files)
    }

    /// Builds the rulebook from (relative path, text) pairs, in any order: the Markdown pages
    /// and, if present, `phrases.toml` (the phrase groups that rulings' premises name).
    pub fn from_files(mut files: Vec<(String, String)>) -> Result<Rulebook, LoadError> {
        let mut hasher = blake3::Hasher::new();
        let groups = match files.iter().position(|(path, _)| path == PHRASES_FILE) {
            Some(at) => {
                let (path, text) = files.remove(at);
                hasher.update(text.as_bytes());
                hasher.update(&[0]);
                PhraseGroups::parse(&text).map_err(|message| LoadError::Page { path, message })?
            }
            None => PhraseGroups::default(),
        };
        if files.is_empty() {
            return Err(LoadError::Empty);
        }
        let mut pages = Vec::new();
        let mut passages = Vec::new();
        files.sort_by_key(|(path, _)| page_order(path));
        let mut ids: HashMap<String, &str> = HashMap::new();
        for (path, text) in &files {
            let id = page_id(path);
            if let Some(other) = ids.insert(id.clone(), path) {
                return Err(LoadError::Page {
                    path: path.clone(),
                    message: format!(
                        "page id '{id}' is also the id of {other}: page ids (file names) must be unique across folders"
                    ),
                });
            }
            hasher.update(path.as_bytes());
            hasher.update(&[0]);
            hasher.update(text.as_bytes());
            hasher.update(&[0]);
            let page = parse_page(path, text, &groups, &mut passages)?;
            pages.push(page);
        }
        let mut by_article = rustc_hash::FxHashMap::default();
        for (i, p) in passages.iter().enumerate() {
            if let Some(a) = &p.article {
                by_article.entry(a.clone()).or_insert(i);
            }
        }
        let by_page = pages
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        let mut book = Rulebook {
            pages,
            passages,
            hash: hasher.finalize().to_hex().to_string(),
            by_article,
            by_page,
        };
        // Render after every anchor is known, so article numbers in the text can be linked.
        let htmls: Vec<String> = files
            .iter()
            .zip(book.pages.iter())
            .map(|((_, text), page)| render_page_html(&book, page, text))
            .collect();
        for (page, html) in book.pages.iter_mut().zip(htmls) {
            page.html = html;
        }
        Ok(book)
    }

    pub fn page(&self, id: &str) -> Option<&Page> {
        self.by_page.get(id).map(|&i| &self.pages[i])
    }

    /// The passage whose heading carries this article number.
    pub fn article(&self, number: &str) -> Option<&Passage> {
        self.by_article.get(number).map(|&i| &self.passages[i])
    }

    pub fn article_index(&self, number: &str) -> Option<usize> {
        self.by_article.get(number).copied()
    }

    /// The closest article that exists: the number itself, else its nearest parent.
    pub fn resolve_article(&self, number: &str) -> Option<&Passage> {
        let mut n = number.to_string();
        loop {
            if let Some(p) = self.article(&n) {
                return Some(p);
            }
            match n.rfind('.') {
                Some(i) => n.truncate(i),
                None => {
                    return self
                        .law_page_for(&n)
                        .and_then(|p| p.passages.first().map(|&i| &self.passages[i]));
                }
            }
        }
    }

    /// The law page of a whole article or appendix: `9` → article-9, `A` → appendix-a.
    pub fn law_page_for(&self, top: &str) -> Option<&Page> {
        let id = match top {
            "I" | "II" | "III" => format!("guidelines-{}", top.to_ascii_lowercase()),
            "A" | "B" | "C" | "D" => format!("appendix-{}", top.to_ascii_lowercase()),
            n if n.chars().all(|c| c.is_ascii_digit()) => format!("article-{n}"),
            _ => return None,
        };
        self.page(&id)
    }

    /// The table of contents: every numbered article in page order.
    pub fn articles(&self) -> Vec<ArticleEntry> {
        self.passages
            .iter()
            .filter_map(|p| {
                let number = p.article.clone()?;
                Some(ArticleEntry {
                    number,
                    title: p.title.clone(),
                    page: p.page.clone(),
                    anchor: p.anchor.clone(),
                    url: p.url(),
                })
            })
            .collect()
    }
}

fn collect_md(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<(), LoadError> {
    let entries = std::fs::read_dir(dir).map_err(|source| LoadError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| LoadError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        let path = entry.path();
        if path.is_dir() {
            collect_md(root, &path, out)?;
        } else if (path.extension().is_some_and(|e| e == "md")
            && path.file_name().is_some_and(|n| n != "README.md"))
            || (dir == root && path.file_name().is_some_and(|n| n == PHRASES_FILE))
        {
            let text = std::fs::read_to_string(&path).map_err(|source| LoadError::Io {
                path: path.display().to_string(),
                source,
            })?;
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, text));
        }
    }
    Ok(())
}

pub(super) fn markdown_options() -> Options {
    Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
        | Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
}

/// The anchors of a page's headings, in order, made unique within the page.
fn heading_anchors(headings: &[String]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    headings
        .iter()
        .map(|h| {
            let base = match article_of_heading(h) {
                Some((num, _)) => anchor_for_article(&num),
                None => slug(h),
            };
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 { base } else { format!("{base}-{n}") }
        })
        .collect()
}

struct Section {
    level: u8,
    heading: String,
    text: String,
    fens: Vec<String>,
}

fn parse_page(
    path: &str,
    text: &str,
    groups: &PhraseGroups,
    passages: &mut Vec<Passage>,
) -> Result<Page, LoadError> {
    let err = |message: String| LoadError::Page {
        path: path.to_string(),
        message,
    };
    let mut reader = SectionReader::default();
    for event in Parser::new_ext(text, markdown_options()) {
        reader.event(event);
    }
    let front: FrontMatter = match &reader.meta {
        Some(meta) => toml::from_str(meta).map_err(|e| err(format!("front matter: {e}")))?,
        None => {
            return Err(err(
                "no front matter: the page must start with +++ … +++ (see rulebook/README.md)"
                    .into(),
            ));
        }
    };
    check_title_heading(&reader.sections).map_err(err)?;
    let id = page_id(path);
    let first = passages.len();
    add_passages(&id, front.kind, reader.sections, groups, passages).map_err(err)?;
    Ok(Page {
        id,
        kind: front.kind,
        title: front.title,
        summary: front.summary,
        aliases: front.aliases,
        keywords: front.keywords,
        path: path.to_string(),
        html: String::new(),
        passages: (first..passages.len()).collect(),
    })
}

/// Reads a page's Markdown events into its front matter and its sections (a heading, the
/// text under it, and the FENs of its ```fen blocks).
#[derive(Default)]
struct SectionReader {
    /// The front matter's text once its block has ended.
    meta: Option<String>,
    in_meta: bool,
    meta_text: String,
    in_heading: Option<u8>,
    heading_text: String,
    code_lang: Option<String>,
    code_text: String,
    sections: Vec<Section>,
}

impl SectionReader {
    fn event(&mut self, event: Event) {
        match event {
            Event::Start(Tag::MetadataBlock(_)) => self.in_meta = true,
            Event::End(TagEnd::MetadataBlock(_)) => {
                self.in_meta = false;
                self.meta = Some(std::mem::take(&mut self.meta_text));
            }
            Event::Start(Tag::Heading { level, .. }) => {
                self.in_heading = Some(heading_depth(level));
                self.heading_text.clear();
            }
            Event::End(TagEnd::Heading(_)) => {
                let level = self.in_heading.take().unwrap_or(2);
                self.sections.push(Section {
                    level,
                    heading: self.heading_text.trim().to_string(),
                    text: String::new(),
                    fens: vec![],
                });
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                self.code_lang = Some(match kind {
                    CodeBlockKind::Fenced(lang) => lang.to_string(),
                    CodeBlockKind::Indented => String::new(),
                });
                self.code_text.clear();
            }
            Event::End(TagEnd::CodeBlock) => {
                if self.code_lang.as_deref() == Some("fen")
                    && let Some(s) = self.sections.last_mut()
                {
                    s.fens.push(self.code_text.trim().to_string());
                }
                self.code_lang = None;
            }
            Event::Text(t) | Event::Code(t) => self.text(&t),
            Event::SoftBreak | Event::HardBreak => {
                if self.in_heading.is_some() {
                    self.heading_text.push(' ');
                } else if let Some(s) = self.sections.last_mut() {
                    s.text.push(' ');
                }
            }
            Event::End(TagEnd::TableCell) => self.end_block(' '),
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableRow) => self.end_block('\n'),
            _ => {}
        }
    }

    /// Text goes to whatever is open: the front matter, a heading, a code block, or the
    /// current section.
    fn text(&mut self, t: &str) {
        if self.in_meta {
            self.meta_text.push_str(t);
        } else if self.in_heading.is_some() {
            self.heading_text.push_str(t);
        } else if self.code_lang.is_some() {
            self.code_text.push_str(t);
        } else if let Some(s) = self.sections.last_mut() {
            s.text.push_str(t);
        }
    }

    fn end_block(&mut self, separator: char) {
        if let Some(s) = self.sections.last_mut() {
            s.text.push(separator);
        }
    }
}

/// A page starts with its one '#' title heading.
fn check_title_heading(sections: &[Section]) -> Result<(), String> {
    if sections.first().is_none_or(|s| s.level != 1) {
        return Err("the first heading must be the page title, a single '#'".into());
    }
    if sections.iter().filter(|s| s.level == 1).count() != 1 {
        return Err("a page has exactly one '#' title heading".into());
    }
    Ok(())
}

/// One passage per section, with its anchor, its article (law pages), its path of headings,
/// its ruling (level-2 sections of rulings pages) and the articles it cites.
fn add_passages(
    page: &str,
    kind: PageKind,
    sections: Vec<Section>,
    groups: &PhraseGroups,
    passages: &mut Vec<Passage>,
) -> Result<(), String> {
    let anchors = heading_anchors(
        &sections
            .iter()
            .map(|s| s.heading.clone())
            .collect::<Vec<_>>(),
    );
    let mut stack: Vec<(u8, String)> = Vec::new();
    for (section, anchor) in sections.into_iter().zip(anchors) {
        let (article, title) = match article_of_heading(&section.heading) {
            Some((n, t)) if kind == PageKind::Law => (Some(n), t),
            _ => (None, section.heading.clone()),
        };
        while stack.last().is_some_and(|(l, _)| *l >= section.level) {
            stack.pop();
        }
        stack.push((section.level, section.heading.clone()));
        let (ruling, text) = if kind == PageKind::Rulings && section.level == 2 {
            let (meta, body) = split_ruling(&section.text, groups)
                .map_err(|m| format!("ruling '{}': {m}", section.heading))?;
            (Some(meta), body)
        } else {
            (None, section.text.trim().to_string())
        };
        let mut cites: Vec<String> = ruling
            .as_ref()
            .map(|r| r.articles.clone())
            .unwrap_or_default();
        for (_, num) in find_article_refs(&text) {
            if !cites.contains(&num) {
                cites.push(num);
            }
        }
        passages.push(Passage {
            page: page.to_string(),
            kind,
            anchor,
            article,
            title,
            heading_path: stack.iter().map(|(_, h)| h.clone()).collect(),
            level: section.level,
            text,
            cites,
            fens: section.fens,
            ruling,
        });
    }
    Ok(())
}

/// A page's id: its file name without `.md`.
fn page_id(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn heading_depth(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Reading order: laws (introduction, Articles 1–12, Appendices A–D, Guidelines I–III), then
/// guides, then rulings; alphabetical within a group.
fn page_order(path: &str) -> (u8, u32, String) {
    let id = Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = if path.starts_with("laws/") {
        0
    } else if path.starts_with("guides/") {
        1
    } else {
        2
    };
    let rank = if let Some(n) = id.strip_prefix("article-") {
        n.parse::<u32>().map(|n| 10 + n).unwrap_or(99)
    } else if let Some(a) = id.strip_prefix("appendix-") {
        30 + a.bytes().next().map(|b| (b - b'a') as u32).unwrap_or(0)
    } else if let Some(g) = id.strip_prefix("guidelines-") {
        40 + g.len() as u32
    } else if id == "introduction" {
        0
    } else {
        50
    };
    (folder, rank, id)
}
