#!/usr/bin/env python3
"""Games for fitting the evaluation: engine-against-engine games from random openings, as text.

    scripts/gen-games.py play --rule renju --games 400 --turn-ms 60 \\
        --a "$ANCHORS/bin/pbrain-rapfi" --b "$ANCHORS/bin/pbrain-rapfi" --seed 7 --out data/r1
    scripts/gen-games.py sgf data/r1/games.sgf other/games.sgf > games.txt

`play` writes OUT/openings.cgc (random openings, see below), plays them through
scripts/match.py (c-gomoku-cli, one game at a time, colours swapped) and converts the games to
OUT/games.txt. `sgf` converts c-gomoku-cli SGF files (any match, e.g. scripts/match.py's
games.sgf) to the same text on standard output, a `#` line a file first (its players and
games) and each --note before them: `tengen-tune fit` copies `#` lines into the table's header.

Random openings: 2 to 6 stones (black first, alternating) on distinct points of the 7x7 block
around h8, drawn with random.Random(SEED). With at most three black stones no renju foul can
arise, and no five can. They are not balanced on purpose: the fit wants decided games too.

games.txt: one game a line, `RULE RESULT MOVES...`: RULE freestyle, standard or renju; RESULT
B (black won), W (white won) or D (draw); MOVES the whole game in RIF coordinates (column letter
from the left, row number from the bottom), black first, the opening stones included. Games
that end by time, crash or an illegal move are left out (their result says nothing about the
position). `tengen-tune fit` reads it.

Python 3, standard library only. c-gomoku-cli and Rapfi are never part of this repository
(see ../shared/anchors/).
"""

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = {0: "freestyle", 1: "standard", 4: "renju"}
SIZE = 15


def die(msg):
    print(f"gen-games.py: {msg}", file=sys.stderr)
    sys.exit(2)


def openings(n: int, seed: int) -> list[str]:
    """`n` distinct random openings in c-gomoku-cli's offset format (x - 7, y_top - 7)."""
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < n:
        k = rng.randint(2, 6)
        cells = rng.sample([(x, y) for x in range(-3, 4) for y in range(-3, 4)], k)
        key = tuple(cells)
        if key in seen:
            continue
        seen.add(key)
        out.append(", ".join(f"{x},{y}" for x, y in cells))
    return out


def sgf_games(text: str, source: str):
    """Yields (rule, result, RIF moves) for each decided game of a c-gomoku-cli SGF file."""
    for g in re.findall(r"\(;(.*?)\)", text, re.S):
        ru = re.search(r"RU\[(\d+)\]", g)
        sz = re.search(r"SZ\[(\d+)\]", g)
        re_ = re.search(r"RE\[([^\]]*)\]", g)
        te = re.search(r"TE\[([^\]]*)\]", g)
        if not (ru and sz and re_) or int(ru.group(1)) not in RULE_IDS:
            print(f"gen-games.py: {source}: a game without a known rule, size or result, skipped",
                  file=sys.stderr)
            continue
        size = int(sz.group(1))
        ending = te.group(1) if te else ""
        if re.search(r"time|illegal|crash", ending, re.I):
            continue
        r = re_.group(1)
        result = "B" if r.startswith("B+") else "W" if r.startswith("W+") else "D"
        moves = []
        for colour, xy in re.findall(r";([BW])\[([a-z]{2})\]", g):
            x, y = ord(xy[0]) - 97, ord(xy[1]) - 97
            moves.append(f"{chr(97 + x)}{size - y}")
        if size != SIZE or not moves:
            continue
        yield RULE_IDS[int(ru.group(1))], result, moves


def convert(paths) -> list[str]:
    return convert_described(paths)[1]


def convert_described(paths) -> tuple[list[str], list[str]]:
    """The games of `paths` as games.txt lines, and a `#` line a file saying what it held (its
    players and how many games of which rule), for the fitted table's provenance."""
    notes, lines = [], []
    for p in paths:
        text = Path(p).read_text(errors="replace")
        players = sorted(set(re.findall(r"P[BW]\[([^\]]*)\]", text)))
        counts = {}
        for rule, result, moves in sgf_games(text, str(p)):
            lines.append(f"{rule} {result} {' '.join(moves)}")
            counts[rule] = counts.get(rule, 0) + 1
        games = ", ".join(f"{n} {rule}" for rule, n in sorted(counts.items())) or "no"
        notes.append(f"# {p}: {games} games, {' vs '.join(players)}")
    return notes, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    play = sub.add_parser("play", help="play games from random openings")
    play.add_argument("--rule", choices=["freestyle", "standard", "renju"], required=True)
    play.add_argument("--games", type=int, default=200)
    play.add_argument("--turn-ms", type=int, default=60)
    play.add_argument("--a", required=True, help="engine A's command")
    play.add_argument("--b", required=True, help="engine B's command")
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--cgc", help="c-gomoku-cli (as scripts/match.py)")
    play.add_argument("--out", type=Path, required=True)
    conv = sub.add_parser("sgf", help="convert SGF files to games.txt lines on standard output")
    conv.add_argument("files", nargs="+", type=Path)
    conv.add_argument("--note", action="append", default=[],
                      help="a line on where the games came from (engines, time a move, "
                           "openings); written first as a `#` line, for the table's provenance")
    o = ap.parse_args()
    if o.cmd == "sgf":
        for f in o.files:
            if not f.is_file():
                die(f"no file {f}")
        notes, lines = convert_described(o.files)
        for note in o.note:
            print(f"# {note}")
        for line in notes + lines:
            print(line)
        return
    if o.games < 2 or o.games % 2:
        die("--games must be even and at least 2")
    out = o.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    if (out / "games.txt").exists():
        die(f"{out / 'games.txt'} exists: use a new --out")
    book = out / "openings.cgc"
    book.write_text("\n".join(openings(o.games // 2, o.seed)) + "\n")
    cmd = [sys.executable, str(ROOT / "scripts" / "match.py"), "--a", o.a, "--b", o.b,
           "--name-a", "A", "--name-b", "B", "--rule", o.rule, "--games", str(o.games),
           "--turn-ms", str(o.turn_ms), "--openings", str(book), "--seed", str(o.seed),
           "--out", str(out / "match")]
    if o.cgc:
        cmd += ["--cgc", o.cgc]
    status = subprocess.call(cmd)
    sgf = out / "match" / "games.sgf"
    if not sgf.exists():
        die(f"the match wrote no games (match.py exited with {status})")
    lines = convert([sgf])
    tmp = out / "games.txt.tmp"
    header = (f"# {Path(o.a).name} vs {Path(o.b).name} through c-gomoku-cli: {o.rule}, "
              f"{o.turn_ms} ms a move, {o.games} random openings (seed {o.seed}), 15x15\n")
    tmp.write_text(header + "".join(line + "\n" for line in lines))
    tmp.replace(out / "games.txt")
    print(f"gen-games.py: {len(lines)} games in {out / 'games.txt'}")


if __name__ == "__main__":
    main()
