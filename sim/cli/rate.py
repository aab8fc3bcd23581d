"""``btsim rate``: a fair price for every unit, with the evidence (issue 23;
:mod:`sim.rating`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sim.cli.common import add_rule_flags, rule_overrides


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rate", help="rate units against a reference pool: strength, fair BV/PV, verdicts",
        description="Every unit plays a reference pool in a declared set of scenarios (both "
        "seatings); Bradley-Terry strengths with 95%% intervals, the fair price from the "
        "fitted strength-price curve, and a verdict only where it holds after a Holm (or BH) "
        "correction in every scenario. Writes results/<name>/ like `btsim run`.",
        epilog="examples:\n  btsim rate --all --game alphastrike\n"
        "  btsim rate \"Atlas AS7-D\" \"Locust LCT-1V\" --game classic --pool auto\n"
        "  btsim rate --all --game alphastrike --scenarios my_scenarios.toml --jobs 2 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    from sim.choices import BACKENDS  # after add_parser: `btsim --help` stays light

    p.add_argument("units", nargs="*", metavar="UNIT", help="units to rate (or --all)")
    p.add_argument("--all", action="store_true", help="every unit of the game in the catalog")
    p.add_argument("--game", default="alphastrike", help="alphastrike or classic "
                   "(default alphastrike)")
    p.add_argument("--pool", default="auto", metavar="NAMES|auto",
                   help="reference pool: 'auto' (spread over weight and price, recorded) or "
                   "comma-separated unit names")
    p.add_argument("--pool-size", type=int, help="units in an automatic pool")
    p.add_argument("--scenarios", metavar="FILE", help="TOML with [[scenario]] tables (name "
                   "and duel parameters) and optional tactics = [...] (default: short, "
                   "medium and long range)")
    p.add_argument("--tactics", metavar="T1,T2",
                   help="tactics crossed with the scenarios (tactic_a = tactic_b = T; for a "
                   "duel model that takes them; default: the duel's own behaviour)")
    p.add_argument("--seatings", default="both", help="both (default) or one")
    p.add_argument("--target-error", type=float, default=None,
                   help="95%% half-width of every strength, logit units (default 0.35)")
    p.add_argument("--max-trials", type=int, help="duels per pairing at most")
    p.add_argument("--chunk-size", type=int, help="duels per seeded chunk")
    p.add_argument("--correction", default="holm", help="holm (family-wise error) or bh "
                   "(false discovery rate), both at 5%%")
    p.add_argument("--exact", action="store_true", help="Alpha Strike: exact chain for "
                   "every pairing whose chain fits (slow with crits), Monte Carlo otherwise")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="workers; -1 = all cores (default 1)")
    p.add_argument("--backend", default="loky", help="joblib backend: " + ", ".join(BACKENDS))
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler for --backend dask")
    p.add_argument("--out", default="results", help="results folder (default results/)")
    p.add_argument("--name", help="results subfolder (default rating_<game>)")
    p.add_argument("--no-save", action="store_true", help="print only, write nothing")
    p.add_argument("--json", action="store_true", help="print the JSON document")
    add_rule_flags(p, None, preset=False)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim.errors import ConfigError
    from sim.rating import experiment as RE
    from sim.rating import run as R
    from sim.rating.text import summary_lines, to_json

    game = R.check_game(args.game)
    if args.all == bool(args.units):
        raise ConfigError("units", args.units, "unit names or --all (one of the two)")
    scenarios, tactics = (R.read_scenarios(args.scenarios) if args.scenarios
                          else (None, None))
    if args.tactics:
        tactics = [t.strip() for t in args.tactics.split(",") if t.strip()]
    pool = "auto" if args.pool == "auto" else [u.strip() for u in args.pool.split(",")
                                               if u.strip()]
    model = R.GAMES[game]["model"]
    name = args.name or f"rating_{game}"
    folder = None if args.no_save else Path(args.out) / name
    from sim.cache import CACHE_DIR

    res = R.rate(args.units or None, game=game, pool=pool, scenarios=scenarios,
                 tactics=tactics, seatings=args.seatings, pool_size=args.pool_size,
                 target_error=args.target_error or R.TARGET_ERROR,
                 max_trials=args.max_trials, chunk_size=args.chunk_size, seed=args.seed,
                 n_jobs=args.jobs, backend=args.backend, scheduler=args.scheduler,
                 exact=args.exact, correction=args.correction,
                 rule_overrides=rule_overrides(args, model),
                 cache_dir=folder / CACHE_DIR if folder is not None else None)
    if folder is not None:
        RE.write(folder, res)
    if args.json:
        print(json.dumps(to_json(res.frame, res.meta), default=str))
    else:
        print("\n".join(summary_lines(res.frame, res.meta)))
        if folder is not None:
            print(f"{folder}: {len(res.frame)} rows", file=sys.stderr)
    return 0
