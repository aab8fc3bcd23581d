"""``classic_duel(...)``: the notebook door of the ``classic-duel`` model, and its one JSON
view: :func:`result_view` is both ``sim.classic_duel(...).to_dict()`` and what ``btsim duel
--game classic --json`` / ``btsim classic-duel --json`` print (:func:`to_text` is the
readable form of the same document).

The document (Monte Carlo; every estimate has ``_se``, ``_ci_low`` and ``_ci_high`` beside
it, the 95% interval of the engine: Wilson for probabilities, normal for means):

* ``model``, ``params``, ``mode``, ``trials``, ``seed``, ``chunk_size``, ``bv_a``, ``bv_b``
  (Battle Value at the side's skills, None when unknown), ``notes``, ``rule_options``;
* per duel: ``p_win_a``, ``p_win_b``, ``p_draw``, ``p_timeout``, ``expected_turns``,
  ``p_<side>_destroyed_by_<cause>``, ``p_<side>_out_by_<reason>`` (C21 ``out_of_fight``),
  ``p_fell_a``/``_b``, ``p_shutdown_by_a``/``_b``,
  ``expected_damage_total_a``/``_b`` (damage dealt by the side over the whole duel) and
  ``turns_hist`` (P(duel ended in turn t), t = 0..turns);
* the same by side as mappings of estimates ``{"p", "se", "ci_low", "ci_high"}``:
  ``p_destroyed_by_cause`` and ``p_out_by_reason`` (side -> cause or reason -> estimate),
  ``p_fell`` and ``p_shutdown_by`` (side -> estimate);
* ``turns``: one row per turn with ``turn``, ``range`` (the nominal schedule: under
  ``closing``, from both sides' undamaged running MP), ``p_a_destroyed_by``,
  ``p_b_destroyed_by`` (cumulative), ``expected_damage_a``/``_b`` (damage dealt by that
  side in the turn), ``p_a_shutdown_by``/``p_b_shutdown_by`` and ``p_a_fell_by``/
  ``p_b_fell_by`` (cumulative: shut down / fallen at least once by then) and
  ``expected_range`` (mean range of the duels still running that
  turn; under ``closing`` with ``closing_mp=current`` each duel has its own range), each
  with its ``_se`` and interval.
"""

from __future__ import annotations

import math
from typing import Any

from sim.classic.duel.scenario import DEFAULT_TURNS
from sim.result import Result, jsonable
from sim.summary import INTERVAL_NOTE, rows_until_settled, rules_header, text_table

#: interval columns of the engine's summary beside each metric, in the document's order
_STATS = ("se", "ci_low", "ci_high")


def classic_duel(a: Any, b: Any, *, gunnery_a: int = 4, gunnery_b: int = 4,
                 piloting_a: int = 5, piloting_b: int = 5, range: int | None = None,
                 ranges: Any = None, closing: bool = False, moved_a: str | None = None,
                 moved_b: str | None = None, policy_a: Any = None, policy_b: Any = None,
                 tactic_a: Any = None, tactic_b: Any = None,
                 physical_a: Any = "best", physical_b: Any = "best", turns: int = DEFAULT_TURNS,
                 bv_a: int | None = None, bv_b: int | None = None,
                 edit_a: Any = None, edit_b: Any = None,
                 rules: dict[str, Any] | None = None, trials: int = 10_000, seed: int = 0,
                 n_jobs: int = 1, chunk_size: int | None = None,
                 progress: bool | str | None = "auto") -> Result:
    """Monte Carlo duel of two Classic 'Mechs (catalog names, ``.mtf`` paths or
    ``ClassicMech``), through :func:`sim.api.run_scenario` (same bits as ``btsim duel --game
    classic`` and ``btsim run`` with the same seed, trials and chunk size). ``rules``: rule
    options by name (fire, damage, physical-attack and the duel's own groups). ``progress``:
    ``auto`` (default: a bar after ~2 s only when stderr is a terminal, so none in a
    notebook), ``always`` or ``never``. ``edit_a`` / ``edit_b``: a design edit of that side's
    'Mech (``"heat_sinks=+1; tonnage=free"``, :mod:`sim.units.edited`), played under the name
    ``NAME [edit]`` at its recomputed BV.

    Returns a :class:`~sim.result.Result`: ``.to_dict()`` is the ``--json`` document of
    the CLI (:func:`result_view`, see the module docstring) and ``res["p_win_a"]`` reads
    it; ``.frame`` has the engine's summary (scalar metrics on every row, per-turn metrics
    by ``turn``); facts ``bv_a``/``bv_b`` also in ``metadata["facts"]``."""
    from sim.api import run_scenario

    params = classic_duel_params(a, b, gunnery_a=gunnery_a, gunnery_b=gunnery_b,
                                 piloting_a=piloting_a, piloting_b=piloting_b, range=range,
                                 ranges=ranges, closing=closing, moved_a=moved_a,
                                 moved_b=moved_b, policy_a=policy_a, policy_b=policy_b,
                                 tactic_a=tactic_a, tactic_b=tactic_b,
                                 physical_a=physical_a, physical_b=physical_b, turns=turns,
                                 bv_a=bv_a, bv_b=bv_b, edit_a=edit_a, edit_b=edit_b,
                                 rules=rules)
    res = run_scenario("classic-duel", params, trials=trials, seed=seed, n_jobs=n_jobs,
                       chunk_size=chunk_size, progress=progress)
    return with_view(res)


def with_view(res: Result) -> Result:
    """Attach the duel's JSON view to a :func:`sim.api.run_scenario` result (the CLI and
    :func:`classic_duel` both go through here, so they print one document)."""
    res.data = result_view(res)
    res.legacy = "data"
    return res


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


def tactic_matrix(a: Any, b: Any, tactics: Any = None, *, trials: int | None = None,
                  seed: int | None = None, n_jobs: int = 1, **params: Any) -> Any:
    """Every Classic tactic of ``tactics`` (names, comma-separated or a list; default every
    named tactic, :data:`sim.classic.duel.tactics.NAMES`) for side A against every one for
    side B (issue 22): a :class:`sim.tactics.TacticMatrix` of P(A wins), P(B wins), E[turns]
    with their 95% intervals (Monte Carlo, ``trials`` duels a cell, default 10,000; every
    cell with the same ``seed``; :func:`sim.tactics.cell_of`), each side's maximin and the value of the zero-sum game.
    ``params``: the duel's other model parameters (``range``, default 6 hexes, the tactics'
    start distance; ``turns``, ``physical_a``, skills, rule options...). ``btsim duel --game
    classic A B --tactics matrix`` and the Classic round-robin's tactic matrices
    (:mod:`sim.tactic_report`) both play through here."""
    from sim import tactics as G
    from sim.api import run_scenario
    from sim.classic.duel import tactics as CT
    from sim.errors import ConfigError

    names = G.names_of(CT.GAME, tactics, "tactics")
    for s in ("a", "b"):
        if params.get(f"tactic_{s}") is not None:
            raise ConfigError(f"tactic_{s}", params[f"tactic_{s}"], "unset in a tactic matrix "
                              "(it plays every tactic of the set for both sides)")
    for k in ("closing", "ranges"):
        if params.get(k) not in (None, False):
            raise ConfigError(k, params[k], "unset in a tactic matrix (the tactics move from "
                              "a fixed start range)")
    base = {"unit_a": a, "unit_b": b, "range": 6, **params}

    def play(ta: str, tb: str) -> G.Cell:
        r = run_scenario("classic-duel", {**base, "tactic_a": ta, "tactic_b": tb},
                         trials=10_000 if trials is None else trials, seed=seed or 0,
                         n_jobs=n_jobs, progress="never").frame.iloc[0]
        return G.cell_of(r)

    return G.play_matrix(play, names)


def _estimate(row: Any, name: str) -> dict[str, Any]:
    """``{"p", "se", "ci_low", "ci_high"}`` of metric ``name`` in a summary row."""
    out = {"p": row[name]}
    out.update({s: row.get(f"{name}_{s}") for s in _STATS})
    return out


def with_stats(doc: dict[str, Any], row: Any, name: str) -> None:
    """``doc[name]`` and its standard error and 95% interval from a summary row."""
    doc[name] = row[name]
    for s in _STATS:
        if f"{name}_{s}" in row.index:
            doc[f"{name}_{s}"] = row[f"{name}_{s}"]


def view_head(model: Any, res: Result) -> dict[str, Any]:
    """The head of a Classic duel's or force engagement's ``--json`` document: the run
    (model, params, mode, trials, seed, chunk size), both sides' BV, notes, rule options
    and every scalar metric of ``model`` with its interval."""
    frame = res.frame
    meta = res.metadata
    first = frame.iloc[0]
    doc: dict[str, Any] = {"model": model.name, "params": meta["params"],
                           "mode": meta["mode"], "trials": meta["trials"],
                           "seed": meta["seed"], "chunk_size": meta.get("chunk_size"),
                           "bv_a": meta["facts"]["bv_a"], "bv_b": meta["facts"]["bv_b"],
                           "notes": list(res.notes), "rule_options": meta.get("options")}
    for m in model.metrics:
        if not m.per_row and m.name in frame:
            with_stats(doc, first, m.name)
    return doc


def cause_metrics(side: str, kind: str = "destroyed") -> dict[str, str]:
    """Cause -> scalar metric name of ``side``'s destruction causes (``kind`` "destroyed")
    or C21 out-of-the-fight reasons ("out"), from the model's metrics, so a cause added there
    shows up here."""
    from sim.classic.duel.model import MODEL

    prefix = f"p_{side}_{kind}_by_"
    return {m.name[len(prefix):]: m.name for m in MODEL.metrics
            if not m.per_row and m.name.startswith(prefix)}


def result_view(res: Result) -> dict[str, Any]:
    """The ``--json`` document of a ``classic-duel`` result (module docstring): plain JSON
    values, NaN as None."""
    from sim.classic.duel.model import MODEL

    frame = res.frame
    first = frame.iloc[0]
    doc = view_head(MODEL, res)
    doc["p_destroyed_by_cause"] = {s: {c: _estimate(first, name)
                                       for c, name in cause_metrics(s).items()}
                                   for s in "ab"}
    doc["p_out_by_reason"] = {s: {c: _estimate(first, name)
                                  for c, name in cause_metrics(s, "out").items()}
                              for s in "ab"}
    doc["p_fell"] = {s: _estimate(first, f"p_fell_{s}") for s in "ab"}
    doc["p_shutdown_by"] = {s: _estimate(first, f"p_shutdown_by_{s}") for s in "ab"}
    turns = []
    for _, row in frame.iterrows():
        t: dict[str, Any] = {"turn": row["turn"], "range": row["range"]}
        for m in MODEL.metrics:
            if m.per_row and m.name in frame:
                with_stats(t, row, m.name)
        turns.append(t)
    doc["turns"] = turns
    return dict(jsonable(doc))


def _fmt(v: Any, digits: int = 3) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def _ci(est: dict[str, Any], digits: int = 3) -> str:
    """``0.748 (0.708–0.784)``: the estimate and its 95% interval
    (:func:`sim.summary.with_interval`, the form of every text output)."""
    from sim.summary import with_interval

    lo, hi = est.get("ci_low"), est.get("ci_high")
    if lo is None or hi is None:
        return _fmt(est.get("p"), digits)
    return with_interval(est.get("p"), low=lo, high=hi, digits=digits)


def to_text(doc: dict[str, Any]) -> str:
    """The readable form of :func:`result_view`'s document: the sides, the run, the
    outcome with 95% intervals, causes/falls/shutdowns per side, a per-turn table (the
    nominal range and the mean range of the duels still running), notes."""
    p = doc["params"]

    def side(s: str) -> str:
        bv = doc[f"bv_{s}"]
        return (f"{p[f'unit_{s}']} ({s.upper()}: gunnery {p[f'gunnery_{s}']}, piloting "
                f"{p[f'piloting_{s}']}, tactic {p.get(f'tactic_{s}', 'stand-and-fire')}, "
                f"{p[f'moved_{s}'] if p.get('movement') != 'tactics' else 'moves by tactic'}, "
                f"fire {p[f'policy_{s}']}, physical "
                f"{p[f'physical_{s}']}, BV {'unknown' if bv is None else bv})")

    rules = p.get("rule_overrides") or ""
    lines = [f"{side('a')}", f"  vs {side('b')}",
             f"range {p['range']}"
             + (" at the start (the tactics move; initiative each turn)"
                if p.get("movement") == "tactics" else "")
             + f", at most {p['turns']} turns; {doc['mode']}, "
             f"{doc['trials']} duels, seed {doc['seed']}; rules "
             + rules_header("default", rules), INTERVAL_NOTE,
             "", "outcome (95% CI):"]
    for name, label in (("p_win_a", "P(A wins)"), ("p_win_b", "P(B wins)"),
                        ("p_draw", "P(draw)"), ("p_timeout", "P(timeout)")):
        lines.append(f"  {label:<12}{_ci(_estimate(doc, name))}")
    lines.append(f"  {'E[turns]':<12}{_ci(_estimate(doc, 'expected_turns'), 2)}")
    w = 26
    lines += ["", f"{'per side (95% CI)':<28}{'A':<{w}}{'B':<{w}}"]
    causes = list(doc["p_destroyed_by_cause"]["a"])
    for c in causes:
        lines.append(f"  {'destroyed by ' + c.replace('_', ' '):<26}"
                     + "".join(f"{_ci(doc['p_destroyed_by_cause'][s][c]):<{w}}" for s in "ab"))
    for c in doc["p_out_by_reason"]["a"]:
        ests = [doc["p_out_by_reason"][s][c] for s in "ab"]
        if any(e.get("p") for e in ests):       # only under a non-default out_of_fight (C21)
            lines.append(f"  {'out: ' + c.replace('_', ' '):<26}"
                         + "".join(f"{_ci(e):<{w}}" for e in ests))
    lines.append(f"  {'fell at least once':<26}"
                 + "".join(f"{_ci(doc['p_fell'][s]):<{w}}" for s in "ab"))
    lines.append(f"  {'shut down at least once':<26}"
                 + "".join(f"{_ci(doc['p_shutdown_by'][s]):<{w}}" for s in "ab"))
    if doc.get("expected_damage_total_a") is not None:
        lines.append(f"  {'damage dealt, whole duel':<26}"
                     + "".join(f"{_ci(_estimate(doc, f'expected_damage_total_{s}'), 1):<{w}}"
                               for s in "ab"))
    hist = doc.get("turns_hist") or []
    ended_by = [sum(hist[:t["turn"] + 1]) if hist else None for t in doc["turns"]]
    shown = rows_until_settled(doc["turns"], ended_by)
    cols = (("E[range]", "expected_range", 2), ("P(A dead by)", "p_a_destroyed_by", 3),
            ("P(B dead by)", "p_b_destroyed_by", 3), ("E[dmg by A]", "expected_damage_a", 2),
            ("E[dmg by B]", "expected_damage_b", 2))
    rows = [[str(t["turn"]), str(t["range"])]
            + [_ci(_estimate(t, k), d) if t.get(k) is not None else "-" for _, k, d in cols]
            for t in shown]
    lines += [""] + text_table(["turn", "range"] + [h for h, _, _ in cols], rows)
    if any(t.get("expected_range") is not None and abs(t["expected_range"] - t["range"]) > 1e-9
           for t in shown):
        lines.append("(range: the schedule at undamaged MP; E[range]: the mean range of the "
                     "duels still running, each closing at the MP it has)")
    if len(shown) < len(doc["turns"]):
        lines.append(f"(every duel had ended by turn {shown[-1]['turn']}; the later turns "
                     "repeat it)")
    lines += [""] + [f"note: {n}" for n in doc["notes"]]
    return "\n".join(line.rstrip() for line in lines)
