"""``btsim rate``: a fair price for every unit, with the evidence (issue 23;
:mod:`sim.rating`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

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
        "  btsim rate --all --game alphastrike --scenarios my_scenarios.toml --jobs 2 --json\n"
        "  btsim rate --catalog all --game classic --max-units 20   (imported units too)\n"
        "  btsim rate --all --game classic --shard 2/8 --out /shared/results   (one task of a "
        "job array; shard 1 prints and writes the rating, `btsim merge` can redo it)",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    from sim.choices import BACKENDS  # after add_parser: `btsim --help` stays light

    p.add_argument("units", nargs="*", metavar="UNIT", help="units to rate (or --all)")
    p.add_argument("--all", action="store_true", help="every unit of --catalog that can play "
                   "the game")
    p.add_argument("--catalog", default=None, metavar="builtin|all",
                   help="the units --all rates: builtin (the shipped catalog, default) or all "
                   "(built-in plus the units imported with `btsim units import`: Alpha Strike "
                   "with the MUL card or the converted one, Classic every one the duel plays; "
                   "a unit with anything not simulated is rated without a verdict, one the "
                   "game cannot play is listed with the reason); --catalog all alone implies "
                   "--all")
    p.add_argument("--max-units", type=int, metavar="N", help="rate at most N units of the "
                   "catalog: the fully simulated ones first, at evenly spaced ranks of weight, "
                   "price and name, then the others (recorded); the Classic duel costs 70-90 "
                   "ms CPU a pairing of 100 duels")
    p.add_argument("--price", default=None, metavar="official|computed|official-else-computed",
                   help="each unit's BV/PV: official (the Master Unit List's, by the file's "
                   "MUL id, else by name), computed (BV2 / converted card PV from the unit "
                   "file), or official-else-computed (default: official, else computed; a "
                   "file matched by name only whose computed BV differs takes the computed); "
                   "the source is recorded per unit (price_source)")
    p.add_argument("--game", default="alphastrike", help="alphastrike or classic "
                   "(default alphastrike)")
    p.add_argument("--pool", default="auto", metavar="NAMES|auto",
                   help="reference pool: 'auto' (spread over weight and price, recorded) or "
                   "comma-separated unit names")
    p.add_argument("--pool-size", type=int, help="units in an automatic pool")
    p.add_argument("--scenarios", metavar="FILE", help="TOML with [[scenario]] tables (name, "
                   "duel parameters, optional tactic = T for both sides, or maximin = true / "
                   "a list of tactics, screen_trials = N) and optional tactics = [...] "
                   "(default: short, medium and long range with both sides competent, plus "
                   "the tactic matrix's maximin)")
    p.add_argument("--tactics", metavar="T1,T2",
                   help="tactics crossed with the scenarios (both sides play T; Classic: "
                   "competent or stand-and-fire, its firing policies)")
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
    p.add_argument("--name", help="results subfolder (default rating_<game>; "
                   "rating_<game>_all with "
                   "--catalog all)")
    p.add_argument("--shard", metavar="I/N",
                   help="compute only shard I of N (1 <= I <= N) of every round's duels into "
                   "the shared results folder --out, waiting for the other shards' duels of "
                   "a round before its allocation decision (all N run at once, e.g. a job "
                   "array); shard 1 prints the rating and writes the folder, the same "
                   "summary as one machine's; `btsim merge DIR` folds it again")
    p.add_argument("--shard-wait", metavar="SECONDS",
                   help="with --shard: wait at most this long for the other shards' duels of "
                   "a round (default 3600; 0: exit with status 3 at once when they are "
                   "missing, for resubmission; the shard resumes from the cache)")
    p.add_argument("--no-save", action="store_true", help="print only, write nothing")
    p.add_argument("--json", action="store_true", help="print the JSON document")
    add_rule_flags(p, None, preset=False)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim.errors import ConfigError
    from sim.rating import experiment as RE
    from sim.rating import run as R
    from sim.rating.prices import DEFAULT_PRICE, check_price

    game = R.check_game(args.game)
    price = check_price(args.price if args.price is not None else DEFAULT_PRICE)
    catalog = R.check_catalog(args.catalog or "builtin")
    every = args.all or (args.catalog is not None and not args.units)
    if every == bool(args.units):
        raise ConfigError("units", args.units, "unit names or --all (one of the two)")
    if args.units and (args.catalog is not None or args.max_units is not None):
        flag = "catalog" if args.catalog is not None else "max-units"
        raise ConfigError(flag, args.catalog if flag == "catalog" else args.max_units,
                          "used with --all (named units come from every catalog)")
    scenarios, tactics = (R.read_scenarios(args.scenarios) if args.scenarios
                          else (None, None))
    if args.tactics:
        tactics = [t.strip() for t in args.tactics.split(",") if t.strip()]
    pool = "auto" if args.pool == "auto" else [u.strip() for u in args.pool.split(",")
                                               if u.strip()]
    model = R.GAMES[game]["model"]
    name = args.name or f"rating_{game}" + ("_all" if catalog == "all" else "")
    if args.shard is not None or args.shard_wait is not None:
        return _shard(args, name, game, catalog, price, pool, scenarios, tactics,
                      rule_overrides(args, model))
    folder = None if args.no_save else Path(args.out) / name
    from sim.cache import CACHE_DIR

    res = R.rate(args.units or None, game=game, pool=pool, scenarios=scenarios,
                 tactics=tactics, seatings=args.seatings, pool_size=args.pool_size,
                 target_error=args.target_error or R.TARGET_ERROR,
                 max_trials=args.max_trials, chunk_size=args.chunk_size, seed=args.seed,
                 n_jobs=args.jobs, backend=args.backend, scheduler=args.scheduler,
                 exact=args.exact, correction=args.correction,
                 rule_overrides=rule_overrides(args, model), catalog=catalog,
                 max_units=args.max_units, price=price,
                 cache_dir=folder / CACHE_DIR if folder is not None else None)
    if folder is not None:
        RE.write(folder, res)
    _say(res, args.json)
    if not args.json and folder is not None:
        print(f"{folder}: {len(res.frame)} rows", file=sys.stderr)
    return 0


def _shard(args: argparse.Namespace, name: str, game: str, catalog: str, price: str,
           pool: str | list[str], scenarios: list[dict] | None, tactics: list[str] | None,
           overrides: dict) -> int:
    """``btsim rate ... --shard I/N``: the rating as a ``kind = "rating"`` experiment of the
    same settings, one shard of it run as ``btsim run RATING --shard I/N`` runs it
    (:func:`sim.shard.run_rating_shard`); shard 1 prints the rating like ``btsim rate``."""
    from sim.errors import ConfigError, check_int
    from sim.experiment import _check_name
    from sim.rating import run as R
    from sim.rating.experiment import RatingExperiment
    from sim.shard import parse_shard, parse_wait, run_rating_shard

    if args.shard is None:
        raise ConfigError("shard_wait", args.shard_wait, "used with --shard I/N (a rating "
                          "shard's wait for the other shards)")
    shard = parse_shard(args.shard)
    wait = parse_wait(args.shard_wait) if args.shard_wait is not None else None
    if args.no_save:
        raise ConfigError("no_save", True, "not with --shard (the shards meet in the results "
                          "folder --out)")
    for flag in ("max_units", "pool_size", "max_trials", "chunk_size"):
        value = getattr(args, flag)
        if value is not None:
            check_int(flag, value, lo=1)
    exp = RatingExperiment(
        name=_check_name(name), model=R.GAMES[game]["model"], game=game,
        units=list(args.units) or None, catalog=catalog, max_units=args.max_units,
        price=price, pool=pool, pool_size=args.pool_size, seatings=args.seatings,
        target_error=args.target_error or R.TARGET_ERROR, max_trials=args.max_trials,
        chunk_size=args.chunk_size, seed=check_int("seed", args.seed, lo=0), exact=args.exact,
        correction=args.correction, tactics=tactics, scenario=scenarios, report="rating",
        trials=1, rule_overrides=overrides)
    exp.validate()
    got = run_rating_shard(exp, shard, out=args.out, wait=wait, n_jobs=args.jobs,
                           backend=args.backend, scheduler=args.scheduler, quiet=args.json,
                           seed=exp.seed)
    folder = Path(args.out) / exp.name
    print(f"{folder}: shard {args.shard}: {got['computed']} chunks computed, {got['cached']} "
          f"read{', summary written' if got['written'] else ''}", file=sys.stderr)
    if got["written"]:
        _say(got["rating"], args.json)
    return 0


def _say(res: Any, as_json: bool) -> None:
    """Print a rating: its JSON document, or its verdict table and assumptions."""
    from sim.rating.text import summary_lines, to_json

    if as_json:
        print(json.dumps(to_json(res.frame, res.meta), default=str))
    else:
        print("\n".join(summary_lines(res.frame, res.meta)))
