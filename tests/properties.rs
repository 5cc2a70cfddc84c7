//! Property tests: hostile input never panics and always gets a clear error or a result —
//! FEN, SAN/UCI move lists, PGN text, questions, JSON bodies — and reports are consistent on
//! random legal games.

use std::sync::OnceLock;

use proptest::prelude::*;
use rules_arbiter::answer::{Arbiter, AskRequest, CheckRequest, MovesField};
use rules_arbiter::rules::{self, CheckOptions, Game, SolverBudget};
use shakmaty::{Chess, Position};

fn arbiter() -> &'static Arbiter {
    static A: OnceLock<Arbiter> = OnceLock::new();
    A.get_or_init(|| Arbiter::embedded().expect("embedded arbiter"))
}

fn fast() -> CheckOptions {
    CheckOptions {
        budget: SolverBudget(Some(std::time::Duration::from_millis(5))),
        skip_solver: false,
    }
}

/// FEN-like strings: real FEN pieces shuffled and mutated, plus noise.
fn fen_like() -> impl Strategy<Value = String> {
    let board = prop::collection::vec(
        prop::sample::select(vec![
            "r", "n", "b", "q", "k", "p", "R", "N", "B", "Q", "K", "P", "1", "2", "3", "4", "8",
            "/", "x", "9",
        ]),
        0..80,
    )
    .prop_map(|v| v.concat());
    let turn = prop::sample::select(vec!["w", "b", "x", "", "W"]);
    let castling = prop::sample::select(vec!["KQkq", "-", "Kq", "AHah", "KQkqX", "", "HAha"]);
    let ep = prop::sample::select(vec!["-", "e3", "d6", "z9", "e4", ""]);
    let clocks = prop::sample::select(vec!["0 1", "99 50", "-1 1", "0 0", "a b", "", "150 80 7"]);
    (board, turn, castling, ep, clocks).prop_map(|(b, t, c, e, k)| format!("{b} {t} {c} {e} {k}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn any_fen_gives_a_game_or_a_clear_error(fen in fen_like()) {
        match Game::new(Some(&fen)) {
            Ok(game) => { let _ = rules::check(&game, Some("e4"), fast()); }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn any_text_as_fen_never_panics(fen in "\\PC{0,120}") {
        let _ = Game::new(Some(&fen));
    }

    #[test]
    fn any_move_list_gives_a_game_or_names_the_ply(moves in prop::collection::vec("[a-hKQRBNOo0x=+#1-8 .-]{1,7}", 0..12)) {
        match Game::from_moves(None, &moves) {
            Ok(g) => prop_assert_eq!(g.plies.len(), moves.len()),
            Err(rules::RulesError::IllegalMove { ply, .. }) => prop_assert!(ply >= 1 && ply <= moves.len()),
            Err(e) => prop_assert!(false, "unexpected error kind: {e}"),
        }
    }

    #[test]
    fn any_pgn_text_never_panics(text in "(\\[[A-Za-z]{1,6} \"[^\"]{0,10}\"\\]\n){0,3}([0-9]{1,2}\\.{1,3} ?[a-hKQRBNO0x1-8=+#-]{1,6} ?|\\{[^}]{0,8}\\} ?|\\( ?|\\) ?|\\$[0-9] ?|1-0|0-1|\\*){0,20}") {
        let req = CheckRequest { pgn: Some(text), ..CheckRequest::default() };
        let _ = arbiter().check(&req);
    }

    #[test]
    fn any_question_gets_an_answer_or_a_clear_error(q in "\\PC{0,200}", with_position in any::<bool>()) {
        let req = AskRequest {
            question: q,
            fen: with_position.then(|| "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1".to_string()),
            moves: None,
            pgn: None,
        };
        match arbiter().ask(&req) {
            Ok(a) => prop_assert!(!a.answer.is_empty()),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn any_json_body_is_parsed_or_rejected(body in "\\PC{0,100}") {
        let _ = serde_json::from_str::<AskRequest>(&body);
        let _ = serde_json::from_str::<CheckRequest>(&body);
    }

    #[test]
    fn reports_on_random_games_are_consistent(choices in prop::collection::vec(any::<prop::sample::Index>(), 0..120)) {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for c in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() { break; }
            let m = legal[c.index(legal.len())];
            moves.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        let req = CheckRequest { moves: Some(MovesField::List(moves)), ..CheckRequest::default() };
        let report = arbiter().check(&req).expect("a legal game");
        prop_assert_eq!(report.legal_moves.is_empty(), report.checkmate || report.stalemate);
        prop_assert_eq!(report.checkmate, report.in_check && report.legal_moves.is_empty());
        prop_assert!(report.repetition.count >= 1);
        prop_assert_eq!(report.repetition.threefold_now, report.repetition.count >= 3);
        for side in [&report.castling.white, &report.castling.black] {
            for st in [&side.kingside, &side.queenside] {
                prop_assert!(!st.legal || st.right, "legal castling needs the right");
                prop_assert!(!st.reasons.is_empty());
            }
        }
        if report.dead_position == Some(true) {
            prop_assert!(report.outcome.is_some());
        }
    }
}

#[test]
fn moves_field_accepts_list_or_text() {
    let list: CheckRequest = serde_json::from_str(r#"{"moves": ["e4", "e5"]}"#).unwrap();
    let text: CheckRequest = serde_json::from_str(r#"{"moves": "1. e4 e5"}"#).unwrap();
    assert_eq!(list.game().unwrap().plies.len(), 2);
    assert_eq!(text.game().unwrap().plies.len(), 2);
}
