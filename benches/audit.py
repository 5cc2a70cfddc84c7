#!/usr/bin/env python3
"""Benchmark: `arbiter audit` against python-chess's PGN reader on the same large file.

    python3 benches/audit.py [--games N] [--python-games M] [FILE.pgn]

Without FILE, N lichess-style games (default 100,000) are generated once with
`cargo bench --bench gen_games` into $CARGO_TARGET_DIR/audit-bench/. `arbiter audit --json`
judges the whole file (every core); python-chess 1.11.2's `chess.pgn.read_game` reads the
first M games (default 10,000; reading only, no judging) in one process, its speed taken as
games per second of CPU time and of wall time. Peak memory is each process's maximum
resident set size. The binary: $ARBITER, else $CARGO_TARGET_DIR/release/arbiter.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))

PYTHON_READER = r"""
import sys
import chess.pgn
n = 0
limit = int(sys.argv[2])
with open(sys.argv[1], encoding="utf-8") as f:
    while n < limit:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        n += 1
print(n)
"""


def measure(argv, stdout=subprocess.DEVNULL):
    """Runs argv; returns (wall seconds, cpu seconds, peak RSS in MiB, stdout, stderr)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    out = proc.stdout.read() if proc.stdout else b""
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv[0]} failed: {err.decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out, err


def main():
    args = sys.argv[1:]
    games, python_games, path = 100_000, 10_000, None
    while args:
        a = args.pop(0)
        if a == "--games":
            games = int(args.pop(0))
        elif a == "--python-games":
            python_games = int(args.pop(0))
        else:
            path = a
    if path is None:
        os.makedirs(os.path.join(TARGET, "audit-bench"), exist_ok=True)
        path = os.path.join(TARGET, "audit-bench", f"games-{games}.pgn")
        if not os.path.exists(path):
            subprocess.run(
                ["cargo", "bench", "--bench", "gen_games", "--", path, str(games)],
                cwd=ROOT,
                check=True,
            )
    arbiter = os.environ.get("ARBITER") or os.path.join(TARGET, "release", "arbiter")
    size = os.path.getsize(path) / 2**20
    print(f"file: {path} ({size:.0f} MiB), {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")

    wall, cpu, rss, _, err = measure([arbiter, "audit", "--json", "--no-progress", path])
    summary = err.decode()
    n = int(summary.split("Audited ")[1].split(" game")[0].replace(",", ""))
    a_wall, a_cpu = n / wall, n / cpu
    print(f"arbiter audit:  {n} games in {wall:.2f} s wall, {cpu:.2f} s CPU: "
          f"{a_wall:,.0f} games/s, {a_cpu:,.0f} games per CPU-second; peak RSS {rss:.0f} MiB")

    wall, cpu, rss, out, _ = measure(
        [sys.executable, "-c", PYTHON_READER, path, str(python_games)], stdout=subprocess.PIPE
    )
    m = int(out.decode())
    p_wall, p_cpu = m / wall, m / cpu
    import chess  # noqa: E402  (only for its version)

    print(f"python-chess {chess.__version__} read_game: {m} games in {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU: {p_wall:,.0f} games/s, {p_cpu:,.0f} games per CPU-second; peak RSS {rss:.0f} MiB")
    print(f"audit / python-chess reader: {a_wall / p_wall:.1f}x by wall time (every core vs one), "
          f"{a_cpu / p_cpu:.1f}x per CPU-second")
    print(summary.rstrip())


if __name__ == "__main__":
    main()
