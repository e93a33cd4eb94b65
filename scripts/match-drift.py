#!/usr/bin/env python3
"""Where an engine loses a match: the judge's evaluation along the games, ply by ply.

    scripts/match-drift.py --engine base --judge rapfi-model RUN_DIR

Reads a `scripts/match.py` run's directory (its `messages.txt`, the engines' search lines as
c-gomoku-cli records them, and `cgc.log`, the results). For each bucket of --bucket plies it
prints how many of the judge's moves fall in it, the judge's median evaluation (its last
iteration's `Eval`, for the judge's side; a mate counts as +-3000), and how often it is
+-`--threshold` or more. Then, over the games the engine lost: the median ply at which the
judge first reaches +--threshold and first sees its mate, at which the engine's own score (its
`MESSAGE depth ... score S` line) first falls to -`--threshold` and to a mate, and the plies
between. A steady rise from the first plies is judgement, lost a little each move; a flat line
and then a sudden mate is tactics.

The judge's lines are Rapfi's (`Depth D-S | Eval E | ...`), the engine's pbrain-tengen's. Python
3, standard library only. Exit 0, or 2 on a usage error (a missing file, no games).
"""

import argparse
import importlib.util
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("label_positions", HERE / "label-positions.py")
lp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lp)

# A judge's mate as a number, far above any evaluation it prints.
MATE = 3000


def die(msg):
    print(f"match-drift.py: {msg}", file=sys.stderr)
    sys.exit(2)


def judge_value(text):
    """Rapfi's `Eval` word as a number, a mate as +-MATE."""
    if "M" in text:
        return -MATE if text.startswith("-") else MATE
    return int(text)


def read_games(run, engine, judge):
    """Per game: whether the engine lost, and the last judge value and engine score by ply."""
    log = (run / "cgc.log").read_text(errors="replace")
    lost = {}
    for n, black, _white, result in re.findall(
            r"Finished game (\d+) \((.+?) vs (.+?)\): (\S+)", log):
        engine_black = black == engine
        lost[int(n)] = (result == "1-0" and not engine_black) or (result == "0-1" and engine_black)
    judge_line = re.compile(r"(\d+)\) %s: Depth \S+ \| Eval (\S+)" % re.escape(judge))
    engine_line = re.compile(r"(\d+)\) %s: depth \S+ score (-?\d+)" % re.escape(engine))
    games = []
    text = (run / "messages.txt").read_text(errors="replace")
    for block in text.split("Game ID: ")[1:]:
        number = int(block.split("\n", 1)[0])
        judged, scored = {}, {}
        for line in block.split("\n"):
            m = judge_line.match(line)
            if m:
                judged[int(m.group(1))] = judge_value(m.group(2))
            m = engine_line.match(line)
            if m:
                scored[int(m.group(1))] = int(m.group(2))
        games.append((lost.get(number, False), judged, scored))
    return games


def first_ply(values, test):
    return next((p for p in sorted(values) if test(values[p])), None)


def median_or_dash(xs):
    return f"{statistics.median(xs):g}" if xs else "-"


def print_drift(games, bucket, threshold, last_ply):
    print(f"ply      judge moves  judge's median  >= +{threshold}  <= -{threshold}")
    by = {}
    for _lost, judged, _scored in games:
        for ply, v in judged.items():
            by.setdefault(ply // bucket * bucket, []).append(v)
    for start in sorted(k for k in by if k <= last_ply):
        xs = by[start]
        up = sum(1 for x in xs if x >= threshold) / len(xs)
        down = sum(1 for x in xs if x <= -threshold) / len(xs)
        span = f"{start}-{start + bucket - 1}"
        print(f"{span:8} {len(xs):11}  {statistics.median(xs):14g}  {up:9.2f}  {down:9.2f}")


def print_losses(games, threshold):
    losses = [(j, s) for lost, j, s in games if lost]
    print(f"\n{len(losses)} games lost by the engine; median ply (games where it happened):")
    marks = {
        f"judge first >= +{threshold}": [first_ply(j, lambda v: v >= threshold) for j, _ in losses],
        "judge first sees its mate": [first_ply(j, lambda v: v == MATE) for j, _ in losses],
        f"engine first <= -{threshold}": [first_ply(s, lambda v: v <= -threshold) for _, s in losses],
        "engine first sees it is mated": [
            first_ply(s, lambda v: v <= -lp.TENGEN_MATE_BOUND) for _, s in losses],
        "the last ply searched": [max(list(j) + list(s), default=None) for j, s in losses],
    }
    for name, plies in marks.items():
        xs = [p for p in plies if p is not None]
        print(f"  {name:32} {median_or_dash(xs):>6}  ({len(xs)})")
    pairs = [
        ("judge's mate to the engine's", "judge first sees its mate", "engine first sees it is mated"),
        ("judge's mate to the last ply searched", "judge first sees its mate", "the last ply searched"),
        (f"judge's +{threshold} to its mate", f"judge first >= +{threshold}", "judge first sees its mate"),
        (f"judge's +{threshold} to the engine's -{threshold}", f"judge first >= +{threshold}",
         f"engine first <= -{threshold}"),
    ]
    print("median plies between:")
    for name, a, b in pairs:
        xs = [y - x for x, y in zip(marks[a], marks[b]) if x is not None and y is not None]
        print(f"  {name:40} {median_or_dash(xs):>6}  ({len(xs)})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", type=Path, help="a scripts/match.py --out directory")
    ap.add_argument("--engine", required=True, help="the engine's name in the match")
    ap.add_argument("--judge", required=True, help="the judging engine's name (Rapfi's lines)")
    ap.add_argument("--bucket", type=int, default=4, help="plies a row [4]")
    ap.add_argument("--threshold", type=int, default=300, help="the judge's clear edge [300]")
    ap.add_argument("--last-ply", type=int, default=44, help="the last row's first ply [44]")
    a = ap.parse_args()
    if a.bucket < 1:
        die("--bucket must be 1 or more")
    for name in ("messages.txt", "cgc.log"):
        if not (a.run / name).is_file():
            die(f"{a.run / name}: no such file (is it a scripts/match.py --out directory?)")
    games = read_games(a.run, a.engine, a.judge)
    if not games:
        die(f"{a.run / 'messages.txt'}: no games")
    print(f"{a.run}: {len(games)} games, {a.engine} judged by {a.judge}'s own evaluation")
    print_drift(games, a.bucket, a.threshold, a.last_ply)
    print_losses(games, a.threshold)


if __name__ == "__main__":
    main()
