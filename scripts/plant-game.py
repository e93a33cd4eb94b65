#!/usr/bin/env python3
"""Compose a test game for `tengen review` with planted VCF errors (how tests/it/review.rs's
GAME was made).

    scripts/plant-game.py --rule freestyle --start "h8 i9 h9"

From the start, both sides play tengen's best move at depth 4 to move 12; then the first move
near the stones after which the opponent has a VCF (`solve --vcf`) is planted (an allowed
VCF), and the opponent answers with the first move after which neither side wins at once (a
missed VCF); four best moves later a second allowed VCF is planted, and the game goes on with
best moves until the next would make five. Prints the three move numbers and the game.
Python 3, standard library; uses target/release/tengen.
"""

import argparse
import json
import subprocess
from pathlib import Path

TENGEN = str(Path(__file__).resolve().parent.parent / "target/release/tengen")
COLS = "abcdefghijklmnopqrstuv"


def run(args):
    return subprocess.run([TENGEN] + args, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--start", default="h8 i9 h9")
    a = ap.parse_args()
    rule = a.rule

    def best(game):
        r = run(["analyze", " ".join(game), "--rule", rule, "--depth", "4", "--threads", "1",
                 "--format", "json", "--top", "1"])
        c = json.loads(r.stdout)["candidates"][0]
        return c["move"], c.get("mate_in")

    def solve(game, mode):
        r = run(["solve", mode, " ".join(game), "--rule", rule, "--format", "json",
                 "--max-nodes", "300000"] + (["--no-verify"] if mode == "--vct" else []))
        return json.loads(r.stdout)["result"] if r.returncode == 0 else None

    def near(game):
        taken, points = set(game), set()
        for m in game:
            x, y = COLS.index(m[0]), int(m[1:])
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    if 0 <= x + dx < 15 and 1 <= y + dy <= 15:
                        p = f"{COLS[x + dx]}{y + dy}"
                        if p not in taken:
                            points.add(p)
        return sorted(points)

    def allow(game):
        _, mate = best(game)
        if mate is not None and mate < 0:
            return None
        return next((m for m in near(game) if solve(game + [m], "--vcf") == "win"), None)

    game = a.start.split()
    while len(game) < 12:
        game.append(best(game)[0])
    planted = []
    for second in (False, True):
        m = None
        while m is None and len(game) < 60:
            m = allow(game)
            if m is None:
                game.append(best(game)[0])
        game.append(m)
        planted.append(len(game))
        if second:
            break
        miss = next(m2 for m2 in near(game)
                    if solve(game + [m2], "--vct") == "no-win"
                    and solve(game + [m2], "--vcf") == "no-win")
        game.append(miss)
        planted.append(len(game))
        for _ in range(4):
            game.append(best(game)[0])
    while True:
        m = best(game)[0]
        if run(["show", " ".join(game + [m]), "--rule", rule]).returncode != 0:
            break
        game.append(m)
    print("allowed", planted[0], "missed", planted[1], "allowed", planted[2])
    print(" ".join(game))


if __name__ == "__main__":
    main()
