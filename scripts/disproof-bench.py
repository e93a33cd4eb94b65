#!/usr/bin/env python3
"""Disproofs side by side: tengen's VCT and quintet's on the positions after each stated defence
of defence puzzles (where the answer to find is "no win").

    scripts/disproof-bench.py ../shared/puzzles-public/lfz084-renju-defence.txt puzzles/defence.txt \
        --other-side ../shared/puzzles-public/quintet-renju.txt

For every renju puzzle whose `answer:` lists defences (`any of d6 e7 ...`), the first
--defences of them (default 3) are each played for the side to move; then the attacker (the
other side) is asked for a VCT at threat limit 2 and at most --limit attacker moves (default
30). With --other-side, each renju puzzle's position is asked of the side NOT to move (the
defender of a VCT puzzle attacking), mostly disproofs of our own making. Each is asked
by `tengen solve --vct` (node budget --max-nodes, default 20 M, and --timeout seconds) and
by quintet's df-pn VCT through the anchors' driver `quintet-solve` (same bound and threat limit,
the same timeout). Prints one row a position: both verdicts (win / no-win / unknown), both times
(each program's own timing of its search), and their ratio; then the positions where the
verdicts differ, the count each decided, and the geometric mean of tengen's time over
quintet's on the positions both decided where quintet took at least 10 ms, over all of them
and over the disproofs alone. --markdown FILE also writes the rows as a Markdown table (as in
docs/disproofs.md).

quintet (MIT) is built outside this repository by ../shared/anchors/build-quintet.sh; give its
driver as --quintet PATH or $ANCHORS (default $ANCHORS/target/release/quintet-solve). Python 3,
standard library only. Exit 0 when it ran, 1 when a verdict differs, 2 on a usage error.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def die(msg):
    print(f"disproof-bench.py: {msg}", file=sys.stderr)
    sys.exit(2)


def puzzles(path):
    """(id, defences) of each puzzle in a puzzle file with an `answer: any of ...` line."""
    out = []
    for block in re.split(r"\n\s*\n", Path(path).read_text()):
        pid = re.search(r"^id:\s*(\S+)", block, re.M)
        rule = re.search(r"^rule:\s*(\S+)", block, re.M)
        ans = re.search(r"^answer:\s*(?:any of\s+)?([a-z0-9 ]+)", block, re.M)
        if pid and ans and rule and rule.group(1) == "renju":
            moves = [m for m in ans.group(1).split() if re.fullmatch(r"[a-v][0-9]{1,2}", m)]
            if moves:
                out.append((pid.group(1), moves))
    return out


def run(cmd, timeout):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--other-side", nargs="*", default=[], metavar="FILE",
                    help="renju puzzles whose position is asked of the side not to move (the "
                         "defender of a VCT puzzle attacking: mostly disproofs)")
    ap.add_argument("--tengen", default=str(ROOT / "target" / "release" / "tengen"))
    ap.add_argument("--quintet")
    ap.add_argument("--defences", type=int, default=3)
    ap.add_argument("--limit", type=int, default=30)
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--markdown", metavar="FILE",
                    help="also write the rows as a Markdown table to FILE")
    a = ap.parse_args()
    quintet = a.quintet or (os.environ.get("ANCHORS") and str(
        Path(os.environ["ANCHORS"]) / "target" / "release" / "quintet-solve"))
    if not quintet or not os.access(quintet, os.X_OK):
        die("no quintet-solve: give --quintet PATH or set ANCHORS (../shared/anchors/build-quintet.sh)")
    if not os.access(a.tengen, os.X_OK):
        die(f"no tengen at {a.tengen}: cargo build --release")
    rows, differ = [], []
    jobs = [(f, pid, ds) for f in a.files for pid, ds in puzzles(f)]
    for f in a.other_side:
        for block in re.split(r"\n\s*\n", Path(f).read_text()):
            pid = re.search(r"^id:\s*(\S+)", block, re.M)
            rule = re.search(r"^rule:\s*(\S+)", block, re.M)
            if pid and rule and rule.group(1) == "renju":
                jobs.append((f, pid.group(1), [None]))
    for f, pid, defences in jobs:
        if True:
            shown = run([a.tengen, "show", f, "--id", pid, "--format", "json"], 30)
            if shown is None or shown.returncode != 0:
                die(f"{f} {pid}: tengen show failed")
            pos = json.loads(shown.stdout)
            defender = pos["to_move"]
            attacker = "white" if defender == "black" else "black"
            for d in defences[: a.defences]:
                stones = {"black": list(pos["black"]), "white": list(pos["white"])}
                # Without a defence (--other-side) the side not to move attacks as it stands.
                if d is not None:
                    stones[defender].append(d)
                # A game record stays a record (the defence its next move), as a user would
                # give it; a diagram stays stones.
                record = pos.get("moves") or []
                if d is not None and len(record) == len(pos["black"]) + len(pos["white"]) and \
                        len(record) % 2 == (0 if defender == "black" else 1):
                    given = f"moves: {' '.join(record + [d])}\n"
                else:
                    given = (f"black: {' '.join(stones['black'])}\n"
                             f"white: {' '.join(stones['white'])}\n")
                with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as t:
                    t.write(f"id: x\nrule: renju\nsize: {pos['size']}\n{given}"
                            f"to-move: {attacker}\n")
                    name = t.name
                r = run([a.tengen, "solve", name, "--vct", "--threat-limit", "2", "--limit",
                         str(a.limit), "--max-nodes", str(a.max_nodes), "--time", f"{a.timeout}s",
                         "--format", "json"], a.timeout + 30)
                os.unlink(name)
                if r is None:
                    tv, tt = "unknown", a.timeout * 1000
                elif r.returncode != 0:
                    die(f"{pid} after {d}: tengen solve failed: {r.stderr.strip()}")
                else:
                    j = json.loads(r.stdout)
                    tv, tt = j["result"], j.get("elapsed_ms", 0.0)
                up = lambda s: ",".join(x.upper() for x in s)
                q = run([quintet, "vct", str(a.limit), attacker,
                         f"{up(stones['black'])}/{up(stones['white'])}", "2"], a.timeout)
                if q is None:
                    qv, qt = "unknown", a.timeout * 1000
                else:
                    first = q.stdout.split()[0] if q.stdout.split() else "UNKNOWN"
                    qv = {"WIN": "win", "NONE": "no-win"}.get(first, "unknown")
                    m = re.search(r"elapsed: ([0-9.]+)ms", q.stdout)
                    qt = float(m.group(1)) if m else a.timeout * 1000
                where = f"{pid} after {d}" if d else f"{pid}, {attacker} attacking"
                rows.append((where, tv, tt, qv, qt))
                if "unknown" not in (tv, qv) and tv != qv:
                    differ.append(rows[-1])
                print(f"{where}: tengen {tv} {tt:.1f} ms, quintet {qv} {qt:.1f} ms"
                      + (f", ratio {tt / qt:.2f}" if qt > 0 and "unknown" not in (tv, qv) else ""),
                      flush=True)
    both = [(tt, qt) for _, tv, tt, qv, qt in rows if "unknown" not in (tv, qv)]
    slow = [(tt, qt) for tt, qt in both if qt >= 10]
    print(f"\n{len(rows)} positions: tengen decided {sum(r[1] != 'unknown' for r in rows)}, "
          f"quintet {sum(r[3] != 'unknown' for r in rows)}, both {len(both)}; "
          f"verdicts differ on {len(differ)}")
    for r in rows:
        if r[3] != "unknown" and r[1] == "unknown":
            print(f"  decided by quintet only: {r[0]} ({r[3]}, {r[4]:.0f} ms)")
        if r[1] != "unknown" and r[3] == "unknown":
            print(f"  decided by tengen only: {r[0]} ({r[1]}, {r[2]:.0f} ms)")
    for r in differ:
        print(f"  DIFFER: {r[0]}: tengen {r[1]}, quintet {r[3]}")
    # Over all positions both decided, and over the disproofs alone (issue 36's measure),
    # where quintet took 10 ms or more.
    hard = [(tt, qt) for _, tv, tt, qv, qt in rows if tv == qv == "no-win" and qt >= 10]
    for what, pairs in [("both decided", slow), ("disproofs both decided", hard)]:
        if pairs:
            gm = math.exp(sum(math.log(max(t, 0.001) / q) for t, q in pairs) / len(pairs))
            worst = max(t / q for t, q in pairs)
            print(f"{what} where quintet took >= 10 ms ({len(pairs)}): geometric mean of "
                  f"tengen / quintet {gm:.3f}, worst {worst:.2f}")
    if a.markdown:
        with open(a.markdown, "w") as out:
            out.write("# Disproof table\n\nWritten by `scripts/disproof-bench.py --markdown`; see "
                      "[disproofs.md](disproofs.md) for how and when.\n\n")
            out.write("| position | tengen | ms | quintet | ms | tengen / quintet |\n"
                      "| --- | --- | ---: | --- | ---: | ---: |\n")
            for where, tv, tt, qv, qt in rows:
                ratio = f"{tt / qt:.2f}" if qt > 0 and "unknown" not in (tv, qv) else ""
                out.write(f"| {where} | {tv} | {tt:.1f} | {qv} | {qt:.1f} | {ratio} |\n")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
