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
"""

from __future__ import annotations

__version__ = "0.1.0"

from sim.api import attack, classic_duel, compare, duel, fire, heat, hit, profile, run  # noqa: E402  (needs __version__ above)
from sim.result import Result  # noqa: E402

__all__ = ["Result", "__version__", "attack", "classic_duel", "compare", "duel", "fire",
           "heat", "hit", "profile", "run"]
