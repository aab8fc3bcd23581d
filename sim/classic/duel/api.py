"""``classic_duel(...)``: the notebook door of the ``classic-duel`` model (the lead wires
``sim.duel(game="classic")`` to it)."""

from __future__ import annotations

from typing import Any

from sim.result import Result


def classic_duel(a: Any, b: Any, *, gunnery_a: int = 4, gunnery_b: int = 4,
                 piloting_a: int = 5, piloting_b: int = 5, range: int | None = None,
                 ranges: Any = None, closing: bool = False, moved_a: str = "stand",
                 moved_b: str = "stand", policy_a: Any = "all", policy_b: Any = "all",
                 physical_a: Any = "best", physical_b: Any = "best", turns: int = 20,
                 bv_a: int | None = None, bv_b: int | None = None,
                 rules: dict[str, Any] | None = None, trials: int = 10_000, seed: int = 0,
                 n_jobs: int = 1, chunk_size: int | None = None,
                 progress: bool | str | None = "never") -> Result:
    """Monte Carlo duel of two Classic 'Mechs (catalog names, ``.mtf`` paths or
    ``ClassicMech``), through :func:`sim.api.run_scenario` (same bits as ``btsim duel --game
    classic`` and ``btsim run`` with the same seed, trials and chunk size). ``rules``: rule
    options by name (fire and damage groups). Returns a :class:`~sim.result.Result`: scalar
    metrics on every row, per-turn metrics by ``turn``; facts ``bv_a``/``bv_b`` in
    ``metadata["facts"]``."""
    from sim.api import run_scenario

    params = classic_duel_params(a, b, gunnery_a=gunnery_a, gunnery_b=gunnery_b,
                                 piloting_a=piloting_a, piloting_b=piloting_b, range=range,
                                 ranges=ranges, closing=closing, moved_a=moved_a,
                                 moved_b=moved_b, policy_a=policy_a, policy_b=policy_b,
                                 physical_a=physical_a, physical_b=physical_b, turns=turns,
                                 bv_a=bv_a, bv_b=bv_b, rules=rules)
    return run_scenario("classic-duel", params, trials=trials, seed=seed, n_jobs=n_jobs,
                        chunk_size=chunk_size, progress=progress)


def classic_duel_params(a: Any, b: Any, *, range: int | None = None, ranges: Any = None,
                        closing: bool = False, rules: dict[str, Any] | None = None,
                        **kw: Any) -> dict[str, Any]:
    """The model parameters of a duel (``None`` values dropped)."""
    params: dict[str, Any] = {"unit_a": a, "unit_b": b, **(rules or {})}
    params.update({k: v for k, v in kw.items() if v is not None})
    if closing:
        params["closing"] = True
    if ranges is not None:
        params["ranges"] = ranges
    if range is not None:
        params["range"] = range
    return params
