#!/usr/bin/env python3
"""Balanced 15x15 openings that begin as players' games do, in two sets kept apart.

usage: ANCHORS=~/anchors scripts/player-openings.py RULE N SEED OUT_DIR [--cutoff C] [--ms T]

Freestyle: the first stone on h8, each next one next to a stone already down (three times in
ten, two cells away): the centre-first, compact starts of real games; 4 to 6 stones. Renju: one of the 26
canonical openings (h8, white's stone touching it, black's third as the opening's table
says, in a random one of the 8 symmetries), then white's fourth stone and, half the time,
black's fifth, each placed as freestyle's are, black never on a point forbidden
when played. No five anywhere; distinct up to the board's symmetries, and none of the openings
shipped in examples/openings/RULE.txt (earlier fits read those).

Judged by Rapfi with its trained classical model ($ANCHORS/rapfi-model/pbrain-rapfi, through
rapfi-analyze, T ms, one thread): kept when the side to move's eval is no mate and within +-C.

Each kept opening goes to one of two sets by its own stones, never by the order it was drawn:
the SHA-256 of its canonical form (the least of its 8 symmetric images, as text) decides, so an
opening is in the same set in every run, whatever the seed or the rule's generator. `fit`
openings are for fitting data and self-play tuning; `measure` openings are for claims only,
and nothing fitted may ever read them. The script keeps drawing until each set has N.

Writes OUT_DIR/RULE-fit.{txt,cgc} and OUT_DIR/RULE-measure.{txt,cgc} (RIF move lists with a
header; c-gomoku-cli's offset format) and OUT_DIR/RULE.log (every candidate with its eval).
"""
import argparse
import hashlib
import json
import os
import random
import subprocess
import sys

SIZE, C = 15, 7  # h8 = (7, 7): x from the left, y from the bottom, both from 0

# Black's third stone of the 26 canonical openings, from the centre (y up), with white's stone
# at (0, 1) (direct) or (1, 1) (indirect); the same table as src/board/openings.rs.
DIRECT = [(0, 2), (1, 2), (2, 2), (1, 1), (2, 1), (1, 0), (2, 0), (0, -1), (1, -1), (2, -1),
          (0, -2), (1, -2), (2, -2)]
INDIRECT = [(2, 2), (2, 1), (2, 0), (2, -1), (2, -2), (1, 0), (1, -1), (1, -2), (0, -1),
            (0, -2), (-1, -1), (-1, -2), (-2, -2)]


def rif(p):
    x, y = p
    return "%s%d" % (chr(97 + x), y + 1)


def parse(word):
    return (ord(word[0]) - 97, int(word[1:]) - 1)


def offset(p):  # c-gomoku-cli's offset format: x - 7, then rows from the top, less 7
    x, y = p
    return "%d,%d" % (x - C, (SIZE - 1 - y) - C)


def symmetry(p, t):
    a, b = p[0] - C, p[1] - C
    if t & 4:
        a, b = b, a
    if t & 1:
        a = -a
    if t & 2:
        b = -b
    return (a + C, b + C)


def canonical(moves):
    """The least of the 8 symmetric images, as text: black's stones, then white's, sorted."""
    forms = []
    for t in range(8):
        blacks = sorted(symmetry(p, t) for p in moves[0::2])
        whites = sorted(symmetry(p, t) for p in moves[1::2])
        forms.append(" ".join(map(rif, blacks)) + " / " + " ".join(map(rif, whites)))
    return min(forms)


def which_set(moves):
    return "fit" if hashlib.sha256(canonical(moves).encode()).digest()[0] % 2 == 0 else "measure"


def has_five(stones):
    s = set(stones)
    return any(all((x + k * dx, y + k * dy) in s for k in range(5))
               for x, y in s for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)))


def near(moves, rng):
    """An empty cell next to a stone already down, or (three times in ten) two cells away."""
    reach = 1 if rng.random() < 0.7 else 2
    taken = set(moves)
    cells = sorted({(x + dx, y + dy) for x, y in moves for dx in range(-reach, reach + 1)
                    for dy in range(-reach, reach + 1)} - taken)
    return rng.choice([c for c in cells if 0 <= c[0] < SIZE and 0 <= c[1] < SIZE])


def draw(rule, rng):
    if rule == "freestyle":
        moves = [(C, C)]
        for _ in range(rng.choice((3, 4, 5))):
            moves.append(near(moves, rng))
        return moves
    direct = rng.random() < 0.5
    white = (0, 1) if direct else (1, 1)
    third = rng.choice(DIRECT if direct else INDIRECT)
    t = rng.randrange(8)
    moves = [(C, C)] + [symmetry((C + a, C + b), t) for a, b in (white, third)]
    moves.append(near(moves, rng))
    if rng.random() < 0.5:
        moves.append(near(moves, rng))
    return moves


def forbidden(anchors, moves):
    out = subprocess.run([anchors + "/bin/rapfi-forbidden"],
                         input=" ".join(map(rif, moves)) + "\n",
                         capture_output=True, text=True, check=True).stdout
    parts = out.rstrip("\n").split("\t")
    return set(parts[1].split()) if len(parts) > 1 else set()


def legal(anchors, moves, rule):
    for i in range(len(moves)):
        if has_five(moves[i % 2:i + 1:2]):
            return False
        if rule == "renju" and i % 2 == 0 and rif(moves[i]) in forbidden(anchors, moves[:i]):
            return False
    return True


def evaluate(anchors, moves, rule, ms):
    engine = anchors + "/rapfi-model/pbrain-rapfi"
    out = subprocess.run([anchors + "/bin/rapfi-analyze", " ".join(map(rif, moves)), "--rule",
                          rule, "--time-ms", str(ms), "--threads", "1", "--json",
                          "--engine", engine],
                         capture_output=True, text=True, check=True, cwd="/tmp").stdout
    return json.loads(out)


def write(out_dir, rule, name, kept, header):
    base = os.path.join(out_dir, "%s-%s" % (rule, name))
    with open(base + ".txt", "w") as f:
        f.write(header % (len(kept), name))
        f.writelines(" ".join(map(rif, m)) + "\n" for m in kept)
    with open(base + ".cgc", "w") as f:
        f.writelines(", ".join(map(offset, m)) + "\n" for m in kept)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rule", choices=("freestyle", "renju"))
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("out_dir")
    ap.add_argument("--cutoff", type=int, default=150)
    ap.add_argument("--ms", type=int, default=500)
    o = ap.parse_args()
    anchors = os.environ.get("ANCHORS") or sys.exit(
        "player-openings: set ANCHORS to the folder ../shared/anchors/ built the peers in")
    rng = random.Random(o.seed)
    # The openings shipped before these sets were made fed earlier fits: never measure on them.
    seen, log = set(), []
    shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                           "openings", o.rule + ".txt")
    with open(shipped) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                seen.add(canonical([parse(w) for w in line.split()]))
    kept = {"fit": [], "measure": []}
    tried = 0
    while min(len(k) for k in kept.values()) < o.n:
        tried += 1
        if tried > 50 * o.n:
            sys.exit("player-openings: too many candidates")
        moves = draw(o.rule, rng)
        key = canonical(moves)
        if key in seen:
            continue
        seen.add(key)
        group = which_set(moves)
        if len(kept[group]) >= o.n:
            continue
        if not legal(anchors, moves, o.rule):
            log.append("%s\tillegal" % " ".join(map(rif, moves)))
            continue
        j = evaluate(anchors, moves, o.rule, o.ms)
        ok = j["mate"] is None and j["eval_value"] is not None and abs(j["eval_value"]) <= o.cutoff
        log.append("%s\t%s\t%s\t%s\tdepth %s\t%s" % (
            " ".join(map(rif, moves)), group, j["side_to_move"], j["eval"], j["depth"],
            "KEEP" if ok else "-"))
        print(log[-1], flush=True)
        if ok:
            kept[group].append(moves)
    os.makedirs(o.out_dir, exist_ok=True)
    header = ("# %%d balanced %s openings on 15x15, the %%s set (RIF move lists, black first).\n"
              "# Made by scripts/player-openings.py %s %d %d OUT_DIR --cutoff %d --ms %d: kept\n"
              "# when Rapfi with its trained classical model (%d ms, one thread) scores the side\n"
              "# to move within +-%d and finds no mate. See the script for the two sets.\n") % (
                  o.rule, o.rule, o.n, o.seed, o.cutoff, o.ms, o.ms, o.cutoff)
    for name, moves in kept.items():
        write(o.out_dir, o.rule, name, moves, header)
    with open(os.path.join(o.out_dir, o.rule + ".log"), "w") as f:
        evaluated = sum(1 for line in log if "\tillegal" not in line)
        f.write("# rule %s seed %d cutoff %d ms %d: %d evaluated\n" % (
            o.rule, o.seed, o.cutoff, o.ms, evaluated))
        f.writelines(line + "\n" for line in log)
    print("kept %d + %d, candidates drawn %d" % (len(kept["fit"]), len(kept["measure"]), tried))


if __name__ == "__main__":
    main()
