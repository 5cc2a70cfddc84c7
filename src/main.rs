use clap::Parser;

/// mimalloc instead of the system allocator: answering a question allocates many small
/// strings (query terms, hits, citations), and glibc's malloc was a sixth of the profile.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // Logs go to stderr (stdout belongs to the command's output, and to JSON-RPC under lsp).
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARBITER_LOG")
                .unwrap_or_else(|_| "warn,rules_arbiter=info".into()),
        )
        .init();
    let cli = rules_arbiter::cli::Cli::parse();
    match rules_arbiter::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(1);
        }
    }
}
