"""``classic_force(...)``: the notebook door of the ``classic-force`` model (issue 21, N
'Mechs a side), and its one JSON view: :func:`result_view` is both
``sim.classic_force(...).to_dict()`` and what ``btsim duel --game classic "A,B" "C,D"
--json`` prints (:func:`to_text` is the readable form of the same document).

The document (Monte Carlo; every estimate has ``_se``, ``_ci_low`` and ``_ci_high`` beside
it, the engine's 95% interval: Wilson for probabilities, normal for means): ``model``,
``params``, ``trials``, ``seed``, ``chunk_size``, ``bv_a``, ``bv_b`` (each side's Battle Value
at skill), ``notes``, ``rule_options``; per side ``p_win_a``, ``p_win_b``, ``p_draw``,
``p_timeout``, ``expected_turns``, ``turns_hist``, ``expected_survivors_a``/``_b``,
``expected_bv_surviving_a``/``_b``; ``units``: one entry per unit (``unit``, ``side``,
``name``, ``gunnery``, ``piloting``, ``bv``, and ``p_survives``, ``p_destroyed``,
``p_fell``, ``p_shutdown``, ``expected_damage_dealt`` with their intervals).
"""

from __future__ import annotations

import math
from typing import Any

from sim.classic.duel.api import view_head, with_stats
from sim.classic.duel.scenario import DEFAULT_TURNS
from sim.result import Result, jsonable
from sim.summary import INTERVAL_NOTE, rules_header, text_table

#: the per-unit columns of the text table: (header, metric, digits)
UNIT_COLUMNS = (("P(survives)", "p_survives", 3), ("P(destroyed)", "p_destroyed", 3),
                ("P(fell)", "p_fell", 3), ("P(shut down)", "p_shutdown", 3),
                ("E[damage dealt]", "expected_damage_dealt", 1))


def classic_force(a: Any, b: Any, *, gunnery_a: int = 4, gunnery_b: int = 4,
                  piloting_a: int = 5, piloting_b: int = 5, targeting_a: str | None = None,
                  targeting_b: str | None = None, range: int | None = None,
                  ranges: Any = None, moved_a: str = "stand", moved_b: str = "stand",
                  policy_a: Any = "all", policy_b: Any = "all", physical_a: str = "best",
                  physical_b: str = "best", turns: int = DEFAULT_TURNS,
                  rules: dict[str, Any] | None = None, trials: int = 10_000, seed: int = 0,
                  n_jobs: int = 1, chunk_size: int | None = None,
                  progress: bool | str | None = "auto") -> Result:
    """Monte Carlo engagement of two Classic forces of 1 to 4 'Mechs (``"UNIT@G/P,UNIT"``, a
    list of names, ``ClassicMech`` values or ``(unit, gunnery, piloting)`` tuples;
    :mod:`sim.classic.duel.forces`), through :func:`sim.api.run_scenario` (same bits as
    ``btsim duel --game classic`` and ``btsim run`` with the same seed, trials and chunk
    size). ``gunnery_*`` / ``piloting_*``: the side's skills for entries without ``@G/P``;
    ``targeting_*``: ``focus-weakest`` (default), ``focus-threat``, ``spread``, ``finish``.
    Returns a :class:`~sim.result.Result` whose ``.to_dict()`` is :func:`result_view`'s
    document; ``.frame`` has one row per unit."""
    from sim.api import run_scenario

    params: dict[str, Any] = {"unit_a": a, "unit_b": b, "gunnery_a": gunnery_a,
                              "gunnery_b": gunnery_b, "piloting_a": piloting_a,
                              "piloting_b": piloting_b, "moved_a": moved_a, "moved_b": moved_b,
                              "policy_a": policy_a, "policy_b": policy_b,
                              "physical_a": physical_a, "physical_b": physical_b,
                              "turns": turns, **(rules or {})}
    for k, v in (("targeting_a", targeting_a), ("targeting_b", targeting_b),
                 ("range", range), ("ranges", ranges)):
        if v is not None:
            params[k] = v
    res = run_scenario("classic-force", params, trials=trials, seed=seed, n_jobs=n_jobs,
                       chunk_size=chunk_size, progress=progress)
    return with_view(res)


def with_view(res: Result) -> Result:
    """Attach the force engagement's JSON view to a ``run_scenario`` result."""
    res.data = result_view(res)
    res.legacy = "data"
    return res


def result_view(res: Result) -> dict[str, Any]:
    """The ``--json`` document of a ``classic-force`` result (module docstring)."""
    from sim.classic.duel.force_model import MODEL

    frame = res.frame
    doc = view_head(MODEL, res)
    units = []
    for _, row in frame.iterrows():
        u: dict[str, Any] = {k: row[k] for k in ("unit", "side", "name", "gunnery",
                                                 "piloting", "bv")}
        for m in MODEL.metrics:
            if m.per_row and m.name in frame:
                with_stats(u, row, m.name)
        units.append(u)
    doc["units"] = units
    return dict(jsonable(doc))


def _ci(doc: dict[str, Any], name: str, digits: int = 3) -> str:
    from sim.summary import with_interval

    v = doc.get(name)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return with_interval(v, low=doc.get(f"{name}_ci_low"), high=doc.get(f"{name}_ci_high"),
                         digits=digits)


def to_text(doc: dict[str, Any]) -> str:
    """The readable form of :func:`result_view`'s document."""
    p = doc["params"]

    def side(s: str) -> str:
        bv = doc[f"bv_{s}"]
        return (f"{s.upper()}: {p[f'unit_{s}']} ({p[f'moved_{s}']}, fire {p[f'policy_{s}']}, "
                f"physical {p[f'physical_{s}']}, targeting {p[f'targeting_{s}']}, BV "
                f"{'unknown' if bv is None else bv})")

    lines = [side("a"), f"  vs {side('b')}",
             f"range {p['range']}, at most {p['turns']} turns; {doc['mode']}, "
             f"{doc['trials']} engagements, seed {doc['seed']}; rules "
             + rules_header("default", p.get("rule_overrides") or ""), INTERVAL_NOTE,
             "", "outcome (95% CI):"]
    for name, label in (("p_win_a", "P(A wins)"), ("p_win_b", "P(B wins)"),
                        ("p_draw", "P(draw)"), ("p_timeout", "P(timeout)")):
        lines.append(f"  {label:<12}{_ci(doc, name)}")
    lines.append(f"  {'E[turns]':<12}{_ci(doc, 'expected_turns', 2)}")
    w = 26
    lines += ["", f"{'per side (95% CI)':<28}{'A':<{w}}{'B':<{w}}",
              f"  {'units surviving':<26}" + "".join(
                  f"{_ci(doc, f'expected_survivors_{s}', 2):<{w}}" for s in "ab"),
              f"  {'BV surviving':<26}" + "".join(
                  f"{_ci(doc, f'expected_bv_surviving_{s}', 0):<{w}}" for s in "ab"), ""]
    rows = [[str(u["unit"]), u["side"], f"{u['name']}@{u['gunnery']}/{u['piloting']}"]
            + [_ci(u, k, d) for _, k, d in UNIT_COLUMNS] for u in doc["units"]]
    lines += text_table(["unit", "side", "'Mech"] + [h for h, _, _ in UNIT_COLUMNS], rows)
    lines += [""] + [f"note: {n}" for n in doc["notes"]]
    return "\n".join(line.rstrip() for line in lines)
