"""``sim.duel(...)``: an Alpha Strike duel from Python (returns a dict until
``sim.result.Result`` lands; the lead adapts it)."""

from __future__ import annotations

from typing import Any


def duel(a: Any, b: Any, *, skill_a: int = 4, skill_b: int = 4, range: str | None = None,
         ranges: Any = None, closing: str | None = None, turns: int = 30,
         trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
         **options: Any) -> dict[str, Any]:
    """Side ``a`` against side ``b`` (unit names, ``"UNIT@SKILL"``, ``"U@S,U@S"`` or ASCards).

    ``options``: other duel parameters (``moved_a``, ``policy_b``, ``terrain_a``,
    ``targeting_b``, ``start_distance``...) and rule options by field name (DuelRules,
    ASRules). Exact (Markov chain) when ``trials`` is None and the chain fits, else a
    :class:`~sim.errors.UserError`; with ``trials`` a Monte Carlo run (``_se`` beside every
    number). Returns the ``btsim duel --json`` object plus ``frame`` (the engine's table).
    """
    from sim import engine
    from sim.alphastrike.duel.markov import why_not_exact
    from sim.alphastrike.duel.model import MODEL
    from sim.cli.duel import to_json
    from sim.errors import UserError

    params: dict[str, Any] = {"a": a, "b": b, "skill_a": skill_a, "skill_b": skill_b,
                              "turns": turns}
    if ranges is not None:
        params["ranges"] = ranges
    elif closing is not None:
        params["closing"] = closing
    else:
        params["range"] = range or "short"
    params.update(options)
    scn = MODEL.scenario(params)
    if trials is None:
        if MODEL.exact(scn) is None:
            raise UserError(f"no exact answer: {why_not_exact(scn)}; pass trials= and seed=")
        frame = engine.exact_frame(MODEL, [params])
        mc = False
    else:
        frame = engine.simulate(MODEL, [params], trials=trials, seed=0 if seed is None else seed,
                                n_jobs=n_jobs, progress=False, with_exact=False)
        mc = True
    doc = to_json(frame, MODEL.params(scn), scn.notes(), (scn.a.pv, scn.b.pv), mc)
    doc["frame"] = frame
    return doc
