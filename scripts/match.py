#!/usr/bin/env python3
"""Play a match between two Gomocup engines through c-gomoku-cli and summarise it.

    scripts/match.py --a target/release/pbrain-tengen --b target/release/pbrain-tengen \\
        --a-turn-ms 200 --b-turn-ms 1000 --rule renju --games 200 --out match-out/

Each engine is a command (a path, then its arguments), started in an empty temporary working
directory of its own. Games start from the balanced openings shipped in
examples/openings/{freestyle,renju}.cgc (c-gomoku-cli's offset format; standard uses the
freestyle ones), each opening played twice with colours swapped, one game at a time on 15x15.

Clocks: --turn-ms (both engines, or --a-turn-ms / --b-turn-ms for each) is the limit a move;
--match-s adds a game clock and --increment-s an increment a move (c-gomoku-cli's
tc=MATCH/TURN+INC). c-gomoku-cli accepts a late move within its tolerance, so this script
reads every move's time from the SGF and counts the moves over their limit itself.

Prints and writes to OUT/summary.txt: W/D/L of A, its score and an Elo estimate with a 95%
interval (the normal approximation over game results), how games ended (five, time forfeit,
illegal move, crash, forbidden move), each engine's mean and longest move time and moves over
the limit, with a game clock the least time it had left at the end of a game, and the depth each
reached when its MESSAGE lines say (tengen's `depth D-S`,
Rapfi's `Depth D-S`). OUT also holds games.sgf, games.pgn, messages.txt and cgc.log.
--sprt ELO0,ELO1 stops early by c-gomoku-cli's sequential test.

c-gomoku-cli (GPL-3.0) is never part of this repository: build it from its public source with
../shared/anchors/build-cgc.sh, and give it as --cgc PATH or $CGC (default
$ANCHORS/bin/c-gomoku-cli). Python 3, standard library only. Exit 0 when the match ran, 1 when
an engine lost on time, crashed or played an illegal move, 2 on a usage error.
"""

import argparse
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = {"freestyle": (0, "freestyle"), "standard": (1, "freestyle"), "renju": (4, "renju")}


def die(msg):
    print(f"match.py: {msg}", file=sys.stderr)
    sys.exit(2)


def wrapper(out: Path, name: str, command: str) -> Path:
    """A launcher that starts `command` in a fresh empty directory (Rapfi would otherwise read
    a config.toml it finds in its working directory)."""
    words = shlex.split(command)
    if not words:
        die(f"engine {name}: empty command")
    exe = words[0]
    if os.sep in exe:
        exe = str(Path(exe).resolve())
        if not os.access(exe, os.X_OK):
            die(f"engine {name}: {exe} is not an executable file")
    elif shutil.which(exe) is None:
        die(f"engine {name}: {exe} not found on PATH")
    args = " ".join(shlex.quote(w) for w in [exe] + words[1:])
    path = out / "engines" / f"{name}.sh"
    path.parent.mkdir(parents=True, exist_ok=True)
    # The engine replaces the shell (exec): a signal c-gomoku-cli sends on a time loss reaches
    # the engine itself. Behind a shell that waited for it, the engine lived on holding its
    # output pipe, so c-gomoku-cli never saw it end and waited for ever (three matches hung so
    # on 2026-11-27). The working directories are removed after the match.
    runs = out / "engines" / "run"
    runs.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "#!/bin/sh\n"
        f"dir=$(mktemp -d -p {shlex.quote(str(runs.resolve()))}) || exit 1\n"
        'cd "$dir" || exit 1\n'
        f"exec {args} \"$@\"\n"
    )
    path.chmod(0o755)
    return path


def elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def tally(out: Path, name_a: str, log: str) -> dict:
    """W/D/L of engine A over the games in c-gomoku-cli's log `log` (OUT's games.sgf tells
    which games ended before any move past the opening: those are left out and listed)."""
    games = re.findall(r"Finished game (\d+) \((.+?) vs (.+?)\): (\S+) \{(.*?)\}", log)
    t = {"wins": 0, "draws": 0, "losses": 0, "as_black": [0, 0, 0], "reasons": {},
         "not_started": [], "bad": False}
    sgf = (out / "games.sgf").read_text(errors="replace") if (out / "games.sgf").exists() else ""
    # Moves each game had past its opening, by game number (the SGF's GN).
    played = {}
    for game in re.findall(r"\(;FF.*?\)", sgf, re.S):
        gn = re.search(r"GN\[(\d+)\]", game)
        if gn:
            played[gn.group(1)] = len(re.findall(r";[BW]\[[a-z]*\]C\[\d+ms\]", game))
    # A game lost on time or by a crash before any move past the opening is an engine that
    # failed to answer the game's START, not a game played. c-gomoku-cli then names the side to
    # move the loser whichever engine failed (its game.cpp returns the result by the engine to
    # move, not the one that failed; its tally and its text can even disagree), so such a game
    # is left out of W-D-L and listed apart.
    for number, black, white, result, reason in games:
        t["reasons"][reason] = t["reasons"].get(reason, 0) + 1
        if re.search(r"time|illegal|crash", reason, re.I):
            t["bad"] = True
            if played.get(number) == 0:
                t["not_started"].append(number)
                continue
        a_black = black == name_a
        if result == "1/2-1/2":
            t["draws"] += 1
            k = 1
        elif (result == "1-0") == a_black:
            t["wins"] += 1
            k = 0
        else:
            t["losses"] += 1
            k = 2
        if a_black:
            t["as_black"][k] += 1
    return t


def score_lines(name_a: str, name_b: str, wins: int, draws: int, losses: int,
                as_black: list) -> list:
    """The W-D-L, score and Elo with its 95% interval (normal approximation), and the split by
    colour."""
    n = wins + draws + losses
    lines = [f"{name_a} vs {name_b}: {n} games"]
    if n:
        p = (wins + draws / 2) / n
        var = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * (0 - p) ** 2) / n
        se = math.sqrt(var / n) if n > 1 else 0.5
        lo, hi = p - 1.96 * se, p + 1.96 * se
        lines.append(
            f"W-D-L {wins}-{draws}-{losses} for {name_a}, score {100 * p:.1f}%, "
            f"Elo {elo(p):+.0f} (95%: {elo(lo):+.0f} to {elo(hi):+.0f})"
        )
        lines.append(
            f"{name_a} as black W-D-L {as_black[0]}-{as_black[1]}-{as_black[2]}, "
            f"as white {wins - as_black[0]}-{draws - as_black[1]}-{losses - as_black[2]}"
        )
    return lines


def summarise(out: Path, name_a: str, name_b: str, limits: dict, log: str,
              clock: tuple[float, float] | None = None) -> tuple[str, bool]:
    t = tally(out, name_a, log)
    reasons, not_started, bad = t["reasons"], t["not_started"], t["bad"]
    sgf = (out / "games.sgf").read_text(errors="replace") if (out / "games.sgf").exists() else ""
    lines = score_lines(name_a, name_b, t["wins"], t["draws"], t["losses"], t["as_black"])
    lines.append("endings: " + ", ".join(f"{r} {c}" for r, c in sorted(reasons.items())))
    if not_started:
        lines.append(
            f"not in W-D-L: game {', '.join(not_started)} ended before any move past the opening "
            "(an engine failed at the game's start; see its protocol messages in cgc.log)"
        )
    # Move times from the SGF: C[<ms>] after each move, opening stones marked.
    times = {name_a: [], name_b: []}
    # With a game clock: the least time any engine had left at the end of a game.
    least_left = {name_a: None, name_b: None}
    for game in re.findall(r"\(;FF.*?\)", sgf, re.S):
        pb = re.search(r"PB\[(.*?)\]", game)
        pw = re.search(r"PW\[(.*?)\]", game)
        if not pb or not pw:
            continue
        used = {name_a: [0, 0], name_b: [0, 0]}
        for colour, ms in re.findall(r";([BW])\[[a-z]*\]C\[(\d+)ms\]", game):
            who = pb.group(1) if colour == "B" else pw.group(1)
            if who in times:
                times[who].append(int(ms))
                used[who][0] += int(ms)
                used[who][1] += 1
        if clock:
            for who, (ms, moves) in used.items():
                if moves:
                    left = clock[0] * 1000 + clock[1] * 1000 * moves - ms
                    if least_left[who] is None or left < least_left[who]:
                        least_left[who] = left
    for who, ts in times.items():
        if not ts:
            continue
        limit = limits.get(who)
        over = sum(1 for t in ts if limit and t > limit)
        lines.append(
            f"{who}: {len(ts)} moves, mean {sum(ts) / len(ts):.0f} ms, longest {max(ts)} ms"
            + (f", {over} over the {limit} ms limit" if limit else "")
        )
        if over:
            bad = True
        if clock and least_left[who] is not None:
            lines.append(f"{who}: least game-clock time left at a game's end {least_left[who] / 1000:.1f} s")
    # Depth reached: each engine's deepest `depth D-S` line (tengen) or `Depth D-S` (Rapfi)
    # a move, from the MESSAGE lines c-gomoku-cli saved as "<ply>) <engine>: <text>".
    msgs = out / "messages.txt"
    if msgs.exists():
        deepest = {}
        game = 0
        for line in msgs.read_text(errors="replace").splitlines():
            if line.startswith("Game ID:"):
                game += 1
                continue
            m = re.match(r"(\d+)\) (.+?): .*?[Dd]epth (\d+)-(\d+)", line)
            if m:
                key = (game, int(m.group(1)), m.group(2))
                d = (int(m.group(3)), int(m.group(4)))
                deepest[key] = max(deepest.get(key, d), d)
        for who in (name_a, name_b):
            ds = [d for (g, ply, w), d in deepest.items() if w == who]
            if ds:
                lines.append(
                    f"{who}: depth per move (deepest reported) mean {sum(d for d, _ in ds) / len(ds):.1f}, "
                    f"seldepth {sum(s for _, s in ds) / len(ds):.1f}, over {len(ds)} moves"
                )
    return "\n".join(lines) + "\n", bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="engine A's command")
    ap.add_argument("--b", required=True, help="engine B's command")
    ap.add_argument("--name-a", default="A")
    ap.add_argument("--name-b", default="B")
    ap.add_argument("--rule", choices=RULES, default="freestyle")
    ap.add_argument("--games", type=int, default=100, help="even: each opening with both colours")
    ap.add_argument("--once", action="store_true",
                    help="each opening once, colours not swapped (self-play for data: an engine "
                    "against itself plays the swapped game again)")
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--a-turn-ms", type=int)
    ap.add_argument("--b-turn-ms", type=int)
    ap.add_argument("--match-s", type=float, default=0, help="game clock in seconds (0: none)")
    ap.add_argument("--increment-s", type=float, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--memory", type=int, default=350 << 20, help="max_memory in bytes")
    ap.add_argument("--tolerance", type=float, default=3)
    ap.add_argument("--openings", type=Path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--draw-after", type=int, default=225)
    ap.add_argument("--sprt", help="ELO0,ELO1: stop by the sequential test")
    ap.add_argument("--cgc", help="c-gomoku-cli (default $CGC, else $ANCHORS/bin/c-gomoku-cli)")
    ap.add_argument("--out", type=Path, required=True)
    o = ap.parse_args()
    if not o.once and (o.games < 2 or o.games % 2):
        die("--games must be even and at least 2 (each opening with both colours)")
    cgc = o.cgc or os.environ.get("CGC") or (
        os.environ.get("ANCHORS") and str(Path(os.environ["ANCHORS"]) / "bin" / "c-gomoku-cli")
    )
    if not cgc or not os.access(cgc, os.X_OK):
        die("no c-gomoku-cli: give --cgc PATH, or set CGC or ANCHORS (../shared/anchors/build-cgc.sh)")
    rid, book = RULES[o.rule]
    openings = o.openings or ROOT / "examples" / "openings" / f"{book}.cgc"
    if not openings.is_file():
        die(f"no openings file {openings}")
    out = o.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for f in ("games.sgf", "games.pgn", "messages.txt"):
        if (out / f).exists():
            die(f"{out / f} exists (c-gomoku-cli appends to it): use a new --out")
    if o.name_a == o.name_b:
        die("--name-a and --name-b must differ")
    ta = o.a_turn_ms or o.turn_ms
    tb = o.b_turn_ms or o.turn_ms
    tc = lambda ms: f"tc={o.match_s:g}/{ms / 1000:g}" + (f"+{o.increment_s:g}" if o.increment_s else "")
    cmd = [
        cgc,
        "-each", f"tolerance={o.tolerance:g}", f"thread={o.threads}", f"maxmemory={o.memory}",
        "-engine", f"name={o.name_a}", f"cmd={wrapper(out, 'A', o.a)}", tc(ta),
        "-engine", f"name={o.name_b}", f"cmd={wrapper(out, 'B', o.b)}", tc(tb),
        "-rule", str(rid), "-boardsize", "15", "-games", str(o.games),
    ] + ([] if o.once else ["-repeat"]) + [
        "-concurrency", "1", "-drawafter", str(o.draw_after),
        "-openings", f"file={openings.resolve()}", "type=offset", "order=random", f"srand={o.seed}",
        "-pgn", "games.pgn", "-sgf", "games.sgf", "-msg", "messages.txt",
    ]
    if o.sprt:
        e0, e1 = o.sprt.split(",")
        cmd += ["-sprt", f"elo0={e0}", f"elo1={e1}"]
    (out / "command.txt").write_text(" ".join(shlex.quote(c) for c in cmd) + "\n")
    print(f"match.py: {o.name_a} vs {o.name_b}, {o.rule}, {o.games} games; output in {out}", flush=True)
    log = []
    with subprocess.Popen(["stdbuf", "-oL"] + cmd if shutil.which("stdbuf") else cmd, cwd=out,
                          stdout=subprocess.PIPE, text=True, errors="replace") as p:
        for line in p.stdout:
            log.append(line)
            if "Finished game" in line or "Score of" in line or "SPRT" in line:
                print(line, end="", flush=True)
    text = "".join(log)
    (out / "cgc.log").write_text(text)
    shutil.rmtree(out / "engines" / "run", ignore_errors=True)
    limits = {o.name_a: ta, o.name_b: tb}
    clock = (o.match_s, o.increment_s) if o.match_s else None
    summary, bad = summarise(out, o.name_a, o.name_b, limits, text, clock)
    (out / "summary.txt").write_text(summary)
    print(summary, end="")
    if p.returncode != 0:
        print(f"match.py: c-gomoku-cli exited with {p.returncode}", file=sys.stderr)
        sys.exit(1)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
