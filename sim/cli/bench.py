"""``btsim bench``: measure every kernel and print figures (never pass/fail)."""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="measure kernels: trials/s per core and on all cores, overhead, memory",
        description="Benchmark every model kernel side by side with the raw dice limit and "
        "the scalar-Python oracle. Prints figures; never fails on speed.",
        epilog="examples:\n  btsim bench\n  btsim bench --quick --json > bench.json\n"
        "  btsim bench --model attack",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quick", action="store_true",
                   help="shorter timings and a 10^7-trial memory check instead of 10^9")
    p.add_argument("--model", action="append", help="only this model (repeatable)")
    p.add_argument("--sweep", action="store_true",
                   help="also measure each kernel at chunk sizes 2^12..2^20")
    p.add_argument("--big-trials", type=int, help="trials of the large memory check")
    p.add_argument("--no-precision", action="store_true",
                   help="skip the precision figures (pairing gains, cache overhead)")
    p.add_argument("--coverage", type=int, default=0, metavar="RUNS",
                   help="also check the coverage of target-error intervals over RUNS seeds "
                   "(e.g. 10000; about 2 s per 1000)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim import bench
    from sim.engine import MAX_TRIALS
    from sim.errors import check_choice, check_int
    from sim.models import MODULES

    for name in args.model or []:  # before any figure is measured
        check_choice("model", name, tuple(MODULES))
    big = None if args.big_trials is None else check_int("big-trials", args.big_trials, lo=1,
                                                         hi=MAX_TRIALS)
    runs = check_int("coverage", args.coverage, lo=0, hi=10**6)
    res = bench.run(models=args.model, quick=args.quick, big_trials=big, sweep=args.sweep,
                    precision=not args.no_precision, coverage_runs=runs)
    print(json.dumps(res, indent=2) if args.json else bench.format_table(res))
    return 0
