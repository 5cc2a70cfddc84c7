use clap::Parser;

fn main() {
    let cli = rules_arbiter::cli::Cli::parse();
    match rules_arbiter::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(1);
        }
    }
}
