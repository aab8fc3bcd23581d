"""Flags shared by the commands that run a model.

``add_rule_flags(parser, model)`` adds ``--rule NAME=VALUE`` (repeatable; ``--option`` is an
alias) and, optionally, ``--rules PRESET`` (the presets of the model's game);
``rule_overrides(args, model)`` turns the flags into a validated ``{name: value}`` dict of
overrides, each value coerced by its option's declared type (:mod:`sim.options`) and each
name checked to be an option the model reads. A new command that runs a model calls both and
passes the dict on as scenario parameters (``btsim rules`` lists every option)::

    add_rule_flags(p, "fire")                    # in register()
    params.update(rule_overrides(args, "fire"))  # in the command
"""

from __future__ import annotations

import argparse
from typing import Any

from sim import options


def add_rule_flags(parser: argparse.ArgumentParser, model: str | None, *,
                   preset: bool = True, preset_default: str | None = None) -> None:
    """Add ``--rule NAME=VALUE`` / ``--option`` (repeatable) and, with ``preset`` and a model
    that has options, ``--rules PRESET`` to ``parser``. ``model=None``: options of any game
    (``btsim run`` checks them against each experiment's model)."""
    game = options.game_of_model(model) if model else None
    where = (f"an option of the {game} game" if game
             else "an option of each experiment's game")
    parser.add_argument("--rule", "--option", dest="rule", action="append", default=[],
                        metavar="NAME=VALUE",
                        help=f"override one rule option ({where}; repeatable; `btsim rules` "
                        "lists them with their allowed values)")
    if preset and game:
        parser.add_argument("--rules", default=preset_default, metavar="PRESET",
                            help="rule set: " + "|".join(options.presets(game))
                            + (f" (default {preset_default})" if preset_default else ""))


def rule_overrides(args: argparse.Namespace, model: str | None) -> dict[str, Any]:
    """The ``--rule`` flags as overrides for ``model`` (any game's options when None);
    ConfigError naming a bad option or value."""
    parsed = options.parse_rules(getattr(args, "rule", None) or [])
    return options.check_overrides(model, parsed) if model else parsed
