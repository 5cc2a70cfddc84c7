use std::io::IsTerminal;

use clap::Parser;
use rules_arbiter::cli::{Cli, Command};

/// mimalloc instead of the system allocator: answering a question allocates many small
/// strings (query terms, hits, citations), and glibc's malloc was a sixth of the profile.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // Logs go to stderr (stdout belongs to the command's output, and to JSON-RPC under lsp),
    // in colour only on a terminal: a log file or a pipe gets plain text.
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARBITER_LOG")
                .unwrap_or_else(|_| "warn,rules_arbiter=info".into()),
        )
        .init();
    let cli = Cli::parse();
    // A command whose reader went away (`arbiter articles | head -1`) ends quietly, the way
    // other Unix tools do, instead of panicking on the failed write. The server and the
    // language server keep SIGPIPE ignored: a client that hangs up is an error they handle.
    #[cfg(unix)]
    if !matches!(cli.command, Command::Serve { .. } | Command::Lsp { .. }) {
        // SAFETY: restoring the default disposition of a signal, before any thread starts.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    match rules_arbiter::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(1);
        }
    }
}
