//! Property tests: hostile input never panics and always gets a clear error or a result —
//! FEN, SAN/UCI move lists, PGN text, questions, JSON bodies — and reports are consistent on
//! random legal games.

use std::sync::OnceLock;

use proptest::prelude::*;
use rules_arbiter::answer::{Arbiter, AskRequest, CheckRequest, MovesField, VerifyRequest};
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

/// Questions about a position, as players ask them; `{side}`, `{wing}`, `{piece}`, `{move}` (a
/// legal move in the position) and `{last}` (the last move played) are filled in.
const TEMPLATES: &[&str] = &[
    "Can I castle?",
    "Can {side} castle {wing}?",
    "Can my opponent castle {wing}?",
    "I'm {side}. Can he still castle?",
    "Is {move} legal?",
    "Can I take en passant?",
    "He just played {last}. Can I take en passant?",
    "Is it checkmate?",
    "Is that not checkmate?",
    "Is this stalemate?",
    "Am I in check?",
    "Who wins?",
    "Do I win?",
    "I played {last}. Did I win?",
    "Is {move} mate?",
    "Can I claim a draw by threefold repetition?",
    "Is it a fivefold repetition?",
    "Can I claim a draw under the fifty-move rule?",
    "Is the game drawn by the 75-move rule?",
    "Is the position dead?",
    "Do we have to keep playing?",
    "Can he still win?",
    "I ran out of time. What is the result?",
    "His flag fell. Do I win?",
    "If {side} flags, who wins?",
    "Who wins if a flag falls?",
    "The player with a {piece} flagged. Result?",
    "If I resign, what happens?",
    "Can I promote to a {piece}?",
    "I played {move}. Is it check?",
    "What does the arbiter do here?",
];

/// Sparse starts, so that random play reaches endings: mates, dead positions, flags.
const STARTS: &[Option<&str>] = &[
    None,
    None,
    Some("8/8/4k3/8/8/4K3/8/3Q4 w - - 0 1"),
    Some("8/8/4k3/8/8/3BK3/4P3/8 b - - 0 1"),
    Some("7k/7p/8/8/3N4/8/2K5/8 w - - 90 60"),
    Some("r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8"),
    Some("4k3/3pP3/8/3P4/8/8/8/4K3 b - - 0 1"),
    Some("8/4P3/3k4/8/8/8/1p6/4K3 w - - 0 1"),
];

/// 48 cases, or PROPTEST_CASES when set (for a longer run).
fn question_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: question_cases(), .. ProptestConfig::default() })]

    /// Whatever is asked about whatever position, every claim the answer makes is confirmed by
    /// verify (the code behind POST /api/verify) on the position the answer is about.
    #[test]
    fn every_answer_claim_reverifies(
        start in prop::sample::select(STARTS.to_vec()),
        choices in prop::collection::vec(any::<prop::sample::Index>(), 0..60),
        template in prop::sample::select(TEMPLATES.to_vec()),
        side in prop::sample::select(vec!["White", "Black"]),
        wing in prop::sample::select(vec!["short", "long", "queenside", ""]),
        piece in prop::sample::select(vec!["knight", "rook", "bishop", "queen", "king", "pawn"]),
        pick in any::<prop::sample::Index>(),
    ) {
        let game = Game::new(start).expect("a valid start");
        let mut pos = game.current().clone();
        let mut moves: Vec<String> = Vec::new();
        for c in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() { break; }
            let m = legal[c.index(legal.len())];
            moves.push(shakmaty::san::San::from_move(&pos, m).to_string());
            pos.play_unchecked(m);
        }
        let legal = pos.legal_moves();
        let mv = if legal.is_empty() {
            "Kd2".to_string()
        } else {
            shakmaty::san::San::from_move(&pos, legal[pick.index(legal.len())]).to_string()
        };
        let question = template
            .replace("{side}", side)
            .replace("{wing}", wing)
            .replace("{piece}", piece)
            .replace("{move}", &mv)
            .replace("{last}", moves.last().map_or("e4", String::as_str));
        let req = AskRequest {
            question: question.clone(),
            fen: start.map(String::from),
            moves: Some(MovesField::List(moves.clone())),
            pgn: None,
        };
        let answer = arbiter().ask(&req).expect("a position question gets an answer");
        prop_assert!(!answer.answer.is_empty());
        if !answer.claims.is_empty() {
            let mut all = moves.clone();
            all.extend(answer.played.iter().cloned());
            let v = arbiter()
                .verify(&VerifyRequest {
                    fen: start.map(String::from),
                    moves: Some(MovesField::List(all)),
                    pgn: None,
                    claims: answer.claims.clone(),
                })
                .expect("verify");
            for r in &v.results {
                prop_assert!(
                    r.holds != Some(false),
                    "{question:?} after {moves:?}: claim {:?} contradicted (actual {}); answer: {}",
                    r.claim, r.actual, answer.answer
                );
            }
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
