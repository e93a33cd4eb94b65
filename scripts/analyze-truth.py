#!/usr/bin/env python3
"""The analyzer's truth on puzzle files: does `tengen analyze`, at its default limits, rank a
verified winning move first where the puzzle has a forced win, and a listed defence first where
it asks for one?

    scripts/analyze-truth.py [--tengen target/release/tengen] [--skip-tag heavy] FILE...

For each puzzle of kind `vcf`, `vct` or `win` (not tagged with a --skip-tag): PASS when the first
candidate carries a verified mate for the side to move (`mate_in` > 0; a mate is printed only
once verified). For kind `best-move` (`answer: any of MOVES`): PASS when the first candidate is
one of MOVES, or carries a verified mate (a forced win beats every defence: some public defence
puzzles' side to move can win outright, which the answer does not list). Other kinds are
skipped. Prints a line a puzzle and a summary per kind; exit 0
when every puzzle ran (failures are results, not errors), 2 on a usage error. Each analysis is
timed, so a loaded machine can change a result: compare two builds in one run, one after the
other, as the README does. Python 3, standard library only.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path


def puzzles(path: Path):
    """(id, kind, tags, answer) of each puzzle of a file."""
    cur = {}
    for line in path.read_text().splitlines() + [""]:
        if not line.strip():
            if "id" in cur:
                yield cur
            cur = {}
            continue
        if ":" in line and not line.startswith((" ", "\t", "#")):
            k, v = line.split(":", 1)
            cur[k.strip()] = v.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tengen", default="target/release/tengen")
    ap.add_argument("--skip-tag", action="append", default=[])
    ap.add_argument("files", nargs="+", type=Path)
    o = ap.parse_args()
    totals = {}
    for f in o.files:
        if not f.is_file():
            print(f"analyze-truth.py: no file {f}", file=sys.stderr)
            sys.exit(2)
        for p in puzzles(f):
            kind = p.get("kind", "")
            tags = p.get("tags", "").split()
            if kind not in ("vcf", "vct", "win", "best-move") or any(t in tags for t in o.skip_tag):
                continue
            note = ""
            run = subprocess.run([o.tengen, "analyze", str(f), "--id", p["id"], "--format", "json"],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"ERROR {p['id']}: exit {run.returncode}: {run.stderr.strip()[:200]}")
                ok = False
                first = None
            else:
                a = json.loads(run.stdout)
                first = a["candidates"][0] if a["candidates"] else None
                if kind == "best-move":
                    answer = p.get("answer", "")
                    good = answer.split("any of", 1)[1].split("(")[0].split() if "any of" in answer else answer.split()[:1]
                    ok = first is not None and first["move"] in good
                    # A defence puzzle whose side to move can win outright: a verified mate
                    # (printed only once proved) beats every listed defence.
                    if not ok and first is not None and (first.get("mate_in") or 0) > 0:
                        ok, note = True, " (a verified win, not a listed defence)"
                else:
                    ok = first is not None and (first.get("mate_in") or 0) > 0
            what = "none" if first is None else f"{first['move']} score {first['score']} mate {first.get('mate_in')}"
            what += note
            print(f"{'PASS' if ok else 'FAIL'}\t{kind}\t{p['id']}\t{what}", flush=True)
            t = totals.setdefault(kind, [0, 0])
            t[0] += ok
            t[1] += 1
    for kind, (ok, n) in sorted(totals.items()):
        print(f"{kind}: {ok} of {n} passed")


if __name__ == "__main__":
    main()
