"""The duel's JSON view: what ``btsim duel --json`` prints and ``sim.duel(...).to_dict()``
returns (issue 10's contract). ``sim.duel`` itself lives in :mod:`sim.api` (one door);
:func:`duel` here is the same function, kept for code that imported it from this module."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from sim.result import Result

#: Per-turn numbers of the ``turns`` rows, in this order.
TURN_METRICS = ("p_end", "p_a_destroyed_by", "p_b_destroyed_by", "expected_damage_a",
                "expected_damage_b", "p_shutdown_a", "p_shutdown_b", "p_end_by",
                "p_a_destroyed_at", "p_b_destroyed_at")
#: Per-duel numbers at the top level, in this order.
DUEL_METRICS = ("p_win_a", "p_win_b", "p_draw", "p_timeout", "expected_turns",
                "armor_left_a_win", "structure_left_a_win", "armor_left_b_win",
                "structure_left_b_win")


def _num(x: Any) -> float | None:
    if x is None:
        return None
    v = float(x)
    return None if math.isnan(v) else v


def to_json(frame: pd.DataFrame, params: dict[str, Any], notes: list[str],
            pv: tuple[Any, Any], mc: bool) -> dict[str, Any]:
    """The ``--json`` object: ``params``, ``notes``, ``mode``, the per-duel numbers,
    ``pv_a``/``pv_b``, (``trials``) and ``turns`` (one row per turn); with Monte Carlo every
    number has ``_se`` beside it."""
    first = frame.iloc[0]
    doc: dict[str, Any] = {"params": params, "notes": notes,
                           "mode": "monte-carlo" if mc else "exact"}
    for m in DUEL_METRICS:
        doc[m] = _num(first[m])
        if mc:
            doc[m + "_se"] = _num(first[m + "_se"])
    doc["pv_a"], doc["pv_b"] = pv
    if mc:
        doc["trials"] = int(first["trials"])
    turns = []
    for _, r in frame.iterrows():
        row: dict[str, Any] = {"turn": int(r["turn"])}
        for m in TURN_METRICS:
            row[m] = _num(r[m])
            if mc:
                row[m + "_se"] = _num(r[m + "_se"])
        turns.append(row)
    doc["turns"] = turns
    return doc


def result_view(res: Result) -> dict[str, Any]:
    """The ``--json`` object of a duel :class:`~sim.result.Result` from
    :func:`sim.api.run_scenario`."""
    facts = res.metadata["facts"]
    return to_json(res.frame, res.metadata["params"], list(res.notes),
                   (facts["pv_a"], facts["pv_b"]), res.mode == "monte-carlo")


def duel(*args: Any, **kwargs: Any) -> Result:
    """:func:`sim.api.duel` (see there)."""
    from sim.api import duel as _duel

    return _duel(*args, **kwargs)


def tactic_matrix(a: Any, b: Any, tactics: Any = None, *, trials: int | None = None,
                  seed: int | None = None, n_jobs: int = 1, **params: Any) -> Any:
    """Every tactic of ``tactics`` (names; default every named tactic,
    :data:`sim.alphastrike.duel.tactics.NAMES`) for side A against every one for side B
    (issue 22): a :class:`sim.tactics.TacticMatrix` of P(A wins), P(B wins), E[turns] with 95%
    intervals (exact where the chain fits, else Monte Carlo with ``trials``, default 4000),
    each side's maximin and the mixed value. ``params``: the duel's other parameters (a
    range, rule options...); without a range the tactics move freely from
    ``start_distance`` (``range="free"``, also for the stand-and-fire pair)."""
    from sim import tactics as G
    from sim.alphastrike.duel.model import MODEL
    from sim.api import run_scenario

    names = _tactic_names(tactics)
    base = {"a": a, "b": b, **params}
    if not any(k in base for k in ("range", "ranges", "closing")):
        base["range"] = "free"

    def play(ta: str, tb: str) -> G.Cell:
        p = {**base, "tactic_a": ta, "tactic_b": tb}
        scn = MODEL.scenario(p)
        ex = MODEL.exact(scn) if trials is None else None
        if ex is not None:
            return G.cell(float(ex["p_win_a"][0]), float(ex["p_win_b"][0]),
                          float(ex["expected_turns"][0]))
        res = run_scenario(MODEL, p, trials=trials or 4000, seed=seed or 0, n_jobs=n_jobs,
                           progress=False, with_exact=False)
        return G.cell_of(res.frame.iloc[0])

    return G.play_matrix(play, names)


def _tactic_names(tactics: Any) -> tuple[str, ...]:
    """The tactic set of a matrix (default every named tactic; ConfigError ``tactics``)."""
    from sim import tactics as G
    from sim.alphastrike.duel.tactics import GAME

    return G.names_of(GAME, tactics, "tactics")
