"""btsim: a Monte Carlo balance simulator for BattleTech.

The notebook API::

    import sim
    sim.attack("punch", tons=70, damaged=["upper-arm"], terrain="light-woods")  # exact
    sim.attack("charge", tons=65, hexes=5, trials=1_000_000, seed=1)           # Monte Carlo
    sim.heat(unit="Loki (Hellbringer) Prime", policy="max", turns=10)          # per-turn frame
    sim.run("experiments/01_physical_damage.toml", trials=200_000, n_jobs=2)   # summary frame
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["__version__", "attack", "heat", "run"]


def run(*args: Any, **kwargs: Any) -> Any:
    """Run an experiment (TOML path or dict); see :func:`sim.experiment.run`."""
    from sim.experiment import run as _run

    return _run(*args, **kwargs)


def attack(*args: Any, **kwargs: Any) -> Any:
    """One Classic physical attack scenario; see :func:`sim.classic.api.attack`."""
    from sim.classic.api import attack as _attack

    return _attack(*args, **kwargs)


def heat(*args: Any, **kwargs: Any) -> Any:
    """Alpha Strike heat curves; see :func:`sim.alphastrike.api.heat`."""
    from sim.alphastrike.api import heat as _heat

    return _heat(*args, **kwargs)
