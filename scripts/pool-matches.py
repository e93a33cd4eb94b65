#!/usr/bin/env python3
"""Pools the games of several scripts/match.py runs of the same two engines into one result.

    scripts/pool-matches.py --name-a tengen --name-b rapfi-model OUT1 OUT2 ...

Each OUT is a match.py output folder (its cgc.log and games.sgf). The games are counted as
match.py counts them (a game that ended before any move past the opening is left out), summed,
and printed as one W-D-L with the score, the Elo difference and its 95% interval, and the split
by colour. Pool only runs of the same builds at the same time control and rule, on openings of
the same set (the openings of the runs should not repeat: a chunk each). Exit 2 on a usage
error (a folder without a cgc.log, or no game of the two names).
"""
import argparse
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("match", HERE / "match.py")
match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(match)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name-a", required=True)
    ap.add_argument("--name-b", required=True)
    ap.add_argument("outs", nargs="+", type=Path)
    o = ap.parse_args()
    total = {"wins": 0, "draws": 0, "losses": 0, "as_black": [0, 0, 0]}
    for out in o.outs:
        log = out / "cgc.log"
        if not log.is_file():
            print(f"pool-matches: {log} is missing", file=sys.stderr)
            sys.exit(2)
        t = match.tally(out, o.name_a, log.read_text(errors="replace"))
        n = t["wins"] + t["draws"] + t["losses"]
        print(f"{out}: {n} games, W-D-L {t['wins']}-{t['draws']}-{t['losses']}"
              + (f", {len(t['not_started'])} not started" if t["not_started"] else ""))
        for k in ("wins", "draws", "losses"):
            total[k] += t[k]
        total["as_black"] = [a + b for a, b in zip(total["as_black"], t["as_black"])]
    if total["wins"] + total["draws"] + total["losses"] == 0:
        print(f"pool-matches: no game between {o.name_a} and {o.name_b}", file=sys.stderr)
        sys.exit(2)
    print("\n".join(match.score_lines(o.name_a, o.name_b, total["wins"], total["draws"],
                                      total["losses"], total["as_black"])))


if __name__ == "__main__":
    main()
