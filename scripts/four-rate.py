#!/usr/bin/env python3
"""How often each engine of a match makes a four before the end of its games.

    scripts/four-rate.py [--tail 20] RUN_DIR [RUN_DIR ...]

Reads the `games.sgf` of `scripts/match.py` runs (c-gomoku-cli's record: each move's comment is
its time, or `opening move`). For every move past the opening and more than --tail plies
before a game's last move, it asks whether the move makes a four: five cells in a line through
it holding four of the mover's stones and one empty cell. Prints, per engine, its moves counted,
its fours and their share. A four the mover did not need spends a threat and gives the
opponent a stone where it must block; the last plies are left out because the winner's VCF is
all fours. The test is freestyle's (a renju overline four counts too). Python 3, standard
library only. Exit 0, or 2 on a usage error (a missing file, no games).
"""

import argparse
import collections
import re
import sys
from pathlib import Path

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]
GAME = re.compile(r"\(;FF.*?\)\s*(?=\(|$)", re.S)
MOVE = re.compile(r";([BW])\[([a-z])([a-z])\]C\[([^\]]*)\]")


def games(path):
    """(black's name, white's name, moves) of each game: a move is (colour, x, y, comment)."""
    for m in GAME.finditer(path.read_text()):
        g = m.group(0)
        black = re.search(r"PB\[([^\]]*)\]", g)
        white = re.search(r"PW\[([^\]]*)\]", g)
        size = re.search(r"SZ\[(\d+)\]", g)
        if black and white:
            moves = [(c, ord(x) - 97, ord(y) - 97, note) for c, x, y, note in MOVE.findall(g)]
            yield black[1], white[1], int(size[1]) if size else 15, moves


def makes_four(stones, colour, x, y, size):
    """Whether the stone just put at (x, y) has four of `colour` and an empty cell in a window
    of five on one of its lines (and makes no five)."""
    four = False
    for dx, dy in DIRECTIONS:
        for start in range(-4, 1):
            cells = [(x + (start + k) * dx, y + (start + k) * dy) for k in range(5)]
            if not all(0 <= a < size and 0 <= b < size for a, b in cells):
                continue
            seen = [stones.get(c) for c in cells]
            if seen.count(colour) == 5:
                return False
            four = four or (seen.count(colour) == 4 and seen.count(None) == 1)
    return four


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--tail", type=int, default=20, help="plies left out at each game's end")
    args = ap.parse_args()
    tally = collections.defaultdict(collections.Counter)
    for run in args.runs:
        sgf = run / "games.sgf"
        if not sgf.is_file():
            print(f"four-rate: no {sgf}", file=sys.stderr)
            return 2
        for black, white, size, moves in games(sgf):
            stones = {}
            for ply, (colour, x, y, note) in enumerate(moves):
                stones[(x, y)] = colour
                if note == "opening move" or ply >= len(moves) - args.tail:
                    continue
                name = black if colour == "B" else white
                tally[name]["moves"] += 1
                tally[name]["fours"] += makes_four(stones, colour, x, y, size)
    if not tally:
        print("four-rate: no games", file=sys.stderr)
        return 2
    for name, t in sorted(tally.items()):
        share = 100 * t["fours"] / t["moves"] if t["moves"] else 0.0
        print(f"{name}: {t['moves']} moves, {t['fours']} fours, {share:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
