"""The ``btsim`` command line. Each subcommand lives in its own module under ``sim.cli``
with a ``register(subparsers)`` function that adds its parser and sets ``func`` to a
callable ``(args) -> int`` (the exit status).

User errors (:class:`sim.errors.UserError`) become one line on stderr and exit status 2,
never a traceback. Ctrl-C exits with 130 and leaves no partial results behind.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from sim import __version__
from sim.errors import UserError

#: subcommand modules, in the order ``--help`` lists them
COMMANDS = ("run", "attack", "heat", "duel", "units", "report", "bench")

EPILOG = """examples:
  btsim attack punch --tons 70 --damaged upper-arm --terrain light-woods
  btsim attack charge --tons 65 --hexes 5 --target-tons 70 --trials 1000000 --seed 1 --json
  btsim heat --unit "Loki (Hellbringer) Prime" --policy max --turns 10
  btsim run experiments/01_physical_damage.toml --jobs 2
  btsim report results/
  btsim units --filter atlas
  btsim bench --json

Exit status: 0 success, 2 bad input (one line on stderr), 130 interrupted."""


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="btsim",
        description="Monte Carlo balance simulator for BattleTech: Classic physical attacks "
        "and Alpha Strike heat, exact and sampled.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"btsim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"sim.cli.{name}")
        except ModuleNotFoundError as exc:  # a subcommand not installed yet
            if exc.name != f"sim.cli.{name}":
                raise
            continue
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"btsim: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("btsim: interrupted; no results were written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `btsim units | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
