#!/usr/bin/env python3
"""Checks the expected claims of tests/position_questions.toml against python-chess 1.11.2.

Every claim python-chess can decide is compared: legal_move (the SAN too, check marks included,
when the case writes them), castling_right, castling_legal, en_passant, in_check, checkmate,
stalemate, threefold_claim, fivefold, fifty_move_claim, seventy_five. dead_position and
flag_result are only bounded: a position python-chess calls insufficient material must be
dead, and a flag against a side that has insufficient material must be a draw.

Usage: tests/differential/position_questions.py [FILE]   (exit 1 on any disagreement)
"""

import io
import sys
import tomllib

import chess
import chess.pgn

WINGS = {"kingside": True, "queenside": False}
COLORS = {"white": chess.WHITE, "black": chess.BLACK}


def board_for(case):
    if "pgn" in case:
        game = chess.pgn.read_game(io.StringIO(case["pgn"]))
        board = game.board()
        for m in game.mainline_moves():
            board.push(m)
        return board
    chess960 = "960" in case["name"]
    board = chess.Board(case["fen"], chess960=chess960) if "fen" in case else chess.Board()
    moves = case.get("moves", [])
    for i, text in enumerate(moves + case.get("played", [])):
        try:
            board.push(parse(board, text))
        except ValueError:
            # An illegal last move of the history is the move in dispute: the arbiter rules on
            # the position before it, and so does this check.
            if i == len(moves) - 1:
                break
            raise
    return board


def parse(board, text):
    try:
        return board.parse_san(text)
    except ValueError:
        return board.parse_uci(text)


def value_of(board, claim):
    kind = claim["kind"]
    if kind in ("legal_move", "en_passant"):
        text = claim["move"]
        try:
            m = parse(board, text)
        except ValueError:
            return False
        if kind == "en_passant":
            return board.is_en_passant(m)
        if text.endswith(("+", "#")) and board.san(m) != text:
            return f"legal, but written {board.san(m)}"
        return True
    if kind == "castling_right":
        color = COLORS[claim["color"]]
        return (board.has_kingside_castling_rights(color) if WINGS[claim["wing"]]
                else board.has_queenside_castling_rights(color))
    if kind == "castling_legal":
        color = COLORS[claim["color"]]
        if board.turn != color:
            return False
        return any(board.is_castling(m) and board.is_kingside_castling(m) == WINGS[claim["wing"]]
                   for m in board.legal_moves)
    simple = {
        "in_check": board.is_check,
        "checkmate": board.is_checkmate,
        "stalemate": board.is_stalemate,
        "threefold_claim": board.can_claim_threefold_repetition,
        "fivefold": board.is_fivefold_repetition,
        "fifty_move_claim": board.can_claim_fifty_moves,
        "seventy_five": board.is_seventyfive_moves,
    }
    if kind in simple:
        return simple[kind]()
    return None  # bounded below


def bounded(board, claim):
    """A message when python-chess rules out the expected value, else None."""
    kind, want = claim["kind"], claim["value"]
    if kind == "dead_position" and board.is_insufficient_material() and want is not True:
        return "python-chess: insufficient material, so the position is dead"
    if kind == "flag_result" and board.outcome() is None:
        opponent = not COLORS[claim["flagged"]]
        if board.has_insufficient_material(opponent) and want != "1/2-1/2":
            return "python-chess: the opponent has insufficient material, so a draw"
    return None


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/position_questions.toml"
    with open(path, "rb") as f:
        cases = tomllib.load(f)["case"]
    checked = problems = 0
    for case in cases:
        board = board_for(case)
        for claim in case.get("claims", []):
            got = value_of(board, claim)
            if got is None:
                msg = bounded(board, claim)
            else:
                checked += 1
                msg = None if got == claim["value"] else f"python-chess says {got}"
            if msg:
                problems += 1
                print(f"{case['name']}: {claim}: {msg}")
    print(f"{len(cases)} cases, {checked} claims decided by python-chess, {problems} disagreements")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
