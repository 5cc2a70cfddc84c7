//! The language server's diagnostics on a 2,000-game PGN: the first analysis of the whole file
//! (every game replayed, the solver asked at each game's end), and the analysis after a small
//! edit inside one game (the case that matters while typing: the other games come from the
//! per-game cache).
//!
//! Run: `cargo bench --bench lsp`. The games are random legal games (seeded, so every run
//! sees the same file), written as real PGN: tags, move numbers, SAN with check signs,
//! comments, NAGs and a variation now and then; every 50th game has an illegal move and every
//! 40th a result that contradicts its final position.

use std::sync::{Arc, LazyLock, Mutex};

use divan::Bencher;
use lsp_types::{
    Position, Range, TextDocumentContentChangeEvent, TextDocumentContentChangePartial,
};
use rules_arbiter::answer::Arbiter;
use rules_arbiter::lsp::Workspace;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position as _};

const GAMES: usize = 2_000;
const URI: &str = "file:///bench/games.pgn";

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One random legal game, 40–160 plies or until it ends; quiet moves are preferred a little so
/// that games last and material stays on the board, as in real games.
fn random_game(rng: &mut Rng, index: usize) -> String {
    let mut pos = Chess::default();
    let plies = 40 + rng.below(120);
    let mut movetext = String::new();
    let mut ended = None;
    let mut illegal_written = false;
    for ply in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            ended = Some(if pos.is_check() {
                if pos.turn() == Color::White {
                    "0-1"
                } else {
                    "1-0"
                }
            } else {
                "1/2-1/2"
            });
            break;
        }
        let mut m = legal[rng.below(legal.len())];
        if m.is_capture() && rng.below(3) == 0 {
            m = legal[rng.below(legal.len())];
        }
        if pos.turn() == Color::White {
            movetext.push_str(&format!("{}. ", pos.fullmoves()));
        }
        if index % 50 == 7 && ply >= plies / 2 && pos.turn() == Color::White && !illegal_written {
            illegal_written = true;
            movetext.push_str("Ke4 ");
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        movetext.push_str(&san.to_string());
        movetext.push(' ');
        match rng.below(40) {
            0 => movetext.push_str("{a comment about the move} "),
            1 => movetext.push_str("$1 "),
            2 => movetext.push_str("(1... d5 2. exd5 Qxd5) "),
            _ => {}
        }
    }
    let result = match ended {
        Some(r) if index % 40 == 3 => {
            if r == "1-0" {
                "0-1"
            } else {
                "1-0"
            }
        }
        Some(r) => r,
        None => ["1-0", "0-1", "1/2-1/2", "*"][rng.below(4)],
    };
    // Wrap the movetext at 80 columns, as PGN exporters do.
    let mut wrapped = String::new();
    let mut col = 0;
    for word in movetext.split_whitespace().chain(std::iter::once(result)) {
        if col + word.len() + 1 > 80 {
            wrapped.push('\n');
            col = 0;
        } else if col > 0 {
            wrapped.push(' ');
            col += 1;
        }
        wrapped.push_str(word);
        col += word.len();
    }
    format!(
        "[Event \"Bench\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"{}\"]\n[White \"Player {}\"]\n[Black \"Player {}\"]\n[Result \"{result}\"]\n\n{wrapped}\n\n",
        index + 1,
        index % 97,
        index % 89
    )
}

static PGN: LazyLock<String> = LazyLock::new(|| {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..GAMES).map(|i| random_game(&mut rng, i)).collect()
});

static ARBITER: LazyLock<Arc<Arbiter>> =
    LazyLock::new(|| Arc::new(Arbiter::embedded().expect("the embedded rulebook")));

/// A warm workspace with the file open and analysed once.
static WARM: LazyLock<Mutex<(Workspace, bool)>> = LazyLock::new(|| {
    let mut ws = Workspace::new(Arc::clone(&ARBITER));
    ws.open(URI, "pgn", 1, PGN.clone());
    let diagnostics = ws.diagnostics(URI);
    eprintln!(
        "\n{} games, {} KiB, {} lines, {} diagnostics",
        GAMES,
        PGN.len() / 1024,
        PGN.lines().count(),
        diagnostics.len()
    );
    Mutex::new((ws, false))
});

fn main() {
    divan::main();
}

/// Open the file and diagnose every game (nothing cached).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn open_and_diagnose_2000_games(bencher: Bencher) {
    LazyLock::force(&PGN);
    LazyLock::force(&ARBITER);
    bencher.bench_local(|| {
        let mut ws = Workspace::new(Arc::clone(&ARBITER));
        ws.open(URI, "pgn", 1, PGN.clone());
        ws.diagnostics(URI)
    });
}

/// Type into one game in the middle of the file (a comment added, then taken away again)
/// and diagnose the whole file again.
#[divan::bench(sample_count = 20, sample_size = 1)]
#[allow(deprecated)] // range_length, a field the constructor syntax has to name
fn edit_one_game_and_diagnose(bencher: Bencher) {
    let game = PGN
        .find(&format!("[Round \"{}\"]", GAMES / 2))
        .expect("the middle game");
    let movetext = game + PGN[game..].find("\n\n").expect("tags end") + 2;
    let line = PGN[..movetext].matches('\n').count() as u32;
    let mut guard = WARM.lock().expect("the warm workspace");
    let mut version = 2;
    bencher.bench_local(|| {
        let (ws, inserted) = &mut *guard;
        // Toggle: insert "{edited} " at the start of the movetext, or remove it again.
        let change = if *inserted {
            TextDocumentContentChangePartial {
                range: Range::new(Position::new(line, 0), Position::new(line, 9)),
                range_length: None,
                text: String::new(),
            }
        } else {
            TextDocumentContentChangePartial {
                range: Range::new(Position::new(line, 0), Position::new(line, 0)),
                range_length: None,
                text: "{edited} ".into(),
            }
        };
        *inserted = !*inserted;
        version += 1;
        ws.change(
            URI,
            version,
            vec![TextDocumentContentChangeEvent::TextDocumentContentChangePartial(change)],
        );
        ws.diagnostics(URI)
    });
}
