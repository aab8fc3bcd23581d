"""``btsim cache clean [DIR]``: remove the chunk caches of results folders (:mod:`sim.cache`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cache", help="manage the chunk caches that let runs resume and extend",
        description="A Monte Carlo `btsim run` caches finished chunk aggregates in "
        "results/<name>/.cache/ so the same command resumes after a crash or Ctrl-C and "
        "--trials can grow without recomputing. `clean` removes those caches (the results "
        "stay).")
    action = p.add_subparsers(dest="action", metavar="ACTION")
    clean = action.add_parser("clean", help="remove every cache under DIR (default results/)")
    clean.add_argument("dir", nargs="?", default="results", metavar="DIR",
                       help="a results folder or a folder of them (default results/)")
    clean.set_defaults(func=main)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def main(args: argparse.Namespace) -> int:
    from sim.cache import clean

    root = Path(args.dir)
    if not root.exists():
        raise UserError(f"The 'dir' parameter must be an existing folder; got {str(root)!r} "
                        "(not found).")
    if not root.is_dir():
        raise UserError(f"The 'dir' parameter must be a folder (a results folder or a folder "
                        f"of them); got {str(root)!r} (not a folder).")
    removed = clean(root)
    for path in removed:
        print(f"removed {path}")
    if not removed:
        print(f"no cache under {root}")
    return 0
