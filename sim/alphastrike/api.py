"""``sim.heat(...)``: Alpha Strike heat curves from Python, one row per turn."""

from __future__ import annotations

from typing import Any

import pandas as pd


def heat(unit: Any = None, *, ov: int | None = None, policy: Any = "max", turns: int = 10,
         start_heat: int = 0, water: bool = False, range: str = "medium",
         skill: int | None = None, incoming: Any = (), rules: str = "default",
         trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
         **options: Any) -> pd.DataFrame:
    """Per-turn overheat risk curves of one unit (see :mod:`sim.alphastrike.model`).

    ``unit``: a unit name (catalog), a card path or an :class:`~sim.units.types.ASCard`;
    ``None`` uses the generic 'Mech with overheat value ``ov``. ``policy``: ``hold``,
    ``never``, ``max``, ``fixed:K``, ``below:H`` or a callable ``f(heat, turn, state)``.
    ``incoming``: attackers as ``"tn=8,dmg=3,ht=1"`` strings or dicts. ``options``: other
    scenario parameters (``water_depth``, ``movement``, ``target_tmm``, ``physical``...) and
    rule options by field name (:class:`~sim.alphastrike.rules.ASRules`).

    With ``trials=None`` the values are exact (Markov chain); otherwise a Monte Carlo run of
    ``trials`` units with ``seed``, exact values beside it in ``*_exact`` columns.
    """
    from sim import engine
    from sim.alphastrike.model import MODEL

    params: dict[str, Any] = {"unit": unit, "ov": ov, "policy": policy, "turns": turns,
                              "start_heat": start_heat, "water": water, "range": range,
                              "skill": skill, "incoming": list(incoming) if isinstance(
                                  incoming, list | tuple) else incoming, "rules": rules}
    params.update(options)
    if trials is None:
        scn = MODEL.scenario(params)
        if MODEL.exact(scn) is None:
            from sim.errors import UserError

            raise UserError("this scenario's state space is too large for the exact chain; "
                            "pass trials= and seed= for a Monte Carlo run")
        return engine.exact_frame(MODEL, [params])
    return engine.simulate(MODEL, [params], trials=trials, seed=0 if seed is None else seed,
                           n_jobs=n_jobs)
