//! Two move orders in one question ("Is 1.d4 d5 2.Nf3 the same position as 1.Nf3 d5 2.d4?"):
//! the checker plays both and says whether they reach the same position for repetition — the
//! same pieces on the same squares, the same side to move, the same castling rights and the
//! same en passant possibilities (9.2.3) — and if not, how they differ.

use shakmaty::Position;

use crate::rules::Game;
use crate::rules::describe::{capitalised, side_words};
use crate::rules::repetition::{Difference, differences};

/// Words a question uses when it asks whether two move orders meet.
const SAMENESS: &[&str] = &[
    "same",
    "identical",
    "transpos",
    "repetition",
    "threefold",
    "3-fold",
    "three-fold",
    "3fold",
    "differ",
    "count",
];

/// Whether a (lower-cased) question asks whether two move orders reach the same position.
pub fn asks_about_sameness(lower: &str) -> bool {
    SAMENESS.iter().any(|w| lower.contains(w))
}

/// The verdict on two games' final positions, and the articles it rests on (deciding first).
pub fn compared(first: &Game, second: &Game) -> (String, Vec<&'static str>) {
    let (a, b) = (written(first), written(second));
    let found = differences(first.current(), second.current());
    if found.is_empty() {
        let text = format!(
            "Yes: {a} and {b} reach the same position — the same pieces on the same squares, {} to move, with the same castling rights and the same en passant possibilities — so for a repetition it is the same position, however it was reached (9.2.3).",
            capitalised(first.current().turn())
        );
        return (text, vec!["9.2.3", "9.2"]);
    }
    let mut reasons: Vec<String> = Vec::new();
    for (i, d) in found.iter().enumerate() {
        // Both rights of one side lost together are said once.
        if let Difference::CastlingRight {
            color, in_first, ..
        } = d
        {
            let pair = |e: &Difference| matches!(e, Difference::CastlingRight { color: c, in_first: f, .. } if c == color && f == in_first);
            if found[..i].iter().any(pair) {
                continue;
            }
            if found[i + 1..].iter().any(pair) {
                let (with, without) = order(*in_first);
                reasons.push(format!(
                    "{} keeps both castling rights after {with} but has lost them after {without} (9.2.3.2)",
                    capitalised(*color)
                ));
                continue;
            }
        }
        reasons.push(difference_words(d));
    }
    let mut articles: Vec<&'static str> = vec!["9.2.3"];
    articles.extend(found.iter().map(Difference::article));
    articles.dedup();
    let text = format!(
        "No: {a} and {b} do not reach the same position for repetition (9.2.3): {}.",
        reasons.join("; ")
    );
    (text, articles)
}

/// Which order has a thing and which lacks it: "the first", "the second".
fn order(in_first: bool) -> (&'static str, &'static str) {
    if in_first {
        ("the first", "the second")
    } else {
        ("the second", "the first")
    }
}

/// One difference in words, the move orders named "the first" and "the second".
fn difference_words(d: &Difference) -> String {
    match d {
        Difference::Pieces { squares } => {
            let shown: Vec<String> = squares.iter().take(6).map(|s| s.to_string()).collect();
            format!(
                "the pieces do not stand on the same squares (they differ on {})",
                shown.join(", ")
            )
        }
        Difference::SideToMove => "a different side is to move".to_string(),
        Difference::CastlingRight {
            color,
            side,
            in_first,
        } => {
            let (with, without) = order(*in_first);
            format!(
                "{} keeps the right to castle {} after {with} but has lost it after {without} (9.2.3.2)",
                capitalised(*color),
                side_words(*side)
            )
        }
        Difference::EnPassant {
            first: Some(a),
            second: Some(b),
        } => format!(
            "an en passant capture is possible on {a} after the first but on {b} after the second (9.2.3.1)"
        ),
        Difference::EnPassant { first, .. } => {
            let (with, without) = order(first.is_some());
            format!(
                "an en passant capture is possible after {with} but not after {without} (9.2.3.1)"
            )
        }
    }
}

/// A game's moves as a scoresheet line: "1.d4 d5 2.Nf3".
fn written(game: &Game) -> String {
    game.plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if p.color.is_white() || i == 0 {
                format!("{}{}", p.number, p.san)
            } else {
                p.san.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> Game {
        Game::from_moves(None, moves).unwrap()
    }

    #[test]
    fn a_transposition_is_the_same_position() {
        let (text, articles) = compared(&game(&["d4", "d5", "Nf3"]), &game(&["Nf3", "d5", "d4"]));
        assert!(
            text.starts_with("Yes: 1.d4 d5 2.Nf3 and 1.Nf3 d5 2.d4 reach the same position"),
            "{text}"
        );
        assert_eq!(articles[0], "9.2.3");
    }

    #[test]
    fn a_lost_castling_right_is_named() {
        let (text, articles) = compared(
            &game(&["e4", "e5", "Nf3", "Nc6"]),
            &game(&["e4", "e5", "Ke2", "Nc6", "Ke1", "Nb8", "Nf3", "Nc6"]),
        );
        assert!(text.starts_with("No: "), "{text}");
        assert!(
            text.contains("White keeps both castling rights after the first but has lost them after the second (9.2.3.2)"),
            "{text}"
        );
        assert!(articles.contains(&"9.2.3.2"));
    }
}
