"""Flags shared by the commands that run a model.

``add_rule_flags(parser, game)`` adds ``--rule NAME=VALUE`` (repeatable; ``--option`` is an
alias) and, optionally, ``--rules PRESET``; ``rule_overrides(args, game)`` turns the flags
into a validated ``{name: value}`` dict of overrides, coerced by each option's declared type
(:mod:`sim.options`). A new command that runs a model calls both and passes the dict on as
scenario parameters (``btsim rules`` lists every option).
"""

from __future__ import annotations

import argparse
from typing import Any

from sim import options


def add_rule_flags(parser: argparse.ArgumentParser, game: str | None, *,
                   preset: bool = True, preset_default: str | None = None) -> None:
    """Add ``--rule NAME=VALUE`` / ``--option`` (repeatable) and, with ``preset``,
    ``--rules PRESET`` (choices: the presets of ``game``) to ``parser``."""
    where = f"a {game} option" if game else "any rule option of the experiment's game"
    parser.add_argument("--rule", "--option", dest="rule", action="append", default=[],
                        metavar="NAME=VALUE",
                        help=f"override one rule option ({where}; repeatable; `btsim rules` "
                        "lists them with their allowed values)")
    if preset and game:
        names = options.presets(game)
        parser.add_argument("--rules", default=preset_default, metavar="PRESET",
                            help="rule set: " + "|".join(names)
                            + (f" (default {preset_default})" if preset_default else ""))


def rule_overrides(args: argparse.Namespace, game: str | None) -> dict[str, Any]:
    """The ``--rule`` flags as overrides (ConfigError naming a bad option or value)."""
    return options.parse_rules(getattr(args, "rule", None) or [], game)
