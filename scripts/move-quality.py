#!/usr/bin/env python3
"""How good an engine's moves are by a stronger engine's judgement, on positions of games.

    ANCHORS=~/anchors scripts/move-quality.py --rule freestyle --turn-ms 200 \\
        --engine "target/release/pbrain-tengen" --engine "OTHER_BUILD/pbrain-tengen" \\
        --judge "$ANCHORS/rapfi-model/pbrain-rapfi" --judge-depth 14 --per-game 3 --seed 1 \\
        examples/games/rapfi-model-fit-500-freestyle.txt

Draws up to --per-game positions of each game of --rule (from --from-ply on, seeded as
scripts/label-positions.py draws them), has each --engine choose a move in --turn-ms, and has
the judge search the position and, for every move it did not choose itself, the position after
that move, each to --judge-depth plies with its table cleared. A move's loss is the judge's
win probability of the position less its win probability after the move, both for the side to
move, the score `s` read as `1 / (1 + e^(-s / --scale))` and a mate as 0 or 1. Prints, for each
engine: how often its move is the judge's, the mean loss with its standard error, and how
often a move loses 0.1 and 0.3 or more; then each later engine's mean loss less the first's
over the same positions, with the paired standard error. A self-play match asks which of two
builds beats the other; this asks which plays the moves the judge (the engine the matches are
measured against) prefers, in a few minutes instead of an hour.

The judge is an engine outside this repository (see ../shared/anchors/): its scores are
measurements, never part of tengen. Python 3, standard library only. Exit 0 when the run ended
(a position an engine died on is left out and counted), 1 when five in a row failed, 2 on a
usage error.
"""

import argparse
import importlib.util
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("label_positions", HERE / "label-positions.py")
lp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lp)


def die(msg):
    print(f"move-quality.py: {msg}", file=sys.stderr)
    sys.exit(2)


def win_probability(score, scale):
    """The judge's score (its units, or `+M`/`-M`) as a win probability for the side to move."""
    if "M" in score:
        return 0.0 if score.startswith("-") else 1.0
    return 1.0 / (1.0 + math.exp(-int(score) / scale))


def judge_position(judge, moves, chosen, scale):
    """Per distinct chosen move: its loss, and whether it is the judge's own move."""
    best, score = judge.search(moves)
    if score is None or not lp.SCORE.fullmatch(score):
        raise lp.NoScore(f"the judge gave no score ({score})")
    before = win_probability(score, scale)
    losses = {}
    for m in set(chosen):
        if m == best:
            losses[m] = (0.0, True)
            continue
        if m in moves:
            raise RuntimeError(f"an engine played {m}, an occupied point")
        _, after = judge.search(moves + [m])
        if after is None or not lp.SCORE.fullmatch(after):
            raise lp.NoScore(f"the judge gave no score after {m} ({after})")
        losses[m] = (max(0.0, before - (1.0 - win_probability(after, scale))), False)
    return losses


def mean_and_error(xs):
    """The mean of `xs` and its standard error."""
    n = len(xs)
    mean = sum(xs) / n
    return mean, math.sqrt(sum((x - mean) ** 2 for x in xs) / max(n - 1, 1) / n)


def summary(name, losses, same):
    n = len(losses)
    mean, error = mean_and_error(losses)
    return (f"{name}: {n} positions, the judge's move {100 * sum(same) / n:.1f}%, mean loss "
            f"{mean:.4f} (+-{error:.4f}), losing 0.1 or more "
            f"{100 * sum(x >= 0.1 for x in losses) / n:.1f}%, 0.3 or more "
            f"{100 * sum(x >= 0.3 for x in losses) / n:.1f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rule", required=True, choices=sorted(lp.RULE_IDS))
    ap.add_argument("--engine", action="append", required=True, help="an engine's command")
    ap.add_argument("--turn-ms", type=int, action="append", required=True,
                    help="the engines' time a move: once for all, or once for each --engine")
    ap.add_argument("--judge", required=True, help="the judge's command")
    ap.add_argument("--judge-depth", type=int, default=14)
    ap.add_argument("--scale", type=float, default=200.0, help="judge units a logit")
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--from-ply", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="at most this many positions")
    ap.add_argument("--memory", type=int, default=64 << 20)
    ap.add_argument("games", nargs="+")
    a = ap.parse_args()
    if len(a.turn_ms) == 1:
        a.turn_ms *= len(a.engine)
    if len(a.turn_ms) != len(a.engine):
        die("give --turn-ms once, or once for each --engine")
    if a.per_game < 1 or min(a.turn_ms) < 1 or a.judge_depth < 1:
        die("--per-game, --turn-ms and --judge-depth are at least 1")
    games, _ = lp.read_games(a.games, a.rule)
    games = [(r, m) for r, m in games if len(m) > a.from_ply + 1]
    if not games:
        die(f"no {a.rule} games longer than {a.from_ply + 1} moves in the files given")
    todo = [(r, m) for r, m in lp.draw(games, a.per_game, a.seed) if len(m) >= a.from_ply]
    if a.limit:
        todo = todo[: a.limit]
    try:
        players = [lp.Engine(c, a.rule, 0, t, a.memory) for c, t in zip(a.engine, a.turn_ms)]
        judge = lp.Engine(a.judge, a.rule, a.judge_depth, 0, a.memory)
    except RuntimeError as e:
        print(f"move-quality.py: {e}", file=sys.stderr)
        sys.exit(1)
    rows, skipped, in_a_row = [], 0, 0
    try:
        for k, (_, moves) in enumerate(todo):
            try:
                chosen = [p.search(moves)[0] for p in players]
                losses = judge_position(judge, moves, chosen, a.scale)
                rows.append([losses[m] for m in chosen])
                in_a_row = 0
            except lp.NoScore:
                skipped += 1
            except RuntimeError as e:
                # An engine that dies on one position (Rapfi 0.43 crashes on a few lost renju
                # positions) is started again and the position left out; five in a row stop.
                skipped += 1
                in_a_row += 1
                if in_a_row >= 5:
                    raise RuntimeError(f"five positions in a row failed, the last: {e}")
                for j, p in enumerate(players):
                    p.close()
                    players[j] = lp.Engine(a.engine[j], a.rule, 0, a.turn_ms[j], a.memory)
                judge.close()
                judge = lp.Engine(a.judge, a.rule, a.judge_depth, 0, a.memory)
            if k % 50 == 49:
                print(f"move-quality.py: {k + 1} of {len(todo)}", file=sys.stderr)
    except RuntimeError as e:
        print(f"move-quality.py: {e}", file=sys.stderr)
        sys.exit(1)
    finally:
        for p in players + [judge]:
            p.close()
    if not rows:
        die("no position was judged")
    print(f"{a.rule}: {len(rows)} positions ({skipped} left out: the judge gave no score or an "
          f"engine failed), {'/'.join(map(str, a.turn_ms))} ms a move, judged at depth "
          f"{a.judge_depth}, scale {a.scale:g}")
    names = [f"{c} at {t} ms" for c, t in zip(a.engine, a.turn_ms)]
    for j, name in enumerate(names):
        print(summary(name, [r[j][0] for r in rows], [r[j][1] for r in rows]))
    for j in range(1, len(a.engine)):
        d = [r[j][0] - r[0][0] for r in rows]
        mean, error = mean_and_error(d)
        print(f"{names[j]} less {names[0]}: {mean:+.4f} (+-{error:.4f}), "
              f"{sum(x != 0 for x in d)} positions differ")


if __name__ == "__main__":
    main()
