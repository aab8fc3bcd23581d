"""``btsim merge DIR``: fold the shards of ``btsim run --shard I/N`` into each experiment's
summary (:mod:`sim.shard`)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "merge", help="fold the shards of `btsim run --shard I/N` into the summary",
        description="Every experiment under DIR whose chunks were computed by `btsim run EXP "
        "--shard I/N --out DIR` (on any number of machines sharing DIR) gets its summary, "
        "byte-identical to a one-machine run. Nothing is computed: a missing chunk stops the "
        "merge with the unfinished shards named. A rating's rounds are replayed from the "
        "cache (its shard 1 already wrote the summary; a merge writes it again).",
        epilog="examples:\n  btsim merge /shared/results\n"
        "  btsim merge /shared/results/04_overheat_curves",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", metavar="DIR", help="the shared results folder (or one experiment's)")
    p.add_argument("--quiet", action="store_true", help="print nothing on success")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim.shard import merge

    for folder, frame in merge(args.dir, progress="never"):
        if not args.quiet:
            print(f"{folder}: {len(frame)} rows (merged)", file=sys.stdout)
    return 0
