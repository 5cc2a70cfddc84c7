//! Hovers: on a move, what it did and the rule that governs it; on a result (the movetext's
//! or the Result tag), what the final position says about it.

use shakmaty::{CastlingMode, CastlingSide, Chess, File, Move, Position, Square};

use super::diagnostics::{Finding, FindingKind, analyse_game, label, replay};
use super::movetext::{GameText, PgnText, Span, normalise_result};
use crate::rules::describe::capitalised;
use crate::rules::game::Game;
use crate::rules::report::{GameOutcome, Report, article_for_move, describe_legal_move};
use crate::rules::winnability::SolverBudget;
use crate::rules::{CheckOptions, check};
use crate::text::capitalise_first;

/// A hover: the span it is about and Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverText {
    pub span: Span,
    pub markdown: String,
}

/// Findings that stop the checking of a game at their move.
fn stops(f: &Finding) -> bool {
    matches!(
        f.kind,
        FindingKind::IllegalMove
            | FindingKind::Ambiguous
            | FindingKind::Notation
            | FindingKind::AfterEnd
            | FindingKind::Fen
            | FindingKind::Variant
    )
}

/// The hover at byte `offset`. `link` turns an article number into a Markdown link.
pub fn hover(
    text: &str,
    pgn: &PgnText,
    offset: usize,
    link: &dyn Fn(&str) -> String,
    budget: SolverBudget,
) -> Option<HoverText> {
    let (_, game) = pgn.game_at(offset)?;
    let within = |s: &Span| s.start <= offset && offset < s.end.max(s.start + 1);
    let touching = |s: &Span| s.start <= offset && offset <= s.end;
    if let Some(i) = game
        .moves
        .iter()
        .position(|m| within(&m.span))
        .or_else(|| game.moves.iter().position(|m| touching(&m.span)))
    {
        return Some(move_hover(text, game, i, link, budget));
    }
    if let Some(span) = game.variation_moves.iter().find(|s| touching(s)) {
        return Some(HoverText {
            span: span.clone(),
            markdown: format!(
                "**{}** is in a variation: commentary beside the game, which the arbiter does not check.",
                &text[span.clone()]
            ),
        });
    }
    if let Some((span, r)) = game.result.as_ref().filter(|(s, _)| touching(s)) {
        return Some(result_hover(
            text,
            game,
            span.clone(),
            r,
            "the movetext's result",
            link,
            budget,
        ));
    }
    if let Some(tag) = game.tag("Result").filter(|t| touching(&t.span)) {
        return Some(result_hover(
            text,
            game,
            tag.span.clone(),
            tag.value.trim(),
            "the Result tag",
            link,
            budget,
        ));
    }
    None
}

/// The hover on a move of the main line: why it was not checked, why it is not legal, or,
/// for a legal move, what it did and the articles that govern it, followed by the findings
/// on it. The early returns mirror the order in which the diagnostics stop checking a game.
fn move_hover(
    text: &str,
    game: &GameText,
    index: usize,
    link: &dyn Fn(&str) -> String,
    budget: SolverBudget,
) -> HoverText {
    let tok = &game.moves[index];
    let raw = &text[tok.span.clone()];
    let span = tok.span.clone();
    let findings = analyse_game(text, game, budget);
    if let Some(stop) = findings
        .iter()
        .find(|f| stops(f) && f.span.start < tok.span.start)
    {
        return HoverText {
            span,
            markdown: format!(
                "**{raw}** is not checked: the game was already stopped by an earlier problem.\n\n{}",
                stop.message
            ),
        };
    }
    let here: Vec<&Finding> = findings.iter().filter(|f| f.span == tok.span).collect();
    let replayed = match replay(text, game, index) {
        Ok(r) => r,
        Err(f) => {
            return HoverText {
                span,
                markdown: format!("**{raw}** is not checked.\n\n{}", f.message),
            };
        }
    };
    let pos = replayed.positions.last().cloned().unwrap_or_default();
    let lbl = label(&pos, raw);
    if let Some(stop) = here.iter().find(|f| stops(f)) {
        let mut md = format!("**{lbl}** — not a legal move here\n\n{}", stop.message);
        if let Some(a) = &stop.article {
            md.push_str(&format!("\n\nRule: {}", link(a)));
        }
        return HoverText { span, markdown: md };
    }
    let Ok((m, _)) = super::diagnostics::resolve(&pos, raw, replayed.start.mode, &tok.span, &lbl)
    else {
        return HoverText {
            span,
            markdown: format!("**{lbl}** could not be read."),
        };
    };
    HoverText {
        span,
        markdown: legal_move_markdown(&lbl, &pos, m, replayed.start.mode, &here, link),
    }
}

/// The hover text of a legal move: who moved, what the move did, the articles as links, and
/// the findings on the move (a wrong check sign, a claim that became available…), which do
/// not make it illegal but are worth seeing where the move is.
fn legal_move_markdown(
    lbl: &str,
    pos: &Chess,
    m: Move,
    mode: CastlingMode,
    here: &[&Finding],
    link: &dyn Fn(&str) -> String,
) -> String {
    let (what, articles) = legal_move_words(pos, m, mode);
    let mut md = format!(
        "**{lbl}** — {}'s move, legal\n\n{what}.\n\nRules: {}",
        capitalised(pos.turn()),
        articles
            .iter()
            .map(|a| link(a))
            .collect::<Vec<_>>()
            .join(" · ")
    );
    if !here.is_empty() {
        md.push_str("\n\n");
        for f in here {
            md.push_str(&format!("- {}\n", f.message));
        }
    }
    md.trim_end().to_string()
}

/// What a legal move `m` from `pos` does, as a sentence starting with a capital, and the
/// articles that govern it: the move's own article, capture, and check, mate or stalemate
/// when the move gives it. Castling gets its own words because a generic description would
/// not say where king and rook end up, which is the point of the rule (and of Chess960's).
fn legal_move_words(pos: &Chess, m: Move, mode: CastlingMode) -> (String, Vec<&'static str>) {
    let mut after = pos.clone();
    after.play_unchecked(m);
    let mut articles: Vec<&'static str> = Vec::new();
    let what = match m {
        Move::Castle { king, rook } => {
            articles.push("3.8.2");
            if mode == CastlingMode::Chess960 {
                articles.push("II.3");
            }
            castling_words(pos, king, rook, mode)
        }
        _ => {
            articles.push(article_for_move(m));
            if m.is_capture() && !m.is_en_passant() {
                articles.push("3.1.1");
            }
            describe_legal_move(pos, m)
        }
    };
    if after.is_checkmate() {
        articles.push("5.1.1");
    } else if after.is_check() {
        articles.push("3.9.1");
    } else if after.is_stalemate() {
        articles.push("5.2.1");
    }
    let mut what = capitalise_first(&what);
    // describe_legal_move already says check and mate; castling_words does not.
    if m.is_castle() {
        if after.is_checkmate() {
            what.push_str("; it is checkmate (5.1.1)");
        } else if after.is_check() {
            what.push_str("; it gives check (3.9.1)");
        }
    }
    articles.dedup();
    (what, articles)
}

fn castling_words(pos: &Chess, king: Square, rook: Square, mode: CastlingMode) -> String {
    let side = CastlingSide::from_king_side(rook.file() > king.file());
    let rank = king.rank();
    let (king_to, rook_to) = match side {
        CastlingSide::KingSide => (
            Square::from_coords(File::G, rank),
            Square::from_coords(File::F, rank),
        ),
        CastlingSide::QueenSide => (
            Square::from_coords(File::C, rank),
            Square::from_coords(File::D, rank),
        ),
    };
    let words = match side {
        CastlingSide::KingSide => "kingside (O-O)",
        CastlingSide::QueenSide => "queenside (O-O-O)",
    };
    let mut s = format!(
        "{} castles {words}: the king goes from {king} to {king_to} and the rook from {rook} to {rook_to}, both in one move made with the king first (3.8.2)",
        capitalised(pos.turn())
    );
    if mode == CastlingMode::Chess960 {
        s.push_str(
            "; in Chess960 king and rook end on the same squares as in standard chess (II.3)",
        );
    }
    s
}

/// The hover on a result (the movetext's or the Result tag, `which` says): the warnings on
/// it, then what the final position says: how the game ended on the board and whether the
/// written result agrees, or, when it did not end there, the ways a result can still come
/// about. A game stopped before its end cannot be judged, and the hover says why.
fn result_hover(
    text: &str,
    game: &GameText,
    span: Span,
    written: &str,
    which: &str,
    link: &dyn Fn(&str) -> String,
    budget: SolverBudget,
) -> HoverText {
    let written = normalise_result(written);
    let findings = analyse_game(text, game, budget);
    let mut md = format!("**{written}** — {which}\n\n");
    let stop = findings.iter().find(|f| stops(f));
    if let Some(stop) = stop.filter(|f| f.kind != FindingKind::AfterEnd) {
        md.push_str(&format!(
            "The final position cannot be judged: {}",
            stop.message
        ));
        return HoverText { span, markdown: md };
    }
    let mut warned = false;
    for f in findings.iter().filter(|f| span.contains(&f.span.start)) {
        md.push_str(&format!("⚠ {}\n\n", f.message));
        warned = true;
    }
    // Replay to the end of the game (or to where it ended, when moves follow the end).
    let upto = stop
        .and_then(|s| game.moves.iter().position(|m| m.span == s.span))
        .unwrap_or(game.moves.len());
    let g = match final_game(text, game, upto) {
        Ok(g) => g,
        Err(why) => {
            md.push_str(&why);
            return HoverText { span, markdown: md };
        }
    };
    let report = check(
        &g,
        None,
        CheckOptions {
            budget,
            skip_solver: false,
        },
    );
    md.push_str(&format!(
        "**The final position** ({}): `{}`\n\n",
        last_move_words(&g),
        report.fen
    ));
    match &report.outcome {
        Some(o) => md.push_str(&ended_on_board(o, written, warned, link)),
        None => md.push_str(&not_ended_on_board(&report, link)),
    }
    HoverText {
        span,
        markdown: md.trim_end().to_string(),
    }
}

/// The game's first `upto` moves as a [`Game`], so that the checker that answers
/// `arbiter check` judges the final position too and the hover says the same. `Err` is the
/// text that explains why there is no such game.
fn final_game(text: &str, game: &GameText, upto: usize) -> Result<Game, String> {
    let replayed = replay(text, game, upto)
        .map_err(|f| format!("The final position cannot be judged: {}", f.message))?;
    let mut g = Game::new(None).map_err(|e| e.to_string())?;
    g.start = replayed.start.pos.clone();
    g.mode = replayed.start.mode;
    for m in &replayed.moves {
        g.push(*m);
    }
    Ok(g)
}

/// Names the final position by its last move ("after 2... Qh4#"), which a reader finds in
/// the movetext more easily than a FEN.
fn last_move_words(g: &Game) -> String {
    match g.plies.last() {
        Some(p) => format!(
            "after {}{}{}",
            p.number,
            if p.number.ends_with("...") { "" } else { " " },
            p.san
        ),
        None => "the start position".into(),
    }
}

/// The lines for a game that ended on the board: how, and whether the written result
/// agrees. A disagreement is not repeated when a warning on the result already said it.
fn ended_on_board(
    o: &GameOutcome,
    written: &str,
    warned: bool,
    link: &dyn Fn(&str) -> String,
) -> String {
    let mut md = format!(
        "- The game ended on the board: {} — the result is **{}**. {}\n",
        o.explanation,
        o.result,
        link(o.article)
    );
    if written == o.result {
        md.push_str("- The written result agrees.\n");
    } else if !warned {
        md.push_str(&format!("- The written result {written} does not.\n"));
    }
    md
}

/// The lines for a game that did not end on the board: any result other than * came from
/// off the board, so the hover lists what the position says about each way it could have:
/// resignation, the flag, a dead position, and the draws that can be claimed.
fn not_ended_on_board(report: &Report, link: &dyn Fn(&str) -> String) -> String {
    let mut md = format!(
        "- The game did not end on the board ({} to move), so a result other than * came from a resignation ({}), a flag ({}), an agreed draw ({}) or an arbiter's decision.\n",
        capitalise_first(report.turn),
        link("5.1.2"),
        link("6.9"),
        link("5.2.3")
    );
    for ruling in [
        &report.resignation.white,
        &report.resignation.black,
        &report.flag_info.white,
        &report.flag_info.black,
    ] {
        md.push_str(&format!("- {}.\n", capitalise_first(&ruling.reason)));
    }
    md.push_str(&format!(
        "- Dead position: {}.\n",
        report.dead_position_info.reason
    ));
    if report.repetition.threefold_now || !report.repetition.threefold_by_move.is_empty() {
        md.push_str(&format!("- Repetition: {}.\n", report.repetition.reason));
    }
    if report.fifty_moves.claim_now || !report.fifty_moves.claim_by_move.is_empty() {
        md.push_str(&format!("- Fifty moves: {}.\n", report.fifty_moves.reason));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::movetext::read;

    fn link(a: &str) -> String {
        format!("[{a}](/rulebook#{a})")
    }

    fn hover_at(text: &str, needle: &str) -> HoverText {
        let pgn = read(text);
        let offset = text.find(needle).unwrap() + 1;
        hover(text, &pgn, offset, &link, SolverBudget(None)).unwrap()
    }

    #[test]
    fn hover_on_castling_and_capture_with_check() {
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Nxe4 5. Bxf7+ Kxf7 *";
        let h = hover_at(text, "O-O");
        assert!(
            h.markdown.contains("White castles kingside (O-O): the king goes from e1 to g1 and the rook from h1 to f1"),
            "{}",
            h.markdown
        );
        assert!(h.markdown.contains("[3.8.2]"), "{}", h.markdown);
        let h = hover_at(text, "Bxf7+");
        assert!(h.markdown.contains("capturing the pawn"), "{}", h.markdown);
        assert!(
            h.markdown.contains("[3.9.1]")
                && h.markdown.contains("[3.2]")
                && h.markdown.contains("[3.1.1]"),
            "{}",
            h.markdown
        );
        assert_eq!(&text[h.span.clone()], "Bxf7+");
    }

    #[test]
    fn hover_on_result_explains_the_final_position() {
        let text = "[Result \"1-0\"]\n1. f3 e5 2. g4 Qh4# 1-0";
        let pgn = read(text);
        let tag = hover(
            text,
            &pgn,
            text.find("1-0").unwrap(),
            &link,
            SolverBudget(None),
        )
        .unwrap();
        assert!(tag.markdown.contains("the Result tag"), "{}", tag.markdown);
        assert!(
            tag.markdown.contains("White is checkmated"),
            "{}",
            tag.markdown
        );
        let token = hover(
            text,
            &pgn,
            text.rfind("1-0").unwrap(),
            &link,
            SolverBudget(None),
        )
        .unwrap();
        assert!(token.markdown.contains("contradicts"), "{}", token.markdown);
        assert!(token.markdown.contains("[5.1.1]"), "{}", token.markdown);
    }
}
