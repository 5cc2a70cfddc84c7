//! Check, checkmate and stalemate (3.9, 5.1.1, 5.2.1), and "do I win?" on a finished board:
//! the answer says which of the three it is, in the terms of the question — "Is that not
//! checkmate?" on a stalemate is answered "No, it is stalemate".

use shakmaty::Position;

use super::{
    PositionAsk, PositionRuling, Ruled, answers_whether, outcome_claims, side_name, yes_no,
};
use crate::answer::claims::{ClaimSubject, Side};
use crate::answer::frame::QuestionKind;
use crate::answer::intent::Topic;
use crate::rules::notation::{resolve_move, san_plus};

pub struct CheckMateStalemate;

/// What the question asks about the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    Checkmate,
    Stalemate,
    Check,
    Result,
}

impl PositionRuling for CheckMateStalemate {
    fn topic(&self) -> &'static str {
        "check_mate_stalemate"
    }

    fn applies(&self, ask: &PositionAsk) -> bool {
        // "What's the fastest mate here?" asks for play, which the general ruling declines;
        // a move named with it ("g7-g8 is found as the best move, but it puts the king in
        // check") is still judged.
        (ask.tested_move.is_some() || !super::general::asks_for_the_best_play(ask))
            && (matches!(
                ask.topic,
                Topic::Checkmate | Topic::Stalemate | Topic::Check
            ) || ask.topic == Topic::General
                && ask.asks_result()
                && !ask.reads_off_the_board()
                && !ask.tells_of_a_draw_agreement())
    }

    fn rule(&self, ask: &PositionAsk) -> Ruled {
        // "It was mate… who wins?": the result asked for is what the decision says.
        let result_asked = ask.tested_move.is_none()
            && matches!(
                ask.frame.kind,
                QuestionKind::Result | QuestionKind::ResultYesNo
            );
        let asked = match ask.topic {
            _ if result_asked => Asked::Result,
            Topic::Checkmate => Asked::Checkmate,
            Topic::Stalemate => Asked::Stalemate,
            Topic::Check => Asked::Check,
            _ => Asked::Result,
        };
        if let (Some(mv), false) = (ask.tested_move.as_deref(), asked == Asked::Result) {
            return after_move(ask, mv, asked);
        }
        let r = ask.report;
        let mut ruled = if r.checkmate {
            checkmate(ask, asked)
        } else if r.stalemate {
            stalemate(ask, asked)
        } else if asked == Asked::Result && r.outcome.is_some() {
            over(ask)
        } else {
            going_on(ask, asked)
        };
        for s in [
            ClaimSubject::InCheck,
            ClaimSubject::Checkmate,
            ClaimSubject::Stalemate,
        ] {
            ruled.claim(ask.claim(s));
        }
        ruled.marks.extend(r.check.checkers.iter().cloned());
        ruled.deciding.insert(
            0,
            if r.stalemate || !r.checkmate && asked == Asked::Stalemate {
                "5.2.1"
            } else if r.checkmate || asked == Asked::Checkmate {
                "5.1.1"
            } else {
                "3.9.1"
            }
            .into(),
        );
        ruled
    }
}

fn asker(ask: &PositionAsk) -> Option<Side> {
    ask.actors.asker.map(|(s, _)| s)
}

fn checkmate(ask: &PositionAsk, asked: Asked) -> Ruled {
    let reason = &ask.report.check.reason;
    let winner = ask.mover().other();
    let result = if winner == Side::White { "1-0" } else { "0-1" };
    let mut ruled = Ruled::new(match asked {
        Asked::Checkmate => format!("Yes, it is checkmate: {reason}"),
        Asked::Check => format!("Yes, and it is checkmate: {reason}"),
        Asked::Stalemate => format!("No, it is not stalemate: it is checkmate — {reason}"),
        Asked::Result => yes_no(
            answers_whether(ask, result, asker(ask)),
            &format!("{} wins: it is checkmate — {reason}", side_name(winner)),
        ),
    });
    ruled.tells_outcome = true;
    ruled
}

fn stalemate(ask: &PositionAsk, asked: Asked) -> Ruled {
    let reason = &ask.report.check.reason;
    let mut ruled = Ruled::new(match asked {
        Asked::Checkmate => {
            format!("No, it is not checkmate: it is stalemate, and the game is drawn — {reason}")
        }
        Asked::Check => format!("No, it is not check: it is stalemate, a draw — {reason}"),
        Asked::Stalemate => format!("Yes, it is stalemate: the game is drawn — {reason}"),
        Asked::Result => yes_no(
            answers_whether(ask, "1/2-1/2", asker(ask)),
            &format!("It is a draw by stalemate, not a win: {reason}"),
        ),
    });
    ruled.tells_outcome = true;
    ruled
}

/// A result asked for in a game already over otherwise (dead position, fivefold, 75 moves).
fn over(ask: &PositionAsk) -> Ruled {
    let o = ask.report.outcome.as_ref().expect("called when over");
    let mut ruled = Ruled::new(yes_no(
        answers_whether(ask, &o.result, asker(ask)),
        &format!("The game is over: {}.", o.explanation),
    ));
    ruled.deciding.push(o.article.into());
    outcome_claims(ask, &mut ruled);
    ruled.tells_outcome = true;
    ruled
}

fn going_on(ask: &PositionAsk, asked: Asked) -> Ruled {
    let r = ask.report;
    let moves = r
        .legal_moves_san
        .iter()
        .take(6)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let n = r.legal_moves.len();
    Ruled::new(match (asked, r.in_check) {
        (Asked::Check, true) => format!("Yes: {}.", r.check.reason),
        (Asked::Check, false) => format!("No: {}.", r.check.reason),
        (Asked::Checkmate, true) => format!(
            "No, it is not checkmate: {}, and there are legal moves ({moves}).",
            r.check.reason
        ),
        (Asked::Stalemate, _) => format!(
            "No, it is not stalemate: {} has {n} legal move{} ({moves}).",
            side_name(ask.mover()),
            if n == 1 { "" } else { "s" }
        ),
        (Asked::Checkmate, false) => format!(
            "No, it is not checkmate: {}, with {n} legal move{}.",
            r.check.reason,
            if n == 1 { "" } else { "s" }
        ),
        (Asked::Result, _) => format!(
            "Not yet: the game goes on. {} is to move and is not checkmated or stalemated ({}; {n} legal move{}).",
            side_name(ask.mover()),
            r.check.reason,
            if n == 1 { "" } else { "s" }
        ),
    })
}

/// "Is Qxf7 mate?": the move tested, and what it would do.
fn after_move(ask: &PositionAsk, mv: &str, asked: Asked) -> Ruled {
    let pos = ask.game.current();
    let legal = ask.claim(ClaimSubject::LegalMove { mv: mv.into() });
    // A statement ("g7-g8 puts the king in check") is not answered "No".
    let no = if ask.frame.kind == QuestionKind::Statement {
        ""
    } else {
        "No: "
    };
    let mut ruled = match resolve_move(pos, mv, ask.game.mode) {
        // "No: g7-g8 is illegal: it puts the king on g8, …": the move cannot be played at all.
        Err(r) if r.reason.starts_with("is ") => {
            Ruled::new(format!("{no}{} {}", mv.trim(), r.reason))
        }
        Err(r) => Ruled::new(format!("{no}{} is illegal: it {}", mv.trim(), r.reason)),
        Ok(m) => {
            let san = san_plus(pos, m);
            let mut after = pos.clone();
            after.play_unchecked(m);
            let (mate, stale, check) =
                (after.is_checkmate(), after.is_stalemate(), after.is_check());
            let what = if mate {
                "checkmate"
            } else if stale {
                "stalemate, a draw"
            } else if check {
                "check, but not mate"
            } else {
                "not even check"
            };
            let yes = match asked {
                Asked::Checkmate => mate,
                Asked::Stalemate => stale,
                _ => check,
            };
            let mut r = Ruled::new(format!(
                "{}: {san} is legal and it is {what}.",
                if yes { "Yes" } else { "No" }
            ));
            // "Promote to a bishop: is it mate?" — not mate, but nobody can ever mate now.
            if !mate && !stale && after.is_insufficient_material() {
                r.detail.push(
                    "After it neither side has the material to checkmate by any series of legal moves: the position is dead and the game is drawn at once (5.2.2).".into(),
                );
                r.cite(["5.2.2"]);
            }
            r
        }
    };
    ruled.claim(legal);
    ruled.deciding.push(match asked {
        Asked::Stalemate => "5.2.1".into(),
        Asked::Checkmate => "5.1.1".into(),
        _ => "3.9.1".into(),
    });
    ruled
}
