"""How competent is ``competent``? (issue 22) -- the share of ordered pairs of catalog
Alpha Strike cards for which ``competent`` A against ``competent`` B scores at least what
every other named tactic scores for A against a competent B.

A's score is P(A wins) + 1/2 P(draw or timeout). Every cell is the exact chain's answer
(Monte Carlo with ``--trials`` where the chain does not fit, with its 2-SE allowance), so the
comparison is exact: ``competent`` passes a pair when its score is at least the best other
tactic's minus ``--tol`` (default 1e-6, float rounding; exact numbers carry no sampling
error). The pairs are
a fixed-seed sample of the ordered pairs of distinct catalog cards.

    PYTHONPATH=. python tools/competence.py --pairs 87 --seed 22 [--rule crits=false] [--mc]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from sim.alphastrike.duel.competence import check_pair, sample_pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=87)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--trials", type=int, default=4000)
    ap.add_argument("--rule", action="append", default=[], help="NAME=VALUE (a duel option)")
    ap.add_argument("--mc", action="store_true",
                    help="Monte Carlo (--trials a cell) even where the exact chain fits")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    params: dict[str, Any] = {}
    for r in args.rule:
        k, _, v = r.partition("=")
        params[k] = {"true": True, "false": False}.get(v, v)
    rows = []
    t0 = time.process_time()
    for a, b in sample_pairs(args.pairs, args.seed):
        row = check_pair(a, b, params, args.tol, args.trials, not args.mc)
        rows.append(row)
        if not args.json:
            flag = "ok  " if row["ok"] else "FAIL"
            print(f"{flag} {a} vs {b}: competent {row['competent']:.4f}, best other "
                  f"{row['best_other']} {row['best_other_score']:.4f}", flush=True)
    ok = sum(r["ok"] for r in rows)
    for t in (0.005, 0.01, 0.02):
        print(f"within {t}: {sum(r['margin'] >= -t for r in rows)}/{len(rows)}")
    summary = {"pairs": len(rows), "ok": ok, "share": ok / max(len(rows), 1),
               "cpu_s": time.process_time() - t0,
               "exceptions": [r for r in rows if not r["ok"]]}
    if args.json:
        json.dump({"summary": summary, "rows": rows}, sys.stdout, indent=1)
    else:
        print(f"competent >= every other named tactic against competent B: {ok}/{len(rows)} "
              f"= {summary['share']:.0%} of sampled ordered pairs "
              f"(CPU {summary['cpu_s']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
