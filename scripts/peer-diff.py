#!/usr/bin/env python3
"""Differential checks of tengen against independent engines, on random positions.

    ANCHORS=~/anchors scripts/peer-diff.py forbidden [--count N] [--seed S]
    ANCHORS=~/anchors scripts/peer-diff.py vcf --rule freestyle|standard|renju [--count N] [--seed S]
    ANCHORS=~/anchors scripts/peer-diff.py vct [--limit L] [--count N] [--seed S]

The peers are built outside the repository by ../shared/anchors/ (see its README): Rapfi's
rule code (`forbidden-variant`, `rapfi-forbidden`, `rapfi-vcf`) and quintet's solver
(`quintet-solve`). Nothing of theirs is in tengen; this script only runs both programs and
compares what they print.

- forbidden: black's forbidden points under renju, tengen against `forbidden-variant
  --five-counts` (Rapfi's board, the literal reading of a three that tengen follows): any
  difference is reported. Differences from Rapfi's own reading are counted, and each must match
  `forbidden-variant --rapfi` (the one known difference of reading, see the README).
- vcf: `tengen solve --vcf --shortest` against `rapfi-vcf` (shortest by iterative deepening):
  the verdict and the length must agree. Rapfi counts the five after a four whose only block
  is forbidden for black; tengen ends the count at that four, so such a line is one longer there.
- vct: `tengen solve --vct --limit L` (threat limit 2) against quintet's df-pn VCT under renju:
  a win one side proves and the other denies is reported. Either side's unknown is only counted.

Positions: 8 to 40 stones dropped near a random centre, most of them within two steps of a
recent stone (dense shapes); a position tengen refuses (a five on the board, a black stone on a
forbidden point under renju) is drawn again. Exits 1 when a difference is found.
"""
import argparse
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TENGEN = os.environ.get("TENGEN", os.path.join(HERE, "..", "target", "release", "tengen"))
COLS = "abcdefghijklmno"


def anchors(*path):
    root = os.environ.get("ANCHORS")
    if not root:
        sys.exit("peer-diff: set ANCHORS to the folder ../shared/anchors/ built the peers in")
    p = os.path.join(root, *path)
    if not os.path.exists(p):
        sys.exit(f"peer-diff: {p} is missing: build it with ../shared/anchors/")
    return p


def position(rng, low, high, near):
    """A random move list (RIF, black first) of `low` to `high` stones."""
    count = rng.randint(low, high)
    cells, used = [], set()
    cx, cy = rng.randint(3, 11), rng.randint(3, 11)
    while len(cells) < count:
        if cells and rng.random() < near:
            bx, by = cells[rng.randrange(max(0, len(cells) - 6), len(cells))]
            x, y = bx + rng.randint(-2, 2), by + rng.randint(-2, 2)
        else:
            x, y = cx + rng.randint(-3, 3), cy + rng.randint(-3, 3)
        if 0 <= x < 15 and 0 <= y < 15 and (x, y) not in used:
            used.add((x, y))
            cells.append((x, y))
    return [f"{COLS[x]}{y + 1}" for x, y in cells]


def tengen(*args):
    r = subprocess.run([TENGEN, *args, "--format", "json"], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode in (0, 1) and r.stdout else None


def forbidden(a):
    rng = random.Random(a.seed)
    cases = []
    while len(cases) < a.count:
        moves = " ".join(position(rng, 8, 40, 0.7))
        j = tengen("forbidden", moves, "--rule", "renju")
        if j is not None:
            cases.append((moves, sorted(p["point"] for p in j["points"])))
    lines = "".join(m + "\n" for m, _ in cases)

    def peer(*cmd):
        out = subprocess.run(cmd, input=lines, capture_output=True, text=True).stdout
        return [sorted(l.split("\t")[1].split()) for l in out.splitlines()]

    literal = peer(anchors("bin", "forbidden-variant"), "--five-counts")
    rapfi = peer(anchors("bin", "rapfi-forbidden"))
    reading = peer(anchors("bin", "forbidden-variant"), "--rapfi")
    bad = reading_only = points = 0
    for (moves, ours), lit, rap, rd in zip(cases, literal, rapfi, reading, strict=True):
        points += len(ours)
        if ours != lit:
            bad += 1
            print(f"DIFF {moves}: tengen {ours}, literal reading {lit}")
        if ours != rap:
            if rap == rd:
                reading_only += 1
            else:
                bad += 1
                print(f"DIFF {moves}: tengen {ours}, Rapfi {rap}, Rapfi's reading {rd}")
    print(f"forbidden: {a.count} positions, {points} forbidden points; {bad} differences; "
          f"{reading_only} positions differ from Rapfi only by its reading of a three")
    return bad


def vcf(a):
    rng = random.Random(a.seed)
    tally, bad, n = {}, 0, 0
    while n < a.count:
        moves = " ".join(position(rng, 10, 36, 0.75))
        j = tengen("solve", "--vcf", moves, "--rule", a.rule, "--shortest",
                   "--max-nodes", "2000000")
        if j is None:
            continue
        n += 1
        r = subprocess.run([anchors("bin", "rapfi-vcf"), "-r", a.rule, "-t", "5000", "--json",
                            moves], capture_output=True, text=True)
        q = json.loads(r.stdout)
        ours, theirs = j["result"], q["status"]
        tally[(ours, theirs)] = tally.get((ours, theirs), 0) + 1
        if ours == "unknown" or theirs == "UNKNOWN":
            continue
        if ours == "win":
            length = (len(j["line"]) + 1) // 2 + (j["ending"] == "forced-foul")
            same = theirs == "WIN" and q["vcf_attacker_moves"] == length
        else:
            same = theirs == "NONE"
        if not same:
            bad += 1
            print(f"DIFF {a.rule} {moves}: tengen {ours} {' '.join(j.get('line', []))} "
                  f"({j.get('ending')}), Rapfi {theirs} {q.get('vcf_attacker_moves')} "
                  f"{' '.join(q.get('line') or [])}")
    print(f"vcf {a.rule}: {a.count} positions, (tengen, Rapfi) verdicts {tally}; {bad} differences")
    return bad


def vct(a):
    rng = random.Random(a.seed)
    tally, bad, n = {}, 0, 0
    quintet = anchors("target", "release", "quintet-solve")
    while n < a.count:
        moves = position(rng, 8, 24, 0.7)
        j = tengen("solve", "--vct", " ".join(moves), "--rule", "renju", "--limit", str(a.limit),
                   "--max-nodes", "3000000")
        if j is None:
            continue
        n += 1
        side = "black" if len(moves) % 2 == 0 else "white"
        stones = ",".join(moves[0::2]) + "/" + ",".join(moves[1::2])
        try:
            out = subprocess.run([quintet, "vct", str(a.limit), side, stones, "2"],
                                 capture_output=True, text=True, timeout=60).stdout.split()
            theirs = out[0] if out else "ERROR"
        except subprocess.TimeoutExpired:
            theirs = "TIMEOUT"
        ours = j["result"]
        tally[(ours, theirs)] = tally.get((ours, theirs), 0) + 1
        if (ours, theirs) in (("win", "NONE"), ("no-win", "WIN")):
            bad += 1
            print(f"DIFF {' '.join(moves)} ({side}): tengen {ours} "
                  f"{' '.join(j.get('line', []))}, quintet {' '.join(out[:2])}")
    print(f"vct limit {a.limit}: {a.count} positions, (tengen, quintet) verdicts {tally}; "
          f"{bad} differences")
    return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("check", choices=["forbidden", "vcf", "vct"])
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rule", default="renju", choices=["freestyle", "standard", "renju"])
    p.add_argument("--limit", type=int, default=4)
    a = p.parse_args()
    bad = {"forbidden": forbidden, "vcf": vcf, "vct": vct}[a.check](a)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
