//! The checker agrees with the labelled unwinnability sets of the CHA projects
//! (tests/data/cha, see its README): for every position and both colours, the report's
//! verdict through our FEN parser and our bridge to chasolver matches the label, and every
//! query is decided. Positions that our parser refuses as illegal (composed positions with nine
//! pawns, already-mated illegal positions) are counted and must stay few and explained.

use rules_arbiter::rules::game::parse_fen;
use rules_arbiter::rules::winnability::{SolverBudget, Winnability, winnability};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, PositionErrorKinds};

#[allow(clippy::result_large_err)] // shakmaty's PositionError is what it is
fn composed_position(fen: &str) -> Option<Chess> {
    let fen: Fen = fen.parse().ok()?;
    let lenient = PositionErrorKinds::TOO_MUCH_MATERIAL | PositionErrorKinds::IMPOSSIBLE_CHECK;
    match fen.into_position::<Chess>(CastlingMode::Standard) {
        Ok(p) => Some(p),
        Err(e) if (e.kinds() - lenient).is_empty() => e
            .ignore_too_much_material()
            .or_else(|e| e.ignore_impossible_check())
            .ok(),
        Err(_) => None,
    }
}

struct Tally {
    queries: usize,
    wrong: Vec<String>,
    undecided: Vec<String>,
    refused: Vec<String>,
}

fn run_file(name: &str, limit: Option<usize>) -> Tally {
    let path = format!("{}/tests/data/cha/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut t = Tally {
        queries: 0,
        wrong: vec![],
        undecided: vec![],
        refused: vec![],
    };
    let lines = text.lines().filter(|l| !l.starts_with('#') && l.len() > 3);
    for line in lines.take(limit.unwrap_or(usize::MAX)) {
        let (label, fen) = line.split_at(2);
        let fen = fen.trim();
        let (pos, mode) = match parse_fen(fen) {
            Ok((p, m, _)) => (p, m),
            Err(e) => match composed_position(fen) {
                // Composed test positions may have more material than a game allows; the
                // solver still decides them, and so must the bridge.
                Some(p) => {
                    t.refused
                        .push(format!("{fen}: {e} (checked through the lenient parser)"));
                    (p, CastlingMode::Standard)
                }
                None => {
                    t.wrong.push(format!("{fen}: unreadable: {e}"));
                    continue;
                }
            },
        };
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            t.queries += 1;
            let expected_winnable = label.as_bytes()[i] != b'-';
            match winnability(&pos, mode, color, SolverBudget(None)) {
                Winnability::Winnable { .. } if expected_winnable => {}
                Winnability::Unwinnable if !expected_winnable => {}
                Winnability::Undetermined { why } => {
                    t.undecided.push(format!("{fen} {color:?}: {why}"))
                }
                other => t
                    .wrong
                    .push(format!("{label} {fen} {color:?}: got {other:?}")),
            }
        }
    }
    t
}

fn assert_tally(name: &str, t: &Tally, max_refused: usize) {
    eprintln!(
        "{name}: {} queries, {} wrong, {} undecided, {} positions refused as illegal",
        t.queries,
        t.wrong.len(),
        t.undecided.len(),
        t.refused.len()
    );
    assert!(
        t.wrong.is_empty(),
        "{name}: wrong verdicts:\n{}",
        t.wrong.join("\n")
    );
    assert!(
        t.undecided.is_empty(),
        "{name}: undecided:\n{}",
        t.undecided.join("\n")
    );
    assert_eq!(
        t.refused.len(),
        max_refused,
        "{name}: the number of composed positions refused as illegal changed"
    );
}

#[test]
fn chasolver_community_positions() {
    let t = run_file("positions.txt", None);
    assert_tally("positions.txt", &t, 268);
}

#[test]
fn d3_chess_test_vector() {
    let t = run_file("test-vector.txt", None);
    assert_tally("test-vector.txt", &t, 83);
}

#[test]
fn lichess_positions() {
    // All 65,536 positions in release builds; a sample in debug builds, which are ~20x slower.
    let limit = if cfg!(debug_assertions) {
        Some(4000)
    } else {
        None
    };
    let t = run_file("lichess.txt", limit);
    assert_tally("lichess.txt", &t, 0);
}

/// The one call the checker makes (`winnability_with_fast_check_within`, added to our copy of
/// chasolver) gives the same verdict and the same helpmate line as the fast check followed,
/// when inconclusive, by the full analysis — the two calls it replaced.
#[test]
fn one_call_gives_the_verdicts_and_lines_of_the_two_it_replaced() {
    use std::str::FromStr;
    let path = format!("{}/tests/data/cha/lichess.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines = text.lines().filter(|l| !l.starts_with('#') && l.len() > 3);
    let limit = if cfg!(debug_assertions) { 200 } else { 3000 };
    let limits = chasolver::Limits::default();
    let mut differ = Vec::new();
    for line in lines.take(limit) {
        let board = chess::Board::from_str(line[2..].trim()).expect("a FEN the chess crate reads");
        for winner in [chess::Color::White, chess::Color::Black] {
            let two = if chasolver::is_unwinnable_fast_within(&board, winner, &limits) {
                Some(chasolver::Winnability::Unwinnable)
            } else {
                chasolver::winnability_within(&board, winner, &limits)
            };
            let one = chasolver::winnability_with_fast_check_within(&board, winner, &limits).0;
            if one != two {
                differ.push(format!("{line} {winner:?}: {two:?} then, {one:?} now"));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The material table of `rules::material` (used when a question describes the armies in
/// words) agrees with the solver: for each pair of armies, random legal positions are solved;
/// "impossible" must hold in every one, "possible" in at least one, and bishop against bishop
/// splits by the colours of the bishops' squares.
#[test]
fn the_material_table_agrees_with_the_solver() {
    use rules_arbiter::rules::material::{Army, MateChance, mate_chance};
    let armies = ["", "N", "B", "NN", "BN", "R", "P", "Q", "BB", "RB", "QR"];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut failures = Vec::new();
    for mater in armies {
        for defender in armies {
            let chance = mate_chance(&Army::from_letters(mater), &Army::from_letters(defender));
            // [same-colour bishops, other positions]: (winnable seen, samples)
            let mut seen = [(false, 0usize); 2];
            for _ in 0..150 {
                let Some((pos, mixed)) = random_position(mater, defender, &mut seed) else {
                    continue;
                };
                let verdict = winnability(
                    &pos,
                    CastlingMode::Standard,
                    Color::White,
                    SolverBudget(None),
                );
                let slot = &mut seen[usize::from(mixed)];
                slot.0 |= matches!(verdict, Winnability::Winnable { .. });
                slot.1 += 1;
            }
            let [(same_win, _), (other_win, other_n)] = seen;
            let ok = match chance {
                MateChance::Impossible => !same_win && !other_win,
                MateChance::Possible => same_win || other_win,
                MateChance::DependsOnBishopColours => !same_win && (other_win || other_n == 0),
            };
            if !ok {
                failures.push(format!("K{mater} v K{defender}: table {chance:?}, solver saw a win: same-colour bishops {same_win}, others {other_win}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A random legal position with White's army `white` and Black's `black` (kings added), White
/// to move; with whether every bishop on the board stands on one colour of square (`mixed` is
/// false then, and true when there are bishops on both colours or no bishops at all).
fn random_position(white: &str, black: &str, seed: &mut u64) -> Option<(Chess, bool)> {
    let mut next = |n: u64| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n) as usize
    };
    let mut board = [' '; 64];
    let men = std::iter::once('K')
        .chain(white.chars())
        .chain(std::iter::once('k'))
        .chain(black.chars().map(|c| c.to_ascii_lowercase()));
    for man in men {
        let square = loop {
            let s = next(64);
            let rank = s / 8;
            if board[s] == ' ' && !(man.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7)) {
                break s;
            }
        };
        board[square] = man;
    }
    let colours: Vec<usize> = (0..64)
        .filter(|&s| board[s].eq_ignore_ascii_case(&'b'))
        .map(|s| (s / 8 + s % 8) % 2)
        .collect();
    let mixed = colours.iter().any(|&c| c != colours[0]) || colours.is_empty();
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                ' ' => empty += 1,
                c => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(" w - - 0 1");
    let pos: Chess = fen
        .parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()?;
    Some((pos, mixed))
}
