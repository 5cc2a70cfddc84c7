#!/usr/bin/env python3
"""Differential test: `arbiter check --batch` against python-chess 1.11.2.

Generates thousands of positions and game histories from a fixed seed, runs them through
`arbiter check --batch` in one process, and compares every key of each report that
python-chess can also decide:

  fen, turn, in_check, checkmate, stalemate, legal_moves (as a set), castling right/legal,
  en_passant, repetition {count, threefold_now, threefold_by_move, fivefold},
  fifty_moves {halfmove_clock, claim_now, claim_by_move, seventy_five}, outcome (mate,
  stalemate, fivefold, seventy-five), `--move` legality, and, as one-sided checks, that a
  position python-chess calls insufficient material is never reported as *not* dead and that a
  side without mating material never wins on the opponent's flag.

Position identity is python-chess's `_transposition_key` (pieces, side to move, cleaned
castling rights, e.p. square only when a legal e.p. capture exists), which is FIDE 9.2.3.
Invalid lines (broken FEN, illegal positions, illegal or unreadable moves in a history, bad
JSON) must each yield {"error": {"code", "message"}} on their own line while the batch goes on.

The generators (each seeded from --seed):
  random      random legal games from the start position, biased towards captures, checks,
              castling, e.p. and promotions, of lengths 1..400 plies (some to the end)
  shuffle     knight/king/rook shuffles on top of random openings and castling set-ups,
              repeated up to six times: threefold, fivefold, repetitions that differ only in
              castling rights (a king or rook goes out and back)
  ep          a double pawn step beside an enemy pawn, with and without a legal e.p. capture
              (pins along the rank and diagonals), played or given in the FEN's e.p. field,
              then shuffles back to the same placement
  castling    kings and rooks at home with random attackers, blockers and partial rights
  fifty       endgames whose FEN half-move clock is 85..300, shuffled through 99/100/149/150,
              and long games of quiet moves from a clock near 0 up to 160 half-moves
  mate-clock  mate-in-one and stalemate-in-one positions at clocks 99 and 149
  promotion   pawns on the seventh rank with pieces to capture on the eighth
  chess960    Chess960 start positions (Shredder-FEN castling) and random games from them
  notation    SAN that must name the departure file, rank or square (Nbd7, R1a3, B7c5, Qh4e1),
              and pawn captures written as pushes ("b5" for axb5), which SAN does not allow

Usage: tests/differential/pychess_diff.py [--arbiter PATH] [--seed N] [--scale X]
Exit status: 0 when every line matches, 1 on any mismatch, 2 when the run itself failed.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

try:
    import chess
except ImportError:  # pragma: no cover - the wrapper script installs it
    sys.exit("python-chess is missing: python3 -m pip install python-chess==1.11.2")

ROOT = Path(__file__).resolve().parents[2]
WING_NAMES = ("kingside", "queenside")
COLOR_NAMES = {chess.WHITE: "white", chess.BLACK: "black"}
STATS: collections.Counter = collections.Counter()


# ---------------------------------------------------------------------------------------------
# Expected values, computed with python-chess
# ---------------------------------------------------------------------------------------------

def tkey(board: chess.Board):
    return board._transposition_key()


def expected_report(board: chess.Board, counts: collections.Counter) -> dict:
    """Everything python-chess decides about `board`, whose move stack is the game's history and
    `counts` the number of occurrences of every position of that history (current included)."""
    legal = list(board.legal_moves)
    ucis = [m.uci() for m in legal]
    turn = board.turn
    in_check = board.is_check()
    count = counts[tkey(board)]

    threefold_by = set()
    if max(counts.values()) >= 2:
        for m in legal:
            board.push(m)
            if counts[tkey(board)] >= 2:
                threefold_by.add(m.uci())
            board.pop()

    clock = board.halfmove_clock
    claim_by = set()
    if clock >= 99:
        for m in legal:
            if board.is_zeroing(m):
                continue
            board.push(m)
            if board.is_fifty_moves():
                claim_by.add(m.uci())
            board.pop()

    castling = {}
    for color in chess.COLORS:
        castling[COLOR_NAMES[color]] = {
            "kingside": {"right": board.has_kingside_castling_rights(color), "legal": False},
            "queenside": {"right": board.has_queenside_castling_rights(color), "legal": False},
        }
    for m in legal:
        if board.is_castling(m):
            wing = "kingside" if board.is_kingside_castling(m) else "queenside"
            castling[COLOR_NAMES[turn]][wing]["legal"] = True

    checkmate = in_check and not legal
    stalemate = not in_check and not legal
    fivefold = board.is_fivefold_repetition()
    seventy_five = board.is_seventyfive_moves()
    if checkmate:
        outcome = {("1-0" if turn == chess.BLACK else "0-1", "checkmate", "5.1.1")}
    elif stalemate:
        outcome = {("1/2-1/2", "stalemate", "5.2.1")}
    else:
        outcome = set()
        if fivefold:
            outcome.add(("1/2-1/2", "fivefold repetition", "9.6.1"))
        if seventy_five:
            outcome.add(("1/2-1/2", "seventy-five moves", "9.6.2"))

    # The reference must agree with itself: python-chess's is_repetition(n) against our count.
    reference_notes = []
    if count >= 2 and not (board.is_repetition(count) and not board.is_repetition(count + 1)):
        reference_notes.append(f"python-chess is_repetition disagrees with the count {count}")

    pseudo_ep = [m for m in board.generate_pseudo_legal_ep()]
    legal_ep = {m.uci() for m in board.generate_legal_ep()}
    exp = {
        "fen": board.fen(en_passant="legal"),  # X-FEN castling letters in Chess960, as shakmaty writes
        "turn": COLOR_NAMES[turn],
        "in_check": in_check,
        "checkmate": checkmate,
        "stalemate": stalemate,
        "legal_moves": set(ucis),
        "castling": castling,
        "en_passant": legal_ep,
        "repetition": {
            "count": count,
            "threefold_now": count >= 3,
            "threefold_by_move": threefold_by,
            "fivefold": fivefold,
        },
        "fifty_moves": {
            "halfmove_clock": clock,
            "claim_now": board.is_fifty_moves(),
            "claim_by_move": claim_by,
            "seventy_five": seventy_five,
        },
        "outcome": outcome,
        "insufficient": {
            "both": board.is_insufficient_material(),
            "white": board.has_insufficient_material(chess.WHITE),
            "black": board.has_insufficient_material(chess.BLACK),
        },
        "reference_notes": reference_notes,
    }
    # Coverage, so that a quiet run proves it met the cases it was written for.
    STATS["positions"] += 1
    STATS["in check"] += in_check
    STATS["checkmate"] += checkmate
    STATS["stalemate"] += stalemate
    STATS["legal e.p. capture"] += bool(legal_ep)
    STATS["e.p. capture pseudo-legal but illegal (pin)"] += len(pseudo_ep) > len(legal_ep)
    STATS["castling legal"] += any(castling[COLOR_NAMES[turn]][w]["legal"] for w in WING_NAMES)
    STATS["castling right kept but castling illegal"] += any(
        castling[COLOR_NAMES[turn]][w]["right"] and not castling[COLOR_NAMES[turn]][w]["legal"]
        for w in WING_NAMES)
    us = COLOR_NAMES[turn]
    for wing, king_path, b_square in (("kingside", (chess.F1, chess.G1), None),
                                      ("queenside", (chess.D1, chess.C1), chess.B1)):
        if board.chess960 or not castling[us][wing]["right"]:
            continue
        rank = 0 if turn == chess.WHITE else 7
        path = [chess.square(chess.square_file(s), rank) for s in king_path]
        between = path + ([chess.square(1, rank)] if b_square is not None else [])
        clear = not any(board.piece_at(s) for s in between)
        attacked = any(board.is_attacked_by(not turn, s) for s in path)
        if clear and not in_check and attacked:
            STATS["castling illegal only because the king's path is attacked"] += 1
        rook_sq = chess.square(7 if wing == "kingside" else 0, rank)
        if castling[us][wing]["legal"] and board.is_attacked_by(not turn, rook_sq):
            STATS["castling legal with the rook attacked"] += 1
        if castling[us][wing]["legal"] and b_square is not None and board.is_attacked_by(not turn, chess.square(1, rank)):
            STATS["castling legal with b1/b8 attacked"] += 1
    STATS["promotion available"] += any(m.promotion for m in legal)
    STATS["position occurred twice"] += count == 2
    STATS["threefold now"] += count >= 3
    STATS["threefold by a move"] += bool(threefold_by)
    STATS["fivefold"] += fivefold
    STATS["clock 99"] += clock == 99
    STATS["clock 100"] += clock == 100
    STATS["clock 149"] += clock == 149
    STATS["clock 150"] += clock == 150
    STATS["fifty claim now"] += exp["fifty_moves"]["claim_now"]
    STATS["fifty claim by a move"] += bool(claim_by)
    STATS["seventy-five"] += seventy_five
    STATS["fivefold and seventy-five at once"] += fivefold and seventy_five
    STATS["chess960"] += board.chess960
    STATS["chess960 castling legal"] += board.chess960 and any(board.is_castling(m) for m in legal)
    return exp


# ---------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------

@dataclass
class Case:
    kind: str
    request: dict
    expect: Optional[dict] = None          # None for an error line
    error_code: Optional[str] = None       # the code an error line must carry
    move_check: Optional[dict] = None      # {"legal": bool, "uci": str|None}
    game: int = -1                         # which generated game the line comes from


class GameBuilder:
    """A python-chess board plus the request that reproduces it and the repetition counts."""

    made = 0

    def __init__(self, kind: str, rng: random.Random, fen: Optional[str] = None,
                 chess960: bool = False, omit_start_fen: bool = False):
        self.kind = kind
        self.rng = rng
        GameBuilder.made += 1
        self.id = GameBuilder.made
        self.board = chess.Board(fen, chess960=chess960) if fen else chess.Board(chess960=chess960)
        self.fen = None if omit_start_fen else (fen or self.board.fen())
        if chess960 and fen is None:
            self.fen = self.board.fen(shredder=True)
        self.moves: list[str] = []
        self.counts = collections.Counter({tkey(self.board): 1})
        # Half the games write SAN, half UCI, some mix them move by move.
        self.style = rng.choice(["san", "uci", "mixed"])

    def push(self, m: chess.Move) -> None:
        style = self.style if self.style != "mixed" else self.rng.choice(["san", "uci"])
        text = self.board.san(m) if style == "san" else m.uci()
        self.moves.append(text)
        self.board.push(m)
        self.counts[tkey(self.board)] += 1

    def emit(self, cases: list, with_move_check: float = 0.08) -> None:
        request: dict[str, Any] = {"moves": list(self.moves)}
        if self.fen is not None:
            request["fen"] = self.fen
        case = Case(self.kind, request, expected_report(self.board, self.counts), game=self.id)
        if self.rng.random() < with_move_check:
            add_move_check(case, self.board, self.rng)
        cases.append(case)


def add_move_check(case: Case, board: chess.Board, rng: random.Random) -> None:
    """Adds a "move" to the request: a legal one (SAN or UCI) or a pseudo-legal illegal one."""
    legal = list(board.legal_moves)
    illegal = [m for m in board.generate_pseudo_legal_moves() if not board.is_legal(m)]
    if rng.random() < 0.25 and not board.chess960:
        # Castling by name: legal exactly when python-chess lists that castling move.
        text = rng.choice(["O-O", "O-O-O"])
        kingside = text == "O-O"
        hit = [m for m in legal if board.is_castling(m) and board.is_kingside_castling(m) == kingside]
        case.request["move"] = text
        case.move_check = {"legal": bool(hit), "uci": hit[0].uci() if hit else None}
        return
    if illegal and (rng.random() < 0.5 or not legal):
        m = rng.choice(illegal)
        case.request["move"] = m.uci()
        case.move_check = {"legal": False, "uci": None}
    elif legal:
        m = rng.choice(legal)
        case.request["move"] = board.san(m) if rng.random() < 0.5 else m.uci()
        case.move_check = {"legal": True, "uci": m.uci()}


def add_pawn_push_probe(case: Case, board: chess.Board, rng: random.Random) -> bool:
    """Asks about a pawn capture written as a push ("b5" for axb5): SAN names a pawn capture's
    departure file (C.9.3), so python-chess refuses it unless a push to that square is legal.
    Returns whether the position had such a capture to ask about."""
    captures = [m for m in board.legal_moves
                if board.piece_type_at(m.from_square) == chess.PAWN
                and chess.square_file(m.from_square) != chess.square_file(m.to_square)
                and not m.promotion]
    if not captures:
        return False
    m = rng.choice(captures)
    text = chess.square_name(m.to_square)
    try:
        meant = board.parse_san(text)
    except ValueError:
        meant = None
    case.request["move"] = text
    case.move_check = {"legal": meant is not None, "uci": meant.uci() if meant else None}
    return True


def weighted_move(board: chess.Board, rng: random.Random, bias: float = 0.7) -> chess.Move:
    """A random legal move; with probability `bias`, weighted towards the interesting ones."""
    legal = list(board.legal_moves)
    if rng.random() > bias:
        return rng.choice(legal)
    # gives_check is dear, so only a few moves are asked whether they check.
    checking = {m for m in rng.sample(legal, min(6, len(legal))) if board.gives_check(m)}
    weights = []
    for m in legal:
        w = 1.0
        if board.is_castling(m):
            w += 8
        if board.is_en_passant(m):
            w += 15
        if m.promotion:
            w += 6
        if board.is_capture(m):
            w += 2
        piece = board.piece_type_at(m.from_square)
        if piece == chess.PAWN and abs(m.to_square - m.from_square) == 16:
            w += 2
        if m in checking:
            w += 4
        weights.append(w)
    return rng.choices(legal, weights)[0]


def reversible(board: chess.Board, m: chess.Move) -> bool:
    return not board.is_zeroing(m) and not board.is_castling(m)


def shuffle_rounds(g: GameBuilder, rounds: int, cases: list, emit_every: float = 1.0,
                   prefer_rights: float = 0.5) -> None:
    """Plays out-and-back cycles (one piece of each side goes and returns), repeating a cycle
    up to six times, sometimes switching to another cycle, emitting positions on the way."""
    rng = g.rng
    for _ in range(rounds):
        cycle = []
        for _side in range(2):
            b = g.board
            cands = [m for m in b.legal_moves if reversible(b, m)]
            if not cands:
                return
            rights_movers = [m for m in cands
                             if b.piece_type_at(m.from_square) in (chess.KING, chess.ROOK)
                             and b.has_castling_rights(b.turn)]
            knights = [m for m in cands if b.piece_type_at(m.from_square) == chess.KNIGHT]
            kings = [m for m in cands if b.piece_type_at(m.from_square) == chess.KING]
            r = rng.random()
            if rights_movers and r < prefer_rights:
                pool = rights_movers
            elif knights and r < prefer_rights + 0.35:
                pool = knights
            elif kings and r < prefer_rights + 0.6:
                pool = kings
            else:
                pool = cands
            m = rng.choice(pool)
            cycle.append(m)
            g.push(m)
            if rng.random() < emit_every:
                g.emit(cases)
        for m in cycle:
            back = chess.Move(m.to_square, m.from_square)
            if back not in g.board.legal_moves:
                return
            g.push(back)
            if rng.random() < emit_every:
                g.emit(cases)
        repeats = rng.choice([1, 1, 2, 3, 4, 5])
        for _ in range(repeats):
            for m in cycle + [chess.Move(m.to_square, m.from_square) for m in cycle]:
                if m not in g.board.legal_moves:
                    return
                g.push(m)
                if rng.random() < emit_every:
                    g.emit(cases)


def random_placement(rng: random.Random, board: chess.Board, symbols: str,
                     avoid: int = 0, ranks: range = range(8)) -> None:
    for sym in symbols:
        piece = chess.Piece.from_symbol(sym)
        for _ in range(200):
            sq = rng.randrange(64)
            if board.piece_at(sq) or chess.BB_SQUARES[sq] & avoid:
                continue
            if chess.square_rank(sq) not in ranks:
                continue
            if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, piece)
            break


def valid_fen(board: chess.Board) -> Optional[str]:
    """The FEN of a set-up position that can arise in a game. python-chess lets some impossible
    double checks pass (two pawns checking at once); shakmaty rejects them (rightly, 3.10.3),
    so set-ups never start in double check (games still reach double checks by moves)."""
    if not board.is_valid() or len(board.checkers()) > 1:
        return None
    return board.fen()


# --- generators --------------------------------------------------------------------------------

def gen_random(rng: random.Random, cases: list, n_games: int) -> None:
    for i in range(n_games):
        g = GameBuilder("random", rng, omit_start_fen=rng.random() < 0.5)
        length = rng.choice([rng.randint(1, 20), rng.randint(20, 80), rng.randint(80, 200), 400])
        emit_p = min(1.0, 12.0 / length)
        for _ply in range(length):
            if g.board.is_game_over(claim_draw=False) and not g.board.is_insufficient_material():
                break
            if not any(g.board.legal_moves):
                break
            g.push(weighted_move(g.board, rng, bias=0.8 if i % 3 else 0.0))
            if rng.random() < emit_p:
                g.emit(cases)
        g.emit(cases)


def gen_shuffle(rng: random.Random, cases: list, n_games: int) -> None:
    for i in range(n_games):
        if i % 3 == 2:
            fen = castling_fen(rng)
            g = GameBuilder("shuffle", rng, fen=fen)
        else:
            g = GameBuilder("shuffle", rng, omit_start_fen=rng.random() < 0.5)
            for _ in range(rng.randint(0, 40)):
                if not any(g.board.legal_moves):
                    break
                g.push(weighted_move(g.board, rng, bias=0.3))
        if g.board.is_game_over():
            continue
        shuffle_rounds(g, rng.randint(1, 3), cases, emit_every=0.6)
        g.emit(cases)


def gen_ep(rng: random.Random, cases: list, n_games: int) -> None:
    made = 0
    attempts = 0
    while made < n_games and attempts < n_games * 50:
        attempts += 1
        board = chess.Board(None)
        f = rng.randrange(8)
        pawn_from = chess.square(f, 1)
        board.set_piece_at(pawn_from, chess.Piece(chess.PAWN, chess.WHITE))
        sides = [d for d in (-1, 1) if 0 <= f + d < 8]
        chosen = sides if rng.random() < 0.25 else [rng.choice(sides)]
        for d in chosen:
            board.set_piece_at(chess.square(f + d, 3), chess.Piece(chess.PAWN, chess.BLACK))
        keep_clear = chess.BB_SQUARES[chess.square(f, 2)] | chess.BB_SQUARES[chess.square(f, 3)]
        style = rng.random()
        if style < 0.35:
            # A rank pin: the black king and a white rook/queen on the fourth rank.
            random_placement(rng, board, "k", keep_clear, range(3, 4))
            random_placement(rng, board, rng.choice("RQ"), keep_clear, range(3, 4))
            random_placement(rng, board, "K", keep_clear)
        elif style < 0.6:
            # A diagonal line through the capturing pawn: king, pawn and bishop/queen aligned.
            ep_pawn = chess.square(f + chosen[0], 3)
            diag = [sq for sq in chess.SquareSet(chess.BB_DIAG_ATTACKS[ep_pawn][0]) if not board.piece_at(sq)]
            if len(diag) < 2:
                continue
            ksq, bsq = rng.sample(diag, 2)
            board.set_piece_at(ksq, chess.Piece(chess.KING, chess.BLACK))
            board.set_piece_at(bsq, chess.Piece(rng.choice([chess.BISHOP, chess.QUEEN]), chess.WHITE))
            random_placement(rng, board, "K", keep_clear)
        else:
            random_placement(rng, board, "kK", keep_clear)
        random_placement(rng, board, rng.choice(["N", "n", "Nn", "Rn", "Bnr", "Q", ""]), keep_clear)
        if rng.random() < 0.3:
            random_placement(rng, board, rng.choice(["p", "P", "pP"]), keep_clear, range(1, 7))
        board.turn = chess.WHITE
        board.halfmove_clock = rng.randint(0, 30)
        board.fullmove_number = rng.randint(20, 60)
        if rng.random() < 0.5:
            board = board.mirror()  # Black makes the double step instead
        fen = valid_fen(board)
        if fen is None:
            continue
        double = chess.Move(pawn_from, chess.square(f, 3))
        if board.turn == chess.BLACK:
            double = chess.Move(chess.square_mirror(pawn_from), chess.square_mirror(chess.square(f, 3)))
        if double not in board.legal_moves:
            continue
        if rng.random() < 0.3:
            # Start from the FEN after the double step, its e.p. field always written.
            board.push(double)
            g = GameBuilder("ep", rng, fen=board.fen(en_passant="fen"))
            g.emit(cases, with_move_check=0.3)
        else:
            g = GameBuilder("ep", rng, fen=fen)
            g.emit(cases)
            g.push(double)
            g.emit(cases, with_move_check=0.3)
        # Shuffle back and forth so that the placement after the double step recurs without
        # the e.p. right.
        shuffle_rounds(g, rng.randint(1, 2), cases, emit_every=0.7, prefer_rights=0.0)
        g.emit(cases)
        made += 1


def castling_fen(rng: random.Random) -> str:
    while True:
        board = chess.Board(None)
        board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
        rights = ""
        for sq, sym, letter in ((chess.H1, "R", "K"), (chess.A1, "R", "Q"),
                                (chess.H8, "r", "k"), (chess.A8, "r", "q")):
            if rng.random() < 0.8:
                board.set_piece_at(sq, chess.Piece.from_symbol(sym))
                if rng.random() < 0.85:
                    rights += letter
        # Attackers and blockers: mostly off the back ranks, sometimes on them.
        extra = "".join(rng.choice("QRBNPqrbnpBbNn") for _ in range(rng.randint(2, 7)))
        random_placement(rng, board, extra, 0, range(1, 7) if rng.random() < 0.7 else range(8))
        board.turn = rng.choice(chess.COLORS)
        board.set_castling_fen(rights or "-")
        board.halfmove_clock = rng.randint(0, 20)
        board.fullmove_number = rng.randint(5, 40)
        fen = valid_fen(board)
        if fen is not None and any(board.legal_moves):
            if rng.random() < 0.1:
                # Rights the position cannot have (no rook in the corner): both sides drop them.
                fields = fen.split()
                fields[2] = "KQkq"
                return " ".join(fields)
            return fen


def gen_castling(rng: random.Random, cases: list, n_positions: int) -> None:
    for _ in range(n_positions):
        g = GameBuilder("castling", rng, fen=castling_fen(rng))
        g.emit(cases, with_move_check=0.3)
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            if not any(g.board.legal_moves):
                break
            g.push(weighted_move(g.board, rng, bias=0.6))
            g.emit(cases, with_move_check=0.2)


def endgame_board(rng: random.Random, pieces: str) -> chess.Board:
    board = chess.Board(None)
    random_placement(rng, board, "Kk" + pieces)
    return board


def gen_long_quiet(rng: random.Random, cases: list) -> None:
    """A long game of quiet moves from a low clock to 160 half-moves: the clock passes 99/100
    and 149/150 by play, and positions recur many times on the way (fivefold and 75 at once)."""
    while True:
        board = endgame_board(rng, rng.choice(["RN", "Rr", "QB", "Nn", "RB"]))
        board.turn = rng.choice(chess.COLORS)
        board.halfmove_clock = rng.randint(0, 8)
        board.fullmove_number = rng.randint(30, 60)
        fen = valid_fen(board)
        if fen is not None and any(board.legal_moves):
            break
    g = GameBuilder("fifty", rng, fen=fen)
    cycle: list[chess.Move] = []
    if rng.random() < 0.5:
        # The same four half-moves over and over: fivefold long before the 75-move rule.
        probe = chess.Board(fen)
        for _ in range(2):
            quiet = [m for m in probe.legal_moves if reversible(probe, m)]
            if not quiet:
                break
            cycle.append(rng.choice(quiet))
            probe.push(cycle[-1])
        cycle += [chess.Move(m.to_square, m.from_square) for m in cycle]
    while g.board.halfmove_clock < 160:
        step = cycle[len(g.moves) % 4] if len(cycle) == 4 else None
        if step is None or step not in g.board.legal_moves:
            quiet = [m for m in g.board.legal_moves if not g.board.is_zeroing(m)]
            if not quiet:
                break
            step = rng.choice(quiet)
        g.push(step)
        clock = g.board.halfmove_clock
        if 97 <= clock <= 101 or 147 <= clock <= 152 or rng.random() < 0.03:
            g.emit(cases)


def gen_fifty(rng: random.Random, cases: list, n_games: int) -> None:
    for _ in range(max(1, n_games // 12)):
        gen_long_quiet(rng, cases)
    made = 0
    while made < n_games:
        pieces = rng.choice(["R", "r", "Q", "q", "Rr", "Nn", "Bb", "RN", "qr", "RBn", "QR", "Pp", "NB"])
        board = endgame_board(rng, pieces)
        board.turn = rng.choice(chess.COLORS)
        board.halfmove_clock = rng.choice([85, 90, 95, 96, 97, 98, 99, 100, 101,
                                           135, 140, 145, 146, 147, 148, 149, 150, 151, 300])
        board.fullmove_number = rng.randint(80, 200)
        fen = valid_fen(board)
        if fen is None or not any(board.legal_moves):
            continue
        g = GameBuilder("fifty", rng, fen=fen)
        g.emit(cases)
        for _ in range(rng.randint(3, 22)):
            legal = list(g.board.legal_moves)
            if not legal:
                break
            quiet = [m for m in legal if not g.board.is_zeroing(m)]
            pool = quiet if quiet and rng.random() < 0.93 else legal
            g.push(rng.choice(pool))
            g.emit(cases)
        made += 1


def gen_mate_clock(rng: random.Random, cases: list, n_positions: int) -> None:
    """Positions at clocks 99 and 149 where a non-zeroing move mates or stalemates: that move
    gives no fifty-move claim (the game ends at once) and mate on the 150th half-move prevails."""
    made = 0
    attempts = 0
    while made < n_positions and attempts < n_positions * 400:
        attempts += 1
        board = endgame_board(rng, rng.choice(["Q", "R", "QR", "RR", "Qn", "Rb", "QB", "q", "r"]))
        board.turn = rng.choice(chess.COLORS)
        board.halfmove_clock = rng.choice([98, 99, 148, 149])
        board.fullmove_number = 120
        fen = valid_fen(board)
        if fen is None:
            continue
        enders = []
        for m in board.legal_moves:
            if board.is_zeroing(m):
                continue
            board.push(m)
            if board.is_checkmate() or board.is_stalemate():
                enders.append(board.peek())
            board.pop()
        if not enders:
            continue
        g = GameBuilder("mate-clock", rng, fen=fen)
        g.emit(cases)
        if board.halfmove_clock in (98, 148):
            # Reach 99/149 first by a quiet move that keeps a mate in hand, if one exists.
            for m in list(g.board.legal_moves):
                if not g.board.is_zeroing(m):
                    g.push(m)
                    break
            g.emit(cases)
        else:
            g.push(rng.choice(enders))
            g.emit(cases)
        made += 1


def gen_promotion(rng: random.Random, cases: list, n_games: int) -> None:
    made = 0
    while made < n_games:
        board = chess.Board(None)
        random_placement(rng, board, "Kk")
        random_placement(rng, board, "P" * rng.randint(1, 3), 0, range(6, 7))
        random_placement(rng, board, "p" * rng.randint(0, 3), 0, range(1, 2))
        random_placement(rng, board, "".join(rng.choice("rnbqRNBQ") for _ in range(rng.randint(1, 4))),
                         0, range(0, 8))
        board.turn = rng.choice(chess.COLORS)
        board.halfmove_clock = rng.randint(0, 40)
        board.fullmove_number = rng.randint(30, 90)
        fen = valid_fen(board)
        if fen is None or not any(board.legal_moves):
            continue
        g = GameBuilder("promotion", rng, fen=fen)
        g.emit(cases, with_move_check=0.3)
        for _ in range(rng.randint(1, 8)):
            if not any(g.board.legal_moves):
                break
            g.push(weighted_move(g.board, rng, bias=0.9))
            g.emit(cases, with_move_check=0.2)
        made += 1


def gen_disambiguation(rng: random.Random, cases: list, n_positions: int) -> None:
    """Several pieces of one kind that reach the same squares, so that SAN names the departure
    file, rank or square (C.10): "Nbd7", "R1a3", "B7c5", "Qh4e1"; each such move is played as a
    one-move history and asked about with "move"."""
    made = 0
    while made < n_positions:
        board = chess.Board(None)
        if made % 3 == 0:
            # Three queens in an L (two share a file, two a rank): the full square is needed.
            x, y, x2, y2 = rng.randrange(8), rng.randrange(8), rng.randrange(8), rng.randrange(8)
            if x == x2 or y == y2:
                continue
            for sq in (chess.square(x, y), chess.square(x, y2), chess.square(x2, y)):
                board.set_piece_at(sq, chess.Piece(chess.QUEEN, chess.WHITE))
            random_placement(rng, board, "Kk")
        else:
            random_placement(rng, board, "Kk")
            mine = rng.choice(["QQQ", "NNN", "RRR", "BBB", "QQ", "NN", "RR", "BB", "QQQR", "NNNB"])
            random_placement(rng, board, mine)
        random_placement(rng, board, "".join(rng.choice("rnbp") for _ in range(rng.randint(0, 3))))
        board.turn = chess.WHITE
        if rng.random() < 0.5:
            board = board.mirror()
        fen = valid_fen(board)
        if fen is None:
            continue
        ambiguous = [m for m in board.legal_moves if len(board.san(m).rstrip("+#").replace("x", "")) > 3
                     and board.piece_type_at(m.from_square) != chess.PAWN]
        if not ambiguous:
            continue
        for m in rng.sample(ambiguous, min(4, len(ambiguous))):
            g = GameBuilder("notation", rng, fen=fen)
            g.style = "san"
            probe = rng.choice(ambiguous)
            g.push(m)
            g.emit(cases, with_move_check=0.0)
            # And the same kind of move asked about in the start position.
            start = GameBuilder("notation", rng, fen=fen)
            start.emit(cases, with_move_check=0.0)
            cases[-1].request["move"] = chess.Board(fen).san(probe)
            cases[-1].move_check = {"legal": True, "uci": probe.uci()}
        made += 1
    # Pawn captures written as pushes, in positions of played-out games.
    probes = 0
    while probes < n_positions:
        g = GameBuilder("notation", rng)
        for _ in range(rng.randint(2, 40)):
            if not any(g.board.legal_moves):
                break
            g.push(weighted_move(g.board, rng, bias=0.9))
        g.emit(cases, with_move_check=0.0)
        if add_pawn_push_probe(cases[-1], g.board, rng):
            probes += 1
        else:
            cases.pop()


def gen_chess960(rng: random.Random, cases: list, n_games: int) -> None:
    for i in range(n_games):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        g = GameBuilder("chess960", rng, fen=board.fen(shredder=True), chess960=True)
        if g.style == "mixed":
            g.style = "uci"
        length = rng.randint(1, 70)
        for _ in range(length):
            if not any(g.board.legal_moves):
                break
            g.push(weighted_move(g.board, rng, bias=0.9))
            if rng.random() < 0.2:
                g.emit(cases)
        if i % 3 == 0 and any(g.board.legal_moves):
            shuffle_rounds(g, 1, cases, emit_every=0.5)
        g.emit(cases)


def invalid_cases() -> list[Case]:
    """Lines that must come back as {"error": {"code", "message"}} without stopping the batch."""
    bad = [
        ({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"}, "invalid_fen"),
        ({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}, "invalid_fen"),
        ({"fen": "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, "invalid_fen"),
        ({"fen": "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, "invalid_fen"),
        ({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - zero 1"}, "invalid_fen"),
        ({"fen": "hello world"}, "invalid_fen"),
        ({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "illegal_position"),
        ({"fen": "4k3/8/8/8/8/8/8/4KK2 w - - 0 1"}, "illegal_position"),
        ({"fen": "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"}, "illegal_position"),  # side not to move in check
        ({"moves": ["e4", "e5", "Ke3"]}, "illegal_move"),
        ({"moves": ["e2e5"]}, "illegal_move"),
        ({"moves": ["e4", "e5", "Nf3", "Nc6", "O-O"]}, "illegal_move"),
        ({"fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "moves": ["Kf1", "Ke7", "Ke1", "Ke8", "O-O"]}, "illegal_move"),
        ({"moves": ["e4", "d5", "exd6"]}, "illegal_move"),
        ({"fen": "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "moves": ["exd6"]}, "illegal_move"),  # pinned e.p.
        ({"moves": ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxa6", "bxa6", "Bc4"]}, "illegal_move"),
        ({"moves": ["e4", "zz9"]}, "illegal_move"),
        ({"moves": ["f3", "e5", "g4", "Qh4#", "a3"]}, "illegal_move"),  # a move after mate
    ]
    cases = [Case("invalid", req, error_code=code) for req, code in bad]
    raw = [("{not json", "bad_json"), ('{"fenn": "8/8/8/8/8/8/8/8 w - - 0 1"}', "bad_json"),
           ('{"moves": 42}', "bad_json"), ("[1, 2, 3]", "bad_json")]
    for text, code in raw:
        cases.append(Case("invalid", {"__raw__": text}, error_code=code))
    return cases


# ---------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------

@dataclass
class Mismatch:
    index: int
    case: Case
    key: str
    expected: Any
    got: Any


def as_set(v):
    """A list as a set; anything else as a marker that never equals a set."""
    return set(v) if isinstance(v, list) else f"<not a list: {v!r}>"


def compare(i: int, case: Case, got: dict) -> list[Mismatch]:
    out: list[Mismatch] = []

    def diff(key: str, expected, actual):
        if expected != actual:
            out.append(Mismatch(i, case, key, expected, actual))

    if case.expect is None:
        err = got.get("error") if isinstance(got, dict) else None
        if set(got) != {"error"} or not isinstance(err, dict):
            diff("error", f'{{"error": {{"code": "{case.error_code}", ...}}}}', got if len(str(got)) < 300 else str(got)[:300])
            return out
        if not isinstance(err.get("code"), str) or not isinstance(err.get("message"), str) or not err["message"]:
            diff("error.code/message", "strings", err)
        diff("error.code", case.error_code, err.get("code"))
        return out

    if "error" in got:
        diff("error", "a report", got["error"])
        return out
    e = case.expect
    for note in e["reference_notes"]:
        print(f"note: line {i + 1}: {note}", file=sys.stderr)
    diff("fen", e["fen"], got.get("fen"))
    for k in ("turn", "in_check", "checkmate", "stalemate"):
        diff(k, e[k], got.get(k))
    lm = got.get("legal_moves")
    diff("legal_moves", e["legal_moves"], as_set(lm))
    if isinstance(lm, list) and len(lm) != len(set(lm)):
        diff("legal_moves (duplicates)", "no duplicates", lm)
    for color in ("white", "black"):
        for wing in WING_NAMES:
            st = (got.get("castling") or {}).get(color, {}).get(wing, {})
            for k in ("right", "legal"):
                diff(f"castling.{color}.{wing}.{k}", e["castling"][color][wing][k], st.get(k))
            if not isinstance(st.get("reasons"), list) or not st.get("reasons"):
                diff(f"castling.{color}.{wing}.reasons", "a non-empty list", st.get("reasons"))
    diff("en_passant", e["en_passant"], as_set(got.get("en_passant")))
    rep = got.get("repetition") or {}
    for k in ("count", "threefold_now", "fivefold"):
        diff(f"repetition.{k}", e["repetition"][k], rep.get(k))
    diff("repetition.threefold_by_move", e["repetition"]["threefold_by_move"], as_set(rep.get("threefold_by_move")))
    fifty = got.get("fifty_moves") or {}
    for k in ("halfmove_clock", "claim_now", "seventy_five"):
        diff(f"fifty_moves.{k}", e["fifty_moves"][k], fifty.get(k))
    diff("fifty_moves.claim_by_move", e["fifty_moves"]["claim_by_move"], as_set(fifty.get("claim_by_move")))

    # Outcome: mate and stalemate exactly; fivefold/75 (either reason when both hold); when
    # python-chess sees none of these, only "dead position" (decided by the solver) may appear.
    oc = got.get("outcome")
    got_oc = None if oc is None else (oc.get("result"), oc.get("reason"), oc.get("article"))
    exp_oc = e["outcome"]
    if exp_oc:
        if got_oc not in exp_oc:
            diff("outcome", " or ".join(map(str, sorted(exp_oc))), got_oc)
    elif got_oc is not None and got_oc != ("1/2-1/2", "dead position", "5.2.2"):
        diff("outcome", None, got_oc)

    # One-sided checks: python-chess's material rule is conservative, so True is a proof.
    ins = e["insufficient"]
    if ins["both"] and got.get("dead_position") is False:
        diff("dead_position", "true or null (python-chess: insufficient material)", False)
    flag = got.get("flag") or {}
    for flagged, other in (("white", "black"), ("black", "white")):
        if ins[other] and flag.get(flagged) not in (None, "1/2-1/2"):
            diff(f"flag.{flagged}", f"null or 1/2-1/2 ({other} cannot mate)", flag.get(flagged))
    # The contract's value domain: the flagged side never wins on its own flag.
    for flagged, loss in (("white", "0-1"), ("black", "1-0")):
        if flag.get(flagged) not in (None, "1/2-1/2", loss):
            diff(f"flag.{flagged}", f"null, 1/2-1/2 or a loss for {flagged}", flag.get(flagged))
    # After checkmate a flag changes nothing: the mated side's flag repeats the result.
    if exp_oc and all(r == "checkmate" for _, r, _ in exp_oc):
        (result, _, _), = exp_oc
        mated = "white" if result == "0-1" else "black"
        diff(f"flag.{mated}", result, flag.get(mated))

    if case.move_check is not None:
        mc = got.get("move_check") or {}
        diff("move_check.legal", case.move_check["legal"], mc.get("legal"))
        if case.move_check["legal"]:
            diff("move_check.uci", case.move_check["uci"], mc.get("uci"))
    return out


def show(v) -> str:
    if isinstance(v, (set, frozenset)):
        v = sorted(v)
    s = json.dumps(v, default=str)
    return s if len(s) < 600 else s[:600] + "…"


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def build_cases(seed: int, scale: float) -> list[Case]:
    def n(x: int) -> int:
        return max(1, int(x * scale))

    generators: list[tuple[str, Callable, int]] = [
        ("random", gen_random, n(260)),
        ("shuffle", gen_shuffle, n(300)),
        ("ep", gen_ep, n(260)),
        ("castling", gen_castling, n(900)),
        ("fifty", gen_fifty, n(170)),
        ("mate-clock", gen_mate_clock, n(60)),
        ("promotion", gen_promotion, n(200)),
        ("chess960", gen_chess960, n(80)),
        ("notation", gen_disambiguation, n(150)),
    ]
    all_cases: list[Case] = []
    for offset, (name, gen, count) in enumerate(generators):
        rng = random.Random(seed * 1000 + offset)
        part: list[Case] = []
        gen(rng, part, count)
        all_cases.extend(part)
    # Spread the invalid lines through the batch, each followed by valid lines.
    rng = random.Random(seed)
    for bad in invalid_cases():
        all_cases.insert(rng.randrange(len(all_cases) + 1), bad)
    return all_cases


def request_line(case: Case) -> str:
    if "__raw__" in case.request:
        return case.request["__raw__"]
    return json.dumps(case.request)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arbiter", default=str(ROOT / "target" / "release" / "arbiter"))
    ap.add_argument("--seed", type=int, default=2023)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the number of generated games")
    ap.add_argument("--budget-ms", type=int, default=1, help="--solver-budget-ms for the arbiter")
    ap.add_argument("--show", type=int, default=12, help="how many mismatches to print in full")
    ap.add_argument("--save-input", metavar="FILE", help="write the batch input here, to reproduce by hand")
    args = ap.parse_args()

    if not Path(args.arbiter).exists():
        print(f"error: {args.arbiter} not found; build it with cargo build --release", file=sys.stderr)
        return 2

    t0 = time.monotonic()
    cases = build_cases(args.seed, args.scale)
    t1 = time.monotonic()
    lines = [request_line(c) for c in cases]
    batch_input = "\n".join(lines) + "\n"
    if args.save_input:
        Path(args.save_input).write_text(batch_input)

    proc = subprocess.run([args.arbiter, "check", "--batch", "--solver-budget-ms", str(args.budget_ms)],
                          input=batch_input.encode(), capture_output=True)
    t2 = time.monotonic()
    if proc.returncode != 0:
        print(f"error: arbiter exited with status {proc.returncode}\n{proc.stderr.decode(errors='replace')[-3000:]}",
              file=sys.stderr)
        return 2
    out_lines = proc.stdout.decode().splitlines()
    if len(out_lines) != len(cases):
        print(f"error: {len(cases)} lines in, {len(out_lines)} lines out", file=sys.stderr)
        return 2

    mismatches: list[Mismatch] = []
    failed_lines = 0
    by_kind: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    by_key: collections.Counter = collections.Counter()
    for i, (case, text) in enumerate(zip(cases, out_lines)):
        try:
            got = json.loads(text)
        except json.JSONDecodeError as exc:
            got = {"<unparsable output>": f"{exc}: {text[:200]}"}
        if not isinstance(got, dict):
            got = {"<not an object>": got}
        found = compare(i, case, got)
        by_kind[case.kind][1 if found else 0] += 1
        if found:
            failed_lines += 1
            mismatches.extend(found)
            for m in found:
                by_key[m.key.split(".")[0] if m.key.startswith("castling") else m.key] += 1
    t3 = time.monotonic()

    n_games = len({c.game for c in cases if c.expect is not None})
    positions = sum(1 for c in cases if c.expect is not None)
    print(f"arbiter check --batch vs python-chess {chess.__version__}, seed {args.seed}")
    print(f"{len(cases)} lines ({positions} positions from {n_games} games/set-ups, "
          f"{len(cases) - positions} invalid lines), "
          f"generated in {t1 - t0:.1f} s, arbiter {t2 - t1:.1f} s, compared in {t3 - t2:.1f} s")
    print("by generator (passed/failed):")
    for kind, (ok, bad) in by_kind.items():
        print(f"  {kind:<11} {ok:>6} / {bad}")
    print("coverage:")
    for k, v in STATS.items():
        if k != "positions":
            print(f"  {k:<45} {v}")
    if mismatches:
        print("mismatches by key:")
        for k, v in by_key.most_common():
            print(f"  {k:<40} {v}")
        print(f"first mismatches (of {len(mismatches)}):")
        seen_lines = set()
        shown = 0
        for m in mismatches:
            if shown >= args.show:
                break
            if m.index in seen_lines and shown > 3:
                continue
            seen_lines.add(m.index)
            shown += 1
            req = m.case.request.get("__raw__") or json.dumps(m.case.request)
            print(f"- line {m.index + 1} [{m.case.kind}] {m.key}")
            print(f"    request:  {req if len(req) < 900 else req[:900] + '…'}")
            if m.case.expect is not None and m.case.expect.get("fen"):
                print(f"    position: {m.case.expect['fen']}")
            print(f"    python-chess: {show(m.expected)}")
            print(f"    arbiter:      {show(m.got)}")
    print(f"{len(cases) - failed_lines} passed, {failed_lines} failed")
    return 1 if failed_lines else 0


if __name__ == "__main__":
    sys.exit(main())
