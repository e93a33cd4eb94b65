#!/usr/bin/env python3
"""tengen's threat solvers against quintet's, side by side, on every public case: one command.

    ANCHORS=~/anchors scripts/peer-bench.py                      # the public sets, 5 runs a case
    ANCHORS=~/anchors scripts/peer-bench.py --runs 3 --filter vct_game --markdown docs/peer-table.md

Three groups of renju positions, each solved by `tengen solve` and by quintet (through the
anchors' driver `quintet-solve`, built outside this repository by
../shared/anchors/build-quintet.sh) with the same attacker, bound (`limit:`, else unbounded)
and threat limit (`threat-limit:`, else 2):

- **vct**: the cases of kind `vct` (and `no-win` tagged `vct`) of the files;
- **vcf**: the cases of kind `vcf` (and `no-win` tagged `vcf`);
- **disproof**: the position after each of the first --defences stated defences of the
  puzzles with an `answer: any of ...` (the attacker asked for a VCT, threat limit 2, at most
  30 moves), as `scripts/disproof-bench.py` asks them; and, with --other-side, each renju
  puzzle's position asked of the side not to move.

Each position is run --runs times by each program, alternating, and the median of each
program's own timing of its search is kept (tengen's `elapsed_ms`, which leaves out the
verification; quintet's `elapsed:`). Prints a row a position (both verdicts, both medians and
their ratio), then for each group the geometric mean of tengen / quintet over the positions
both decided where quintet took at least --floor ms (default 5), and the worst of them by name.
tengen's node counts are printed too, a row each and summed a group (`--json FILE` writes a
line a position); `--tengen-only` runs tengen alone, to compare two builds by their files.
Exit 1 when a verdict differs or a ratio is above --max-ratio (default: none); 2 on a usage
error. Python 3, standard library only.
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = ROOT.parent / "shared" / "puzzles-public"


def die(msg):
    print(f"peer-bench.py: {msg}", file=sys.stderr)
    sys.exit(2)


def blocks(path):
    """The key: value blocks of a puzzle file, as dicts (the first value of each key)."""
    out = []
    for text in re.split(r"\n\s*\n", Path(path).read_text()):
        keys = {}
        for line in text.splitlines():
            m = re.match(r"^([a-z-]+):\s*(.*)$", line)
            if m and m.group(1) not in keys:
                keys[m.group(1)] = m.group(2).strip()
        if "id" in keys:
            out.append(keys)
    return out


def group_of(keys):
    """The group a public case belongs to, or None."""
    kind, tags = keys.get("kind"), keys.get("tags", "").split()
    if kind in ("vct", "vcf"):
        return kind
    if kind == "no-win":
        return "vct" if "vct" in tags else "vcf" if "vcf" in tags else None
    return None


def run(cmd, timeout):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


class Bench:
    def __init__(self, a, quintet):
        self.a, self.quintet = a, quintet

    def position(self, path, pid):
        shown = run([self.a.tengen, "show", str(path), "--id", pid, "--format", "json"], 30)
        if shown is None or shown.returncode != 0:
            die(f"{path} {pid}: tengen show failed: {shown and shown.stderr.strip()}")
        return json.loads(shown.stdout)

    def tengen(self, mode, size, stones, attacker, limit, threat_limit):
        """(verdict, ms, nodes) of one tengen run."""
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as t:
            t.write(f"id: x\nrule: renju\nsize: {size}\nblack: {' '.join(stones['black'])}\n"
                    f"white: {' '.join(stones['white'])}\nto-move: {attacker}\n")
            name = t.name
        cmd = [self.a.tengen, "solve", name, f"--{mode}", "--max-nodes", str(self.a.max_nodes),
               "--time", f"{self.a.timeout}s", "--format", "json"]
        if limit:
            cmd += ["--limit", str(limit)]
        if mode == "vct":
            cmd += ["--threat-limit", str(threat_limit)]
        r = run(cmd, self.a.timeout + 30)
        os.unlink(name)
        if r is None:
            return "unknown", self.a.timeout * 1000, 0
        if r.returncode != 0:
            die(f"tengen solve failed: {r.stderr.strip()}")
        j = json.loads(r.stdout)
        return j["result"], j.get("elapsed_ms", 0.0), j.get("nodes", 0)

    def quintet_run(self, mode, stones, attacker, limit, threat_limit):
        """(verdict, ms) of one quintet run; ("-", 0) with --tengen-only."""
        if self.quintet is None:
            return "-", 0.0
        up = lambda s: ",".join(x.upper() for x in s)
        cmd = [self.quintet, mode, str(limit or 255), attacker,
               f"{up(stones['black'])}/{up(stones['white'])}"]
        if mode == "vct":
            cmd.append(str(threat_limit))
        q = run(cmd, self.a.timeout)
        if q is None:
            return "unknown", self.a.timeout * 1000
        first = q.stdout.split()[0] if q.stdout.split() else "UNKNOWN"
        m = re.search(r"elapsed: ([0-9.]+)ms", q.stdout)
        return ({"WIN": "win", "NONE": "no-win"}.get(first, "unknown"),
                float(m.group(1)) if m else self.a.timeout * 1000)

    def side_by_side(self, mode, size, stones, attacker, limit, threat_limit):
        """Both programs, --runs times each, alternating: (tengen verdict, median ms, nodes,
        quintet verdict, median ms)."""
        t, q = [], []
        for _ in range(self.a.runs):
            t.append(self.tengen(mode, size, stones, attacker, limit, threat_limit))
            q.append(self.quintet_run(mode, stones, attacker, limit, threat_limit))
        verdict = lambda runs: runs[0][0] if len({r[0] for r in runs}) == 1 else "unknown"
        return (verdict(t), statistics.median(r[1] for r in t), t[0][2],
                verdict(q), statistics.median(ms for _, ms in q))


def jobs(a):
    """(group, label, file, id, defence or None, mode, limit, threat limit, side to attack or
    None for the side to move) of every position to run."""
    out = []
    for f in a.files:
        for k in blocks(f):
            g = group_of(k)
            if g and k.get("rule") == "renju" and not set(k.get("tags", "").split()) & set(a.skip_tag):
                out.append((g, k["id"], f, k["id"], None, g, k.get("limit"),
                            k.get("threat-limit", "2"), None))
    for f in a.defences_from:
        for k in blocks(f):
            ans = re.match(r"(?:any of\s+)?([a-z0-9 ]+)", k.get("answer", ""))
            if k.get("rule") != "renju" or not ans:
                continue
            moves = [m for m in ans.group(1).split() if re.fullmatch(r"[a-v][0-9]{1,2}", m)]
            for d in moves[: a.defences]:
                out.append(("disproof", f"{k['id']} after {d}", f, k["id"], d, "vct", 30, "2",
                            None))
    for f in a.other_side:
        for k in blocks(f):
            if k.get("rule") == "renju" and not set(k.get("tags", "").split()) & set(a.skip_tag):
                out.append(("disproof", f"{k['id']}, the other side attacking", f, k["id"],
                            None, "vct", 30, "2", "other"))
    try:
        wanted = re.compile(a.filter)
    except re.error as e:
        die(f"--filter {a.filter!r}: {e}")
    return [j for j in out if wanted.search(j[1])]


def summary(rows, floor):
    """Per group: the geometric mean of tengen / quintet and the worst, where quintet took at
    least `floor` ms and both decided."""
    lines = []
    for g in ("vct", "vcf", "disproof"):
        pairs = [(label, t, q) for grp, label, tv, t, qv, q, _ in rows
                 if grp == g and "unknown" not in (tv, qv) and q >= floor]
        if not pairs:
            continue
        gm = math.exp(sum(math.log(max(t, 0.001) / q) for _, t, q in pairs) / len(pairs))
        label, t, q = max(pairs, key=lambda p: p[1] / p[2])
        lines.append((g, len(pairs), gm, label, t / q))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", help="puzzle files of VCT and VCF cases (default: the "
                    "public quintet and mintaka sets)")
    ap.add_argument("--defences-from", nargs="*", metavar="FILE",
                    help="puzzles whose stated defences are played, then disproved (default: "
                         "the public lfz084 defence set and puzzles/defence.txt)")
    ap.add_argument("--other-side", nargs="*", default=[], metavar="FILE")
    ap.add_argument("--tengen", default=str(ROOT / "target" / "release" / "tengen"))
    ap.add_argument("--quintet")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--defences", type=int, default=3)
    ap.add_argument("--floor", type=float, default=5.0,
                    help="the ratios summed are those where quintet took at least this (ms)")
    ap.add_argument("--max-ratio", type=float)
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--skip-tag", nargs="*", default=["heavy"])
    ap.add_argument("--filter", default="",
                    help="a regular expression; only the positions whose name it matches "
                         "(e.g. 'white_l10_1$', without its _short)")
    ap.add_argument("--markdown", metavar="FILE")
    ap.add_argument("--json", metavar="FILE", help="write a JSON line a position")
    ap.add_argument("--tengen-only", action="store_true",
                    help="run tengen alone (to compare two builds by their --json files)")
    a = ap.parse_args()
    if not a.files:
        a.files = [str(PUBLIC / "quintet-renju.txt"), str(PUBLIC / "mintaka-renju.txt")]
    if a.defences_from is None:
        a.defences_from = [str(PUBLIC / "lfz084-renju-defence.txt"), str(ROOT / "puzzles" / "defence.txt")]
    for f in a.files + a.defences_from + a.other_side:
        if not Path(f).is_file():
            die(f"no such file: {f}")
    quintet = a.quintet or (os.environ.get("ANCHORS") and str(
        Path(os.environ["ANCHORS"]) / "target" / "release" / "quintet-solve"))
    if a.tengen_only:
        quintet = None
    elif not quintet or not os.access(quintet, os.X_OK):
        die("no quintet-solve: give --quintet PATH or set ANCHORS (../shared/anchors/build-quintet.sh)")
    if not os.access(a.tengen, os.X_OK):
        die(f"no tengen at {a.tengen}: cargo build --release")
    bench = Bench(a, quintet)
    rows, differ = [], []
    for g, label, f, pid, defence, mode, limit, tl, side in jobs(a):
        pos = bench.position(f, pid)
        attacker = pos["to_move"]
        stones = {"black": list(pos["black"]), "white": list(pos["white"])}
        if defence is not None:
            stones[attacker].append(defence)
        if defence is not None or side == "other":
            attacker = "white" if attacker == "black" else "black"
        tv, tt, tn, qv, qt = bench.side_by_side(mode, pos["size"], stones, attacker, limit, tl)
        rows.append((g, label, tv, tt, qv, qt, tn))
        if "unknown" not in (tv, qv) and "-" not in (tv, qv) and tv != qv:
            differ.append(label)
        ratio = f"{tt / qt:.2f}" if qt > 0 and "unknown" not in (tv, qv) else "-"
        print(f"{g:8} {label}: tengen {tv} {tt:.2f} ms {tn} nodes, quintet {qv} {qt:.2f} ms, "
              f"ratio {ratio}", flush=True)
    print(f"\n{len(rows)} positions, {a.runs} runs each; verdicts differ on {len(differ)}"
          + "".join(f"\n  DIFFER: {d}" for d in differ))
    for g in dict.fromkeys(r[0] for r in rows):
        print(f"{g}: tengen searched {sum(r[6] for r in rows if r[0] == g)} nodes in all")
    if a.json:
        keys = ("group", "position", "tengen", "ms", "quintet", "quintet_ms", "nodes")
        Path(a.json).write_text("".join(json.dumps(dict(zip(keys, r))) + "\n" for r in rows))
    worst_ratio = 0.0
    for g, n, gm, label, worst in summary(rows, a.floor):
        worst_ratio = max(worst_ratio, worst)
        print(f"{g}: {n} positions where quintet took >= {a.floor:g} ms: geometric mean of "
              f"tengen / quintet {gm:.3f}, worst {worst:.2f} ({label})")
    if a.markdown:
        with open(a.markdown, "w") as out:
            out.write("| group | position | tengen | ms | quintet | ms | tengen / quintet |\n"
                      "| --- | --- | --- | ---: | --- | ---: | ---: |\n")
            for g, label, tv, tt, qv, qt, _ in rows:
                ratio = f"{tt / qt:.2f}" if qt > 0 and "unknown" not in (tv, qv) else ""
                out.write(f"| {g} | {label} | {tv} | {tt:.2f} | {qv} | {qt:.2f} | {ratio} |\n")
    too_slow = a.max_ratio is not None and worst_ratio > a.max_ratio
    sys.exit(1 if differ or too_slow else 0)


if __name__ == "__main__":
    main()
