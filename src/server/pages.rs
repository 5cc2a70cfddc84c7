//! HTML pages: the chat page and the rendered rulebook. Plain HTML, CSS and a little
//! JavaScript, embedded in the binary; no request leaves the service.

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::{AppState, html};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

#[utoipa::path(get, path = "/", responses((status = 200, description = "The chat page", content_type = "text/html", body = String)))]
pub async fn chat_page() -> Response {
    html(INDEX_HTML.to_string())
}

#[utoipa::path(get, path = "/static/app.js", responses((status = 200, description = "The chat page's script", content_type = "text/javascript", body = String)))]
pub async fn app_js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
        .into_response()
}

#[utoipa::path(get, path = "/static/style.css", responses((status = 200, description = "The pages' style sheet", content_type = "text/css", body = String)))]
pub async fn style_css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        STYLE_CSS,
    )
        .into_response()
}

const FAVICON_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\"><rect width=\"32\" height=\"32\" rx=\"6\" fill=\"#1f4e79\"/><text x=\"16\" y=\"25\" font-size=\"24\" text-anchor=\"middle\" fill=\"#fff\">\u{2654}</text></svg>";

#[utoipa::path(get, path = "/favicon.ico", responses((status = 200, description = "The icon", content_type = "image/svg+xml", body = String)))]
pub async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        FAVICON_SVG,
    )
        .into_response()
}

fn esc(s: &str) -> String {
    html_escape::encode_text(s).into_owned()
}

fn layout(title: &str, nav: &str, main: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{} — Rules Arbiter</title><link rel=\"icon\" href=\"/favicon.ico\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\
<body class=\"rulebook\"><a class=\"skip\" href=\"#content\">Skip to the text</a><header class=\"top\"><a href=\"/\" class=\"brand\">Rules Arbiter</a> <a href=\"/rulebook\">Rulebook</a>\
<form action=\"/rulebook\" method=\"get\" class=\"search\" role=\"search\"><label for=\"q\" class=\"sr-only\">Search the rulebook</label>\
<input id=\"q\" name=\"q\" type=\"search\" placeholder=\"Search the rulebook\"></form></header>\
<div class=\"book\"><nav class=\"toc\" aria-label=\"Contents\">{}</nav><main id=\"content\">{}</main></div></body></html>",
        esc(title),
        nav,
        main
    )
}

fn nav(state: &AppState, current: Option<&str>) -> String {
    let mut s = String::new();
    for (kind, label) in [
        (crate::rulebook::PageKind::Law, "Laws"),
        (crate::rulebook::PageKind::Guide, "Guides"),
        (crate::rulebook::PageKind::Rulings, "Rulings"),
    ] {
        s.push_str(&format!("<h2>{label}</h2><ul>"));
        for p in state.arbiter.book.pages.iter().filter(|p| p.kind == kind) {
            let here = if current == Some(p.id.as_str()) {
                " aria-current=\"page\""
            } else {
                ""
            };
            s.push_str(&format!(
                "<li><a href=\"/rulebook/{}\"{here}>{}</a></li>",
                esc(&p.id),
                esc(&p.title)
            ));
        }
        s.push_str("</ul>");
    }
    s
}

#[derive(serde::Deserialize)]
pub struct BookQuery {
    q: Option<String>,
}

#[utoipa::path(get, path = "/rulebook", responses((status = 200, description = "The rulebook's table of contents", content_type = "text/html", body = String)))]
pub async fn rulebook_index(
    State(state): State<AppState>,
    axum::extract::Query(query): axum::extract::Query<BookQuery>,
) -> Response {
    let mut main = String::from(
        "<h1>The rulebook</h1><p>The FIDE Laws of Chess (2023) in our own words, with guides to the disputes arbiters settle most and short answers to common questions. Article numbers link to their headings.</p>",
    );
    if let Some(q) = query.q.filter(|q| !q.trim().is_empty()) {
        let q: String = q.chars().take(500).collect();
        let hits = state.arbiter.search(&q, 10);
        main = format!("<h1>Search: {}</h1><ol class=\"results\">", esc(&q));
        for h in hits {
            main.push_str(&format!(
                "<li><a href=\"{}\">{}{}</a> <span class=\"page\">{}</span><p>{}</p></li>",
                esc(&h.url),
                h.article
                    .as_deref()
                    .map(|a| format!("{} ", esc(a)))
                    .unwrap_or_default(),
                esc(&h.title),
                esc(&h.page_title),
                crate::rulebook::sanitize_html(&h.snippet)
            ));
        }
        main.push_str("</ol>");
    } else {
        main.push_str("<h2>Articles</h2><ul class=\"articles\">");
        for a in state
            .arbiter
            .book
            .articles()
            .iter()
            .filter(|a| a.number.matches('.').count() == 1)
        {
            main.push_str(&format!(
                "<li><a href=\"{}\">{} {}</a></li>",
                esc(&a.url),
                esc(&a.number),
                esc(&a.title)
            ));
        }
        main.push_str("</ul>");
    }
    html(layout("Rulebook", &nav(&state, None), &main))
}

#[utoipa::path(get, path = "/rulebook/{page}",
    params(("page" = String, Path, description = "A page id from /api/articles (`article-9`, `appendix-a`…)")),
    responses((status = 200, description = "The page, its articles anchored as #art-9-6-2", content_type = "text/html", body = String),
              (status = 404, description = "No such page (an HTML page)", content_type = "text/html", body = String)))]
pub async fn rulebook_page(State(state): State<AppState>, Path(page): Path<String>) -> Response {
    let id = page.trim_end_matches(".md");
    match state.arbiter.book.page(id) {
        Some(p) => html(layout(&p.title, &nav(&state, Some(&p.id)), &p.html)),
        None => (
            StatusCode::NOT_FOUND,
            html(layout(
                "Not found",
                &nav(&state, None),
                &format!(
                    "<h1>No such page</h1><p>There is no rulebook page called <code>{}</code>.</p>",
                    esc(id)
                ),
            )),
        )
            .into_response(),
    }
}
