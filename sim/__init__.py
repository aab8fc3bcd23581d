"""btsim: a Monte Carlo balance simulator for BattleTech.

The notebook API (every call returns a :class:`sim.result.Result`: ``.frame``,
``.to_dict()``, ``.metadata``, ``.notes``)::

    import sim
    sim.attack("punch", tons=70, damaged=["upper-arm"], terrain="light-woods")  # exact
    sim.attack("charge", tons=65, hexes=5, trials=1_000_000, seed=1)           # Monte Carlo
    sim.heat(unit="Loki (Hellbringer) Prime", policy="max", turns=10)          # per-turn frame
    sim.fire("Hunchback HBK-4G", range=3, moved="run", turns=6)               # exact curves
    sim.profile("Awesome AWS-8Q", policy="neutral")                          # damage vs range
    sim.duel("Atlas AS7-D@3", "Loki (Hellbringer) Prime", range="medium")    # exact duel
    sim.hit("Locust LCT-1V", damage=20, side="front")                        # exact, one hit
    sim.run("experiments/01_physical_damage.toml", trials=200_000, n_jobs=2)   # summary frame
    sim.testing.assert_mc_matches_exact(sim.attack("kick", tons=50, trials=10_000))

The names are loaded on first use (PEP 562 ``__getattr__``), so ``import sim`` and the
``btsim`` command line start without importing numpy or pandas; ``sim.testing``,
``sim.engine`` and every other submodule are reachable as attributes of ``sim`` the same way.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: the notebook API: name -> the module that defines it
_API = {"attack": "sim.api", "classic_duel": "sim.api", "classic_force": "sim.api",
        "compare": "sim.api",
        "duel": "sim.api", "fire": "sim.api", "heat": "sim.api", "hit": "sim.api",
        "profile": "sim.api", "run": "sim.api", "Result": "sim.result"}

__all__ = ["Result", "__version__", "attack", "classic_duel", "classic_force", "compare",
           "duel", "fire",
           "heat", "hit", "profile", "run"]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors only
    from sim.api import (
        attack,
        classic_duel,
        classic_force,
        compare,
        duel,
        fire,
        heat,
        hit,
        profile,
        run,
    )
    from sim.result import Result


def __getattr__(name: str) -> Any:
    """``sim.attack`` ... from :mod:`sim.api`, ``sim.Result``, and any submodule
    (``sim.testing``, ``sim.engine``) imported on first access."""
    if name in _API:
        value = getattr(importlib.import_module(_API[name]), name)
    elif not name.startswith("_") and importlib.util.find_spec(f"sim.{name}") is not None:
        value = importlib.import_module(f"sim.{name}")
    else:
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
