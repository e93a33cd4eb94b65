#!/usr/bin/env python3
"""How close engines' scores of the same positions come to a reference engine's deeper ones.

    scripts/score-agreement.py --reference DEEP.txt [--reference MORE.txt] [--scale 459] \\
        SHALLOW_A.txt SHALLOW_B.txt ...

Reads files of scored positions as `scripts/label-positions.py` writes them (`RULE RESULT
MOVES... = SCORE`, a mate `+M`/`-M`) and keeps the positions every file scores. The reference
score `r` is read as the win chance `1 / (1 + e^(-r / --scale))`; each other file's score `s`
as `1 / (1 + e^(-s / k))` with the scale `k` (from a fixed list) that fits it best, so that
engines with other units compare fairly. Prints, over all shared positions and over the quiet
ones (no mate in any file, every score under 10,000), each file's cross-entropy against the
reference's chances and how far it lies above their entropy (the floor a perfect copy of the
reference would reach). The reference's own shallower searches share its evaluation and so
are favoured: compare builds of one engine with each other, and other engines with care.
Python 3, standard library only. Exit 0, or 2 on a usage error.
"""

import argparse
import math
import sys

SCALES = [100, 150, 200, 250, 300, 350, 400, 459, 550, 700, 900, 1200, 1600, 2400]


def load(path):
    scores = {}
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        print(f"score-agreement.py: {path}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    for n, line in enumerate(lines, 1):
        if line.startswith("#") or "=" not in line:
            continue
        head, score = line.rsplit("=", 1)
        score = score.strip()
        moves = " ".join(head.split()[2:])
        try:
            scores[moves] = (30000 if score[0] == "+" else -30000) if "M" in score else int(score)
        except (ValueError, IndexError):
            print(f"score-agreement.py: {path}:{n}: not a score: {score!r}", file=sys.stderr)
            sys.exit(2)
    return scores


def chance(v, k):
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, v / k))))


def entropy(y):
    return 0.0 if y in (0.0, 1.0) else -(y * math.log(y) + (1 - y) * math.log(1 - y))


def cross_entropy(pairs, k, scale):
    total = 0.0
    for s, r in pairs:
        y, p = chance(r, scale), min(1 - 1e-7, max(1e-7, chance(s, k)))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(pairs)


def main():
    ap = argparse.ArgumentParser(description="Scores against a reference's deeper scores.")
    ap.add_argument("--reference", action="append", required=True)
    ap.add_argument("--scale", type=float, default=459.0, help="the reference's units a logit")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    ref = {}
    for path in a.reference:
        ref.update(load(path))
    files = {path: load(path) for path in a.files}
    shared = set(ref)
    for scores in files.values():
        shared &= set(scores)
    if not shared:
        print("score-agreement.py: no position is scored in every file", file=sys.stderr)
        sys.exit(2)
    quiet = [m for m in shared if all(abs(d[m]) < 10000 for d in [ref, *files.values()])]
    for name, subset in [("all", sorted(shared)), ("quiet", sorted(quiet))]:
        if not subset:
            continue
        floor = sum(entropy(chance(ref[m], a.scale)) for m in subset) / len(subset)
        print(f"{name}: {len(subset)} positions, the reference's entropy {floor:.4f}, "
              f"a constant {math.log(2):.4f}")
        for path, scores in files.items():
            pairs = [(scores[m], ref[m]) for m in subset]
            loss, k = min((cross_entropy(pairs, k, a.scale), k) for k in SCALES)
            print(f"  {path}: scale {k}, cross-entropy {loss:.4f}, above the floor {loss - floor:.4f}")


if __name__ == "__main__":
    main()
