//! The connection layer under the router: accepting, limits and shutdown.
//!
//! - Every connection must send a complete request head within [`ConnectionLimits::header_read`]
//!   (hyper's header-read timeout; it also closes keep-alive connections left idle that long),
//!   so a client stuck mid-headers holds a slot for seconds, not forever.
//! - At most [`ConnectionLimits::max_connections`] connections are open at once, well under
//!   the process's file-descriptor limit (raised to its hard limit at start-up), so the server
//!   can always accept. When all slots are taken, the connection idle the longest (no request
//!   in progress: a stuck or idle client) is closed to make room; when every connection is
//!   busy, the newcomer gets a 503 JSON error and is closed.
//! - Requests hyper rejects before the router sees them (a malformed head: 400, a URI too long:
//!   414, a head too large: 431) get the same JSON error body as the API ([`JsonParseErrors`]).
//! - Shutdown (Ctrl-C, SIGTERM): stop accepting, close the connections with no request in
//!   progress, let requests in flight finish, and close whatever is still open once
//!   [`ConnectionLimits::shutdown_grace`] has passed.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{AbortHandle, JoinSet};
use tower::ServiceExt;

use crate::rules::ErrorCode;

/// The limits of the connection layer.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Time allowed for a request head (and for an idle keep-alive connection).
    pub header_read: Duration,
    /// Connections open at once.
    pub max_connections: usize,
    /// How long shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
}

/// Largest request head (request line and headers) read, in bytes; larger ones get 431.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// File descriptors kept free for everything that is not a connection (the index, logs, a
/// rejected newcomer's reply).
const RESERVED_FDS: usize = 64;

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_read: Duration::from_secs(10),
            max_connections: default_max_connections(),
            shutdown_grace: Duration::from_secs(5),
        }
    }
}

/// 1,024 connections, or fewer when the file-descriptor limit is lower.
pub fn default_max_connections() -> usize {
    let fds = raise_fd_limit();
    fds.saturating_sub(RESERVED_FDS).clamp(16, 1024)
}

/// Raises the soft limit on open files to the hard limit; returns the soft limit in force.
#[cfg(unix)]
fn raise_fd_limit() -> usize {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed to them.
    unsafe {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return 1024;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                lim.rlim_cur = lim.rlim_max;
            }
        }
        usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX)
    }
}

#[cfg(not(unix))]
fn raise_fd_limit() -> usize {
    1024
}

/// One open connection, as the accept loop sees it.
struct Slot {
    /// Requests in progress on it.
    busy: Arc<AtomicUsize>,
    /// When it last became idle (or opened).
    idle_since: Arc<Mutex<Instant>>,
    abort: AbortHandle,
}

#[derive(Default)]
struct Slots {
    next: u64,
    open: HashMap<u64, Slot>,
}

impl Slots {
    /// Closes the connection idle the longest; false when every connection is busy.
    fn evict_idlest(&mut self) -> bool {
        let idlest = self
            .open
            .iter()
            .filter(|(_, s)| s.busy.load(Ordering::Acquire) == 0)
            .min_by_key(|(_, s)| *s.idle_since.lock().unwrap_or_else(|e| e.into_inner()))
            .map(|(id, _)| *id);
        match idlest.and_then(|id| self.open.remove(&id)) {
            Some(slot) => {
                slot.abort.abort();
                true
            }
            None => false,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then drains within the grace time.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut acceptor = Acceptor::new(app, limits);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, _peer) = tokio::select! {
            _ = &mut shutdown => break,
            Some(_) = acceptor.tasks.join_next(), if !acceptor.tasks.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    acceptor.accept_failed(e).await;
                    continue;
                }
            },
        };
        acceptor.admit(stream);
    }
    drop(listener);
    acceptor.drain().await;
    Ok(())
}

/// The accept loop's state: the open connections, the tasks serving them, and what a new
/// connection needs. It is a struct because accepting, admitting and draining all work on
/// the same slots and tasks.
struct Acceptor {
    app: Router,
    limits: ConnectionLimits,
    builder: http1::Builder,
    slots: Arc<Mutex<Slots>>,
    tasks: JoinSet<()>,
    /// Set to true when shutdown begins, which closes the connections gracefully.
    closing_tx: tokio::sync::watch::Sender<bool>,
    /// Kept so that every connection can be handed one, and so that the send at shutdown
    /// always has a receiver (a watch channel with none would drop the value).
    closing_rx: tokio::sync::watch::Receiver<bool>,
}

impl Acceptor {
    fn new(app: Router, limits: ConnectionLimits) -> Acceptor {
        let (closing_tx, closing_rx) = tokio::sync::watch::channel(false);
        Acceptor {
            app,
            builder: http1_builder(limits),
            limits,
            slots: Arc::new(Mutex::new(Slots::default())),
            tasks: JoinSet::new(),
            closing_tx,
            closing_rx,
        }
    }

    /// Handles a failed accept: usually the process is out of file descriptors (or a
    /// connection was reset before it was accepted), so it frees a slot if one is idle and
    /// waits a little before the next try, rather than spinning on the same error.
    async fn accept_failed(&self, e: io::Error) {
        tracing::warn!(error = %e, "accept failed");
        if let Ok(mut s) = self.slots.lock() {
            s.evict_idlest();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    /// Gives an accepted connection a slot and a task serving it. When every slot is taken,
    /// the connection idle the longest makes room; when all are busy, the newcomer is turned
    /// away with a 503 instead of waiting unseen.
    fn admit(&mut self, stream: TcpStream) {
        let _ = stream.set_nodelay(true);
        let mut guard = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        guard.open.retain(|_, s| !s.abort.is_finished());
        if guard.open.len() >= self.limits.max_connections && !guard.evict_idlest() {
            drop(guard);
            tracing::warn!(
                max = self.limits.max_connections,
                "every connection is busy; a newcomer was turned away"
            );
            self.tasks.spawn(turn_away(stream));
            return;
        }
        let id = guard.next;
        guard.next += 1;
        let busy = Arc::new(AtomicUsize::new(0));
        let idle_since = Arc::new(Mutex::new(Instant::now()));
        let conn = connection(
            stream,
            self.app.clone(),
            self.builder.clone(),
            Arc::clone(&busy),
            Arc::clone(&idle_since),
            self.closing_rx.clone(),
        );
        let slots_for_task = Arc::clone(&self.slots);
        let abort = self.tasks.spawn(async move {
            conn.await;
            if let Ok(mut s) = slots_for_task.lock() {
                s.open.remove(&id);
            }
        });
        guard.open.insert(
            id,
            Slot {
                busy,
                idle_since,
                abort,
            },
        );
    }

    /// Shuts down once accepting has stopped: tells every connection to close after its
    /// request, closes the idle ones at once, and gives the requests in flight the grace
    /// time before closing whatever is still open.
    async fn drain(mut self) {
        let open = self.tasks.len();
        tracing::info!(
            connections = open,
            "shutting down: no new connections, finishing requests in flight"
        );
        let _ = self.closing_tx.send(true);
        self.close_idle();
        let grace = self.limits.shutdown_grace;
        let tasks = &mut self.tasks;
        let drained =
            tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} }).await;
        if drained.is_err() {
            tracing::warn!(
                connections = self.tasks.len(),
                grace = ?grace,
                "closing connections still open after the grace time"
            );
            self.tasks.shutdown().await;
        }
    }

    /// Closes the connections with no request in progress (idle, or stuck mid-headers): they
    /// have nothing to finish, so waiting for the end of the grace time would only delay
    /// the shutdown.
    fn close_idle(&self) {
        if let Ok(mut s) = self.slots.lock() {
            s.open.retain(|_, slot| {
                let idle = slot.busy.load(Ordering::Acquire) == 0;
                if idle {
                    slot.abort.abort();
                }
                !idle
            });
        }
    }
}

/// hyper's settings for every connection: the header-read timeout and head-size limits that
/// keep a slow or hostile client from holding a slot.
fn http1_builder(limits: ConnectionLimits) -> http1::Builder {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read)
        .max_header_size(MAX_HEAD_BYTES)
        .max_headers(100)
        // Our IO wrapper rewrites hyper's own error answers; it needs them in one write.
        .writev(false);
    builder
}

async fn connection(
    stream: TcpStream,
    app: Router,
    builder: http1::Builder,
    busy: Arc<AtomicUsize>,
    idle_since: Arc<Mutex<Instant>>,
    mut closing: tokio::sync::watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |req: axum::http::Request<Incoming>| {
        let app = app.clone();
        let busy = Arc::clone(&busy);
        let idle_since = Arc::clone(&idle_since);
        busy.fetch_add(1, Ordering::AcqRel);
        async move {
            // Counts the request as in progress until its response is ready (or it is
            // dropped), whatever happens inside.
            struct Done(Arc<AtomicUsize>, Arc<Mutex<Instant>>);
            impl Drop for Done {
                fn drop(&mut self) {
                    if let Ok(mut t) = self.1.lock() {
                        *t = Instant::now();
                    }
                    self.0.fetch_sub(1, Ordering::AcqRel);
                }
            }
            let _done = Done(busy, idle_since);
            app.oneshot(req).await
        }
    });
    let io = TokioIo::new(JsonParseErrors::new(stream));
    let conn = builder.serve_connection(io, service);
    let mut conn = std::pin::pin!(conn);
    let closed = async move {
        // Also true when shutdown began before this connection was accepted.
        let _ = closing.wait_for(|c| *c).await;
    };
    let result = tokio::select! {
        r = conn.as_mut() => r,
        _ = closed => {
            conn.as_mut().graceful_shutdown();
            conn.as_mut().await
        }
    };
    if let Err(e) = result {
        tracing::debug!(error = %e, "connection ended with an error");
    }
}

/// The answer to a connection that found every slot busy.
async fn turn_away(mut stream: TcpStream) {
    let body = error_json(
        ErrorCode::TooManyConnections,
        "the server has too many open connections; try again shortly",
    );
    let reply = raw_response(503, "Service Unavailable", &body, &[("retry-after", "1")]);
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(&reply).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

fn error_json(code: ErrorCode, message: &str) -> String {
    serde_json::json!({ "error": { "code": code, "message": message } }).to_string()
}

fn raw_response(status: u16, reason: &str, body: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nx-content-type-options: nosniff\r\n",
        body.len()
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// The JSON answer for one of hyper's own error responses, by the bytes of its head.
fn replacement_for(head: &[u8]) -> Option<Vec<u8>> {
    let (code, status, reason, message) = if head.starts_with(b"HTTP/1.1 400 ") {
        (
            ErrorCode::BadRequest,
            400,
            "Bad Request",
            "the request line or a header is malformed",
        )
    } else if head.starts_with(b"HTTP/1.1 414 ") {
        (
            ErrorCode::UriTooLong,
            414,
            "URI Too Long",
            "the URI is too long",
        )
    } else if head.starts_with(b"HTTP/1.1 431 ") {
        (
            ErrorCode::HeadersTooLarge,
            431,
            "Request Header Fields Too Large",
            "the request headers are too large or too many",
        )
    } else {
        return None;
    };
    // hyper's automatic answers have no body; ours always have one, so an empty 4xx comes
    // from hyper.
    let lower = head.to_ascii_lowercase();
    let empty = lower.windows(19).any(|w| w == b"content-length: 0\r\n");
    if !empty || !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let message = if status == 400 {
        message.to_string()
    } else {
        format!("{message} (the limit for the request line and headers is {MAX_HEAD_BYTES} bytes)")
    };
    Some(raw_response(
        status,
        reason,
        &error_json(code, &message),
        &[],
    ))
}

/// Wraps a connection's stream and gives hyper's own error answers (400, 414, 431, written
/// before any handler runs) the API's JSON error body.
pub struct JsonParseErrors<S> {
    inner: S,
    /// A replacement still being written, and the length of the write it stands for.
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<S> JsonParseErrors<S> {
    pub fn new(inner: S) -> JsonParseErrors<S> {
        JsonParseErrors {
            inner,
            pending: None,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParseErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none() {
            match replacement_for(buf) {
                Some(bytes) => this.pending = Some((bytes, 0, buf.len())),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        // Write the replacement to the end; the caller is told its own bytes were written
        // (it calls again with the same bytes while we return Pending).
        loop {
            let Some((bytes, written, stands_for)) = this.pending.as_mut() else {
                return Poll::Ready(Ok(buf.len()));
            };
            if *written == bytes.len() {
                let n = *stands_for;
                this.pending = None;
                return Poll::Ready(Ok(n));
            }
            match Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => {
                    this.pending = None;
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => {
                    this.pending = None;
                    return Poll::Ready(Err(e));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_empty_error_answers_get_a_json_body() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT\r\n\r\n";
        let out = String::from_utf8(replacement_for(head).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 431 "));
        let (_, body) = out.split_once("\r\n\r\n").unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], "headers_too_large");
        assert!(out.contains(&format!("content-length: {}\r\n", body.len())));
    }

    #[test]
    fn answers_with_a_body_are_left_alone() {
        let head = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 57\r\n\r\n";
        assert!(replacement_for(head).is_none());
        assert!(replacement_for(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
