#!/usr/bin/env python3
"""Where games against Rapfi are lost: the tengen moves after which Rapfi's own evaluation
jumps from about even to a forced win, and what tengen's VCT solver says around each.

    scripts/loss-scan.py MATCH_DIR --rule renju [--tengen target/release/tengen]
        [--opponent rapfi] [--even 300] [--max-nodes 2000000] [--time 5]

MATCH_DIR is a directory written by scripts/match.py against Rapfi (c-gomoku-cli's
`games.sgf` and `messages.txt`, where Rapfi reports `Eval` after each of its moves). A move
of tengen's is listed when Rapfi's eval before it was within --even of 0 and its eval right
after it is a mate (`+M..`). For each such move three questions go to `tengen solve --vct`
(--max-nodes and --time each), the opponent attacking:

- pass: the position before the move, as if tengen had passed. A win here means the move had
  a threat to answer (the analyzer checks its moves against such a threat).
- after: the position after the move, threat limit 2 (the solver's default).
- after tl3: the same at threat limit 3, asked only when limit 2 found no win.

A mate Rapfi sees where both "after" questions say no-win needs quiet moves (or a longer
threat chain): the search's depth, not the solvers, has to find it. Prints one line a move and
a summary. Python 3, standard library only; exit 0 when it ran, 2 on a usage error.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def die(msg):
    print(f"loss-scan.py: {msg}", file=sys.stderr)
    sys.exit(2)


def games(sgf_text):
    """game number -> (black player's name, number of moves)."""
    out = {}
    for g in re.findall(r"\(;FF.*?\)", sgf_text, re.S):
        gn = re.search(r"GN\[(\d+)\]", g)
        pb = re.search(r"PB\[([^\]]*)\]", g)
        if gn and pb:
            out[int(gn.group(1))] = (pb.group(1), len(re.findall(r";[BW]\[[a-z]{2}\]", g)))
    return out


def evals(messages, opponent):
    """game number -> {move number: the opponent's eval after that move}."""
    out, cur = {}, None
    for line in messages.splitlines():
        m = re.match(r"Game ID: (\d+)", line)
        if m:
            cur = out.setdefault(int(m.group(1)), {})
            continue
        m = re.match(rf"(\d+)\) {re.escape(opponent)}: .*Eval ([^ |]+)", line)
        if m and cur is not None:
            cur[int(m.group(1))] = m.group(2)
    return out


def value(e):
    if e.startswith("+M"):
        return None, 1
    if e.startswith("-M"):
        return None, -1
    try:
        return int(e), 0
    except ValueError:
        return None, 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("match_dir")
    ap.add_argument("--rule", required=True, choices=["freestyle", "standard", "renju"])
    ap.add_argument("--tengen", default=str(ROOT / "target" / "release" / "tengen"))
    ap.add_argument("--opponent", default="rapfi")
    ap.add_argument("--even", type=int, default=300)
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    ap.add_argument("--time", type=float, default=5)
    a = ap.parse_args()
    d = Path(a.match_dir)
    if not (d / "games.sgf").is_file() or not (d / "messages.txt").is_file():
        die(f"{d} has no games.sgf and messages.txt (a scripts/match.py directory)")
    sgf = d / "games.sgf"
    played = games(sgf.read_text())
    ev = evals((d / "messages.txt").read_text(errors="replace"), a.opponent)

    def vct(gn, after, attacker, limit):
        r = subprocess.run([a.tengen, "solve", str(sgf), "--id", str(gn), "--after", str(after),
                            "--rule", a.rule, "--to-move", attacker, "--vct", "--threat-limit",
                            str(limit), "--max-nodes", str(a.max_nodes), "--time", f"{a.time}s",
                            "--format", "json"], capture_output=True, text=True)
        if r.returncode != 0:
            return "error", 0
        j = json.loads(r.stdout)
        return j["result"], j.get("nodes", 0)

    rows = []
    for gn in sorted(ev):
        if gn not in played:
            continue
        black, _ = played[gn]
        attacker = "black" if black == a.opponent else "white"
        for ply in sorted(ev[gn]):
            before, after = ev[gn].get(ply - 2), ev[gn][ply]
            if before is None:
                continue
            v, _ = value(before)
            if v is None or abs(v) >= a.even or value(after)[1] != 1:
                continue
            move = ply - 1
            passed = vct(gn, move - 1, attacker, 2)
            tl2 = vct(gn, move, attacker, 2)
            tl3 = vct(gn, move, attacker, 3) if tl2[0] != "win" else ("-", 0)
            rows.append((gn, move, after, passed, tl2, tl3))
            print(f"game {gn} move {move}: {a.opponent} {before} -> {after}; pass {passed[0]} "
                  f"({passed[1]}), after {tl2[0]} ({tl2[1]}), after tl3 {tl3[0]} ({tl3[1]})",
                  flush=True)
    n = len(rows)
    count = lambda f: sum(1 for r in rows if f(r))
    print(f"\n{n} moves in {len({r[0] for r in rows})} games: threatened before the move "
          f"{count(lambda r: r[3][0] == 'win')}; a VCT after it at threat limit 2 "
          f"{count(lambda r: r[4][0] == 'win')}, only at 3 {count(lambda r: r[5][0] == 'win')}; "
          f"no VCT at either {count(lambda r: r[4][0] == 'no-win' and r[5][0] == 'no-win')}; "
          f"unknown {count(lambda r: 'unknown' in (r[4][0], r[5][0]))}")


if __name__ == "__main__":
    main()
