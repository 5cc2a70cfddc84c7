//! Words for pieces, squares and sides, shared by every reason the checker gives.

use shakmaty::{Bitboard, Board, CastlingSide, Color, Role, Square};

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub fn capitalised(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

pub fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

/// "short (O-O)" / "long (O-O-O)".
pub fn side_words(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "short (O-O)",
        CastlingSide::QueenSide => "long (O-O-O)",
    }
}

/// The article that describes how a piece of this kind moves.
pub fn movement_article(role: Role) -> &'static str {
    match role {
        Role::Bishop => "3.2",
        Role::Rook => "3.3",
        Role::Queen => "3.4",
        Role::Knight => "3.6",
        Role::Pawn => "3.7",
        Role::King => "3.8",
    }
}

/// "the bishop on c4".
pub fn piece_on(board: &Board, sq: Square) -> String {
    match board.piece_at(sq) {
        Some(p) => format!(
            "the {} {} on {}",
            color_name(p.color),
            role_name(p.role),
            sq
        ),
        None => format!("the empty square {sq}"),
    }
}

/// "the bishop on c4 and the rook on f8".
pub fn pieces_on(board: &Board, squares: Bitboard) -> String {
    let names: Vec<String> = squares.into_iter().map(|sq| piece_on(board, sq)).collect();
    join_and(&names)
}

/// "a, b and c".
pub fn join_and(items: &[String]) -> String {
    join_with(items, "and")
}

/// "a, b or c".
pub fn join_or(items: &[String]) -> String {
    join_with(items, "or")
}

fn join_with(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    }
}

pub fn squares_list(squares: Bitboard) -> Vec<String> {
    squares.into_iter().map(|s| s.to_string()).collect()
}

/// A position in words, for a reader without a diagram: "White Kc1, Nc2; Black Ka1, pawn a2;
/// Black to move" (pieces by kind, king first, in square order). `None` for a FEN that does
/// not parse.
pub fn position_in_words(fen: &str) -> Option<String> {
    let setup = fen.parse::<shakmaty::fen::Fen>().ok()?.into_setup();
    let side = |color: Color| {
        let mut items: Vec<String> = Vec::new();
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ] {
            let letter = role.upper_char();
            let squares = setup.board.by_piece(role.of(color));
            items.extend(squares.into_iter().map(|sq| format!("{letter}{sq}")));
        }
        let pawns = squares_list(setup.board.by_piece(Role::Pawn.of(color)));
        match pawns.len() {
            0 => {}
            1 => items.push(format!("pawn {}", pawns[0])),
            _ => items.push(format!("pawns {}", pawns.join(", "))),
        }
        format!("{} {}", capitalised(color), items.join(", "))
    };
    Some(format!(
        "{}; {}; {} to move",
        side(Color::White),
        side(Color::Black),
        capitalised(setup.turn)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_reads_piece_by_piece() {
        assert_eq!(
            position_in_words("8/8/8/8/8/8/p1N5/k1K5 b - - 0 1").as_deref(),
            Some("White Kc1, Nc2; Black Ka1, pawn a2; Black to move")
        );
        assert_eq!(
            position_in_words("7k/4NN2/6K1/8/8/8/8/8 b - - 0 1").as_deref(),
            Some("White Kg6, Ne7, Nf7; Black Kh8; Black to move")
        );
        assert_eq!(position_in_words("not a fen"), None);
    }
}
