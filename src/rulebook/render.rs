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

    let mut out: Vec<Event> = Vec::new();
    let mut heading_no = 0usize;
    let mut in_heading = false;
    let mut in_link = false;
    let mut in_meta = false;
    let mut fen_block = false;
    for event in Parser::new_ext(markdown, markdown_options()) {
        match event {
            Event::Start(Tag::MetadataBlock(_)) => in_meta = true,
            Event::End(TagEnd::MetadataBlock(_)) => in_meta = false,
            _ if in_meta => {}
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                in_heading = true;
                let id = anchors.get(heading_no).map(|a| CowStr::from(a.to_string()));
                heading_no += 1;
                out.push(Event::Start(Tag::Heading {
                    level,
                    id,
                    classes,
                    attrs,
                }));
            }
            Event::End(TagEnd::Heading(l)) => {
                in_heading = false;
                out.push(Event::End(TagEnd::Heading(l)));
            }
            Event::Start(Tag::Link { .. }) => {
                in_link = true;
                out.push(event);
            }
            Event::End(TagEnd::Link) => {
                in_link = false;
                out.push(event);
            }
            Event::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(ref lang)))
                if lang.as_ref() == "fen" =>
            {
                fen_block = true;
            }
            Event::Text(t) if fen_block => {
                let fen = t.trim().to_string();
                let url = format!("/board.svg?fen={}", urlencode(&fen));
                out.push(Event::Html(CowStr::from(format!(
                    "<figure class=\"board\"><img src=\"{}\" alt=\"Board: {}\" width=\"240\" height=\"240\"><figcaption><code>{}</code></figcaption></figure>",
                    html_escape::encode_double_quoted_attribute(&url),
                    html_escape::encode_double_quoted_attribute(&fen),
                    html_escape::encode_text(&fen)
                ))));
            }
            Event::End(TagEnd::CodeBlock) if fen_block => fen_block = false,
            Event::Text(t) if !in_heading && !in_link => {
                let refs = find_article_refs(&t);
                if refs.is_empty() {
                    out.push(Event::Text(t));
                    continue;
                }
                let mut last = 0;
                for (range, number) in refs {
                    let Some(target) = book.article(&number) else {
                        continue;
                    };
                    if range.start > last {
                        out.push(Event::Text(CowStr::from(t[last..range.start].to_string())));
                    }
                    out.push(Event::Start(Tag::Link {
                        link_type: LinkType::Inline,
                        dest_url: CowStr::from(target.url()),
                        title: CowStr::from(target.title.clone()),
                        id: CowStr::from(""),
                    }));
                    out.push(Event::Text(CowStr::from(number)));
                    out.push(Event::End(TagEnd::Link));
                    last = range.end;
                }
                if last < t.len() {
                    out.push(Event::Text(CowStr::from(t[last..].to_string())));
                }
            }
            other => out.push(other),
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    sanitize(&html)
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
