//! Reading moves the way people write them: SAN with the usual liberties (`0-0`, `e8Q`,
//! `exd6 e.p.`, `Nf3!?`), UCI (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling) and long algebraic
//! (`g1-f3`, `e4xd5`, `e7-e8=Q`).

use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, MoveList, Position, Rank, Role, Square, attacks};

use super::legality::{MoveRejection, RejectionKind, explain_illegal_san, explain_illegal_uci};

/// A move as the user wrote it, read into a notation we understand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParsedMove {
    San(San),
    Uci(UciMove),
}

/// Tidies SAN as people type it into what shakmaty's strict parser accepts.
///
/// Returns `None` when the text is empty after tidying.
pub fn normalise_san(text: &str) -> Option<String> {
    let mut s: String = text.trim().to_string();
    // Annotations and check marks carry no information the position does not already hold.
    for suffix in ["e.p.", "ep", " e.p", "e.p"] {
        if let Some(stripped) = s.strip_suffix(suffix) {
            s = stripped.trim_end().to_string();
        }
    }
    s.retain(|c| !matches!(c, '!' | '?' | '+' | '#' | ' ' | '\u{2020}' | '\u{2021}'));
    if s.is_empty() {
        return None;
    }
    // Castling with zeros or lower-case letters.
    let upper = s.to_ascii_uppercase().replace('0', "O");
    if upper == "O-O" || upper == "O-O-O" || upper == "OO" || upper == "OOO" {
        return Some(if upper.len() <= 3 && upper.matches('O').count() == 2 {
            "O-O".into()
        } else {
            "O-O-O".into()
        });
    }
    // Promotion written e8Q, e8/Q or e8(Q).
    let bytes: Vec<char> = s.chars().collect();
    if bytes.len() >= 3 {
        let last = bytes[bytes.len() - 1];
        let prev = bytes[bytes.len() - 2];
        let piece = last.to_ascii_uppercase();
        if matches!(piece, 'Q' | 'R' | 'B' | 'N' | 'K') && (prev == '1' || prev == '8') {
            s = format!("{}={}", &s[..s.len() - 1], piece);
        }
        if let Some(idx) = s.find(['/', '(']) {
            let rest: String = s[idx + 1..]
                .chars()
                .filter(|c| c.is_ascii_alphabetic())
                .collect();
            s = format!("{}={}", &s[..idx], rest.to_ascii_uppercase());
        }
        if let Some(idx) = s.find('=') {
            let piece: String = s[idx + 1..].to_ascii_uppercase();
            s = format!("{}={}", &s[..idx], piece);
        }
    }
    // Lower-case piece letters ("nf3", "qxd7"); a lone "b" before a square is a bishop.
    let mut chars: Vec<char> = s.chars().collect();
    if let Some(first) = chars.first().copied() {
        let rest_is_square_like = chars.len() >= 3 && chars[1..].iter().any(|c| c.is_ascii_digit());
        if matches!(first, 'n' | 'r' | 'q' | 'k') && rest_is_square_like {
            chars[0] = first.to_ascii_uppercase();
        } else if first == 'b' && chars.len() == 3 && chars[1].is_ascii_lowercase() {
            chars[0] = 'B';
        }
    }
    Some(chars.into_iter().collect())
}

/// A move in long algebraic notation ("g7-g8", "Ng1-f3", "e4xd5", "e7-e8=Q"), if the text is
/// one: the piece it names (a pawn when no letter is written) and the UCI move of its squares.
fn long_algebraic(text: &str) -> Option<(Role, UciMove)> {
    let letter = text
        .chars()
        .next()
        .filter(char::is_ascii_uppercase)
        .and_then(Role::from_char)
        .filter(|r| *r != Role::Pawn);
    let squares = if letter.is_some() { &text[1..] } else { text };
    let bare = squares.trim_end_matches(['+', '#', '!', '?']);
    let b = bare.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    if b.len() < 5 || !matches!(b[2], b'-' | b'x') || !square(b[0], b[1]) || !square(b[3], b[4]) {
        return None;
    }
    let promotion = bare[5..].trim_start_matches('=').to_ascii_lowercase();
    let uci = format!("{}{}{promotion}", &bare[..2], &bare[3..5]);
    let uci = UciMove::from_ascii(uci.as_bytes()).ok()?;
    Some((letter.unwrap_or(Role::Pawn), uci))
}

/// The legal move a long algebraic move names in `pos`, if its squares make one with the piece
/// it names; otherwise why not.
fn resolve_long_algebraic(
    pos: &Chess,
    role: Role,
    uci: &UciMove,
    mode: CastlingMode,
) -> Result<Move, MoveRejection> {
    match uci.to_move(pos) {
        Ok(m) if m.role() == role => Ok(m),
        Ok(m) => Err(MoveRejection::notation(format!(
            "names a {} but moves the {} on {} (C.2)",
            super::describe::role_name(role),
            super::describe::role_name(m.role()),
            m.from().map_or_else(String::new, |sq| sq.to_string())
        ))),
        Err(_) => Err(explain_illegal_uci(pos, uci, mode)),
    }
}

/// Text with figurine notation, as copied from a website ("2.♘f3 ♞c6"), written with piece
/// letters ("2.Nf3 Nc6"); a pawn's figurine is dropped ("♙e4" is "e4").
pub fn letters_for_figurines(question: &str) -> std::borrow::Cow<'_, str> {
    const FIGURINES: &[char] = &['♔', '♕', '♖', '♗', '♘', '♙', '♚', '♛', '♜', '♝', '♞', '♟'];
    if !question.contains(FIGURINES) {
        return std::borrow::Cow::Borrowed(question);
    }
    let letters = question
        .chars()
        .filter_map(|c| match c {
            '♔' | '♚' => Some('K'),
            '♕' | '♛' => Some('Q'),
            '♖' | '♜' => Some('R'),
            '♗' | '♝' => Some('B'),
            '♘' | '♞' => Some('N'),
            '♙' | '♟' => None,
            c => Some(c),
        })
        .collect();
    std::borrow::Cow::Owned(letters)
}

/// Reads `text` as long algebraic or UCI first (when it looks like either) and as SAN
/// otherwise.
pub fn parse_move_text(text: &str) -> Result<ParsedMove, String> {
    let text = letters_for_figurines(text);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("the move is empty".into());
    }
    if let Some((_, uci)) = long_algebraic(trimmed) {
        return Ok(ParsedMove::Uci(uci));
    }
    // A capital piece letter means a piece (C.2), so "B7c5" is a bishop from the seventh rank,
    // not the UCI move b7c5; SAN that does not parse ("B2B4") is still read as UCI below.
    let piece_first = trimmed.starts_with(['K', 'Q', 'R', 'B', 'N']);
    if piece_first
        && let Some(san) = normalise_san(trimmed).and_then(|t| San::from_ascii(t.as_bytes()).ok())
    {
        return Ok(ParsedMove::San(san));
    }
    if looks_like_uci(trimmed)
        && let Ok(uci) = UciMove::from_ascii(trimmed.to_ascii_lowercase().as_bytes())
    {
        return Ok(ParsedMove::Uci(uci));
    }
    let tidy = normalise_san(trimmed).ok_or_else(|| "the move is empty".to_string())?;
    San::from_ascii(tidy.as_bytes())
        .map(ParsedMove::San)
        .map_err(|_| {
            "this is neither algebraic notation (like Nf3, exd5, O-O, e8=Q; see Appendix C) \
             nor UCI (like g1f3)"
                .to_string()
        })
}

fn looks_like_uci(s: &str) -> bool {
    let b = s.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && b[0].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_alphabetic()
        && b[3].is_ascii_digit()
        && (b.len() == 4 || matches!(b[4].to_ascii_lowercase(), b'q' | b'r' | b'b' | b'n'))
}

/// Finds the legal move that `text` denotes in `pos`, or explains exactly why there is none.
pub fn resolve_move(pos: &Chess, text: &str, mode: CastlingMode) -> Result<Move, MoveRejection> {
    let tidy = normalise_san(text).unwrap_or_default();
    if tidy.ends_with("=K") || tidy.ends_with("=P") {
        return Err(MoveRejection {
            reason: "promotes to a king or a pawn, which is never allowed: the pawn must become a queen, rook, bishop or knight (3.7.3.3)".into(),
            articles: vec!["3.7.3.3".into()],
            kind: RejectionKind::Promotion,
        });
    }
    if let Some((role, uci)) = long_algebraic(text.trim()) {
        return resolve_long_algebraic(pos, role, &uci, mode);
    }
    let parsed = parse_move_text(text).map_err(MoveRejection::notation)?;
    match parsed {
        ParsedMove::Uci(uci) => match uci.to_move(pos) {
            Ok(m) => Ok(m),
            Err(_) => Err(explain_illegal_uci(pos, &uci, mode)),
        },
        ParsedMove::San(san) => match san.to_move(pos) {
            Ok(m) => Ok(m),
            Err(SanError::AmbiguousSan) => {
                let candidates: Vec<String> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| san.matches(*m))
                    .map(|m| San::from_move(pos, m).to_string())
                    .collect();
                Err(MoveRejection {
                    reason: format!(
                        "is ambiguous: more than one piece can make it ({}); say which one, as \
                         Appendix C asks (C.10)",
                        candidates.join(", ")
                    ),
                    articles: vec!["C.10".into()],
                    kind: RejectionKind::Ambiguous,
                })
            }
            // FIDE notation may leave out the "x" of a capture (C.9); accept it either way,
            // except that a pawn capture always names the file the pawn left (C.9.3): "b5" is
            // a pawn push, never axb5.
            Err(SanError::IllegalSan) if pawn_capture_without_its_file(&san) => {
                Err(pawn_push_not_a_capture(pos, &san, mode))
            }
            Err(SanError::IllegalSan) => move_with_capture_mark_flipped(pos, &san)
                .ok_or_else(|| explain_illegal_san(pos, &san, mode)),
        },
    }
}

/// A pawn move written without a departure file and without a capture mark ("b5"): a push,
/// which the capture-mark leniency must not turn into a capture.
fn pawn_capture_without_its_file(san: &San) -> bool {
    matches!(
        *san,
        San::Normal {
            role: Role::Pawn,
            file: None,
            capture: false,
            ..
        }
    )
}

/// Why a pawn push written like "b5" is refused, and, when a pawn capture onto that square is
/// legal, how it is written (C.9.3).
fn pawn_push_not_a_capture(pos: &Chess, san: &San, mode: CastlingMode) -> MoveRejection {
    let mut rejection = explain_illegal_san(pos, san, mode);
    if let Some(m) = move_with_capture_mark_flipped(pos, san) {
        rejection.reason = format!(
            "{}; a pawn capture onto that square is written with the file the pawn leaves: {} (C.9.3)",
            rejection.reason.trim_end_matches('.'),
            San::from_move(pos, m)
        );
        rejection.articles.push("C.9.3".into());
    }
    rejection
}

/// The legal move `san` denotes once its capture mark is flipped ("Nxf3" onto an empty
/// square, "Bc6" taking a piece), if there is one.
pub fn move_with_capture_mark_flipped(pos: &Chess, san: &San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = *san
    else {
        return None;
    };
    let flipped = San::Normal {
        role,
        file,
        rank,
        capture: !capture,
        to,
        promotion,
    };
    flipped.to_move(pos).ok()
}

/// SAN with check/mate suffix for a legal move.
///
/// The same text as shakmaty's `SanPlus::from_move`, which works out the whole outcome of the
/// position after the move (every legal reply, insufficient material) to see a mate: only a
/// move that gives check can mate, so here the replies are generated only after a check.
pub fn san_plus(pos: &Chess, m: Move) -> String {
    let candidates = match m {
        Move::Normal { role, to, .. } if !unambiguous(pos, role, to) => {
            pos.san_candidates(role, to)
        }
        _ => MoveList::new(),
    };
    san_plus_among(pos, m, &candidates)
}

/// Whether at most one piece of ours of this role (not a pawn) attacks `to`: then no SAN can be
/// ambiguous, legal or not, and the legal candidates need not be generated.
fn unambiguous(pos: &Chess, role: Role, to: Square) -> bool {
    let occupied = pos.board().occupied();
    let from = match role {
        Role::Pawn | Role::King => return true,
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_attacks(to, occupied),
        Role::Rook => attacks::rook_attacks(to, occupied),
        Role::Queen => attacks::queen_attacks(to, occupied),
    };
    (from & pos.our(role)).count() <= 1
}

/// Plays in `p` the legal move that `uci` stands for and returns its SAN (without a check
/// sign). `None` (and `p` unchanged) when the move is not legal. Standard and Chess960 castling
/// alike.
///
/// Most moves of a helpmate line are a piece's plain move that no other piece of its kind
/// could make ([`plain_move`]): for those, legality is whether our king is attacked on the
/// board the move leaves ([`leaves_king_safe`]), with no move generation. The rest (castling,
/// en passant, possible ambiguities, moves that are not even pseudo-legal) go through
/// [`play_uci_among_candidates`].
pub fn play_uci(p: &mut Chess, uci: &UciMove) -> Option<San> {
    match plain_move(p, uci) {
        Some(m) if leaves_king_safe(p, m) => {
            p.play_unchecked(m);
            Some(plain_san(m))
        }
        Some(_) => None,
        None => play_uci_among_candidates(p, uci),
    }
}

/// [`play_uci`] by generating the legal candidates once, for the legality test and the SAN
/// alike: right for every move, but a move list per call.
fn play_uci_among_candidates(p: &mut Chess, uci: &UciMove) -> Option<San> {
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = *uci
    else {
        return None;
    };
    let role = p.board().role_at(from)?;
    let (m, san) = if role == Role::King {
        // Castling has its own forms; a king's move is never ambiguous.
        let m = uci.to_move(p).ok()?;
        (m, San::disambiguate(m, &MoveList::new()))
    } else {
        let candidates = p.san_candidates(role, to);
        let m = *candidates
            .iter()
            .find(|c| c.from() == Some(from) && c.promotion() == promotion)?;
        (m, San::disambiguate(m, &candidates))
    };
    p.play_unchecked(m);
    Some(san)
}

/// The pseudo-legal move `uci` stands for when it is a plain one: a piece of ours moves as its
/// kind moves (a king one step, a pawn forward or capturing, promoting exactly on the last rank)
/// to a square not ours, and no other piece of its kind attacks that square, so its SAN needs
/// no disambiguation. `None` for anything else, castling and en passant included; whether the
/// move leaves our king in check is not tested here.
fn plain_move(pos: &Chess, uci: &UciMove) -> Option<Move> {
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = *uci
    else {
        return None;
    };
    let role = pos.board().role_at(from)?;
    let moves = pos.us().contains(from)
        && !pos.us().contains(to)
        && promotes_rightly(pos, role, to, promotion)
        && match role {
            Role::Pawn => pawn_reaches(pos, from, to),
            Role::King => attacks::king_attacks(from).contains(to),
            _ => {
                let piece = role.of(pos.turn());
                attacks::attacks(from, piece, pos.board().occupied()).contains(to)
                    && unambiguous(pos, role, to)
            }
        };
    moves.then(|| Move::Normal {
        role,
        from,
        capture: pos.board().role_at(to),
        to,
        promotion,
    })
}

/// Whether `promotion` is right for a move of `role` to `to`: a queen, rook, bishop or knight
/// exactly when a pawn reaches the last rank, nothing otherwise.
fn promotes_rightly(pos: &Chess, role: Role, to: Square, promotion: Option<Role>) -> bool {
    let last_rank = role == Role::Pawn && to.rank() == pos.turn().relative_rank(Rank::Eighth);
    match promotion {
        None => !last_rank,
        Some(Role::Pawn | Role::King) => false,
        Some(_) => last_rank,
    }
}

/// Whether our pawn on `from` can go to `to` other than en passant: a capture of one of their
/// pieces, or one or (from its first square) two steps forward onto empty squares.
fn pawn_reaches(pos: &Chess, from: Square, to: Square) -> bool {
    let turn = pos.turn();
    if attacks::pawn_attacks(turn, from).contains(to) {
        return pos.them().contains(to);
    }
    let occupied = pos.board().occupied();
    let step = turn.fold_wb(8, -8);
    let Some(one) = from.offset(step).filter(|s| !occupied.contains(*s)) else {
        return false;
    };
    to == one
        || (from.rank() == turn.relative_rank(Rank::Second)
            && one.offset(step) == Some(to)
            && !occupied.contains(to))
}

/// Whether the pseudo-legal normal move `m` leaves our king unattacked (that is, whether it is
/// legal): on the board the move leaves, no piece of theirs but the one it takes reaches the
/// king's square.
fn leaves_king_safe(pos: &Chess, m: Move) -> bool {
    let Move::Normal { role, from, to, .. } = m else {
        return false;
    };
    let board = pos.board();
    let king = if role == Role::King {
        Some(to)
    } else {
        board.king_of(pos.turn())
    };
    let occupied = board.occupied().without(from).with(to);
    king.is_some_and(|king| {
        board
            .attacks_to(king, !pos.turn(), occupied)
            .without(to)
            .is_empty()
    })
}

/// The SAN of a plain move ([`plain_move`]), as `San::disambiguate` writes it for a move that
/// no other piece of its kind can make: only a pawn's capture names where it came from (its
/// file).
fn plain_san(m: Move) -> San {
    let capture = m.is_capture();
    San::Normal {
        role: m.role(),
        file: m
            .from()
            .filter(|_| m.role() == Role::Pawn && capture)
            .map(Square::file),
        rank: None,
        capture,
        to: m.to(),
        promotion: m.promotion(),
    }
}

/// [`san_plus`] with the moves that could make `m`'s SAN ambiguous already at hand: any list
/// that holds every legal move of `m`'s role to `m`'s square, such as all the legal moves.
pub fn san_plus_among(pos: &Chess, m: Move, candidates: &MoveList) -> String {
    with_check_sign_of(pos, m, San::disambiguate(m, candidates))
}

/// `san`, the SAN of the legal move `m` in `pos`, written out with its check or mate sign.
/// Most moves give no check, which [`gives_check`] sees on the board without playing them;
/// the rest (and castling and en passant, which it leaves alone) are played on a copy.
fn with_check_sign_of(pos: &Chess, m: Move, san: San) -> String {
    if gives_check(pos, m) == Some(false) {
        return san_text(san);
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    with_check_sign(san, &after)
}

/// Whether the legal normal move `m` (a promotion or capture included) checks the other king:
/// the piece on its new square attacks that king, or one of our other pieces does once `from`
/// is empty (a discovered check). `None` for castling and en passant (and without a king of
/// theirs), which the caller plays out instead.
fn gives_check(pos: &Chess, m: Move) -> Option<bool> {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        return None;
    };
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(!us)?;
    let occupied = board.occupied().without(from).with(to);
    let moved = promotion.unwrap_or(role).of(us);
    Some(
        attacks::attacks(to, moved, occupied).contains(king)
            || board.attacks_to(king, us, occupied).without(from).any(),
    )
}

/// [`san_plus`] of every move of `legal` (all the legal moves, in order). A piece's move is
/// disambiguated against the others only when another piece of its kind can reach the same
/// square, which a table of (role, square) counts built once tells.
pub fn san_plus_all(pos: &Chess, legal: &MoveList) -> Vec<String> {
    let mut reaching = [[0u8; 64]; 6];
    for m in legal {
        if let Move::Normal { role, to, .. } = *m {
            let count = &mut reaching[usize::from(role) - 1][usize::from(to)];
            *count = count.saturating_add(1);
        }
    }
    let alone = MoveList::new();
    legal
        .iter()
        .map(|m| match *m {
            Move::Normal { role, to, .. }
                if reaching[usize::from(role) - 1][usize::from(to)] > 1 =>
            {
                san_plus_among(pos, *m, legal)
            }
            Move::Normal { .. } => with_check_sign_of(pos, *m, plain_san(*m)),
            _ => san_plus_among(pos, *m, &alone),
        })
        .collect()
}

/// `san` written out.
pub fn san_text(san: San) -> String {
    let mut text = String::with_capacity(8);
    san.append_to_string(&mut text);
    text
}

/// `san` written out, with `+` or `#` when the move gave check or mate in `after`.
fn with_check_sign(san: San, after: &Chess) -> String {
    let mut text = san_text(san);
    if after.is_check() {
        text.push(if after.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    text
}

/// UCI as the report contract wants it: castling as the king's two-square move in standard
/// chess, king-takes-rook in Chess960.
pub fn uci(m: Move, mode: CastlingMode) -> String {
    let mut text = String::with_capacity(5);
    m.to_uci(mode).append_to_string(&mut text);
    text
}

#[cfg(test)]
mod tests {

    #[test]
    fn figurines_read_as_piece_letters() {
        use super::{ParsedMove, letters_for_figurines, parse_move_text};
        assert_eq!(
            letters_for_figurines("2.♘f3 ♞c6 3.♙d4 ♚e7"),
            "2.Nf3 Nc6 3.d4 Ke7"
        );
        assert!(matches!(parse_move_text("♗xc6"), Ok(ParsedMove::San(_))));
        assert!(matches!(
            letters_for_figurines("Nf3"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_pawn_push_is_never_read_as_a_capture() {
        use super::resolve_move;
        use shakmaty::{CastlingMode, Chess, Position};
        let mut pos = Chess::default();
        for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "Nf6", "Re1"] {
            let mv = resolve_move(&pos, m, CastlingMode::Standard).unwrap();
            pos.play_unchecked(mv);
        }
        // b7-b5 is blocked by the bishop; a6xb5 is legal but written axb5 (or ab5).
        let refused = resolve_move(&pos, "b5", CastlingMode::Standard).unwrap_err();
        assert!(
            refused.reason.contains("axb5 (C.9.3)"),
            "{}",
            refused.reason
        );
        assert!(resolve_move(&pos, "axb5", CastlingMode::Standard).is_ok());
        assert!(resolve_move(&pos, "ab5", CastlingMode::Standard).is_ok());
        // A piece capture without its "x" is still read (C.9).
        assert!(resolve_move(&pos, "Nxe4", CastlingMode::Standard).is_ok());
        assert!(resolve_move(&pos, "Ne4", CastlingMode::Standard).is_ok());
    }

    #[test]
    fn long_algebraic_reads_as_the_uci_move() {
        let uci = |t: &str| long_algebraic(t).map(|(_, u)| u.to_string());
        assert_eq!(uci("g7-g8").as_deref(), Some("g7g8"));
        assert_eq!(uci("Ng1-f3+").as_deref(), Some("g1f3"));
        assert_eq!(uci("e4xd5").as_deref(), Some("e4d5"));
        assert_eq!(uci("e7-e8=Q").as_deref(), Some("e7e8q"));
        assert_eq!(uci("Nxe5"), None);
        assert_eq!(uci("1-0"), None);
        assert_eq!(uci("i9-j9"), None);
        assert_eq!(long_algebraic("Ng1-f3").map(|(r, _)| r), Some(Role::Knight));
        assert_eq!(long_algebraic("e2-e4").map(|(r, _)| r), Some(Role::Pawn));
    }

    #[test]
    fn a_long_algebraic_move_must_name_the_piece_it_moves() {
        let start = Chess::default();
        assert!(resolve_move(&start, "Ng1-f3", CastlingMode::Standard).is_ok());
        assert!(resolve_move(&start, "e2-e4", CastlingMode::Standard).is_ok());
        assert!(resolve_move(&start, "b2-b4", CastlingMode::Standard).is_ok());
        let wrong = resolve_move(&start, "Bg1-f3", CastlingMode::Standard).unwrap_err();
        assert!(wrong.reason.contains("names a bishop"), "{}", wrong.reason);
        // A king's two-square castling move written from its squares.
        let castle: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert!(
            resolve_move(&castle, "Ke1-g1", CastlingMode::Standard)
                .unwrap()
                .is_castle()
        );
    }
    use super::*;

    /// A test position from its FEN, in Chess960 castling mode when asked.
    fn position(fen: &str, chess960: bool) -> Chess {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        fen.parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(mode)
            .unwrap()
    }

    /// Positions 2, 3 and 5 of the usual perft suite: pins, checks, en passant, promotions
    /// and castling, each walked some plies on by the tests below.
    const PERFT_POSITIONS: [&str; 3] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];

    /// A pinned bishop, promotions for both sides with castling rights, and Chess960 castling
    /// (the flag: Chess960 castling mode).
    const PIN_PROMOTION_CHESS960: [(&str, bool); 3] = [
        ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", false),
        ("r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1", false),
        ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true),
    ];

    /// The perft positions, then `own` (FEN, Chess960), then the pin, promotion and Chess960
    /// ones: the positions the notation tests walk.
    fn test_positions<const N: usize>(
        own: [(&'static str, bool); N],
    ) -> impl Iterator<Item = (&'static str, bool)> {
        PERFT_POSITIONS
            .map(|fen| (fen, false))
            .into_iter()
            .chain(own)
            .chain(PIN_PROMOTION_CHESS960)
    }

    /// Visits the position of `fen` and each position of a walk of up to `plies` moves from
    /// it, the move after visit `step` being legal move `(step * stride + offset)` (modulo their
    /// number); the walk ends after visiting a position without legal moves.
    fn walk(
        fen: &str,
        chess960: bool,
        plies: usize,
        (stride, offset): (usize, usize),
        mut visit: impl FnMut(&Chess, &MoveList, usize),
    ) {
        let mut pos = position(fen, chess960);
        for step in 0..plies {
            let legal = pos.legal_moves();
            visit(&pos, &legal, step);
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[(step * stride + offset) % legal.len()]);
        }
    }

    /// Every legal move, and every move of a short random walk from each position, written as
    /// shakmaty's `SanPlus::from_move` writes it: ambiguities, captures, promotions, castling,
    /// e.p., checks and mates.
    #[test]
    fn san_plus_writes_what_shakmaty_writes() {
        let fens = PERFT_POSITIONS.into_iter().chain([
            "6k1/6pp/8/8/8/8/R7/R5K1 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 1",
            "1N1N4/8/8/8/1N1N3k/8/8/K7 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        ]);
        for fen in fens {
            walk(fen, false, 40, (7, 3), |pos, legal, _| {
                let all = san_plus_all(pos, legal);
                for (i, m) in legal.iter().enumerate() {
                    let expected = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
                    assert_eq!(all[i], expected, "{fen}: {m:?}");
                    assert_eq!(san_plus(pos, *m), expected, "{fen}: {m:?}");
                    assert_eq!(san_plus_among(pos, *m, legal), expected, "{fen}: {m:?}");
                    let uci = m.to_uci(CastlingMode::Standard);
                    let mut played = pos.clone();
                    let san = play_uci(&mut played, &uci).map(san_text);
                    assert_eq!(
                        san.as_deref(),
                        Some(expected.trim_end_matches(['+', '#'])),
                        "{fen}: {uci}"
                    );
                    let mut expected_after = pos.clone();
                    expected_after.play_unchecked(*m);
                    assert_eq!(played, expected_after);
                }
            });
        }
    }

    /// `play_uci`'s plain path against the candidates' path on every from-square, to-square
    /// and promotion (legal or not) in positions with pins, checks, double checks, en passant,
    /// promotions and castling (standard and Chess960), and a few plies on from each.
    #[test]
    fn play_uci_agrees_with_the_candidates_on_every_move() {
        let fens = test_positions([
            ("4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 1", false),
            ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", false),
            ("1N1N4/8/8/8/1N1N3k/8/8/K7 w - - 0 1", false),
            ("4k3/8/8/1b6/8/8/4N3/4K2r w - - 0 1", false),
            ("3k4/8/8/8/8/8/8/R2K3R w - - 0 1", false),
            ("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", true),
        ]);
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Knight),
            Some(Role::King),
        ];
        for (fen, chess960) in fens {
            walk(fen, chess960, 30, (5, 1), |pos, _, step| {
                for (from, to, promotion) in Square::ALL
                    .into_iter()
                    .flat_map(|f| Square::ALL.into_iter().map(move |t| (f, t)))
                    .flat_map(|(f, t)| promotions.map(|p| (f, t, p)))
                {
                    let uci = UciMove::Normal {
                        from,
                        to,
                        promotion,
                    };
                    let (mut plain, mut generated) = (pos.clone(), pos.clone());
                    let san = play_uci(&mut plain, &uci);
                    let expected = play_uci_among_candidates(&mut generated, &uci);
                    assert_eq!(san, expected, "{fen} step {step}: {uci}");
                    assert_eq!(plain, generated, "{fen} step {step}: {uci}");
                }
            });
        }
    }

    /// `gives_check` against playing the move and asking shakmaty, on every legal move of
    /// positions with direct, discovered and double checks, pins, checking promotions
    /// (knight and queen), captures, en passant and castling (standard and Chess960), and 40
    /// plies on from each; and `san_plus_all` against `SanPlus::from_move` on the same moves.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let fens = test_positions([
            // Discovered checks: the bishop, the knight and the pawn uncover a rook or bishop.
            ("4k3/8/8/8/4B3/8/4R3/4K3 w - - 0 1", false),
            ("7k/8/5N2/8/3B4/8/8/K7 w - - 0 1", false),
            ("7k/8/8/8/8/8/1P6/B3K3 w - - 0 1", false),
            // A promotion that checks as a knight, as a queen, and by uncovering a rook.
            ("8/3P1k2/8/8/8/8/8/K7 w - - 0 1", false),
            ("3k4/1P6/8/8/8/8/8/K7 w - - 0 1", false),
            ("8/RP5k/8/8/8/8/8/6K1 w - - 0 1", false),
            ("1r5k/P7/8/8/8/8/8/K7 w - - 0 1", false),
            // En passant uncovering a check, and castling giving one.
            ("8/8/8/K2pP2k/8/8/8/8 w - d6 0 1", false),
            ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", false),
            ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false),
        ]);
        let mut checks = 0;
        for (fen, chess960) in fens {
            walk(fen, chess960, 40, (7, 3), |pos, legal, step| {
                let all = san_plus_all(pos, legal);
                for (i, m) in legal.iter().enumerate() {
                    let mut after = pos.clone();
                    after.play_unchecked(*m);
                    checks += usize::from(after.is_check());
                    if let Some(check) = gives_check(pos, *m) {
                        assert_eq!(check, after.is_check(), "{fen} step {step}: {m:?}");
                    }
                    let expected = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
                    assert_eq!(all[i], expected, "{fen} step {step}: {m:?}");
                }
            });
        }
        assert!(checks > 100, "too few checking moves to tell: {checks}");
    }

    #[test]
    fn normalises_common_liberties() {
        assert_eq!(normalise_san("0-0").as_deref(), Some("O-O"));
        assert_eq!(normalise_san("o-o-o").as_deref(), Some("O-O-O"));
        assert_eq!(normalise_san("e8Q").as_deref(), Some("e8=Q"));
        assert_eq!(normalise_san("exd6 e.p.").as_deref(), Some("exd6"));
        assert_eq!(normalise_san("Nf3!?").as_deref(), Some("Nf3"));
        assert_eq!(normalise_san("nf3").as_deref(), Some("Nf3"));
        assert_eq!(normalise_san("bc4").as_deref(), Some("Bc4"));
        assert_eq!(normalise_san("bxc3").as_deref(), Some("bxc3"));
        assert_eq!(normalise_san("e8=q").as_deref(), Some("e8=Q"));
        assert_eq!(normalise_san("  "), None);
    }

    #[test]
    fn reads_uci_and_san() {
        assert!(matches!(parse_move_text("e2e4"), Ok(ParsedMove::Uci(_))));
        assert!(matches!(parse_move_text("e7e8q"), Ok(ParsedMove::Uci(_))));
        assert!(matches!(parse_move_text("Nf3"), Ok(ParsedMove::San(_))));
        assert!(parse_move_text("hello").is_err());
        // SAN with a rank disambiguation looks like UCI but names a piece.
        assert!(matches!(parse_move_text("B7c5"), Ok(ParsedMove::San(_))));
        assert!(matches!(parse_move_text("N1f3"), Ok(ParsedMove::San(_))));
        assert!(matches!(parse_move_text("b7c5"), Ok(ParsedMove::Uci(_))));
        assert!(matches!(parse_move_text("B2B4"), Ok(ParsedMove::Uci(_))));
    }
}
