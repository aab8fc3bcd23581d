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
from collections.abc import Mapping
from typing import Any

from sim import options
from sim.errors import ConfigError


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
    ConfigError naming a bad option or value (an unknown name: the error lists the options
    ``model`` reads, not every game's)."""
    return options.parse_rules(getattr(args, "rule", None) or [], model=model)


def add_precision_flags(parser: argparse.ArgumentParser) -> None:
    """Add ``--target-error X``, ``--target-metric M`` (repeatable) and ``--max-trials N``
    (README "Precision"). A command that runs a model adds them with this one call and
    passes :func:`precision_args` on to ``sim.api.run_scenario`` (or ``sim.run``)."""
    g = parser.add_argument_group("precision (stop when precise enough)")
    g.add_argument("--target-error", type=float, metavar="X",
                   help="Monte Carlo until every chosen metric's 95%% CI half-width is <= X "
                   "(in the metric's unit: 0.005 = half a percentage point); decided at "
                   "1, 2, 4, 8... chunks, the same for any --jobs; --trials is then unused")
    g.add_argument("--target-metric", action="append", metavar="M",
                   help="metric the target applies to (repeatable; default: every "
                   "probability and mean metric)")
    g.add_argument("--max-trials", type=int, metavar="N",
                   help="stop at N trials even if the target is not reached (default 2**26); "
                   "the output's target_reached says so")


def precision_args(args: argparse.Namespace) -> dict[str, Any]:
    """The precision flags as keyword arguments (``target_error``, ``target_metric``,
    ``max_trials``)."""
    metric = getattr(args, "target_metric", None)
    return {"target_error": getattr(args, "target_error", None),
            "target_metric": metric if metric else None,
            "max_trials": getattr(args, "max_trials", None)}


def differing_options(game: str, preset: str, effective: Mapping[str, Any]) -> dict[str, Any]:
    """The options of ``effective`` (name -> value) that differ from preset ``preset`` of
    ``game``: the ``--rule`` overrides a result was run with."""
    ref = {o.name: o.presets.get(preset, o.default) for o in options.options(game)}
    return {k: v for k, v in effective.items() if k in ref and ref[k] != v}


def int_arg(name: str, value: Any) -> int | None:
    """A command-line value as an integer (None stays None); ConfigError naming ``name``."""
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise ConfigError(name, value, "an integer") from None


#: the help of ``--edit`` (issue 20; the syntax of ``btsim units bv --edit``)
EDIT_HELP = ("change the unit's design before it plays (sim.units.edit; slots, tonnage and "
             "armor maximum checked): heat_sinks=+1, armor=+16 (points spread), "
             "armor_tons=+1, armor.CT=+2, jump=+1, 'remove=Large Laser@RA', "
             "'add=ISLargePulseLaser@RA', tonnage=free (allow added weight); repeatable or "
             "';'-separated. The unit plays as 'NAME [edit]' at its recomputed BV / PV")


def add_edit_flag(p: Any, flag: str = "--edit", what: str = "") -> None:
    """``--edit KEY=VALUE`` (repeatable) on a simulation command (issue 20)."""
    p.add_argument(flag, action="append", default=None, metavar="KEY=VALUE",
                   help=(what + ": " if what else "") + EDIT_HELP)
