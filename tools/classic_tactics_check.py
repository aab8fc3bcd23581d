"""Issue 22's check that the Classic ``competent`` default is not a straw man (a script run,
not a test): for every ordered pair of the catalog's Classic 'Mechs, side A's score
(P(A wins) + 1/2 P(draw or timeout)) with ``competent`` against a competent B, against its
score with each other named tactic against the same B; the pair passes when competent is at
least every other within 2 SE of the difference. Prints the share of pairs passing and the
exceptions; ``--json FILE`` writes every cell. A subset: ``--units A,B`` (side A among
these catalog names), ``--pairs "A vs B;C vs D"`` or ``--from-json FILE`` (the exceptions of
an earlier ``--json``); each pair keeps its seeds of the full run (by its index in it).

    PYTHONPATH=. python tools/classic_tactics_check.py [--trials 400] [--range 6] [--turns 10]
        [--units ...] [--pairs ...] [--from-json FILE] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

UNITS = ("Locust LCT-1V", "Commando COM-2D", "Hatchetman HCT-3F", "JagerMech JM6-S",
         "Hunchback HBK-4G", "Wolverine WVR-6R", "Axman AXM-1N", "Catapult CPLT-C1",
         "Banshee BNC-3E", "Grasshopper GHR-5H", "Awesome AWS-8Q", "Atlas AS7-D",
         "Loki (Hellbringer) Prime", "Mad Cat (Timber Wolf) Prime")


def score(a: str, b: str, ta: str, n: int, rng_seed: int, r: int, turns: int
          ) -> tuple[float, float]:
    """A's mean score and its standard error over ``n`` duels (A plays ``ta``, B
    competent)."""
    from sim.classic.duel.scenario import build
    from sim.classic.engine import sampler

    scn = build({"unit_a": a, "unit_b": b, "range": r, "turns": turns, "tactic_a": ta,
                 "tactic_b": "competent"})
    out = sampler.run(scn, np.random.default_rng(rng_seed), n)
    da, db = out["dead_turn"]
    a_wins = (db > 0) & ((da == 0) | (db < da))
    b_wins = (da > 0) & ((db == 0) | (da < db))
    s = np.where(a_wins, 1.0, np.where(b_wins, 0.0, 0.5))
    return float(s.mean()), float(s.std(ddof=1) / np.sqrt(n))


def _bad(msg: str) -> None:
    print(msg, file=sys.stderr)
    raise SystemExit(2)


def select(pairs: list[tuple[str, str]], units: str | None, named: str | None,
           from_json: str | None) -> set[int]:
    """Indexes of the pairs to play (all when no filter is given); an unknown name: one
    line on stderr, exit 2."""
    keep = set(range(len(pairs)))
    if units:
        want = [u.strip() for u in units.split(",") if u.strip()]
        bad = [u for u in want if u not in UNITS]
        if bad:
            _bad(f"--units: unknown unit {bad[0]!r} (one of {', '.join(UNITS)})")
        keep &= {k for k, (a, _) in enumerate(pairs) if a in want}
    sel: list[tuple[str, str]] = []
    if named:
        for item in named.split(";"):
            ab = tuple(x.strip() for x in item.split(" vs "))
            if len(ab) != 2 or ab not in pairs:
                _bad(f"--pairs: {item.strip()!r} is not 'A vs B' of catalog units")
            sel.append((ab[0], ab[1]))
    if from_json:
        with open(from_json) as fh:
            sel += [(e["a"], e["b"]) for e in json.load(fh)["exceptions"]]
    if named or from_json:
        keep &= {pairs.index(ab) for ab in sel}
    return keep


def main(argv: list[str] | None = None) -> int:
    from sim.classic.duel.tactics import NAMES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=400)
    p.add_argument("--range", type=int, default=6)
    p.add_argument("--turns", type=int, default=10)
    p.add_argument("--json", default=None)
    p.add_argument("--units", default=None, help="side A among these names (comma-separated)")
    p.add_argument("--pairs", default=None, help='"A vs B" pairs, separated by ";"')
    p.add_argument("--from-json", default=None, help="the exceptions of an earlier --json")
    args = p.parse_args(argv)
    others = [t for t in NAMES if t != "competent"]
    cells, fails = [], []
    t0 = time.process_time()
    pairs = [(a, b) for a in UNITS for b in UNITS]
    chosen = select(pairs, args.units, args.pairs, args.from_json)
    for k, (a, b) in enumerate(pairs):
        if k not in chosen:
            continue
        base, se0 = score(a, b, "competent", args.trials, 2 * k, args.range, args.turns)
        worst = []
        for j, t in enumerate(others):
            v, se = score(a, b, t, args.trials, 2 * k + 1 + 1000 * (j + 1), args.range,
                          args.turns)
            cells.append({"a": a, "b": b, "tactic_a": t, "score": v, "se": se,
                          "competent": base, "competent_se": se0})
            if v - base > 2 * np.hypot(se, se0):
                worst.append((t, round(v - base, 3)))
        if worst:
            fails.append((a, b, base, worst))
        print(f"{k + 1}/{len(pairs)} {a} vs {b}: competent {base:.3f}"
              + (f"  beaten by {worst}" if worst else ""), flush=True)
    share = 1 - len(fails) / len(chosen)
    print(f"\ncompetent at least every other tactic (within 2 SE) for {share:.1%} of "
          f"{len(chosen)} ordered pairs ({args.trials} duels a cell, range {args.range}, "
          f"{args.turns} turns; {time.process_time() - t0:.0f} s CPU)")
    for a, b, base, worst in fails:
        print(f"  exception: {a} vs {b} (competent {base:.3f}): {worst}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"share": share, "cells": cells,
                       "exceptions": [{"a": a, "b": b, "competent": base, "beaten_by": w}
                                      for a, b, base, w in fails]}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
