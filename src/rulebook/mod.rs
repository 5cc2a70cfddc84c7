//! The rulebook: Markdown pages (our own words, one per FIDE Law, plus guides and FAQ) loaded
//! into [`Page`]s and [`Passage`]s with stable article anchors.
//!
//! A passage is the text under one heading. Numbered headings (`### 9.6.2 Seventy-five
//! moves`) carry their article number and get the anchor `#art-9-6-2`; other headings get a
//! slug. The embedded copy (rust-embed) is the default, so the binary works from any
//! directory; [`Rulebook::from_dir`] reads another copy for maintainers.
//!
//! `rulebook` knows nothing of search, answers or HTTP.

mod articles;
mod load;
mod premises;
mod render;
mod ruling;

pub use articles::{
    anchor_for_article, article_matches, article_of_heading, find_article_refs, is_article_number,
};
pub use load::{LoadError, Rulebook};
pub use premises::{PhrasesSaid, PremiseTests};
pub use render::sanitize as sanitize_html;
pub use ruling::{Condition, Judgement, RulingMeta, Setting, says};

use serde::Serialize;

/// What a page is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageKind {
    Law,
    Guide,
    /// A page of the rulings bank: each `##` section is one ruling.
    Rulings,
}

impl PageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PageKind::Law => "law",
            PageKind::Guide => "guide",
            PageKind::Rulings => "rulings",
        }
    }
}

/// One Markdown file.
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    /// The file name without `.md`; the page is served at `/rulebook/{id}`.
    pub id: String,
    pub kind: PageKind,
    pub title: String,
    pub summary: String,
    pub aliases: Vec<String>,
    pub keywords: Vec<String>,
    /// Path inside the rulebook folder, e.g. `laws/article-9.md`.
    pub path: String,
    /// Sanitised HTML of the body, headings carrying their anchors, article numbers linked.
    pub html: String,
    /// Indexes into [`Rulebook::passages`], in page order.
    pub passages: Vec<usize>,
}

/// The text under one heading.
#[derive(Debug, Clone, Serialize)]
pub struct Passage {
    pub page: String,
    pub kind: PageKind,
    /// Anchor of the heading (`art-9-6-2`, `can-i-castle-out-of-check`); the page's own
    /// anchor for its introduction.
    pub anchor: String,
    /// Article number when the heading starts with one (`9.6.2`, `A.5.3`, `III.5`).
    pub article: Option<String>,
    /// The heading text without its number.
    pub title: String,
    /// Titles of the enclosing headings, the page title first, this heading last.
    pub heading_path: Vec<String>,
    /// Heading depth (1 = page title).
    pub level: u8,
    /// Plain text of the body, without the heading.
    pub text: String,
    /// Article numbers this passage's text refers to, in order of first mention.
    pub cites: Vec<String>,
    /// FEN positions shown in the passage.
    pub fens: Vec<String>,
    /// For a ruling: its paraphrases, deciding articles and settings.
    pub ruling: Option<RulingMeta>,
}

impl Passage {
    /// `/rulebook/{page}#{anchor}`.
    pub fn url(&self) -> String {
        format!("/rulebook/{}#{}", self.page, self.anchor)
    }

    /// A ruling's question, when this passage is one.
    pub fn question(&self) -> Option<&str> {
        self.ruling.as_ref().map(|_| self.title.as_str())
    }

    /// Every way a ruling's question is put: its heading, then its paraphrases.
    pub fn phrasings(&self) -> impl Iterator<Item = &str> {
        self.question().into_iter().chain(
            self.ruling
                .iter()
                .flat_map(|r| r.asked.iter().map(String::as_str)),
        )
    }

    /// The article that decides a ruling, or the passage's own article.
    pub fn deciding_article(&self) -> Option<&str> {
        self.ruling
            .as_ref()
            .and_then(|r| r.articles.first())
            .or(self.article.as_ref())
            .map(String::as_str)
    }
}

/// An entry of the table of contents: a numbered article.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ArticleEntry {
    pub number: String,
    pub title: String,
    pub page: String,
    pub anchor: String,
    pub url: String,
}
