#!/usr/bin/env python3
"""Benchmark: reports per second of `arbiter check --batch` on real game positions.

Positions: the FENs of ../shared/data/cha/chasolver/lichess.txt (relative to the repository
root; each line is a two-character winnability label, a space and a FEN), the first --lines
of them. Measured, each best of --repeat runs:

  arbiter, full report   --solver-budget-ms 40 (the CLI default): rules plus the solver
                         (dead position, flag, resignation)
  arbiter, rules part    the same report with the solver's verdicts already known: each chunk of
                         positions (at most 1,600, so that the solver's 4,096-entry cache never
                         clears) is sent twice in one batch and only the second pass is timed, so
                         it costs the rules plus the solver's fast unwinnability test and a cache
                         look-up; solver part = full report - rules part
  arbiter, budget 1 ms   --solver-budget-ms 1, the obvious way to "skip" the solver; shown for
                         comparison: a query not decided within 1 ms is stopped there (its
                         verdict is null)
  python-chess           the same rules fields on the same positions: legal moves (UCI), check,
                         mate, stalemate, castling rights and castling legality, legal e.p.
                         captures, repetition count and the moves that would make a threefold,
                         fifty-move claim now / by a move, seventy-five, written out as JSON
  python-chess + SAN     the same, plus the SAN of every legal move (the arbiter's report
                         carries SAN for every legal move too)
  chasolver alone        the solver's queries of each report (for White then Black: the fast
                         unwinnability test, then the full analysis when it is inconclusive, in
                         one call, `winnability_with_fast_check_within`, as the report makes
                         them, each under the same budget) on the same positions, called
                         directly in a Rust loop with boards read beforehand, nothing cached
                         and the binary's allocator (benches/solver_direct.rs, run through
                         `cargo bench`); the arbiter's overhead is its full report's time over
                         this one

The worst single report is found by timestamping each report as it arrives from the batch,
then re-timing the slowest candidates one by one in a fresh process (minus the cost of a
process that reports a trivial position). Not part of the test suite; run it by hand:

    cargo build --release && python3 benches/check_batch.py [--lines 5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "cha" / "chasolver" / "lichess.txt"
TRIVIAL = json.dumps({"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"})


def load_fens(path: Path, limit: int) -> list[str]:
    if not path.exists():
        sys.exit(
            f"error: the position file {path} is missing.\n"
            "It comes from the shared data directory, which CI copies beside the repository as "
            "../shared (relative to the repository root); pass --data PATH to use another copy."
        )
    fens = []
    with path.open() as fh:
        for line in fh:
            if line.startswith("#") or len(line) < 4:
                continue
            fens.append(line[3:].strip())
            if len(fens) >= limit:
                break
    return fens


# --- the arbiter ----------------------------------------------------------------------------

def run_batch(arbiter: str, budget_ms: int, payload: bytes) -> tuple[float, float, list[float], list[str]]:
    """Runs one batch; returns (wall seconds, child CPU seconds, arrival time of each report,
    the report lines)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen([arbiter, "check", "--batch", "--solver-budget-ms", str(budget_ms)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def feed():
        assert proc.stdin is not None
        proc.stdin.write(payload)
        proc.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    arrivals, lines = [], []
    assert proc.stdout is not None
    for raw in proc.stdout:
        arrivals.append(time.perf_counter() - t0)
        lines.append(raw.decode())
    proc.wait()
    writer.join()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.exit(f"error: arbiter exited with status {proc.returncode}")
    return wall, cpu, arrivals, lines


def run_rules_part(arbiter: str, budget_ms: int, requests: list[str], chunk: int) -> tuple[float, float, list[float], list[str]]:
    """Times the second pass over each chunk: (seconds, CPU seconds of all processes, arrival
    time of each second-pass report relative to its pass start, the second-pass lines)."""
    total, cpu_total, arrivals_all, lines_all = 0.0, 0.0, [], []
    for start in range(0, len(requests), chunk):
        part = requests[start:start + chunk]
        payload = ("\n".join(part + part) + "\n").encode()
        _wall, cpu, arrivals, lines = run_batch(arbiter, budget_ms, payload)
        first_done = arrivals[len(part) - 1]
        second = [t - first_done for t in arrivals[len(part):]]
        total += second[-1]
        cpu_total += cpu
        offset = arrivals_all[-1] if arrivals_all else 0.0
        arrivals_all.extend(t + offset for t in second)
        lines_all.extend(lines[len(part):])
    return total, cpu_total, arrivals_all, lines_all


def single_report_seconds(arbiter: str, budget_ms: int, line: str, runs: int, copies: int = 1) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([arbiter, "check", "--batch", "--solver-budget-ms", str(budget_ms)],
                       input=((line + "\n") * copies).encode(), stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - t0)
    return best


def worst_report(arbiter: str, budget_ms: int, requests: list[str], arrivals: list[float],
                 candidates: int, runs: int, cached: bool = False) -> tuple[float, str]:
    """Reports leave the process in buffered chunks: a slow report delays the line whose tail
    waits in the buffer with it, so the lines around each long gap are candidates, timed alone."""
    gaps = [t - (arrivals[i - 1] if i else 0.0) for i, t in enumerate(arrivals)]
    top = []
    for i in sorted(range(len(gaps)), key=lambda i: -gaps[i]):
        for j in range(max(0, i - 1), min(len(gaps), i + 3)):
            if j not in top:
                top.append(j)
        if len(top) >= candidates:
            break
    baseline = single_report_seconds(arbiter, budget_ms, TRIVIAL, runs * 2)
    worst, which = 0.0, ""
    for i in top:
        if cached:
            # The same position twice: the second report finds the solver's verdict cached.
            t = (single_report_seconds(arbiter, budget_ms, requests[i], runs, copies=2)
                 - single_report_seconds(arbiter, budget_ms, requests[i], runs))
        else:
            t = single_report_seconds(arbiter, budget_ms, requests[i], runs) - baseline
        if t > worst:
            worst, which = t, json.loads(requests[i])["fen"]
    return worst, which


# --- python-chess ---------------------------------------------------------------------------

def pychess_report(chess, fen: str, with_san: bool) -> dict:
    board = chess.Board(fen)
    legal = list(board.legal_moves)
    turn = board.turn
    in_check = board.is_check()
    key = board._transposition_key()
    counts = {key: 1}  # no history before the FEN
    threefold_by = []
    for m in legal:
        board.push(m)
        if counts.get(board._transposition_key(), 0) >= 2:
            threefold_by.append(m.uci())
        board.pop()
    claim_by = []
    if board.halfmove_clock >= 99:
        for m in legal:
            if not board.is_zeroing(m):
                board.push(m)
                if board.is_fifty_moves():
                    claim_by.append(m.uci())
                board.pop()
    castling = {}
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        wings = {}
        for wing, has in (("kingside", board.has_kingside_castling_rights),
                          ("queenside", board.has_queenside_castling_rights)):
            legal_now = color == turn and any(
                board.is_castling(m) and board.is_kingside_castling(m) == (wing == "kingside") for m in legal)
            wings[wing] = {"right": has(color), "legal": legal_now}
        castling[name] = wings
    report = {
        "fen": board.fen(),
        "turn": "white" if turn else "black",
        "in_check": in_check,
        "checkmate": in_check and not legal,
        "stalemate": not in_check and not legal,
        "legal_moves": [m.uci() for m in legal],
        "castling": castling,
        "en_passant": [m.uci() for m in board.generate_legal_ep()],
        "repetition": {"count": counts[key], "threefold_now": False, "threefold_by_move": threefold_by,
                       "fivefold": False},
        "fifty_moves": {"halfmove_clock": board.halfmove_clock, "claim_now": board.is_fifty_moves(),
                        "claim_by_move": claim_by, "seventy_five": board.is_seventyfive_moves()},
    }
    if with_san:
        report["legal_moves_san"] = [board.san(m) for m in legal]
    return report


def run_pychess(chess, fens: list[str], with_san: bool) -> tuple[float, float, list[float]]:
    """Returns (wall seconds, CPU seconds, seconds per position)."""
    times = []
    sink = []
    c0 = time.process_time()
    t0 = time.perf_counter()
    for fen in fens:
        s = time.perf_counter()
        sink.append(json.dumps(pychess_report(chess, fen, with_san)))
        times.append(time.perf_counter() - s)
    return time.perf_counter() - t0, time.process_time() - c0, times


# --- chasolver alone -------------------------------------------------------------------------

def run_solver_direct(data: Path, lines: int, budget_ms: int, repeat: int) -> tuple[float, float, int]:
    """chasolver's queries of each report, called directly (benches/solver_direct.rs), one run
    per process as for the arbiter: returns (seconds and CPU seconds of the best runs, sides
    decided)."""
    wall = cpu = float("inf")
    decided = 0
    for _ in range(repeat):
        out = subprocess.run(["cargo", "bench", "--quiet", "--bench", "solver_direct", "--",
                              str(data), str(lines), str(budget_ms), "1"],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout
        figures = dict(kv.split("=") for kv in out.split())
        wall = min(wall, float(figures["seconds"]))
        cpu = min(cpu, float(figures["cpu_seconds"]))
        decided = int(figures["decided"])
    return wall, cpu, decided


# --- main -----------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description="Reports per second of arbiter check --batch vs python-chess.")
    target = ROOT / os.environ.get("CARGO_TARGET_DIR", "target")  # an absolute path wins the join
    ap.add_argument("--arbiter", default=str(target / "release" / "arbiter"))
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best counts")
    ap.add_argument("--full-budget-ms", type=int, default=40, help="solver budget of the full run (CLI default 40)")
    ap.add_argument("--candidates", type=int, default=12, help="slowest reports re-timed one by one")
    args = ap.parse_args()

    try:
        import chess
    except ImportError:
        sys.exit("error: python-chess is missing: python3 -m pip install chess==1.11.2 (the package python-chess is published as)")
    if not Path(args.arbiter).exists():
        sys.exit(f"error: {args.arbiter} not found: run cargo build --release first")

    fens = load_fens(args.data, args.lines)
    requests = [json.dumps({"fen": f}) for f in fens]
    payload = ("\n".join(requests) + "\n").encode()
    n = len(fens)

    def best_of(measure):
        best = None
        for _ in range(args.repeat):
            r = measure()
            if best is None or r[0] < best[0]:
                best = r
        return best

    def undecided(lines):
        return sum(1 for l in lines if json.loads(l).get("dead_position") is None)

    rows = []
    full = args.full_budget_ms
    wall, cpu, arrivals, lines = best_of(lambda: run_batch(args.arbiter, full, payload))
    if len(lines) != n:
        sys.exit(f"error: {n} positions in, {len(lines)} reports out")
    worst, worst_fen = worst_report(args.arbiter, full, requests, arrivals, args.candidates, 3)
    rows.append((f"arbiter full report (budget {full} ms)", wall, cpu, worst, worst_fen,
                 f"dead_position undecided in {undecided(lines)}"))
    full_wall = wall

    wall, cpu, arrivals, lines = best_of(lambda: run_rules_part(args.arbiter, full, requests, 1600))
    worst, worst_fen = worst_report(args.arbiter, full, requests, arrivals, args.candidates, 3, cached=True)
    rows.append(("arbiter rules part (solver cached)", wall, None, worst, worst_fen,
                 f"dead_position undecided in {undecided(lines)}"))
    rules_wall = wall

    wall, cpu, arrivals, lines = best_of(lambda: run_batch(args.arbiter, 1, payload))
    worst, worst_fen = worst_report(args.arbiter, 1, requests, arrivals, args.candidates, 3)
    rows.append(("arbiter with budget 1 ms", wall, cpu, worst, worst_fen,
                 f"dead_position undecided in {undecided(lines)}"))

    for label, with_san in (("python-chess, same rules fields", False), ("python-chess + SAN of every move", True)):
        wall = cpu = float("inf")
        per_position = [float("inf")] * n
        for _ in range(args.repeat):
            w, c, times = run_pychess(chess, fens, with_san)
            if w < wall:
                wall, cpu = w, c
            per_position = [min(a, b) for a, b in zip(per_position, times)]
        # The worst position is the one slowest in its best run (a preempted run is not the position's fault).
        worst_i = max(range(n), key=per_position.__getitem__)
        rows.append((label, wall, cpu, per_position[worst_i], fens[worst_i], ""))

    solver_wall, solver_cpu, solver_decided = run_solver_direct(args.data, n, full, args.repeat)
    rows.append((f"chasolver alone (budget {full} ms)", solver_wall, solver_cpu, 0.0, "",
                 f"sides decided {solver_decided} of {2 * n}"))

    py_rules = rows[3][1]
    print(f"{n} positions from {args.data} (best of {args.repeat} runs, {os.cpu_count()} cores)")
    print(f"{'':<38} {'reports/s':>10} {'µs/report':>10} {'CPU s':>7} {'worst ms':>9} {'vs python-chess':>16}")
    for label, wall, cpu, worst, _fen, note in rows:
        cpu_text = "-" if cpu is None else f"{cpu:.2f}"
        print(f"{label:<38} {n / wall:>10.0f} {wall / n * 1e6:>10.1f} {cpu_text:>7} {worst * 1e3:>9.2f} "
              f"{py_rules / wall:>15.2f}x  {note}")
    solver = max(0.0, full_wall - rules_wall)
    print(f"split of the full report: rules {rules_wall / n * 1e6:.1f} µs + solver {solver / n * 1e6:.1f} µs "
          f"per report ({rules_wall:.2f} s + {solver:.2f} s = {full_wall:.2f} s)")
    full_cpu = rows[0][2]
    print(f"overhead over chasolver alone: full report {(full_wall / solver_wall - 1) * 100:.0f} % by wall time "
          f"({full_wall / n * 1e6:.1f} µs vs {solver_wall / n * 1e6:.1f} µs per position), "
          f"{(full_cpu / solver_cpu - 1) * 100:.0f} % by CPU time (the whole arbiter process, start-up and "
          f"JSON included: {full_cpu:.3f} s vs {solver_cpu:.3f} s); the solver part alone (full report - rules part) "
          f"{(solver / solver_wall - 1) * 100:+.0f} % by wall time")
    print("worst single reports:")
    for label, _wall, _cpu, worst, fen, _note in rows:
        if fen:
            print(f"  {label:<36} {worst * 1e3:7.2f} ms  {fen}")
    print("(vs python-chess = python-chess's time for the same rules fields / this row's time: above 1 is faster;\n"
          " CPU s counts the processes of the row, solver threads included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
