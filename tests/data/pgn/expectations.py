#!/usr/bin/env python3
"""Writes expected.tsv: what python-chess (1.11.2) makes of every game in this folder.

One line per game: file, game (1-based), variant (python-chess's board class: standard,
chess960 or the variant's name), plies read on the main line, and the ply of the first
error python-chess reports on the main line (ambiguous or illegal SAN) with the move text,
or "-". tests/audit.rs checks `arbiter audit` against it.

    pip install chess==1.11.2 && python3 tests/data/pgn/expectations.py
"""
import io
import os
import sys

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))


class Builder(chess.pgn.GameBuilder):
    def begin_game(self):
        super().begin_game()
        self.first_error = None

    def handle_error(self, error):
        if self.first_error is None and len(self.variation_stack) == 1:
            node = self.variation_stack[-1]
            ply = 0
            while node.parent is not None:
                ply += 1
                node = node.parent
            self.first_error = (ply + 1, str(error))
        super().handle_error(error)

    def result(self):
        game = super().result()
        game.first_error = self.first_error
        return game


def main():
    rows = []
    for name in sorted(os.listdir(HERE)):
        if not name.endswith(".pgn"):
            continue
        raw = open(os.path.join(HERE, name), "rb").read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
        f = io.StringIO(text)
        n = 0
        while True:
            game = chess.pgn.read_game(f, Visitor=Builder)
            if game is None:
                break
            n += 1
            board = game.board()
            if type(board) is chess.Board:
                variant = "chess960" if board.chess960 else "standard"
            else:
                variant = board.uci_variant
            plies = len(list(game.mainline_moves()))
            if game.first_error:
                ply, error = game.first_error
                error = error.split(" in ")[0]
            else:
                ply, error = "-", "-"
            rows.append(f"{name}\t{n}\t{variant}\t{plies}\t{ply}\t{error}")
    with open(os.path.join(HERE, "expected.tsv"), "w") as out:
        out.write("# file\tgame\tvariant\tplies\terror_ply\terror (python-chess " + chess.__version__ + ")\n")
        out.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.exit(main())
