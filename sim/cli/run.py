"""``btsim run``: run experiment files into a results folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.cli.common import add_precision_flags, add_rule_flags, precision_args, rule_overrides
from sim.cli.progress import add_progress


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run experiment files (TOML) into results/<name>/",
        description="Run one or more experiment files. Each writes results/<name>/"
        "{summary.parquet,summary.csv,metadata.json} atomically.",
        epilog="examples:\n  btsim run experiments/01_physical_damage.toml --jobs 2\n"
        "  btsim run experiments/*.toml --trials 1000000 --seed 7 --out /tmp/results\n"
        "  btsim run exp.toml --backend dask --scheduler tcp://10.0.0.5:8786\n"
        "  btsim run experiments/04_overheat_curves.toml --rule heat_tmm_threshold=3\n"
        "  btsim run exp.toml --target-error 0.002 --target-metric p_hit --max-trials 4000000\n"
        "  (run it again after a crash or Ctrl-C: finished chunks come from the cache)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from sim.engine import BACKENDS

    p.add_argument("experiments", nargs="+", metavar="EXPERIMENT.toml")
    p.add_argument("--trials", type=int, help="Monte Carlo trials per scenario (overrides file)")
    p.add_argument("--seed", type=int, help="root seed (overrides file)")
    p.add_argument("--jobs", type=int, default=1, help="workers; -1 = all cores (default 1)")
    p.add_argument("--backend", default="loky", metavar="B",
                   help="joblib backend: " + ", ".join(BACKENDS) + " (default loky)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address for --backend dask (default: a LocalCluster)")
    p.add_argument("--chunk-size", type=int, help="trials per seeded chunk (default: the "
                   "model's, 2**18 for most; 16384 for classic-duel)")
    p.add_argument("--out", default="results", help="results folder (default results/)")
    p.add_argument("--exact", action="store_true",
                   help="compute exact values only, no Monte Carlo")
    p.add_argument("--quiet", action="store_true", help="no progress bar (--progress never), "
                   "no summary lines")
    p.add_argument("--no-cache", action="store_true",
                   help="do not cache finished chunks in results/<name>/.cache/ (the cache "
                   "lets the same command resume an interrupted run and extend a finished "
                   "one; `btsim cache clean` removes it)")
    add_rule_flags(p, None, preset=False)
    add_precision_flags(p)
    add_progress(p)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim.api import progress_flag
    from sim.experiment import load, run, validate_all, with_rule_overrides

    overrides = rule_overrides(args, None)  # each: an option of some game
    exps = [with_rule_overrides(load(path), overrides) for path in args.experiments]
    validate_all(exps)  # every file and every scenario, before running any
    for exp in exps:
        frame = run(exp, trials=args.trials, seed=args.seed, n_jobs=args.jobs,
                    backend=args.backend, scheduler=args.scheduler, chunk_size=args.chunk_size,
                    exact_only=args.exact, out=args.out,
                    progress=progress_flag("never" if args.quiet else args.progress),
                    cache=not args.no_cache, **precision_args(args))
        if not args.quiet:
            print(f"{Path(args.out) / exp.name}: {len(frame)} rows", file=sys.stdout)
    return 0
