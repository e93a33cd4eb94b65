#!/usr/bin/env python3
"""What kind of moves each engine of a match plays: its attacks against its defences.

    scripts/move-style.py [--tengen BIN] [--tail 20] [--judge NAME] RUN_DIR [RUN_DIR ...]

Reads the `games.sgf` of `scripts/match.py` runs (c-gomoku-cli's record: each move's comment is
its time, or `opening move`; `RU` its rule). For every move past the opening and more than
--tail plies before a game's last move, tengen names what the move makes and what it stops (the
`makes` and `stops` words of `tengen analyze --depth 1 --all --format json` on the position
before it, under the game's rule; a move tengen does not list there, outside the candidates of a
forced position, is counted apart). Prints, per engine, its moves counted and the share that

- make a four (a four, four-three, double four or open four),
- make an open three or a double three and no four,
- stop an open three or more of the opponent's (the opponent would have made one there),
- are pure attacks: make an open three or more and stop nothing of the opponent's.

The last plies are left out because the winner's VCF is all fours. docs/strength.md reads these
shares against the anchor's.

--judge NAME: also where the other engine's moves lost ground by NAME's judgement, NAME being
Rapfi (its `MESSAGE` lines in the run's `messages.txt`: `Depth D-S | Eval E | Time T | LINE`,
points as a column letter and a row counted from the top). A move of the other engine loses
ground when NAME's evaluation before it (NAME's last line at its move before) is within +-300
and NAME's next evaluation is 60 or more higher. For those moves, where the move played is not
the reply NAME's line expected, each is counted as a pure attack, a defence (it stops an open
three or more) or neither, beside the reply NAME expected.

Python 3, standard library only. Exit 0; 2 on a usage error (a missing file, no games) or when
tengen fails.
"""

import argparse
import collections
import functools
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

# Rapfi's `Eval` word read as match-drift.py reads it (a mate as +-3000).
_spec = importlib.util.spec_from_file_location(
    "match_drift", Path(__file__).resolve().parent / "match-drift.py")
match_drift = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(match_drift)

GAME = re.compile(r"\(;FF.*?\)\s*(?=\(|$)", re.S)
MOVE = re.compile(r";([BW])\[([a-z])([a-z])\]C\[([^\]]*)\]")
# c-gomoku-cli's rule codes.
RULES = {"0": "freestyle", "1": "standard", "4": "renju"}
FOURS = {"four", "four-three", "double four", "open four"}
THREES = {"open three", "double three"}
THREATS = FOURS | THREES


class Failure(Exception):
    """tengen could not name the moves of a position."""


def games(path):
    """(number, black's name, white's name, rule, size, moves) of each game: a move is (RIF
    point, comment)."""
    for m in GAME.finditer(path.read_text()):
        g = m.group(0)
        black = re.search(r"PB\[([^\]]*)\]", g)
        white = re.search(r"PW\[([^\]]*)\]", g)
        size = re.search(r"SZ\[(\d+)\]", g)
        size = int(size[1]) if size else 15
        rule = re.search(r"RU\[(\d+)\]", g)
        number = re.search(r"GN\[(\d+)\]", g)
        if not (black and white and number and rule and rule[1] in RULES):
            continue
        moves = [(f"{x}{size - (ord(y) - 97)}", note) for _, x, y, note in MOVE.findall(g)]
        yield int(number[1]), black[1], white[1], RULES[rule[1]], size, moves


@functools.lru_cache(maxsize=None)
def words(tengen, rule, size, before):
    """The `makes` and `stops` words of each of tengen's candidates after the moves `before` (a
    tuple; remembered, since the --judge tally asks for positions the style tally asked for): a
    move it does not list (outside the candidates of a forced position, or past a decided one)
    is not there."""
    p = subprocess.run(
        [tengen, "analyze", " ".join(before), "--rule", rule, "--size", str(size),
         "--depth", "1", "--all", "--format", "json"],
        capture_output=True, text=True)
    if p.returncode != 0:
        raise Failure(f"tengen analyze failed after {' '.join(before)}: {p.stderr.strip()}")
    return {c["move"]: (set(c["makes"]), set(c["stops"])) for c in json.loads(p.stdout)["candidates"]}


def judged(messages, name):
    """NAME's evaluation and line at each of its moves: {(game, ply from 1): (eval, [points])}."""
    found, game = {}, None
    line = re.compile(re.escape(name) + r": Depth \d+-\d+ \| Eval (\S+) \| Time \d+ms \| (.*)")
    for text in messages.read_text(errors="replace").splitlines():
        if m := re.match(r"Game ID: (\d+)", text):
            game = int(m[1])
        elif (m := re.match(r"(\d+)\) (.*)", text)) and (j := line.match(m[2])):
            found[(game, int(m[1]))] = (match_drift.judge_value(j[1]), j[2].split())
    return found


def kind(makes, stops):
    """A move's kind in the --judge tally."""
    if stops & THREATS:
        return "defence"
    if makes & THREATS and not stops:
        return "pure attack"
    return "neither"


def lost_ground(run, args, judge, drift):
    """Tallies into `drift` the moves of the engine other than `judge` that lost ground by its
    judgement (see --judge), against the replies it expected."""
    seen = judged(run / "messages.txt", judge)
    for number, black, white, rule, size, moves in games(run / "games.sgf"):
        mine = 0 if black == judge else 1
        for ply in range(mine, len(moves) - 2, 2):
            before, after = seen.get((number, ply + 1)), seen.get((number, ply + 3))
            if not before or not after or abs(before[0]) > 300 or after[0] - before[0] < 60:
                continue
            line = [f"{p[0].lower()}{size + 1 - int(p[1:])}" for p in before[1]]
            played = moves[ply + 1][0]
            if len(line) < 2 or line[0] != moves[ply][0] or line[1] == played:
                continue
            named = words(args.tengen, rule, size, tuple(p for p, _ in moves[: ply + 1]))
            if played in named and line[1] in named:
                drift["played"][kind(*named[played])] += 1
                drift["expected"][kind(*named[line[1]])] += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--tengen", default="target/release/tengen")
    ap.add_argument("--tail", type=int, default=20, help="plies left out at each game's end")
    ap.add_argument("--judge", help="the engine (Rapfi) whose evaluation judges the other's moves")
    args = ap.parse_args()
    tally = collections.defaultdict(collections.Counter)
    drift = collections.defaultdict(collections.Counter)
    for run in args.runs:
        sgf = run / "games.sgf"
        if not sgf.is_file():
            print(f"move-style: no {sgf}", file=sys.stderr)
            return 2
        for _, black, white, rule, size, moves in games(sgf):
            for ply, (point, note) in enumerate(moves):
                if note == "opening move" or ply == 0 or ply >= len(moves) - args.tail:
                    continue
                try:
                    named = words(args.tengen, rule, size, tuple(p for p, _ in moves[:ply]))
                except (Failure, OSError, ValueError) as e:
                    print(f"move-style: {e}", file=sys.stderr)
                    return 2
                t = tally[black if ply % 2 == 0 else white]
                if point not in named:
                    t["unlisted"] += 1
                    continue
                makes, stops = named[point]
                t["moves"] += 1
                t["four"] += bool(makes & FOURS)
                t["open three"] += bool(makes & THREES) and not makes & FOURS
                t["stops three"] += bool(stops & THREATS)
                t["pure attack"] += bool(makes & THREATS) and not stops
        if args.judge:
            if not (run / "messages.txt").is_file():
                print(f"move-style: no {run / 'messages.txt'}", file=sys.stderr)
                return 2
            try:
                lost_ground(run, args, args.judge, drift)
            except (Failure, OSError, ValueError) as e:
                print(f"move-style: {e}", file=sys.stderr)
                return 2
    if not tally:
        print("move-style: no games", file=sys.stderr)
        return 2
    for name, t in sorted(tally.items()):
        n = max(t["moves"], 1)
        shares = ", ".join(
            f"{k} {100 * t[k] / n:.1f}%" for k in ("four", "open three", "stops three", "pure attack"))
        print(f"{name}: {t['moves']} moves; {shares}; {t['unlisted']} not among tengen's candidates")
    if args.judge:
        n = sum(drift["played"].values())
        print(f"moves that lost ground by {args.judge}'s judgement, not its expected reply: {n}")
        for k in ("pure attack", "defence", "neither"):
            print(f"  {k}: played {drift['played'][k]}, expected {drift['expected'][k]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
