//! The HTTP front end (axum on tokio): the JSON API, the chat page, the rendered rulebook and
//! board diagrams. Thin: every handler calls the [`Arbiter`] on a blocking thread and maps
//! its result or error to JSON.
//!
//! Errors are always `{"error": {"code", "message"}}` ([`ErrorResponse`]), whatever answers:
//! a handler (400 bad request, 404, 413 too large, 415 not JSON, 422 well-formed but
//! impossible: invalid FEN, illegal move), the router (405), the limits (408 body not sent in
//! time, 414, 431, 503 busy or timed out) or hyper itself ([`listen::JsonParseErrors`]). A
//! panic inside a request is caught and answered with 500; the process lives on.
//!
//! Position work (checks, verifications, questions with a position) runs on blocking threads:
//! a few at once, a bounded queue behind them (a full queue answers 503 at once), and a
//! [`CancelToken`] that stops the solver when the request times out or the client goes away.

pub mod board;
pub mod listen;
mod pages;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
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
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;

use crate::answer::{AnswerError, Arbiter, AskRequest, CheckRequest, VerifyRequest};
use crate::rules::winnability::{CancelToken, with_cancel};
use crate::rules::{ErrorBody, ErrorCode};
pub use listen::ConnectionLimits;

/// Largest request body accepted (bytes).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// Longest URI accepted (bytes); longer ones get 414.
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// The limits of request handling.
#[derive(Debug, Clone, Copy)]
pub struct RequestLimits {
    /// Time allowed to receive a request body once its head has arrived (408 after).
    pub body_read: Duration,
    /// Time allowed to answer once the body has arrived (503 `timeout` after; position work
    /// is cancelled).
    pub answer: Duration,
    /// Position requests running at once.
    pub workers: usize,
    /// Position requests waiting for a worker; one more gets 503 `busy` at once.
    pub queue: usize,
}

impl Default for RequestLimits {
    fn default() -> Self {
        let workers = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
            * 2;
        RequestLimits {
            body_read: Duration::from_secs(10),
            answer: Duration::from_secs(10),
            workers,
            queue: workers * 8,
        }
    }
}

/// Position work right now, for `/healthz`.
#[derive(Debug, Default)]
pub struct WorkCounters {
    running: AtomicUsize,
    queued: AtomicUsize,
}

#[derive(Clone)]
pub struct AppState {
    pub arbiter: Arc<Arbiter>,
    /// Bounds the CPU-heavy requests (position answers, checks, verifications) running at
    /// once, so that a burst of slow requests queues instead of starving the light ones
    /// (rulebook questions, search, pages, health).
    pub heavy: Arc<Semaphore>,
    /// How many requests may wait for `heavy`.
    pub queue_limit: usize,
    pub work: Arc<WorkCounters>,
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

/// Every error answer: `{"error": {"code", "message", …}}`.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ErrorResponse {
    pub error: ErrorBody,
}

/// A JSON error response.
pub struct ApiError {
    status: StatusCode,
    code: ErrorCode,
    message: String,
    extra: Option<serde_json::Value>,
    retry_after: Option<u32>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            extra: None,
            retry_after: None,
        }
    }

    /// Adds `Retry-After` (seconds): the condition is temporary.
    pub fn retry_after(mut self, seconds: u32) -> ApiError {
        self.retry_after = Some(seconds);
        self
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
        let mut resp = (self.status, Json(serde_json::json!({ "error": body }))).into_response();
        if let Some(seconds) = self.retry_after {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        resp
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
            code: body.code,
            message: body.message.clone(),
            extra: serde_json::to_value(&body).ok(),
            retry_after: None,
        }
    }
}

/// Parses a JSON body ourselves, so that every rejection is a JSON error naming the problem.
fn parse_body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    if bytes.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ErrorCode::EmptyBody,
            "the request body is empty: send a JSON object",
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        let code = if e.is_data() {
            ErrorCode::InvalidField
        } else {
            ErrorCode::BadJson
        };
        ApiError::new(
            StatusCode::BAD_REQUEST,
            code,
            format!("the body is not a valid request: {e}"),
        )
    })
}

/// Counts a request in the queue while it waits for a worker.
struct Queued(Arc<WorkCounters>);

impl Drop for Queued {
    fn drop(&mut self) {
        self.0.queued.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Cancels the request's position work when the request is dropped (it timed out, the client
/// went away, the server is closing) or has its answer.
struct CancelOnDrop(CancelToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs CPU work off the async threads: at most `workers` at once, at most `queue_limit`
/// waiting (503 `busy` at once beyond that), cancelled if the request goes away.
async fn heavy<T, F>(state: &AppState, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Arbiter) -> Result<T, ApiError> + Send + 'static,
{
    let counters = Arc::clone(&state.work);
    let waiting = counters.queued.fetch_add(1, Ordering::AcqRel);
    let queued = Queued(Arc::clone(&counters));
    let permit = match state.heavy.clone().try_acquire_owned() {
        Ok(p) => p,
        Err(_) if waiting >= state.queue_limit => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::Busy,
                "the server is busy with other position requests; try again shortly",
            )
            .retry_after(1));
        }
        Err(_) => state.heavy.clone().acquire_owned().await.map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::ShuttingDown,
                "the server is shutting down",
            )
        })?,
    };
    drop(queued);
    let arbiter = Arc::clone(&state.arbiter);
    let token = CancelToken::new();
    let _cancel = CancelOnDrop(token.clone());
    // The permit and the count last as long as the work, not the request (and are released
    // even if the work never starts).
    struct Running {
        counters: Arc<WorkCounters>,
        _permit: tokio::sync::OwnedSemaphorePermit,
    }
    impl Drop for Running {
        fn drop(&mut self) {
            self.counters.running.fetch_sub(1, Ordering::AcqRel);
        }
    }
    counters.running.fetch_add(1, Ordering::AcqRel);
    let running = Running {
        counters,
        _permit: permit,
    };
    let blocking = move || {
        let _running = running;
        with_cancel(&token, || work(&arbiter))
    };
    match tokio::task::spawn_blocking(blocking).await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(error = %e, "a request panicked");
            Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                ErrorCode::Internal,
                "the request failed inside the server; it has been logged",
            ))
        }
    }
}

#[utoipa::path(post, path = "/api/ask", request_body = AskRequest,
    responses((status = 200, description = "The answer", body = crate::answer::Answer),
              (status = 400, description = "Bad request", body = ErrorResponse),
              (status = 413, description = "Body too large", body = ErrorResponse),
              (status = 415, description = "Body not sent as application/json", body = ErrorResponse),
              (status = 422, description = "Invalid position or illegal move", body = ErrorResponse),
              (status = 503, description = "Busy (`busy`) or not answered in time (`timeout`)", body = ErrorResponse)))]
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
                    ErrorCode::Internal,
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
              (status = 400, description = "Bad request", body = ErrorResponse),
              (status = 413, description = "Body too large", body = ErrorResponse),
              (status = 415, description = "Body not sent as application/json", body = ErrorResponse),
              (status = 422, description = "Invalid FEN or illegal move", body = ErrorResponse),
              (status = 503, description = "Busy (`busy`) or not answered in time (`timeout`)", body = ErrorResponse)))]
async fn api_check(State(state): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    let req: CheckRequest = parse_body(&body)?;
    let report = heavy(&state, move |a| a.check(&req).map_err(ApiError::from)).await?;
    Ok(Json(report).into_response())
}

#[utoipa::path(post, path = "/api/verify", request_body = VerifyRequest,
    responses((status = 200, description = "Which claims hold", body = crate::answer::VerifyResponse),
              (status = 400, description = "Bad request (unknown keys, claim values of the wrong type)", body = ErrorResponse),
              (status = 413, description = "Body too large", body = ErrorResponse),
              (status = 415, description = "Body not sent as application/json", body = ErrorResponse),
              (status = 422, description = "Invalid FEN or illegal move", body = ErrorResponse),
              (status = 503, description = "Busy (`busy`) or not answered in time (`timeout`)", body = ErrorResponse)))]
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
    responses((status = 200, description = "Ranked passages"), (status = 400, description = "Missing or oversized query", body = ErrorResponse)))]
async fn api_search(
    State(state): State<AppState>,
    Query(params): Query<SearchParams>,
) -> Result<Response, ApiError> {
    let q = params.q.unwrap_or_default();
    if q.trim().is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ErrorCode::EmptyQuery,
            "the q parameter is empty: /api/search?q=castling",
        ));
    }
    if q.chars().count() > crate::answer::MAX_QUESTION_CHARS {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ErrorCode::QueryTooLong,
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
        "position_work": {
            "running": state.work.running.load(Ordering::Acquire),
            "queued": state.work.queued.load(Ordering::Acquire),
        },
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

#[utoipa::path(get, path = "/board.svg", params(BoardParams), responses((status = 200, description = "SVG board", content_type = "image/svg+xml", body = String), (status = 400, description = "Invalid FEN", body = ErrorResponse)))]
async fn board_svg(Query(params): Query<BoardParams>) -> Result<Response, ApiError> {
    let fen = params
        .fen
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    if fen.len() > 200 {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ErrorCode::InvalidFen,
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
        .map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, ErrorCode::InvalidFen, m))?;
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
        description = "Chess-rules answers with the FIDE articles behind them, and checkable verdicts on positions. Every error status (400, 404, 405, 408, 413, 414, 415, 422, 431, 500, 503) comes with the JSON body ErrorResponse: {\"error\": {\"code\", \"message\"}}. POST bodies must be sent as application/json."
    ),
    paths(
        api_ask,
        api_check,
        api_verify,
        api_search,
        api_articles,
        healthz,
        board_svg,
        openapi_json,
        pages::chat_page,
        pages::app_js,
        pages::style_css,
        pages::favicon,
        pages::rulebook_index,
        pages::rulebook_page
    ),
    components(schemas(
        ErrorResponse,
        AskRequest,
        CheckRequest,
        VerifyRequest,
        crate::answer::Answer,
        crate::answer::Citation,
        crate::answer::claims::Claim,
        crate::answer::claims::ClaimCheck,
        crate::answer::VerifyResponse,
        crate::rulebook::ArticleEntry,
        crate::rules::ErrorBody,
        crate::rules::ErrorCode
    ))
)]
pub struct ApiDoc;

#[utoipa::path(get, path = "/openapi.json", responses((status = 200, description = "This document")))]
async fn openapi_json() -> Response {
    Json(ApiDoc::openapi()).into_response()
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        ErrorCode::NotFound,
        "no such route; see /openapi.json",
    )
}

/// The application with all routes and layers, with the default limits.
pub fn router(arbiter: Arc<Arbiter>) -> Router {
    router_with(arbiter, RequestLimits::default())
}

/// The application with all routes and layers.
pub fn router_with(arbiter: Arc<Arbiter>, limits: RequestLimits) -> Router {
    let state = AppState {
        arbiter,
        heavy: Arc::new(Semaphore::new(limits.workers.max(1))),
        queue_limit: limits.queue,
        work: Arc::new(WorkCounters::default()),
        answers: Arc::new(AnswerCache::new(ANSWER_CACHE_ENTRIES)),
    };
    let answer_time = limits.answer;
    let body_time = limits.body_read;
    // Layers run outermost (last added) first: request ids, tracing, JSON for every error,
    // the URI limit, reading the body (its own timeout, the content type), the answer
    // deadline, panics, then the handler.
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
        .layer(CatchPanicLayer::custom(|_err: Box<dyn std::any::Any + Send>| {
            tracing::error!("a request handler panicked");
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, "the request failed inside the server; it has been logged").into_response()
        }))
        .layer(axum::middleware::from_fn(move |req, next| answer_deadline(answer_time, req, next)))
        .layer(axum::middleware::from_fn(move |req, next| read_body(body_time, req, next)))
        .layer(axum::middleware::from_fn(uri_limit))
        .layer(axum::middleware::from_fn(security_headers))
        .layer(axum::middleware::from_fn(json_errors))
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

/// A handler that has not answered within `limit` is dropped (which cancels its position
/// work) and the client gets 503 `timeout`.
async fn answer_deadline(
    limit: Duration,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(resp) => resp,
        Err(_) => {
            tracing::warn!(
                ?limit,
                "a request was not answered in time; its work was cancelled"
            );
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::Timeout,
                format!(
                    "the request was not answered within {} s; its work was stopped",
                    limit.as_secs_f32()
                ),
            )
            .retry_after(1)
            .into_response()
        }
    }
}

/// Whether a request's Content-Type says JSON (`application/json`, with or without
/// parameters, or a `+json` type).
fn is_json(req: &axum::extract::Request) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_some_and(|t| {
            t == "application/json" || (t.starts_with("application/") && t.ends_with("+json"))
        })
}

/// Reads a request body before any handler runs: with a time limit (408 when the client
/// stalls), a size limit (413, from Content-Length before reading anything), and for the API,
/// a JSON content type (415 otherwise: a browser then has to ask first with a CORS
/// preflight, which this server does not grant, so no other site can post to it).
async fn read_body(
    limit: Duration,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !matches!(
        *req.method(),
        axum::http::Method::POST | axum::http::Method::PUT | axum::http::Method::PATCH
    ) {
        return next.run(req).await;
    }
    if req.uri().path().starts_with("/api/") && !is_json(&req) {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::UnsupportedMediaType,
            "send the body as JSON, with Content-Type: application/json",
        )
        .into_response();
    }
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > MAX_BODY_BYTES as u64) {
        return too_large();
    }
    let (parts, body) = req.into_parts();
    let bytes = match tokio::time::timeout(limit, axum::body::to_bytes(body, MAX_BODY_BYTES)).await
    {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => {
            let too_big = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            if too_big {
                return too_large();
            }
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                ErrorCode::BadBody,
                format!("the request body could not be read: {e}"),
            )
            .into_response();
        }
        Err(_) => {
            // The rest of the body may still come: the connection cannot be reused.
            let mut resp = ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                ErrorCode::BodyTimeout,
                format!(
                    "the request body did not arrive within {} s",
                    limit.as_secs_f32()
                ),
            )
            .into_response();
            resp.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return resp;
        }
    };
    next.run(axum::extract::Request::from_parts(
        parts,
        axum::body::Body::from(bytes),
    ))
    .await
}

/// 414 for a URI longer than [`MAX_URI_BYTES`] (hyper itself only stops at 64 kB).
async fn uri_limit(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let len = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if len > MAX_URI_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            ErrorCode::UriTooLong,
            format!("the URI is {len} bytes long; the limit is {MAX_URI_BYTES}"),
        )
        .into_response();
    }
    next.run(req).await
}

/// The code of an error status the handlers do not produce themselves.
fn status_code_name(status: StatusCode) -> ErrorCode {
    match status.as_u16() {
        400 => ErrorCode::BadRequest,
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        408 => ErrorCode::BodyTimeout,
        413 => ErrorCode::BodyTooLarge,
        414 => ErrorCode::UriTooLong,
        415 => ErrorCode::UnsupportedMediaType,
        422 => ErrorCode::Unprocessable,
        431 => ErrorCode::HeadersTooLarge,
        503 => ErrorCode::Unavailable,
        s if s >= 500 => ErrorCode::Internal,
        _ => ErrorCode::Error,
    }
}

/// Gives every error answer that is not JSON yet (axum's 405, an extractor's plain-text
/// rejection, a layer's empty body) the JSON error body. Rulebook pages keep their HTML.
async fn json_errors(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    let content_type = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("application/json") || content_type.starts_with("text/html") {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .ok()
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .filter(|t| !t.is_empty());
    let message = match (status.as_u16(), text) {
        (405, _) => "this route does not take that method; the Allow header lists those it takes"
            .to_string(),
        (_, Some(text)) => text,
        (_, None) => status.canonical_reason().unwrap_or("error").to_lowercase(),
    };
    let fresh = ApiError::new(status, status_code_name(status), message).into_response();
    let (fresh_parts, fresh_body) = fresh.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        fresh_parts.headers[header::CONTENT_TYPE].clone(),
    );
    Response::from_parts(parts, fresh_body)
}

fn too_large() -> Response {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::BodyTooLarge,
        format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
    )
    .into_response()
}

/// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight (within the grace
/// time of `connections`).
pub async fn serve(
    arbiter: Arc<Arbiter>,
    addr: SocketAddr,
    requests: RequestLimits,
    connections: ConnectionLimits,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    tracing::info!(address = %local, max_connections = connections.max_connections, "Rules Arbiter listening on http://{local}");
    eprintln!("Rules Arbiter listening on http://{local}");
    listen::serve(
        listener,
        router_with(arbiter, requests),
        connections,
        shutdown_signal(),
    )
    .await?;
    tracing::info!("shut down");
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
