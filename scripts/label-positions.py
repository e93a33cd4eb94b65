#!/usr/bin/env python3
"""Scores positions of games with an engine's search, for fitting the evaluation to scores.

    scripts/label-positions.py --rule renju --engine "$ANCHORS/bin/pbrain-rapfi" --depth 10 \\
        --per-game 8 --jobs 2 --seed 1 --out data/renju-scored.txt data/renju-games.txt

Reads games files (`RULE RESULT MOVES...` a line, as scripts/gen-games.py and
`tengen-tune games` write them), draws up to --per-game positions of each game of --rule
(seeded: the same seed, the same positions), has a Gomocup (pbrain) engine search each to
--depth plies (Yixin's `INFO max_depth`, which Rapfi and pbrain-tengen read) or for --turn-ms,
and writes one line a position:

    RULE RESULT MOVES... = SCORE

RESULT is the game's result (B, W or D) and MOVES the moves up to the position. SCORE is the
engine's value for the side to move after them: an integer in the engine's own units, `+M`
when the side to move mates, `-M` when it is mated. `tengen-tune fit` reads such lines beside
whole games: each is one position, labelled by the engine's score (through the scale that fits
the results best) mixed with the game's result (`--score-weight`).

With --whole each line is one position already, all its moves (`tengen-tune leaves` writes
such lines, RESULT `?`: the positions tengen's search judged, of no game), scored as it stands;
`fit` labels a `?` position by its score alone.

With --static each position gets the engine's static evaluation instead of a search: Rapfi's
`TRACESEARCH` line `Static Eval[Black]: V` (its evaluation function as its search's leaves see
it), turned to the side to move's view. The board is set with `YXBOARD`, which starts no search.

The engine talks over the Gomocup protocol on standard input and output: BOARD, then the
search's last score (Rapfi's `INFO EVAL` line under `INFO show_detail 2`, or pbrain-tengen's
last `MESSAGE depth ... score S` line), then its move.
The table is cleared before every position (`YXHASHCLEAR`) so that each score is the engine's
own search of that position alone. Each engine runs in an empty directory of its own (Rapfi
would otherwise read a config.toml it finds). --jobs runs that many engines at once.

An engine that dies on a position is started again and the position left out (listed on
standard error and counted in the header); five failures in a row stop the run. A position
the engine answers without a score (pbrain-tengen plays a win it sees at once so) is left out
the same way.

Neither Rapfi nor any engine is part of this repository (see ../shared/anchors/): its scores
are data. Python 3, standard library only. Exit 0 when every position was scored, 1 when an
engine failed, 2 on a usage error.
"""

import argparse
import datetime
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

RULE_IDS = {"freestyle": 0, "standard": 1, "renju": 4}
SIZE = 15
MOVE = re.compile(r"([a-o])(\d{1,2})")
SCORE = re.compile(r"[+-]?M\d*|-?\d+")
TENGEN_MATE_BOUND = 29_000


def die(msg):
    print(f"label-positions.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read_games(paths, rule):
    """(result, moves) of every game of `rule`, and the files' `#` lines."""
    games, notes = [], []
    for path in paths:
        try:
            text = Path(path).read_text()
        except OSError as e:
            die(f"{path}: {e.strerror}")
        count = 0
        for n, line in enumerate(text.splitlines(), 1):
            words = line.split()
            if not words:
                continue
            if words[0].startswith("#"):
                notes.append(line)
                continue
            if words[0] not in RULE_IDS:
                die(f"{path}:{n}:1: `{words[0]}` is not a rule")
            if len(words) < 3 or words[1] not in ("B", "W", "D", "?"):
                die(f"{path}:{n}: expected `RULE RESULT MOVES...`")
            if "=" in words:
                continue  # a scored position already, not a game
            for w in words[2:]:
                if not MOVE.fullmatch(w):
                    col = line.index(w) + 1
                    die(f"{path}:{n}:{col}: `{w}` is not a move")
            if words[0] == rule:
                games.append((words[1], words[2:]))
                count += 1
        notes.append(f"# {path}: {count} {rule} games")
    return games, notes


def draw(games, per_game, seed, whole=False):
    """Up to `per_game` distinct positions a game: (result, moves so far), from the second
    stone to the position before the last move; with `whole`, each line's own position (all
    its moves), in a seeded order."""
    rng = random.Random(seed)
    if whole:
        out = list(games)
        rng.shuffle(out)
        return out
    out = []
    for result, moves in games:
        plies = list(range(2, len(moves)))
        rng.shuffle(plies)
        for k in sorted(plies[:per_game]):
            out.append((result, moves[:k]))
    return out


class NoScore(Exception):
    """The engine moved without a score (pbrain-tengen plays a win it sees before searching
    without one)."""


class Engine:
    """One pbrain engine, started in an empty directory, ready for BOARD."""

    def __init__(self, command, rule, depth, turn_ms, memory):
        self.dir = tempfile.TemporaryDirectory()
        words = shlex.split(command)
        try:
            self.p = subprocess.Popen(words, cwd=self.dir.name, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                      text=True, bufsize=1)
        except OSError as e:
            die(f"cannot start {words[0]}: {e.strerror}")
        self.send("START %d" % SIZE)
        self.expect_ok()
        self.send("INFO rule %d" % RULE_IDS[rule])
        self.send("INFO timeout_match 0")
        self.send("INFO timeout_turn %d" % (turn_ms if turn_ms else 3_600_000))
        if depth:
            self.send("INFO max_depth %d" % depth)
        self.send("INFO max_memory %d" % memory)
        self.send("INFO show_detail 2")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def line(self):
        l = self.p.stdout.readline()
        if not l:
            raise RuntimeError("the engine closed its output")
        return l.strip()

    def expect_ok(self):
        while True:
            l = self.line()
            if l == "OK":
                return
            if l.startswith("ERROR"):
                raise RuntimeError(l)

    def set_board(self, command, moves):
        """Sets the position after `moves` with `command` (BOARD or YXBOARD), the side to move's
        stones as the engine's own."""
        side = len(moves) % 2
        self.send(command)
        for j, m in enumerate(moves):
            g = MOVE.fullmatch(m)
            x, y = ord(g.group(1)) - 97, SIZE - int(g.group(2))
            self.send("%d,%d,%d" % (x, y, 1 if j % 2 == side else 2))
        self.send("DONE")

    def search(self, moves):
        """The engine's move (as `h8`) after `moves`, its table cleared first, and its last
        score for the side to move (`None` when it said none)."""
        self.send("YXHASHCLEAR")
        self.set_board("BOARD", moves)
        ev = None
        while True:
            l = self.line()
            if l.startswith("INFO EVAL "):
                ev = l.split()[2]
            elif l.startswith("MESSAGE depth ") and " score " in l:
                # pbrain-tengen's iteration line: a score past 29,000 is a mate.
                v = int(l.split(" score ")[1].split()[0])
                ev = str(v) if abs(v) < TENGEN_MATE_BOUND else ("+M" if v > 0 else "-M")
            elif l.startswith("ERROR"):
                raise RuntimeError(l)
            elif re.fullmatch(r"-?\d+,-?\d+", l):
                x, y = (int(v) for v in l.split(","))
                return "%s%d" % (chr(97 + x), SIZE - y), ev

    def static(self, moves):
        """The engine's static evaluation for the side to move after `moves` (Rapfi's
        `TRACESEARCH`), `None` when it printed none."""
        side = len(moves) % 2
        self.set_board("YXBOARD", moves)
        self.send("TRACESEARCH")
        ev = None
        while True:
            l = self.line()
            if l.startswith("MESSAGE Static Eval[Black]: "):
                v = int(l.split(": ")[1].split()[0])
                ev = str(v if side == 0 else -v)
            elif l.startswith("ERROR"):
                raise RuntimeError(l)
            elif l.startswith("MESSAGE No TTEntry") or l.startswith("MESSAGE TTEntry"):
                return ev

    def score(self, moves, static=False):
        """The engine's score for the side to move after `moves`."""
        ev = self.static(moves) if static else self.search(moves)[1]
        if ev is None or not SCORE.fullmatch(ev):
            raise NoScore(f"no score (the engine moved at once, or said {ev})")
        return re.sub(r"M\d*", "M", ev) if "M" in ev else ev

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except (BrokenPipeError, subprocess.TimeoutExpired, OSError):
            self.p.kill()
        self.dir.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rule", required=True, choices=sorted(RULE_IDS))
    ap.add_argument("--engine", required=True, help="the engine's command")
    ap.add_argument("--depth", type=int, default=0, help="search depth (INFO max_depth)")
    ap.add_argument("--turn-ms", type=int, default=0, help="time a position, when no --depth")
    ap.add_argument("--static", action="store_true",
                    help="the engine's static evaluation (Rapfi's TRACESEARCH), no search")
    ap.add_argument("--per-game", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--memory", type=int, default=64 << 20, help="bytes (INFO max_memory)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="score at most this many positions")
    ap.add_argument("--whole", action="store_true",
                    help="score each line's own position (all its moves), as `tengen-tune leaves` writes them")
    ap.add_argument("--out", required=True, help="file to write (refused if it exists)")
    ap.add_argument("games", nargs="+")
    a = ap.parse_args()
    if not a.depth and not a.turn_ms and not a.static:
        die("give --depth, --turn-ms or --static")
    if a.static and (a.depth or a.turn_ms):
        die("--static searches nothing: give it without --depth or --turn-ms")
    if a.per_game < 1 or a.jobs < 1:
        die("--per-game and --jobs are at least 1")
    out = Path(a.out)
    if out.exists():
        die(f"{out} exists: choose another name")
    games, notes = read_games(a.games, a.rule)
    if not games:
        die(f"no {a.rule} games in the files given")
    todo = draw(games, a.per_game, a.seed, a.whole)
    if a.limit:
        todo = todo[: a.limit]
    scores = [None] * len(todo)
    failed, skipped = [], []
    lock = threading.Lock()
    cursor = [0]

    def worker():
        try:
            engine = Engine(a.engine, a.rule, a.depth, a.turn_ms, a.memory)
        except RuntimeError as e:
            failed.append(str(e))
            return
        in_a_row = 0
        try:
            while True:
                with lock:
                    k = cursor[0]
                    cursor[0] += 1
                if k >= len(todo) or failed:
                    return
                try:
                    scores[k] = engine.score(todo[k][1], a.static)
                    in_a_row = 0
                except NoScore as e:
                    skipped.append(f"{' '.join(todo[k][1])}: {e}")
                except RuntimeError as e:
                    # An engine that dies on one position (Rapfi 0.43 crashes on a few
                    # lost renju positions) is restarted; the position is left out.
                    skipped.append(f"{' '.join(todo[k][1])}: {e}")
                    in_a_row += 1
                    engine.close()
                    if in_a_row >= 5:
                        failed.append(f"{in_a_row} positions in a row failed, the last: {e}")
                        return
                    engine = Engine(a.engine, a.rule, a.depth, a.turn_ms, a.memory)
                if k % 1000 == 999:
                    print(f"label-positions.py: {k + 1} of {len(todo)}", file=sys.stderr)
        except RuntimeError as e:
            failed.append(str(e))
        finally:
            engine.close()

    threads = [threading.Thread(target=worker) for _ in range(a.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        print(f"label-positions.py: {failed[0]}", file=sys.stderr)
        sys.exit(1)
    for s in skipped:
        print(f"label-positions.py: left out {s}", file=sys.stderr)
    limit = "its static evaluation" if a.static else f"depth {a.depth}" if a.depth else f"{a.turn_ms} ms"
    body = [f"{a.rule} {r} {' '.join(m)} = {s}" for (r, m), s in zip(todo, scores) if s]
    head = [
        f"# scored positions: {len(body)} {a.rule} positions, up to {a.per_game} a game, "
        f"seed {a.seed}, scored by `{a.engine}` at {limit} a position"
        f"{'' if a.static else ', table cleared before each'}, {datetime.date.today()} "
        f"(scripts/label-positions.py); {len(skipped)} left out "
        f"where the engine failed or gave no score",
    ] + [n for n in notes]
    tmp = out.with_name(out.name + ".part")
    tmp.write_text("\n".join(head + body) + "\n")
    os.replace(tmp, out)
    print(f"label-positions.py: {len(body)} positions in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
