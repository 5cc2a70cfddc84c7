//! `arbiter lsp`: a language server for PGN over stdio.
//!
//! - Diagnostics on open and on every change: illegal, ambiguous and unreadable moves (with the
//!   checker's reason and the article as the diagnostic code, linked to the rulebook), wrong
//!   check/mate signs, moves after the game ended, results the final position contradicts, and
//!   draw claims that became available (information).
//! - Hovers: what a move did and which rule governs it; what the final position says about a
//!   result.
//! - Custom requests `arbiter/ask` and `arbiter/check`: the JSON of `POST /api/ask` and
//!   `POST /api/check`, errors as JSON-RPC errors carrying the API's error body in `data`.
//!
//! The transport is our own thin layer over `lsp-server`'s channels: it frames and parses
//! messages itself, so that a malformed message gets a JSON-RPC error reply instead of
//! closing the connection. Every request and notification runs under `catch_unwind`. Only
//! JSON-RPC goes to stdout; logs go to stderr.
//!
//! The main loop only reads messages and keeps the protocol's state (`initialize`,
//! `shutdown`, `exit`): documents, diagnostics, hovers and the custom requests run in order on
//! a worker thread. So `shutdown` is answered at once, whatever is being checked; an edit
//! cancels the diagnosis it makes stale, `$/cancelRequest` the request it names, and
//! `shutdown` everything (the solver stops inside its search, see
//! [`crate::rules::winnability::CancelToken`]).

pub mod diagnostics;
pub mod hover;
pub mod lines;
pub mod movetext;

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

use lsp_server::{
    Connection, ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError,
};
use lsp_types::{
    Code, CodeDescription, Contents, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, Hover, HoverParams, HoverProvider, InitializeResult, MarkupContent,
    MarkupKind, PositionEncodingKind, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentContentChangeEvent, TextDocumentSync, TextDocumentSyncKind,
    TextDocumentSyncOptions, Uri,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::answer::{AnswerError, Arbiter, AskRequest, CheckRequest};
use crate::rules::winnability::{CancelToken, SolverBudget, with_cancel};
use crate::rules::{ErrorBody, ErrorCode as BodyCode};
use diagnostics::{Analyzer, Finding};
use lines::LineIndex;
use movetext::{PgnText, Severity};

/// The custom requests this server answers, as advertised in `initialize`.
pub const CUSTOM_REQUESTS: [&str; 2] = ["arbiter/ask", "arbiter/check"];

/// Where rulebook links point when the client does not say (`arbiter serve`'s default).
pub const DEFAULT_RULEBOOK_URL: &str = "http://127.0.0.1:8080";

/// Largest message body read (bytes); larger ones are skipped with an error reply.
const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// One open document.
pub struct Document {
    pub text: String,
    pub version: i32,
    pub is_pgn: bool,
    lines: LineIndex,
    pgn: Option<PgnText>,
    analyzer: Analyzer,
}

impl Document {
    fn new(text: String, version: i32, is_pgn: bool, budget: SolverBudget) -> Document {
        Document {
            lines: LineIndex::new(&text),
            text,
            version,
            is_pgn,
            pgn: None,
            analyzer: Analyzer::new(budget),
        }
    }

    fn pgn(&mut self) -> &PgnText {
        if self.pgn.is_none() {
            self.pgn = Some(movetext::read(&self.text));
        }
        self.pgn.as_ref().expect("just read")
    }

    fn set_text(&mut self, text: String) {
        self.lines = LineIndex::new(&text);
        self.text = text;
        self.pgn = None;
    }

    fn range(&self, span: &std::ops::Range<usize>) -> lsp_types::Range {
        let (sl, sc) = self.lines.position(&self.text, span.start);
        let (el, ec) = self.lines.position(&self.text, span.end);
        lsp_types::Range::new(
            lsp_types::Position::new(sl, sc),
            lsp_types::Position::new(el, ec),
        )
    }
}

/// The documents and everything needed to diagnose them; independent of the transport (the
/// benchmark drives it directly).
pub struct Workspace {
    pub arbiter: Arc<Arbiter>,
    docs: HashMap<String, Document>,
    /// Base of rulebook links (`http://host:port`); empty for site-relative links.
    pub rulebook_url: String,
    /// Solver budget for one query while diagnosing.
    pub budget: SolverBudget,
    links: HashMap<String, Option<(String, String)>>,
}

/// Whether a document is PGN: by language id, or by file extension when the client does not
/// know the language (a generic client often sends "plaintext").
pub fn is_pgn(uri: &str, language_id: &str) -> bool {
    language_id.eq_ignore_ascii_case("pgn") || uri.to_ascii_lowercase().ends_with(".pgn")
}

impl Workspace {
    pub fn new(arbiter: Arc<Arbiter>) -> Workspace {
        Workspace {
            arbiter,
            docs: HashMap::new(),
            rulebook_url: DEFAULT_RULEBOOK_URL.into(),
            budget: SolverBudget(Some(std::time::Duration::from_millis(25))),
            links: HashMap::new(),
        }
    }

    pub fn open(&mut self, uri: &str, language_id: &str, version: i32, text: String) {
        let doc = Document::new(text, version, is_pgn(uri, language_id), self.budget);
        self.docs.insert(uri.to_string(), doc);
    }

    pub fn close(&mut self, uri: &str) -> bool {
        self.docs.remove(uri).is_some()
    }

    pub fn document(&self, uri: &str) -> Option<&Document> {
        self.docs.get(uri)
    }

    /// Applies content changes in order (whole-document or ranged); false if the document is
    /// not open.
    pub fn change(
        &mut self,
        uri: &str,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> bool {
        let Some(doc) = self.docs.get_mut(uri) else {
            return false;
        };
        for change in changes {
            match change {
                TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(c) => {
                    doc.set_text(c.text)
                }
                TextDocumentContentChangeEvent::TextDocumentContentChangePartial(c) => {
                    let start =
                        doc.lines
                            .offset(&doc.text, c.range.start.line, c.range.start.character);
                    let end = doc
                        .lines
                        .offset(&doc.text, c.range.end.line, c.range.end.character)
                        .max(start);
                    let mut text = std::mem::take(&mut doc.text);
                    text.replace_range(start..end, &c.text);
                    doc.set_text(text);
                }
            }
        }
        doc.version = version;
        true
    }

    /// (article, title, href) for an article of the rulebook.
    fn link_target(&mut self, article: &str) -> Option<(String, String)> {
        if let Some(hit) = self.links.get(article) {
            return hit.clone();
        }
        let found = self
            .arbiter
            .citation(article)
            .map(|c| (c.title, format!("{}{}", self.rulebook_url, c.url)));
        self.links.insert(article.to_string(), found.clone());
        found
    }

    /// The rulebook URL of an article, when the rulebook has it.
    pub fn href(&mut self, article: &str) -> Option<String> {
        self.link_target(article).map(|(_, h)| h)
    }

    /// A Markdown link "[3.6 The knight](…)" to an article.
    pub fn markdown_link(&mut self, article: &str) -> String {
        match self.link_target(article) {
            Some((title, href)) => format!("[{article} {title}]({href})"),
            None => article.to_string(),
        }
    }

    /// The findings of a document (cached per game), as byte spans.
    pub fn findings(&mut self, uri: &str) -> Vec<Finding> {
        let Some(doc) = self.docs.get_mut(uri) else {
            return vec![];
        };
        if !doc.is_pgn {
            return vec![];
        }
        doc.pgn();
        let Document {
            text,
            pgn,
            analyzer,
            ..
        } = doc;
        analyzer.analyse(text, pgn.as_ref().expect("read above"))
    }

    /// The LSP diagnostics of a document.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<lsp_types::Diagnostic> {
        let findings = self.findings(uri);
        let hrefs: Vec<Option<String>> = findings
            .iter()
            .map(|f| f.article.as_deref().and_then(|a| self.href(a)))
            .collect();
        let Some(doc) = self.docs.get(uri) else {
            return vec![];
        };
        findings
            .into_iter()
            .zip(hrefs)
            .map(|(f, href)| lsp_types::Diagnostic {
                range: doc.range(&f.span),
                severity: Some(match f.severity {
                    Severity::Error => lsp_types::DiagnosticSeverity::Error,
                    Severity::Warning => lsp_types::DiagnosticSeverity::Warning,
                    Severity::Information => lsp_types::DiagnosticSeverity::Information,
                    Severity::Hint => lsp_types::DiagnosticSeverity::Hint,
                }),
                code: f.article.clone().map(Code::String),
                code_description: href.map(|h| CodeDescription { href: Uri(h) }),
                source: Some("arbiter".into()),
                message: lsp_types::Message::String(f.message),
                data: Some(json!({ "kind": f.kind })),
                ..Default::default()
            })
            .collect()
    }

    /// The hover at an LSP position.
    pub fn hover(&mut self, uri: &str, line: u32, character: u32) -> Option<Hover> {
        let budget = SolverBudget(Some(std::time::Duration::from_millis(250)));
        let Workspace {
            arbiter,
            docs,
            rulebook_url,
            ..
        } = self;
        let doc = docs.get_mut(uri)?;
        if !doc.is_pgn {
            return None;
        }
        let offset = doc.lines.offset(&doc.text, line, character);
        doc.pgn();
        let link = |article: &str| match arbiter.citation(article) {
            Some(c) => format!("[{article} {}]({rulebook_url}{})", c.title, c.url),
            None => article.to_string(),
        };
        let h = hover::hover(&doc.text, doc.pgn.as_ref()?, offset, &link, budget)?;
        Some(Hover {
            contents: Contents::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: h.markdown,
            }),
            range: Some(doc.range(&h.span)),
        })
    }
}

/// What `initialize` answers.
pub fn capabilities() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(PositionEncodingKind::UTF16),
            text_document_sync: Some(TextDocumentSync::Options(TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::Incremental),
                ..Default::default()
            })),
            hover_provider: Some(HoverProvider::Bool(true)),
            experimental: Some(json!({ "arbiter": { "requests": CUSTOM_REQUESTS } })),
            ..Default::default()
        },
        server_info: Some(ServerInfo {
            name: "arbiter".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Uninitialized,
    Running,
    ShuttingDown,
}

/// What the worker is doing now, so that the main loop can cancel it.
#[derive(Default)]
pub struct InFlight {
    /// The request being answered, and its token.
    request: Option<(RequestId, CancelToken)>,
    /// The token of the diagnosis being made, if one is.
    diagnosis: Option<CancelToken>,
}

impl InFlight {
    fn cancel_all(&self) {
        if let Some((_, t)) = &self.request {
            t.cancel();
        }
        if let Some(t) = &self.diagnosis {
            t.cancel();
        }
    }
}

/// The worker's state: the documents and everything needed to answer about them.
pub struct Server {
    pub ws: Workspace,
    /// Sends a message to the client; false once the connection is closed.
    out: Box<dyn Fn(Message) -> bool + Send>,
    dirty: BTreeSet<String>,
    phase: Phase,
    in_flight: Arc<Mutex<InFlight>>,
}

fn error(code: i32, message: impl Into<String>, body: Option<ErrorBody>) -> ResponseError {
    ResponseError {
        code,
        message: message.into(),
        data: body.and_then(|b| serde_json::to_value(b).ok()),
    }
}

fn body(code: BodyCode, message: &str) -> ErrorBody {
    ErrorBody {
        code,
        message: message.into(),
        ply: None,
        text: None,
        articles: vec![],
    }
}

/// Runs `f`, turning a panic into an internal error.
pub fn guarded<T>(
    what: &str,
    f: impl FnOnce() -> Result<T, ResponseError>,
) -> Result<T, ResponseError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            tracing::error!(request = what, panic = %why, "a request panicked; the server goes on");
            let message = "the request failed inside the server; it has been logged";
            Err(error(
                ErrorCode::InternalError as i32,
                message,
                Some(body(BodyCode::Internal, message)),
            ))
        }
    }
}

/// `arbiter/ask` and `arbiter/check`: the HTTP API's JSON, over JSON-RPC.
fn api_call<Q: DeserializeOwned, A: Serialize>(
    params: Value,
    f: impl FnOnce(&Q) -> Result<A, AnswerError>,
) -> Result<Value, ResponseError> {
    if params.is_null() {
        let m = "the params are missing: send the same JSON object as the HTTP API";
        return Err(error(
            ErrorCode::InvalidParams as i32,
            m,
            Some(body(BodyCode::EmptyParams, m)),
        ));
    }
    let req: Q = serde_json::from_value(params).map_err(|e| {
        let m = format!("the params are not a valid request: {e}");
        error(
            ErrorCode::InvalidParams as i32,
            m.clone(),
            Some(body(BodyCode::InvalidField, &m)),
        )
    })?;
    match f(&req) {
        Ok(answer) => serde_json::to_value(answer)
            .map_err(|e| error(ErrorCode::InternalError as i32, e.to_string(), None)),
        Err(e) => {
            let code = if e.is_unprocessable() {
                ErrorCode::RequestFailed
            } else {
                ErrorCode::InvalidParams
            };
            Err(error(code as i32, e.to_string(), Some(e.to_json())))
        }
    }
}

fn params<P: DeserializeOwned>(value: Value) -> Result<P, ResponseError> {
    serde_json::from_value(value).map_err(|e| {
        let m = format!("invalid params: {e}");
        error(
            ErrorCode::InvalidParams as i32,
            m.clone(),
            Some(body(BodyCode::InvalidField, &m)),
        )
    })
}

impl Server {
    pub fn new(arbiter: Arc<Arbiter>, out: Box<dyn Fn(Message) -> bool + Send>) -> Server {
        Server {
            ws: Workspace::new(arbiter),
            out,
            dirty: BTreeSet::new(),
            phase: Phase::Uninitialized,
            in_flight: Arc::new(Mutex::new(InFlight::default())),
        }
    }

    fn in_flight(&self) -> std::sync::MutexGuard<'_, InFlight> {
        self.in_flight.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn send(&self, msg: impl Into<Message>) {
        if !(self.out)(msg.into()) {
            tracing::warn!("the client connection is closed; a message was dropped");
        }
    }

    fn reply(&self, id: RequestId, result: Result<Value, ResponseError>) {
        let response = match result {
            Ok(v) => Response {
                id,
                response_result: Ok(v),
            },
            Err(e) => Response {
                id,
                response_result: Err(e),
            },
        };
        self.send(response);
    }

    fn initialize(&mut self, params: &Value) -> Value {
        if let Some(url) = params
            .pointer("/initializationOptions/rulebookUrl")
            .and_then(Value::as_str)
        {
            self.ws.rulebook_url = url.trim_end_matches('/').to_string();
        }
        serde_json::to_value(capabilities()).unwrap_or(Value::Null)
    }

    /// Handles one request; returns after replying.
    pub fn request(&mut self, req: Request) {
        let Request { id, method, params } = req;
        let result = match (self.phase, method.as_str()) {
            (Phase::Uninitialized, "initialize") => {
                self.phase = Phase::Running;
                Ok(self.initialize(&params))
            }
            (Phase::Uninitialized, _) => Err(error(
                ErrorCode::ServerNotInitialized as i32,
                "the server is not initialized: send initialize first",
                None,
            )),
            (Phase::ShuttingDown, _) => Err(error(
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down: only exit is accepted",
                None,
            )),
            (Phase::Running, "initialize") => Err(error(
                ErrorCode::InvalidRequest as i32,
                "initialize was already received",
                None,
            )),
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShuttingDown;
                Ok(Value::Null)
            }
            (Phase::Running, _) => {
                let token = CancelToken::new();
                self.in_flight().request = Some((id.clone(), token.clone()));
                let result = with_cancel(&token, || {
                    guarded(&method, || self.dispatch(&method, params))
                });
                self.in_flight().request = None;
                if token.is_cancelled() {
                    Err(error(
                        ErrorCode::RequestCanceled as i32,
                        "the request was cancelled",
                        None,
                    ))
                } else {
                    result
                }
            }
        };
        self.reply(id, result);
    }

    fn dispatch(&mut self, method: &str, params_value: Value) -> Result<Value, ResponseError> {
        match method {
            "textDocument/hover" => {
                let p: HoverParams = params(params_value)?;
                let pos = p.text_document_position_params;
                let hover = self.ws.hover(
                    &pos.text_document.uri.0,
                    pos.position.line,
                    pos.position.character,
                );
                Ok(serde_json::to_value(hover).unwrap_or(Value::Null))
            }
            "arbiter/ask" => {
                let arbiter = Arc::clone(&self.ws.arbiter);
                api_call(params_value, |q: &AskRequest| arbiter.ask(q))
            }
            "arbiter/check" => {
                let arbiter = Arc::clone(&self.ws.arbiter);
                api_call(params_value, |q: &CheckRequest| arbiter.check(q))
            }
            other => Err(error(
                ErrorCode::MethodNotFound as i32,
                format!("unknown method {other:?}"),
                None,
            )),
        }
    }

    /// Handles one notification (never replies).
    pub fn notification(&mut self, n: Notification) {
        if self.phase != Phase::Running {
            return;
        }
        let method = n.method.clone();
        let outcome = guarded(&method, || {
            match n.method.as_str() {
                "textDocument/didOpen" => {
                    let p: DidOpenTextDocumentParams = params(n.params)?;
                    let doc = p.text_document;
                    let language: String = doc.language_id.into();
                    self.ws.open(&doc.uri.0, &language, doc.version, doc.text);
                    self.dirty.insert(doc.uri.0);
                }
                "textDocument/didChange" => {
                    let p: DidChangeTextDocumentParams = params(n.params)?;
                    let uri = p.text_document.text_document_identifier.uri.0;
                    if self
                        .ws
                        .change(&uri, p.text_document.version, p.content_changes)
                    {
                        self.dirty.insert(uri);
                    }
                }
                "textDocument/didClose" => {
                    let p: DidCloseTextDocumentParams = params(n.params)?;
                    let uri = p.text_document.uri.0;
                    if self.ws.close(&uri) {
                        self.dirty.remove(&uri);
                        self.send(Notification::new(
                            "textDocument/publishDiagnostics".into(),
                            PublishDiagnosticsParams {
                                uri: Uri(uri),
                                version: None,
                                diagnostics: vec![],
                            },
                        ));
                    }
                }
                _ => {} // initialized, didSave, $/cancelRequest, $/setTrace…: nothing to do.
            }
            Ok(())
        });
        if let Err(e) = outcome {
            tracing::warn!(method = %method, error = %e.message, "a notification was not handled");
        }
    }

    /// Publishes diagnostics for every document changed since the last call. A diagnosis
    /// cancelled half-way (an edit made it stale, or shutdown) is not published.
    pub fn publish(&mut self) {
        let token = CancelToken::new();
        self.in_flight().diagnosis = Some(token.clone());
        with_cancel(&token, || self.publish_dirty(&token));
        self.in_flight().diagnosis = None;
    }

    fn publish_dirty(&mut self, token: &CancelToken) {
        for uri in std::mem::take(&mut self.dirty) {
            if token.is_cancelled() {
                return;
            }
            let version = match self.ws.document(&uri) {
                Some(d) if d.is_pgn => d.version,
                _ => continue,
            };
            let started = std::time::Instant::now();
            match guarded("diagnostics", || Ok(self.ws.diagnostics(&uri))) {
                Ok(_) if token.is_cancelled() => {
                    tracing::debug!(uri = %uri, "diagnosis cancelled; not published");
                    return;
                }
                Ok(diagnostics) => {
                    tracing::debug!(uri = %uri, count = diagnostics.len(), elapsed = ?started.elapsed(), "diagnostics");
                    self.send(Notification::new(
                        "textDocument/publishDiagnostics".into(),
                        PublishDiagnosticsParams {
                            uri: Uri(uri),
                            version: Some(version),
                            diagnostics,
                        },
                    ));
                }
                Err(e) => tracing::error!(uri = %uri, error = %e.message, "diagnostics failed"),
            }
        }
    }
}

/// Serves one connection until `exit` (or until the client goes away). Returns the exit
/// code the protocol asks for: 0 after `shutdown`, 1 otherwise.
///
/// This thread reads and keeps the protocol's state; the work runs on a worker thread (see
/// the module documentation).
pub fn serve(arbiter: Arc<Arbiter>, connection: &Connection) -> i32 {
    let sender = connection.sender.clone();
    let server = Server::new(arbiter, Box::new(move |m| sender.send(m).is_ok()));
    let in_flight = Arc::clone(&server.in_flight);
    let (jobs, queue) = std::sync::mpsc::channel::<Message>();
    let worker = match spawn_worker(server, queue) {
        Ok(w) => w,
        Err(e) => {
            tracing::error!(error = %e, "cannot start the worker thread");
            return 1;
        }
    };
    let mut reception = Reception {
        connection,
        jobs,
        in_flight,
        phase: Phase::Uninitialized,
    };
    let code = reception.run();
    // The client is gone or said exit: stop the work under way and let the worker end (it
    // does as soon as its job returns, which a cancelled solver makes quick).
    reception.cancel_all();
    drop(reception);
    if code == 0 {
        let _ = worker.join();
    }
    code
}

/// Starts the thread that handles documents, hovers and the custom requests in the order
/// they arrive. It runs apart from the main loop so that a long diagnosis never delays
/// `shutdown` or a cancellation; it ends when the queue's sender is dropped.
fn spawn_worker(
    mut server: Server,
    queue: std::sync::mpsc::Receiver<Message>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("lsp-worker".into())
        .spawn(move || {
            use std::sync::mpsc::TryRecvError;
            let mut next = queue.recv().ok();
            while let Some(msg) = next.take() {
                match msg {
                    Message::Request(req) => server.request(req),
                    Message::Notification(n) => server.notification(n),
                    Message::Response(_) => {}
                }
                next = match queue.try_recv() {
                    Ok(msg) => Some(msg),
                    // Diagnose once the queue is drained, so a burst of edits costs one
                    // analysis.
                    Err(TryRecvError::Empty) => {
                        if !server.dirty.is_empty() {
                            server.publish();
                        }
                        queue.recv().ok()
                    }
                    Err(TryRecvError::Disconnected) => None,
                };
            }
        })
}

/// The main loop's side of a connection: it reads every message, answers what the protocol's
/// state alone decides (requests before `initialize`, after `shutdown`, and `shutdown`
/// itself), cancels work that a message makes useless, and queues the rest for the worker.
/// Keeping this apart from the worker is what lets `shutdown` be answered at once.
struct Reception<'c> {
    connection: &'c Connection,
    /// The worker's queue; dropping it lets the worker end.
    jobs: std::sync::mpsc::Sender<Message>,
    in_flight: Arc<Mutex<InFlight>>,
    phase: Phase,
}

impl Reception<'_> {
    /// Reads messages until `exit` or until the client goes away, and returns the exit code:
    /// 0 for an `exit` after `shutdown`, 1 otherwise.
    fn run(&mut self) -> i32 {
        while let Ok(msg) = self.connection.receiver.recv() {
            match msg {
                Message::Request(req) => self.request(req),
                Message::Notification(n) if n.method == "exit" => {
                    return if self.phase == Phase::ShuttingDown {
                        0
                    } else {
                        1
                    };
                }
                Message::Notification(n) if self.phase == Phase::Running => self.notification(n),
                Message::Notification(_) | Message::Response(_) => {}
            }
        }
        1
    }

    /// Answers a request the protocol's state decides, or queues it for the worker. The
    /// worker keeps its own copy of the state, so `initialize` goes to it as well.
    fn request(&mut self, req: Request) {
        match (self.phase, req.method.as_str()) {
            (Phase::Uninitialized, "initialize") => {
                self.phase = Phase::Running;
                let _ = self.jobs.send(Message::Request(req));
            }
            (Phase::Uninitialized, _) => self.reply(
                req.id,
                Err(error(
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized: send initialize first",
                    None,
                )),
            ),
            (Phase::ShuttingDown, _) => self.reply(
                req.id,
                Err(error(
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down: only exit is accepted",
                    None,
                )),
            ),
            (Phase::Running, "initialize") => self.reply(
                req.id,
                Err(error(
                    ErrorCode::InvalidRequest as i32,
                    "initialize was already received",
                    None,
                )),
            ),
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShuttingDown;
                self.cancel_all();
                self.reply(req.id, Ok(Value::Null));
            }
            (Phase::Running, _) => {
                let _ = self.jobs.send(Message::Request(req));
            }
        }
    }

    /// Cancels what a notification makes useless, then queues it for the worker (which
    /// ignores `$/cancelRequest` itself: the cancelling has to happen here, while the worker
    /// is busy).
    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "$/cancelRequest" => self.cancel_request(&n.params),
            // An edit makes the diagnosis under way stale.
            "textDocument/didOpen" | "textDocument/didChange" | "textDocument/didClose" => {
                if let Some(t) = &self.in_flight().diagnosis {
                    t.cancel();
                }
            }
            _ => {}
        }
        let _ = self.jobs.send(Message::Notification(n));
    }

    /// Cancels the request `$/cancelRequest` names if the worker is answering it now; a
    /// request still queued is answered normally, which the protocol allows.
    fn cancel_request(&self, params: &Value) {
        let id = params
            .get("id")
            .cloned()
            .and_then(|v| serde_json::from_value::<RequestId>(v).ok());
        let guard = self.in_flight();
        if let (Some(id), Some((current, token))) = (id, &guard.request)
            && &id == current
        {
            token.cancel();
        }
    }

    /// Stops the request and the diagnosis under way, for `shutdown` and the end of the
    /// connection.
    fn cancel_all(&self) {
        self.in_flight().cancel_all()
    }

    /// The worker's state; a worker that panicked while holding the lock leaves it usable,
    /// since cancelling must work regardless.
    fn in_flight(&self) -> std::sync::MutexGuard<'_, InFlight> {
        self.in_flight.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Answers a request straight from the main loop; a closed connection is not an error
    /// here, since the loop ends when the client goes away anyway.
    fn reply(&self, id: RequestId, result: Result<Value, ResponseError>) {
        let response = Response {
            id,
            response_result: result,
        };
        let _ = self.connection.sender.send(response.into());
    }
}

/// `arbiter lsp`: serves the client on stdin/stdout.
pub fn run_stdio(arbiter: Arbiter) -> anyhow::Result<i32> {
    let (server_side, client_side) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client_side;
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            read_messages(
                stdin.lock(),
                |msg| to_server.send(msg).is_ok(),
                |raw| write_raw(&raw),
            );
        })?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            for msg in from_server {
                let stdout = std::io::stdout();
                let mut out = stdout.lock();
                if let Err(e) = msg.write(&mut out) {
                    tracing::error!(error = %e, "cannot write to stdout; stopping");
                    break;
                }
            }
        })?;
    let code = serve(Arc::new(arbiter), &server_side);
    // The writer ends when every sender is gone; the reader may still be blocked on stdin and
    // is left to the process exit.
    drop(server_side);
    let _ = writer.join();
    Ok(code)
}

fn write_raw(json: &Value) {
    let text = json.to_string();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = write!(out, "Content-Length: {}\r\n\r\n{}", text.len(), text).and_then(|_| out.flush());
}

/// The error reply to a message we could not read (id null when it has none we can read).
fn error_reply(id: Value, code: ErrorCode, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code as i32, "message": message } })
}

/// Reads framed JSON-RPC messages until EOF or `exit`. Well-formed messages go to `deliver`
/// (false = stop); a malformed one gets an error reply through `reply` and reading goes on,
/// resynchronising at the next `Content-Length` header.
pub fn read_messages<R: Read>(
    input: R,
    mut deliver: impl FnMut(Message) -> bool,
    mut reply: impl FnMut(Value),
) {
    let mut r = BufReader::new(input);
    loop {
        let frame = match read_frame(&mut r) {
            Ok(Some(f)) => f,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, "cannot read stdin; stopping");
                return;
            }
        };
        if let Some(noise) = frame.noise {
            tracing::warn!(%noise, "skipped bytes that are not a message header");
            reply(error_reply(
                Value::Null,
                ErrorCode::ParseError,
                format!("not a JSON-RPC message header: {noise}"),
            ));
        }
        let Some(body) = frame.body else { continue };
        let value: Value = match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(error = %e, "a message body is not JSON");
                reply(error_reply(
                    Value::Null,
                    ErrorCode::ParseError,
                    format!("the message is not valid JSON: {e}"),
                ));
                continue;
            }
        };
        let id = value
            .get("id")
            .filter(|v| v.is_number() || v.is_string())
            .cloned()
            .unwrap_or(Value::Null);
        match serde_json::from_value::<Message>(value) {
            Ok(msg) => {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if !deliver(msg) || exit {
                    return;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "a JSON message is not a JSON-RPC request, response or notification");
                reply(error_reply(
                    id,
                    ErrorCode::InvalidRequest,
                    format!("not a valid JSON-RPC message: {e}"),
                ));
            }
        }
    }
}

struct Frame {
    /// Text that was not a header, skipped.
    noise: Option<String>,
    body: Option<Vec<u8>>,
}

fn read_frame(r: &mut impl BufRead) -> std::io::Result<Option<Frame>> {
    let mut length: Option<usize> = None;
    let mut noise: Vec<String> = Vec::new();
    let mut in_headers = false;
    loop {
        let mut line = Vec::new();
        if r.read_until(b'\n', &mut line)? == 0 {
            // EOF: a partial header block is noise.
            if !noise.is_empty() || in_headers {
                return Ok(Some(Frame {
                    noise: Some(short(&noise.join(" "))),
                    body: None,
                }));
            }
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if in_headers {
                break;
            }
            continue;
        }
        // A header may follow garbage on the same line ("…}Content-Length: 52").
        let lower = text.to_ascii_lowercase();
        let header_at = lower
            .find("content-length:")
            .or_else(|| lower.find("content-type:"));
        let header = match header_at {
            Some(0) => text,
            Some(i) => {
                noise.push(text[..i].to_string());
                &text[i..]
            }
            None if in_headers && text.contains(':') && !text.starts_with(['{', '[']) => text,
            None => {
                noise.push(text.to_string());
                continue;
            }
        };
        in_headers = true;
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            match value.trim().parse::<usize>() {
                Ok(n) => length = Some(n),
                Err(_) => noise.push(header.to_string()),
            }
        }
    }
    let noise = (!noise.is_empty()).then(|| short(&noise.join(" ")));
    let Some(n) = length else {
        return Ok(Some(Frame {
            noise: Some(noise.unwrap_or_else(|| "a header block without Content-Length".into())),
            body: None,
        }));
    };
    if n > MAX_MESSAGE_BYTES {
        std::io::copy(&mut r.take(n as u64), &mut std::io::sink())?;
        return Ok(Some(Frame {
            noise: Some(format!(
                "a message of {n} bytes, over the limit of {MAX_MESSAGE_BYTES}"
            )),
            body: None,
        }));
    }
    let mut body = vec![0; n];
    r.read_exact(&mut body)?;
    Ok(Some(Frame {
        noise,
        body: Some(body),
    }))
}

fn short(s: &str) -> String {
    let s: String = s.chars().take(120).collect();
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(bodies: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for b in bodies {
            out.extend(format!("Content-Length: {}\r\n\r\n{b}", b.len()).bytes());
        }
        out
    }

    #[test]
    fn malformed_messages_get_error_replies_and_reading_goes_on() {
        let mut input = b"garbage line\r\n".to_vec();
        input.extend(frames(&[
            "{not json",
            r#"{"jsonrpc":"2.0","id":3,"method":7}"#,
        ]));
        input.extend(b"{\"stray\":1}");
        input.extend(frames(&[
            r#"{"jsonrpc":"2.0","id":4,"method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","method":"exit"}"#,
        ]));
        let mut got = Vec::new();
        let mut replies = Vec::new();
        read_messages(
            &input[..],
            |m| {
                got.push(m);
                true
            },
            |v| replies.push(v),
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(matches!(&got[0], Message::Request(r) if r.method == "shutdown"));
        let codes: Vec<i64> = replies
            .iter()
            .map(|r| r["error"]["code"].as_i64().unwrap())
            .collect();
        assert!(codes.contains(&-32700), "{replies:?}");
        assert!(
            replies
                .iter()
                .any(|r| r["id"] == 3 && r["error"]["code"] == -32600),
            "{replies:?}"
        );
    }

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let r: Result<(), ResponseError> = guarded("test", || panic!("boom"));
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::InternalError as i32);
        assert_eq!(e.data.unwrap()["code"], "internal");
    }

    #[test]
    fn incremental_changes_apply_in_utf16_columns() {
        let arbiter = Arc::new(Arbiter::embedded().unwrap());
        let mut ws = Workspace::new(arbiter);
        ws.open("file:///a.pgn", "pgn", 1, "{é} 1. e4 e5 2. Ke3 *\n".into());
        assert_eq!(ws.findings("file:///a.pgn").len(), 1);
        #[allow(deprecated)]
        let change = lsp_types::TextDocumentContentChangePartial {
            range: lsp_types::Range::new(
                lsp_types::Position::new(0, 16),
                lsp_types::Position::new(0, 19),
            ),
            range_length: None,
            text: "Ke2".into(),
        };
        let changed = ws.change(
            "file:///a.pgn",
            2,
            vec![TextDocumentContentChangeEvent::TextDocumentContentChangePartial(change)],
        );
        assert!(changed);
        assert_eq!(
            ws.document("file:///a.pgn").unwrap().text,
            "{é} 1. e4 e5 2. Ke2 *\n"
        );
        assert_eq!(ws.findings("file:///a.pgn"), vec![]);
    }
}
