#!/usr/bin/env python3
"""Balanced 15x15 openings for freestyle and renju, judged by Rapfi (classical eval).

usage: ANCHORS=~/anchors scripts/make-openings.py RULE N SEED CUTOFF OUT_PREFIX
Candidates: 3-5 stones (black first, alternating), all inside the 5x5 or 7x7 block around h8,
drawn with random.Random(SEED); distinct up to the 8 board symmetries; no five; in renju no black
stone on a point that is forbidden for black when it is played (rapfi-forbidden).  Kept when
rapfi-analyze (300 ms, 1 thread) gives the side to move a non-mate eval with |eval| <= CUTOFF.
Writes OUT_PREFIX.rif (RIF move lists), OUT_PREFIX.cgc (c-gomoku-cli offset format) and
OUT_PREFIX.log (every candidate with its eval).

examples/openings/ holds its output for 120 openings a rule (the self-play harness's default).
"""
import json, os, random, subprocess, sys

A = os.environ.get("ANCHORS") or sys.exit(
    "make-openings: set ANCHORS to the folder ../shared/anchors/ built the peers in")
SIZE, C = 15, 7  # h8 = (7, 7) with x from the left, r-1 from the bottom


def rif(p):
    x, r = p
    return "%s%d" % (chr(97 + x), r)


def offset(p):  # c-gomoku-cli offset: x - 7, y_top - 7 with y_top = 15 - r
    x, r = p
    return "%d,%d" % (x - C, (SIZE - r) - C)


def canon(moves):
    blacks = [(x - C, r - 1 - C) for x, r in moves[0::2]]
    whites = [(x - C, r - 1 - C) for x, r in moves[1::2]]
    forms = []
    for t in range(8):
        def f(p):
            a, b = p
            if t & 4:
                a, b = b, a
            if t & 1:
                a = -a
            if t & 2:
                b = -b
            return (a, b)
        forms.append((tuple(sorted(map(f, blacks))), tuple(sorted(map(f, whites)))))
    return min(forms)


def has_five(stones):
    s = set(stones)
    for x, r in s:
        for dx, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all((x + k * dx, r + k * dr) in s for k in range(5)):
                return True
    return False


def forbidden(moves):
    out = subprocess.run([A + "/bin/rapfi-forbidden"], input=" ".join(map(rif, moves)) + "\n",
                         capture_output=True, text=True, check=True).stdout
    parts = out.rstrip("\n").split("\t")
    return set(parts[1].split()) if len(parts) > 1 else set()


def legal(moves, rule):
    for i in range(len(moves)):
        if has_five(moves[i % 2:i + 1:2]):
            return False
        if rule == "renju" and i % 2 == 0 and rif(moves[i]) in forbidden(moves[:i]):
            return False
    return True


def evaluate(moves, rule):
    out = subprocess.run([A + "/bin/rapfi-analyze", " ".join(map(rif, moves)), "--rule", rule,
                          "--time-ms", "300", "--threads", "1", "--json"],
                         capture_output=True, text=True, check=True, cwd="/tmp").stdout
    return json.loads(out)


def main():
    rule, n, seed, cutoff, prefix = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4]), sys.argv[5]
    rng = random.Random(seed)
    seen, kept, log = set(), [], []
    tried = 0
    while len(kept) < n:
        tried += 1
        if tried > 5000:
            sys.exit("too many candidates")
        k = rng.choice((3, 4, 5))
        rad = rng.choice((2, 3))
        pts = [(x, r) for x in range(C - rad, C + rad + 1) for r in range(C + 1 - rad, C + 2 + rad)]
        moves = rng.sample(pts, k)
        key = canon(moves)
        if key in seen:
            continue
        seen.add(key)
        if not legal(moves, rule):
            log.append("%s\tillegal" % " ".join(map(rif, moves)))
            continue
        j = evaluate(moves, rule)
        ok = j["mate"] is None and j["eval_value"] is not None and abs(j["eval_value"]) <= cutoff
        log.append("%s\t%s\t%s\tdepth %s\t%s" % (" ".join(map(rif, moves)), j["side_to_move"],
                                                   j["eval"], j["depth"], "KEEP" if ok else "-"))
        print(log[-1], flush=True)
        if ok:
            kept.append(moves)
    with open(prefix + ".rif", "w") as f:
        f.writelines(" ".join(map(rif, m)) + "\n" for m in kept)
    with open(prefix + ".cgc", "w") as f:
        f.writelines(", ".join(map(offset, m)) + "\n" for m in kept)
    with open(prefix + ".log", "w") as f:
        f.write("# rule %s seed %d cutoff %d: %d kept of %d evaluated\n" % (
            rule, seed, cutoff, len(kept), sum(1 for l in log if "\tillegal" not in l)))
        f.writelines(l + "\n" for l in log)
    print("kept %d, candidates drawn %d" % (len(kept), tried))


if __name__ == "__main__":
    main()
