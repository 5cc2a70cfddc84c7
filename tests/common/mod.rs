//! A real server on a loopback port for the end-to-end tests, and a minimal HTTP client
//! (std only: one request per connection).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start arbiter serve");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut addr = None;
        while Instant::now() < deadline {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(rest) = line.split("listening on http://").nth(1) {
                        addr = Some(rest.split_whitespace().next().unwrap_or(rest).to_string());
                        break;
                    }
                }
                _ => break,
            }
        }
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let addr = addr.expect("the server printed where it listens");
        Server { child, addr }
    }

    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        content_type: &str,
    ) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let body = body.unwrap_or(b"");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        let _ = stream.write_all(body);
        let (status, headers, body) = read_answer(stream);
        let body = if headers
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(&body)
        } else {
            body
        };
        (status, headers, body)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        let (s, _, b) = self.request("GET", path, None, "text/plain");
        (s, b)
    }

    pub fn post_json(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        let (s, _, b) = self.request(
            "POST",
            path,
            Some(body.to_string().as_bytes()),
            "application/json",
        );
        (
            s,
            serde_json::from_str(&b).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {b}")),
        )
    }
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

impl Server {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and waits up to `limit` for the process to end; its exit status, or None
    /// if it was still running (it is then killed).
    pub fn terminate(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// A connection that has sent `bytes` and then nothing more.
    pub fn stuck_connection(&self, bytes: &[u8]) -> TcpStream {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream.write_all(bytes).expect("send");
        stream
    }

    /// Sends raw bytes on a new connection and reads the whole answer (head and body).
    pub fn raw(&self, bytes: &[u8]) -> (u16, String, String) {
        exchange(&self.addr, bytes, Duration::from_secs(30))
    }
}

/// Sends raw bytes to `addr` on a new connection and reads the whole answer, waiting at most
/// `timeout` for each read: (status, head, body). Needs no `Server`, so that threads can use it.
pub fn exchange(addr: &str, bytes: &[u8], timeout: Duration) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(timeout)).unwrap();
    let _ = stream.write_all(bytes);
    read_answer(stream)
}

/// Reads a connection to its end: (status, head, body); status 0 when no status line came.
fn read_answer(mut stream: TcpStream) -> (u16, String, String) {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (headers, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = headers
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, headers.to_string(), body.to_string())
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
