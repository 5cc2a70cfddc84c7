//! `GET /board.svg?fen=…&marks=e1,f1`: a board diagram as SVG, drawn here (no external
//! images): squares, pieces as chess glyphs, marked squares outlined.

use shakmaty::fen::Fen;
use shakmaty::{Color, Role, Square};

fn glyph(color: Color, role: Role) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// Renders the board part of `fen` (only the piece placement is read) from White's side, or
/// Black's with `flip`. Unknown marks are ignored.
pub fn render(fen: &str, marks: &[String], flip: bool) -> Result<String, String> {
    let board_part = fen.split_whitespace().next().unwrap_or("");
    let setup = format!("{board_part} w - - 0 1");
    let parsed: Fen = setup
        .parse()
        .map_err(|_| format!("the board part of the FEN ({board_part:?}) is not valid"))?;
    let board = parsed.into_setup().board;
    let marked: Vec<Square> = marks
        .iter()
        .filter_map(|m| m.trim().parse::<Square>().ok())
        .collect();
    let size = 45;
    let mut svg = String::with_capacity(8_000);
    svg.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {w}\" width=\"{w}\" height=\"{w}\" role=\"img\" aria-label=\"Chess board\">",
        w = size * 8 + 20
    ));
    svg.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>");
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let (col, row) = if flip {
                (7 - file, rank)
            } else {
                (file, 7 - rank)
            };
            let (x, y) = (20 + col * size, row * size);
            let light = (file + rank) % 2 == 1;
            let fill = if light { "#f0d9b5" } else { "#b58863" };
            svg.push_str(&format!("<rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" fill=\"{fill}\"><title>{sq}</title></rect>"));
            if marked.contains(&sq) {
                svg.push_str(&format!(
                    "<rect class=\"mark\" data-square=\"{sq}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"rgba(220,40,40,0.25)\" stroke=\"#d22\" stroke-width=\"3\"/>",
                    x + 2, y + 2, size - 4, size - 4
                ));
            }
            if let Some(p) = board.piece_at(sq) {
                svg.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"36\" text-anchor=\"middle\" font-family=\"DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, serif\" data-piece=\"{}{}\">{}</text>",
                    x + size / 2,
                    y + size - 9,
                    if p.color == Color::White { 'w' } else { 'b' },
                    p.role.upper_char(),
                    glyph(p.color, p.role)
                ));
            }
        }
    }
    for i in 0..8u32 {
        let file_char = (b'a' + if flip { 7 - i } else { i } as u8) as char;
        let rank_char = if flip { i + 1 } else { 8 - i };
        svg.push_str(&format!("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#333\">{file_char}</text>", 20 + i * size + size / 2, size * 8 + 14));
        svg.push_str(&format!("<text x=\"8\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#333\">{rank_char}</text>", i * size + size / 2 + 4));
    }
    svg.push_str("</svg>");
    Ok(svg)
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_pieces_and_marks() {
        let svg = super::render(
            "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1",
            &["f1".into(), "c4".into()],
            false,
        )
        .unwrap();
        assert_eq!(svg.matches("data-piece=").count(), 7);
        assert!(svg.contains("data-square=\"f1\"") && svg.contains("data-square=\"c4\""));
        assert!(super::render("not a fen", &[], false).is_err());
    }
}
