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
    p = doc["params"]
    lines = [f"{p['unit']}: damage versus range (gunnery {p['gunnery']}, sustained over "
             f"{p['turns']} turns, policy {p['policy']}, {doc['mode']})"]
    lines += [f"note: {n}" for n in doc["notes"]]
    lines.append(f"{'range':>5} {'max':>7} {'hit-weighted':>13} {'sustained':>10}")
    for r in doc["ranges"]:
        lines.append(f"{r['range']:>5} {r['max_damage']:7.1f} {r['hit_weighted']:13.3f} "
                     f"{r['sustained']:10.3f}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main

    sys.exit(main(["profile", *sys.argv[1:]]))
