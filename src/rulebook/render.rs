//! Rendering a page to sanitised HTML: headings carry their anchors, article numbers in the
//! text become links to their headings, FEN blocks become board diagrams.

use pulldown_cmark::{CowStr, Event, LinkType, Parser, Tag, TagEnd};

use super::articles::find_article_refs;
use super::load::markdown_options;
use super::{Page, Rulebook};

pub(super) fn render_page_html(book: &Rulebook, page: &Page, markdown: &str) -> String {
    // The loader made one passage per heading, in order: reuse its anchors.
    let anchors: Vec<&str> = page
        .passages
        .iter()
        .map(|&i| book.passages[i].anchor.as_str())
        .collect();
    let mut renderer = Renderer {
        book,
        anchors,
        out: Vec::new(),
        heading_no: 0,
        in_heading: false,
        in_link: false,
        in_meta: false,
        fen_block: false,
    };
    for event in Parser::new_ext(markdown, markdown_options()) {
        renderer.event(event);
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, renderer.out.into_iter());
    sanitize(&html)
}

/// Rewrites a page's Markdown events: front matter dropped, headings given their anchors,
/// FEN blocks turned into board diagrams, article numbers in running text turned into links.
struct Renderer<'a> {
    book: &'a Rulebook,
    anchors: Vec<&'a str>,
    out: Vec<Event<'a>>,
    heading_no: usize,
    in_heading: bool,
    in_link: bool,
    in_meta: bool,
    fen_block: bool,
}

impl<'a> Renderer<'a> {
    fn event(&mut self, event: Event<'a>) {
        match event {
            Event::Start(Tag::MetadataBlock(_)) => self.in_meta = true,
            Event::End(TagEnd::MetadataBlock(_)) => self.in_meta = false,
            _ if self.in_meta => {}
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                self.in_heading = true;
                let id = self
                    .anchors
                    .get(self.heading_no)
                    .map(|a| CowStr::from(a.to_string()));
                self.heading_no += 1;
                self.out.push(Event::Start(Tag::Heading {
                    level,
                    id,
                    classes,
                    attrs,
                }));
            }
            Event::End(TagEnd::Heading(l)) => {
                self.in_heading = false;
                self.out.push(Event::End(TagEnd::Heading(l)));
            }
            Event::Start(Tag::Link { .. }) => {
                self.in_link = true;
                self.out.push(event);
            }
            Event::End(TagEnd::Link) => {
                self.in_link = false;
                self.out.push(event);
            }
            Event::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(ref lang)))
                if lang.as_ref() == "fen" =>
            {
                self.fen_block = true;
            }
            Event::Text(t) if self.fen_block => self.out.push(board_figure(t.trim())),
            Event::End(TagEnd::CodeBlock) if self.fen_block => self.fen_block = false,
            Event::Text(t) if !self.in_heading && !self.in_link => self.linked_text(t),
            other => self.out.push(other),
        }
    }

    /// Running text with every article number that names an article made a link to it.
    fn linked_text(&mut self, t: CowStr<'a>) {
        let refs = find_article_refs(&t);
        if refs.is_empty() {
            self.out.push(Event::Text(t));
            return;
        }
        let mut last = 0;
        for (range, number) in refs {
            let Some(target) = self.book.article(&number) else {
                continue;
            };
            if range.start > last {
                self.out
                    .push(Event::Text(CowStr::from(t[last..range.start].to_string())));
            }
            self.out.push(Event::Start(Tag::Link {
                link_type: LinkType::Inline,
                dest_url: CowStr::from(target.url()),
                title: CowStr::from(target.title.clone()),
                id: CowStr::from(""),
            }));
            self.out.push(Event::Text(CowStr::from(number)));
            self.out.push(Event::End(TagEnd::Link));
            last = range.end;
        }
        if last < t.len() {
            self.out
                .push(Event::Text(CowStr::from(t[last..].to_string())));
        }
    }
}

/// A board diagram of a FEN, with the FEN as its caption.
fn board_figure(fen: &str) -> Event<'static> {
    let url = format!("/board.svg?fen={}", urlencode(fen));
    Event::Html(CowStr::from(format!(
        "<figure class=\"board\"><img src=\"{}\" alt=\"Board: {}\" width=\"240\" height=\"240\"><figcaption><code>{}</code></figcaption></figure>",
        html_escape::encode_double_quoted_attribute(&url),
        html_escape::encode_double_quoted_attribute(fen),
        html_escape::encode_text(fen)
    )))
}

fn urlencode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Sanitises rendered Markdown, keeping heading anchors (ammonia strips `id` by default).
pub fn sanitize(html: &str) -> String {
    ammonia::Builder::default()
        .add_generic_attributes(&["id", "class"])
        .add_tags(&["figure", "figcaption"])
        .add_tag_attributes("img", &["width", "height"])
        .url_relative(ammonia::UrlRelative::PassThrough)
        .clean(html)
        .to_string()
}
