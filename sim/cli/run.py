"""``btsim run``: run experiment files into a results folder."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from sim.choices import BACKENDS
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
        "  btsim run exp.toml --shard 3/8 --out /shared/results   (then: btsim merge "
        "/shared/results)\n"
        "  btsim run rating.toml --shard 3/8 --shard-wait 7200 --out /shared/results   (a "
        "rating: all 8 at once)\n"
        "  (run it again after a crash or Ctrl-C: finished chunks come from the cache)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
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
    p.add_argument("--shard", metavar="I/N",
                   help="compute only shard I of N (1 <= I <= N) of each experiment's chunks "
                   "into OUT/<name>/.cache/ (machines may share OUT); `btsim merge OUT` then "
                   "writes the summary, byte-identical to a one-machine run; a rating "
                   "experiment computes its share of each round and waits for the others' "
                   "(shard 1 writes its summary)")
    p.add_argument("--shard-wait", metavar="SECONDS",
                   help="a rating shard waits at most this long for the other shards' chunks "
                   "of a round (default 3600), then exits with status 3 naming them; 0: "
                   "exit at once (resubmit until it exits 0: it resumes)")
    add_rule_flags(p, None, preset=False)
    add_precision_flags(p)
    add_progress(p)
    p.set_defaults(func=main)


def _rerun_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The options of ``btsim run`` that can change its numbers (what its rerun key holds;
    ``--jobs``, ``--backend``, ``--scheduler``, ``--out`` and the progress options never do)."""
    return {"trials": args.trials, "seed": args.seed, "chunk_size": args.chunk_size,
            "exact": args.exact, "rule": list(args.rule or []), **precision_args(args)}


def _finished(args: argparse.Namespace) -> list[tuple[str, dict[str, Any]]] | None:
    """``(name, stamp)`` of every experiment of the command when each one's results folder
    holds the finished result of this very command (:func:`sim.results.finished`), found
    from the files' text without importing numpy, pandas or any model; else None (the full
    path then loads, validates and runs or reads them). Options the key leaves out must
    have values the full path accepts, or it takes the full path to report them."""
    from sim import results

    if (args.shard is not None or args.shard_wait is not None or args.no_cache
            or args.scheduler is not None or args.backend not in BACKENDS
            or not (args.jobs == -1 or args.jobs >= 1)):
        return None
    settings = _rerun_settings(args)
    found = []
    for path in args.experiments:
        got = results.rerun_key(path, settings)
        if got is None:
            return None
        key, name = got
        stamp = results.finished(Path(args.out) / name, key)
        if stamp is None:
            return None
        found.append((name, stamp))
    return found


def _same_key(path: str, settings: dict[str, Any], before: tuple[str, str] | None) -> str | None:
    """The rerun key of ``path`` when the file still reads as it did before it was loaded
    (else None: a file changed meanwhile stamps no rerun key)."""
    from sim import results

    after = results.rerun_key(path, settings)
    return before[0] if before is not None and after == before else None


def main(args: argparse.Namespace) -> int:
    done = _finished(args)
    if done is not None:  # finished reruns: nothing to compute, nothing to write
        for i, (name, stamp) in enumerate(done, 1):
            t0 = time.perf_counter()
            if not args.quiet and len(done) > 1:
                print(f"btsim: run {i}/{len(done)}: {name} ({stamp['scenarios']} "
                      "scenarios) ...", file=sys.stderr, flush=True)
            if not args.quiet:
                print(f"{Path(args.out) / name}: {stamp['rows']} rows "
                      f"({time.perf_counter() - t0:.1f} s)", file=sys.stdout)
        return 0
    from sim import results
    from sim.api import progress_flag
    from sim.experiment import load, run, up_to_date, validate_all, with_rule_overrides

    overrides = rule_overrides(args, None)  # each: an option of some game
    shard = None
    if args.shard is not None:
        from sim.errors import ConfigError
        from sim.shard import parse_shard

        shard = parse_shard(args.shard)
        for flag, bad in (("exact", args.exact), ("no_cache", args.no_cache)):
            if bad:
                raise ConfigError("shard", args.shard, f"used without --{flag.replace('_', '-')}"
                                  " (a shard computes Monte Carlo chunks into the cache)")
    wait = None
    if args.shard_wait is not None:
        from sim.errors import ConfigError
        from sim.shard import parse_wait

        wait = parse_wait(args.shard_wait)
        if shard is None:
            raise ConfigError("shard_wait", args.shard_wait, "used with --shard I/N (a rating "
                              "shard's wait for the other shards)")
    rerun = _rerun_settings(args)
    before = [results.rerun_key(path, rerun) if shard is None else None
              for path in args.experiments]
    exps = [with_rule_overrides(load(path), overrides) for path in args.experiments]
    keys = [_same_key(path, rerun, b) if b is not None else None
            for path, b in zip(args.experiments, before, strict=True)]
    ratings = [e for e in exps if getattr(e, "kind", "") == "rating"]
    if ratings:  # before anything runs
        from sim.rating.experiment import check_run_options

        check_run_options(trials=args.trials, exact_only=args.exact)
    if shard is not None and args.target_error is not None and len(ratings) < len(exps):
        from sim.errors import ConfigError  # a rating's --target-error is its strengths'

        raise ConfigError("shard", args.shard, "used without --target-error (a shard computes "
                          "a fixed share of the chunks into the cache)")
    progress = progress_flag("never" if args.quiet else args.progress)
    settings = {"trials": args.trials, "seed": args.seed, "n_jobs": args.jobs,
                "backend": args.backend, "scheduler": args.scheduler,
                "chunk_size": args.chunk_size, "exact_only": args.exact, "out": args.out,
                "progress": progress, "cache": not args.no_cache, **precision_args(args)}
    # every file and every scenario, before running any (a finished result was validated)
    # (a finished scenario a resume reads back from the cache was validated by its run)
    validate_all([e for e in exps if shard is not None or not up_to_date(e, **settings)],
                 **(settings if shard is None else {}))
    for i, exp in enumerate(exps, 1):
        t0 = time.perf_counter()
        if not args.quiet and len(exps) > 1:  # a progress line per experiment (make report)
            print(f"btsim: run {i}/{len(exps)}: {exp.name} ({len(exp.scenarios())} "
                  f"scenarios){'' if shard is None else f', shard {args.shard}'} ...",
                  file=sys.stderr, flush=True)
        if shard is not None and getattr(exp, "kind", "") == "rating":
            from sim.shard import run_rating_shard

            got = run_rating_shard(exp, shard, out=args.out, wait=wait, n_jobs=args.jobs,
                                   backend=args.backend, scheduler=args.scheduler,
                                   quiet=args.quiet, **rerun)
            if not args.quiet:
                print(f"{Path(args.out) / exp.name}: shard {args.shard}: {got['computed']} "
                      f"chunks computed, {got['cached']} cached "
                      f"({time.perf_counter() - t0:.1f} s); "
                      + ("summary written" if got["written"] else
                         "shard 1 writes the summary (or `btsim merge` once every shard is "
                         "done)"), file=sys.stdout)
            continue
        if shard is not None:
            from sim.shard import run_shard

            res = run_shard(exp, shard, out=args.out, trials=args.trials, seed=args.seed,
                            n_jobs=args.jobs, backend=args.backend,
                            scheduler=args.scheduler, chunk_size=args.chunk_size,
                            progress=progress)
            if not args.quiet:
                print(f"{Path(args.out) / exp.name}: shard {args.shard}: "
                      f"{res.chunks_computed} chunks computed, {res.chunks_cached} cached "
                      f"({time.perf_counter() - t0:.1f} s); `btsim merge {args.out}` once "
                      "every shard is done", file=sys.stdout)
            continue
        frame = run(exp, **settings, rerun_key=keys[i - 1])
        if not args.quiet:
            print(f"{Path(args.out) / exp.name}: {len(frame)} rows "
                  f"({time.perf_counter() - t0:.1f} s)", file=sys.stdout)
    return 0
