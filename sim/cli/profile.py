"""``btsim profile``: damage versus range of one Classic 'Mech (issue 11).

    btsim profile UNIT [--gunnery 4] [--turns 10] [--policy P] [--rule NAME=VALUE]
      [--trials N --seed S [--chunk-size C] [--jobs J]] [--progress MODE] [--json]

Monte Carlo (``sustained`` only) runs through :func:`sim.api.run_scenario`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sim.cli.common import add_edit_flag, int_arg, rule_overrides
from sim.cli.fire import add_mc_flags, edited_unit
from sim.errors import ConfigError


def register(sub: Any) -> None:
    p = sub.add_parser("profile", help="Classic damage versus range: maximum, hit-weighted, "
                       "sustained", description="For every range 1..longest: maximum damage, "
                       "hit-weighted expected damage (one turn, no heat) and sustained "
                       "expected damage per turn over N turns with heat carried.",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="example:\n  btsim profile \"Awesome AWS-8Q\" --policy neutral")
    p.add_argument("unit", metavar="UNIT", help="catalog name or .mtf file")
    p.add_argument("--gunnery", default="4", help="gunnery skill (default 4)")
    p.add_argument("--turns", default="10", help="turns for 'sustained' (default 10)")
    p.add_argument("--policy", default="all", help="all|neutral|below:H|max-expected")
    add_edit_flag(p)
    add_mc_flags(p, "profile")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sim.classic.fire.api import profile_result

    if args.seed is not None and args.trials is None:
        raise ConfigError("seed", args.seed, "given only with --trials")
    params = {"unit": edited_unit(args), "gunnery": int_arg("gunnery", args.gunnery),
              "turns": int_arg("turns", args.turns), "policy": args.policy,
              **rule_overrides(args, "profile")}
    doc = profile_result(params, trials=int_arg("trials", args.trials),
                         seed=int_arg("seed", args.seed),
                         n_jobs=int_arg("jobs", args.jobs) or 1,
                         chunk_size=int_arg("chunk_size", args.chunk_size),
                         progress=args.progress).to_dict()
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print(to_text(doc))
    return 0


def to_text(doc: dict[str, Any]) -> str:
    """The text table: ``max`` and ``hit-weighted`` are exact (no dice: one turn's
    arithmetic); ``sustained`` is exact, or with ``--trials`` a Monte Carlo estimate shown
    as value (95% interval) (:data:`sim.summary.INTERVAL_NOTE`)."""
    from sim.summary import INTERVAL_NOTE, text_table, with_interval

    p = doc["params"]
    mc = doc["mode"] != "exact"
    lines = [f"{p['unit']}: damage versus range (gunnery {p['gunnery']}, sustained over "
             f"{p['turns']} turns, policy {p['policy']}, {doc['mode']})"]
    if mc:
        lines.append(f"{INTERVAL_NOTE} (sustained; max and hit-weighted are exact)")
    lines += [f"note: {n}" for n in doc["notes"]]
    rows = [[str(r["range"]), f"{r['max_damage']:.1f}", f"{r['hit_weighted']:.3f}",
             with_interval(r["sustained"], r.get("sustained_se") if mc else None)]
            for r in doc["ranges"]]
    lines += text_table(["range", "max", "hit-weighted", "sustained"], rows)
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main

    sys.exit(main(["profile", *sys.argv[1:]]))
