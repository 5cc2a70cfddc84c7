//! The HTTP front end (axum on tokio): the JSON API, the chat page, the rendered rulebook and
//! board diagrams. Thin: every handler calls the [`Arbiter`] on a blocking thread and maps
//! its result or error to JSON.
//!
//! Errors are always `{"error": {"code", "message"}}` with 400 (bad request), 404, 413 (too
//! large) or 422 (well-formed but impossible: invalid FEN, illegal move). A panic inside a
//! request is caught and answered with 500; the process lives on.

pub mod board;
mod pages;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::Semaphore;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;

use crate::answer::{AnswerError, Arbiter, AskRequest, CheckRequest, VerifyRequest};

/// Largest request body accepted (bytes).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

#[derive(Clone)]
pub struct AppState {
    pub arbiter: Arc<Arbiter>,
    /// Bounds the CPU-heavy requests (position answers, checks, verifications) running at
    /// once, so that a burst of slow requests queues instead of starving the light ones
    /// (rulebook questions, search, pages, health).
    pub heavy: Arc<Semaphore>,
    /// Answers to rulebook questions (no position), serialised, by question. The rulebook
    /// and index are fixed for the life of the process, so a stored answer never goes stale;
    /// a help widget hears the same few hundred questions over and over.
    pub answers: Arc<AnswerCache>,
}

/// Serialised answers by question text, bounded in entries.
pub type AnswerCache = quick_cache::sync::Cache<String, Bytes>;

/// How many rulebook answers are kept (a few MB at most: questions are capped at 2,000
/// characters and an answer is a few kB).
const ANSWER_CACHE_ENTRIES: usize = 4096;

/// A JSON error response.
pub struct ApiError {
    status: StatusCode,
    code: String,
    message: String,
    extra: Option<serde_json::Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code: code.into(),
            message: message.into(),
            extra: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "code": self.code, "message": self.message });
        if let (Some(serde_json::Value::Object(extra)), Some(obj)) =
            (self.extra, body.as_object_mut())
        {
            for (k, v) in extra {
                obj.entry(k).or_insert(v);
            }
        }
        (self.status, Json(serde_json::json!({ "error": body }))).into_response()
    }
}

impl From<AnswerError> for ApiError {
    fn from(e: AnswerError) -> ApiError {
        let status = if e.is_unprocessable() {
            StatusCode::UNPROCESSABLE_ENTITY
        } else if matches!(e, AnswerError::PgnTooLarge(_)) {
            StatusCode::PAYLOAD_TOO_LARGE
        } else {
            StatusCode::BAD_REQUEST
        };
        let body = e.to_json();
        ApiError {
            status,
            code: body.code.clone(),
            message: body.message.clone(),
            extra: serde_json::to_value(&body).ok(),
        }
    }
}

/// Parses a JSON body ourselves, so that every rejection is a JSON error naming the problem.
fn parse_body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    if bytes.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "empty_body",
            "the request body is empty: send a JSON object",
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        let code = if e.is_data() {
            "invalid_field"
        } else {
            "bad_json"
        };
        ApiError::new(
            StatusCode::BAD_REQUEST,
            code,
            format!("the body is not a valid request: {e}"),
        )
    })
}

/// Runs CPU work off the async threads, bounded by the heavy-work semaphore.
async fn heavy<T, F>(state: &AppState, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Arbiter) -> Result<T, ApiError> + Send + 'static,
{
    let _permit = state.heavy.clone().acquire_owned().await.map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "shutting_down",
            "the server is shutting down",
        )
    })?;
    let arbiter = Arc::clone(&state.arbiter);
    match tokio::task::spawn_blocking(move || work(&arbiter)).await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(error = %e, "a request panicked");
            Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the request failed inside the server; it has been logged",
            ))
        }
    }
}

#[utoipa::path(post, path = "/api/ask", request_body = AskRequest,
    responses((status = 200, description = "The answer", body = crate::answer::Answer),
              (status = 400, description = "Bad request"), (status = 413, description = "Too large"),
              (status = 422, description = "Invalid position or illegal move")))]
async fn api_ask(State(state): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    let req: AskRequest = parse_body(&body)?;
    if req.has_position() {
        let answer = heavy(&state, move |a| a.ask(&req).map_err(ApiError::from)).await?;
        return Ok(Json(answer).into_response());
    }
    // A rulebook question costs about as much as a search (a few hundred µs): it is answered
    // in place, like /api/search, and never waits behind slow position work. Its answer
    // depends on the question alone, so it is kept; `x-answer-cache` says which it was.
    let key = req.question.trim().to_string();
    let (body, cache) = match state.answers.get(&key) {
        Some(body) => (body, "hit"),
        None => {
            let answer = state.arbiter.ask(&req)?;
            let body = Bytes::from(serde_json::to_vec(&answer).map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    format!("the answer could not be written as JSON: {e}"),
                )
            })?);
            state.answers.insert(key, body.clone());
            (body, "miss")
        }
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (
                header::HeaderName::from_static("x-answer-cache"),
                HeaderValue::from_static(cache),
            ),
        ],
        body,
    )
        .into_response())
}

#[utoipa::path(post, path = "/api/check", request_body = CheckRequest,
    responses((status = 200, description = "The position report (see the contract in ARCHITECTURE.md)"),
              (status = 400, description = "Bad request"), (status = 422, description = "Invalid FEN or illegal move")))]
async fn api_check(State(state): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    let req: CheckRequest = parse_body(&body)?;
    let report = heavy(&state, move |a| a.check(&req).map_err(ApiError::from)).await?;
    Ok(Json(report).into_response())
}

#[utoipa::path(post, path = "/api/verify", request_body = VerifyRequest,
    responses((status = 200, description = "Which claims hold", body = crate::answer::VerifyResponse),
              (status = 400, description = "Bad request"), (status = 422, description = "Invalid FEN or illegal move")))]
async fn api_verify(State(state): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    let req: VerifyRequest = parse_body(&body)?;
    let out = heavy(&state, move |a| a.verify(&req).map_err(ApiError::from)).await?;
    Ok(Json(out).into_response())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct SearchParams {
    /// The query: words, slang, notation or article numbers.
    q: Option<String>,
    /// How many results (1–50, default 10).
    limit: Option<usize>,
}

#[utoipa::path(get, path = "/api/search", params(SearchParams),
    responses((status = 200, description = "Ranked passages"), (status = 400, description = "Missing or oversized query")))]
async fn api_search(
    State(state): State<AppState>,
    Query(params): Query<SearchParams>,
) -> Result<Response, ApiError> {
    let q = params.q.unwrap_or_default();
    if q.trim().is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "empty_query",
            "the q parameter is empty: /api/search?q=castling",
        ));
    }
    if q.chars().count() > crate::answer::MAX_QUESTION_CHARS {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "query_too_long",
            "the query is longer than 2000 characters",
        ));
    }
    let limit = params.limit.unwrap_or(10).clamp(1, 50);
    let hits = state.arbiter.search(&q, limit);
    Ok(Json(serde_json::json!({ "query": q, "results": hits })).into_response())
}

#[utoipa::path(get, path = "/api/articles", responses((status = 200, description = "Table of contents", body = Vec<crate::rulebook::ArticleEntry>)))]
async fn api_articles(State(state): State<AppState>) -> Response {
    Json(state.arbiter.book.articles()).into_response()
}

#[utoipa::path(get, path = "/healthz", responses((status = 200, description = "Service is up")))]
async fn healthz(State(state): State<AppState>) -> Response {
    Json(serde_json::json!({
        "status": "ok",
        "passages": state.arbiter.book.passages.len(),
        "indexed": state.arbiter.index.num_docs(),
        "index": state.arbiter.index.origin,
        "rulebook_hash": state.arbiter.book.hash,
    }))
    .into_response()
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct BoardParams {
    /// A FEN (only the piece placement is used).
    fen: Option<String>,
    /// Squares to mark, comma-separated: `f1,c4`.
    marks: Option<String>,
    /// Draw from Black's side.
    flip: Option<bool>,
}

#[utoipa::path(get, path = "/board.svg", params(BoardParams), responses((status = 200, description = "SVG board"), (status = 400, description = "Invalid FEN")))]
async fn board_svg(Query(params): Query<BoardParams>) -> Result<Response, ApiError> {
    let fen = params
        .fen
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    if fen.len() > 200 {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_fen",
            "the FEN is longer than 200 characters",
        ));
    }
    let marks: Vec<String> = params
        .marks
        .unwrap_or_default()
        .split(',')
        .take(64)
        .map(str::to_string)
        .collect();
    let svg = board::render(&fen, &marks, params.flip.unwrap_or(false))
        .map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, "invalid_fen", m))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        svg,
    )
        .into_response())
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Rules Arbiter",
        description = "Chess-rules answers with the FIDE articles behind them, and checkable verdicts on positions."
    ),
    paths(
        api_ask,
        api_check,
        api_verify,
        api_search,
        api_articles,
        healthz,
        board_svg
    ),
    components(schemas(
        AskRequest,
        CheckRequest,
        VerifyRequest,
        crate::answer::Answer,
        crate::answer::Citation,
        crate::answer::claims::Claim,
        crate::answer::claims::ClaimCheck,
        crate::answer::VerifyResponse,
        crate::rulebook::ArticleEntry,
        crate::rules::ErrorBody
    ))
)]
pub struct ApiDoc;

async fn openapi_json() -> Response {
    Json(ApiDoc::openapi()).into_response()
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such route; see /openapi.json",
    )
}

/// The application with all routes and layers.
pub fn router(arbiter: Arc<Arbiter>) -> Router {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let state = AppState {
        arbiter,
        heavy: Arc::new(Semaphore::new(workers * 2)),
        answers: Arc::new(AnswerCache::new(ANSWER_CACHE_ENTRIES)),
    };
    Router::new()
        .route("/", get(pages::chat_page))
        .route("/static/app.js", get(pages::app_js))
        .route("/static/style.css", get(pages::style_css))
        .route("/favicon.ico", get(pages::favicon))
        .route("/rulebook", get(pages::rulebook_index))
        .route("/rulebook/{page}", get(pages::rulebook_page))
        .route("/board.svg", get(board_svg))
        .route("/api/ask", post(api_ask))
        .route("/api/check", post(api_check))
        .route("/api/verify", post(api_verify))
        .route("/api/search", get(api_search))
        .route("/api/articles", get(api_articles))
        .route("/healthz", get(healthz))
        .route("/openapi.json", get(openapi_json))
        .fallback(not_found)
        .with_state(state)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(security_headers))
        .layer(axum::middleware::from_fn(json_body_limit))
        .layer(CatchPanicLayer::custom(|_err: Box<dyn std::any::Any + Send>| {
            tracing::error!("a request handler panicked");
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "the request failed inside the server; it has been logged").into_response()
        }))
        .layer(TimeoutLayer::with_status_code(StatusCode::SERVICE_UNAVAILABLE, Duration::from_secs(10)))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
            let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-").to_string();
            tracing::info_span!("request", method = %req.method(), uri = %req.uri(), request_id = %id)
        }))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
}

/// Every response: no MIME sniffing; HTML may load only what this service serves.
async fn security_headers(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut resp = next.run(req).await;
    let headers = resp.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    let is_html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if is_html {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        );
    }
    resp
}

/// Turns the body-limit rejection (plain text from axum) into our JSON 413, and rejects an
/// oversized Content-Length before reading anything.
async fn json_body_limit(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if let Some(len) = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        && len > MAX_BODY_BYTES
    {
        return too_large();
    }
    let resp = next.run(req).await;
    if resp.status() == StatusCode::PAYLOAD_TOO_LARGE
        && resp.headers().get(header::CONTENT_TYPE)
            != Some(&HeaderValue::from_static("application/json"))
    {
        return too_large();
    }
    resp
}

fn too_large() -> Response {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body_too_large",
        format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
    )
    .into_response()
}

/// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
pub async fn serve(arbiter: Arc<Arbiter>, addr: SocketAddr) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    tracing::info!(address = %local, "Rules Arbiter listening on http://{local}");
    eprintln!("Rules Arbiter listening on http://{local}");
    axum::serve(listener, router(arbiter))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    tracing::info!("shut down cleanly");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

pub(crate) fn html(body: String) -> Response {
    Html(body).into_response()
}
