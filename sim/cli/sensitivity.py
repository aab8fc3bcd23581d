"""``btsim sensitivity RESULTS_DIR``: each grid factor's one-step effect on each metric."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sensitivity", help="scale factors: each grid factor's one-step effect, with SE",
        description="For an experiment with a [grid], each factor's one-step change of each "
        "metric (averaged over the other factors) with its standard error, flagged 'not "
        "significant' under 2 SE, and a tornado plot (sensitivity.png/.svg in the results "
        "folder). Exact values are used where every scenario has one (then SE = 0).",
        epilog="example:\n  btsim sensitivity results/physical_damage --metric p_hit",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="one experiment's results folder")
    p.add_argument("--metric", action="append", metavar="M",
                   help="metric (repeatable; default every probability and mean metric)")
    p.add_argument("--no-plot", action="store_true", help="no tornado plot")
    p.add_argument("--json", action="store_true", help="print JSON records")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim.result import jsonable
    from sim.sensitivity import sensitivity, tornado

    table = sensitivity(args.results_dir, args.metric)
    plots = [] if args.no_plot or table.empty else tornado(table, args.results_dir)
    if args.json:
        print(json.dumps({"results": str(args.results_dir),
                          "plots": [str(p) for p in plots],
                          "effects": jsonable(table.to_dict(orient="records"))}, indent=2))
        return 0
    print(to_text(table, args.results_dir))
    for path in plots:
        print(f"wrote {path}")
    return 0


def to_text(table: Any, results_dir: Any) -> str:
    """The effects table: a Monte Carlo effect as value (95% interval), the one convention
    of the text outputs (:data:`sim.summary.INTERVAL_NOTE`); an exact one alone (``--json``
    keeps the standard errors)."""
    from sim.summary import INTERVAL_NOTE, text_table, with_interval

    rows = []
    for _, r in table.iterrows():
        note = ("" if r["significant"] else "no effect" if r["source"] == "exact"
                else "not significant (|effect| < 2 SE)")
        exact = r["source"] == "exact"
        rows.append([str(r["metric"]), str(r["factor"]), f"{r['first']}..{r['last']}",
                     with_interval(float(r["effect"]), None if exact else float(r["se"]),
                                   spec="#.4g"), str(r["source"]), note])
    lines = [f"{table.attrs.get('name', results_dir)}: one-step change per grid factor "
             f"(mean over the other factors); {INTERVAL_NOTE}"]
    lines += text_table(["metric", "factor", "values", "effect", "source", "note"], rows,
                        left=3)
    return "\n".join(lines)
