//! Writes a large PGN file of lichess-style games for the audit benchmark (benches/audit.py):
//!
//!     cargo bench --bench gen_games -- OUT.pgn [GAMES] [SEED]
//!
//! Games are pseudo-random but plausible for a reader: legal moves chosen with a taste for
//! captures, checks and mates, 20 to 160 plies, lichess tags, `[%clk]` comments on every move,
//! and endings as databases record them — mate, resignation, loss on time (`[Termination
//! "Time forfeit"]`), agreed draws — so that some results are wrong under the Laws (a loss on
//! time with a lone king left, a resignation when the winner cannot mate).

use std::fmt::Write as _;
use std::io::Write;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position, Role};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn material(pos: &Chess, color: Color) -> u32 {
    let b = pos.board();
    let side = b.by_color(color);
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(r, v)| v * (b.by_role(r) & side).count() as u32)
    .sum()
}

fn clock(seconds: u32) -> String {
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

fn game(rng: &mut Rng, index: usize, out: &mut String) {
    let mut pos = Chess::default();
    let target = 20 + rng.below(140);
    let mut movetext = String::new();
    let mut clocks = [300u32, 300u32];
    let mut result = None;
    for ply in 0..target {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.is_insufficient_material() {
            break;
        }
        // Mates first, then captures and checks half the time, else any move.
        let mates: Vec<_> = legal
            .iter()
            .filter(|m| {
                let mut p = pos.clone();
                p.play_unchecked(**m);
                p.is_checkmate()
            })
            .collect();
        let m = if let Some(m) = mates.first() {
            **m
        } else {
            let captures: Vec<_> = legal.iter().filter(|m| m.is_capture()).collect();
            if !captures.is_empty() && rng.below(2) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            }
        };
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        let mover = ply % 2;
        clocks[mover] = clocks[mover].saturating_sub(rng.below(12) as u32);
        if ply % 2 == 0 {
            let _ = write!(movetext, "{}. ", ply / 2 + 1);
        }
        let _ = write!(movetext, "{san} {{ [%clk {}] }} ", clock(clocks[mover]));
        if pos.is_checkmate() {
            result = Some((if mover == 0 { "1-0" } else { "0-1" }, "Normal"));
            break;
        }
    }
    let (result, termination) = result.unwrap_or_else(|| {
        if pos.is_stalemate() || pos.is_insufficient_material() {
            return ("1/2-1/2", "Normal");
        }
        let (white, black) = (material(&pos, Color::White), material(&pos, Color::Black));
        match rng.below(10) {
            // The side to move runs out of time.
            0..=3 => (
                if pos.turn() == Color::White {
                    "0-1"
                } else {
                    "1-0"
                },
                "Time forfeit",
            ),
            // The side behind in material resigns.
            4..=7 => (if white >= black { "1-0" } else { "0-1" }, "Normal"),
            _ => ("1/2-1/2", "Normal"),
        }
    });
    let _ = write!(
        out,
        "[Event \"Rated Blitz game\"]\n[Site \"https://example.org/{index:08}\"]\n[Date \"2024.01.01\"]\n[Round \"-\"]\n[White \"player{}\"]\n[Black \"player{}\"]\n[Result \"{result}\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n[TimeControl \"300+0\"]\n[Termination \"{termination}\"]\n\n{movetext}{result}\n\n",
        rng.below(5000),
        rng.below(5000),
        1200 + rng.below(1200),
        1200 + rng.below(1200),
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some(path) = args.first() else {
        // `cargo bench` runs every bench without arguments: this one only generates on request.
        eprintln!(
            "gen_games: nothing to do (usage: cargo bench --bench gen_games -- OUT.pgn [GAMES] [SEED])"
        );
        return;
    };
    let games: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(2024);
    let mut rng = Rng(seed | 1);
    let mut file =
        std::io::BufWriter::new(std::fs::File::create(path).expect("creating the output"));
    let mut buf = String::new();
    for i in 0..games {
        buf.clear();
        game(&mut rng, i + 1, &mut buf);
        file.write_all(buf.as_bytes()).expect("writing");
    }
    file.flush().expect("writing");
    eprintln!("wrote {games} games to {path}");
}
