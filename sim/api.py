"""The Python API (``sim.attack``, ``sim.heat``, ``sim.run``) and its one door to the engine.

Every call builds the scenario with its model and goes through :mod:`sim.engine`
(:func:`~sim.engine.simulate` or :func:`~sim.engine.exact_frame`) via :func:`run_scenario`,
the single-scenario entry every model (today's and future ones) uses. So the same seed,
trials and chunk size give the same bits by every door: ``sim.attack``, ``sim.run`` of a
one-scenario experiment, ``btsim attack`` and ``btsim run`` agree to the last bit.

Every call returns a :class:`sim.result.Result`. Heavy modules are imported inside the
functions, so ``import sim`` stays fast.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sim import __version__
from sim.errors import UserError
from sim.result import Result

if TYPE_CHECKING:
    from sim.model import Model

__all__ = ["attack", "duel", "heat", "run", "run_scenario"]


def run_scenario(model: Model | str, params: Mapping[str, Any], *, trials: int | None = None,
                 seed: int | None = None, n_jobs: int = 1, chunk_size: int | None = None,
                 progress: bool | str | None = "never", backend: str = "loky",
                 with_exact: bool = True) -> Result:
    """One scenario of any registered model, exact (``trials=None``) or Monte Carlo.

    The Monte Carlo run is :func:`sim.engine.simulate` of ``[params]`` (scenario index 0,
    chunk ``c`` seeded ``SeedSequence(seed, spawn_key=(0, c))``), bit-identical to a
    one-scenario ``sim.run`` with the same seed, trials and chunk size. ``progress``:
    ``auto``, ``always`` or ``never`` (default: no bar from Python).
    Returns a :class:`~sim.result.Result` whose ``data`` is None (generic JSON view);
    :func:`attack` and :func:`heat` attach their own views.
    """
    from sim import engine
    from sim.models import get_model

    mdl = get_model(model) if isinstance(model, str) else model
    scn = mdl.scenario(params)
    meta: dict[str, Any] = {"model": mdl.name, "params": mdl.params(scn),
                            "options": mdl.options(scn), "btsim_version": __version__}
    if trials is None:
        if seed is not None:
            from sim.errors import ConfigError

            raise ConfigError("seed", seed, "given only with trials (exact answers need none)")
        if mdl.exact(scn) is None:
            raise UserError("this scenario is too large for the exact computation; "
                            "pass trials= and seed= (CLI: --trials N --seed S) for a Monte "
                            "Carlo run")
        frame = engine.exact_frame(mdl, [params])
        meta.update(mode="exact", trials=None, seed=None, chunk_size=None, jobs=None)
    else:
        tr, sd, jobs, be, chunk = engine.validate_run(trials, 0 if seed is None else seed,
                                                      n_jobs, backend, chunk_size)
        frame = engine.simulate(mdl, [params], tr, sd, n_jobs=jobs, backend=be,
                                chunk_size=chunk, progress=progress, with_exact=with_exact)
        meta.update(mode="monte-carlo", trials=tr, seed=sd, chunk_size=chunk, jobs=jobs,
                    backend=be)
    meta["facts"] = mdl.facts(scn)
    notes = mdl.notes(scn)
    meta["notes"] = notes
    return Result(frame=frame, metadata=meta, notes=list(notes))


def attack(kind: str, *, tons: int | None = None, piloting: int | None = None,
           target_tons: int | None = None, target_piloting: int | None = None,
           arm: str | None = None, damaged: Any = None, missing: Any = None,
           moved: str | None = None, target_hexes: int | None = None,
           target_jumped: bool | None = None, terrain: str | None = None,
           target_prone: bool | None = None, target_immobile: bool | str | None = None,
           side: str | None = None, hexes: int | None = None, tsm: bool | None = None,
           rules: str | None = None, attacker: str | None = None, target: str | None = None,
           trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
           chunk_size: int | None = None, progress: bool | str | None = "never",
           flat: bool = False, **options: Any) -> Result:
    """Resolve one Classic physical attack; exact if ``trials`` is None, else Monte Carlo.

    ``kind``: punch, kick, club, hatchet, push, charge or dfa. Keyword names are the
    experiment-grid parameters of the ``attack`` model (:mod:`sim.classic.scenario`);
    ``**options`` takes the extension parameters (``target_damaged``, ``fired``, ...) and any
    Classic rule option by field name. ``trials``/``seed``/``n_jobs``/``chunk_size`` run the
    engine (same bits as ``sim.run`` and ``btsim attack``); ``progress`` is
    ``auto``/``always``/``never``.

    Returns a :class:`~sim.result.Result`: ``.frame`` (one row), ``.to_dict()`` (the
    ``btsim attack --json`` document: ``params``, facts ``target_number``, ``impossible``,
    ``notes``, ``damage_on_hit``, ``rules``, ``rule_options``; ``mode``; every metric, with
    ``<name>_se``, ``trials`` and ``seed`` for Monte Carlo; ``damage_dist``; per-location
    metrics nested under ``expected_damage_by_location`` etc. unless ``flat=True``),
    ``.metadata`` and ``.notes``. ``res["p_hit"]`` reads the dict view (NaN kept) as the
    old dict return value did. An impossible attack never raises: ``impossible`` holds the
    reason and every metric is NaN (``damage_dist`` None).
    """
    from sim.classic.api import result_view
    from sim.classic.model import MODEL

    params = dict(attack=kind, tons=tons, piloting=piloting, target_tons=target_tons,
                  target_piloting=target_piloting, arm=arm, damaged=damaged, missing=missing,
                  moved=moved, target_hexes=target_hexes, target_jumped=target_jumped,
                  terrain=terrain, target_prone=target_prone, target_immobile=target_immobile,
                  side=side, hexes=hexes, tsm=tsm, rules=rules, attacker=attacker,
                  target=target, **options)
    params = {k: v for k, v in params.items() if v is not None}
    res = run_scenario(MODEL, params, trials=trials, seed=seed if trials is not None else None,
                       n_jobs=n_jobs, chunk_size=chunk_size, progress=progress)
    res.data = result_view(res, flat=flat)
    res.legacy = "data"
    return res


def heat(unit: Any = None, *, ov: int | None = None, policy: Any = "max", turns: int = 10,
         start_heat: int = 0, water: bool = False, range: str = "medium",
         skill: int | None = None, incoming: Any = (), rules: str = "default",
         trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
         chunk_size: int | None = None, progress: bool | str | None = "never",
         **options: Any) -> Result:
    """Per-turn Alpha Strike overheat risk curves of one unit (:mod:`sim.alphastrike.model`).

    ``unit``: a unit name (catalog), a card path or an :class:`~sim.units.types.ASCard`;
    ``None`` uses the generic 'Mech with overheat value ``ov``. ``policy``: ``hold``,
    ``never``, ``max``, ``fixed:K``, ``below:H`` or a callable ``f(heat, turn, state)``.
    ``incoming``: attackers as ``"tn=8,dmg=3,ht=1"`` strings or dicts. ``options``: other
    scenario parameters (``water_depth``, ``movement``, ``target_tmm``, ``physical``...) and
    rule options by field name.

    With ``trials=None`` the values are exact (Markov chain); otherwise the engine runs
    ``trials`` units with ``seed`` (same bits as ``sim.run`` and ``btsim heat``), exact
    values beside them in ``*_exact`` columns. Returns a :class:`~sim.result.Result`:
    ``.frame`` has one row per turn (``res["p_shutdown"]``, ``res.iloc[0]`` reach it as
    before), ``.to_dict()`` is the ``btsim heat --json`` document (with ``notes``).
    """
    from sim.alphastrike.api import result_view
    from sim.alphastrike.model import MODEL

    params: dict[str, Any] = {"unit": unit, "ov": ov, "policy": policy, "turns": turns,
                              "start_heat": start_heat, "water": water, "range": range,
                              "skill": skill, "incoming": list(incoming) if isinstance(
                                  incoming, list | tuple) else incoming, "rules": rules}
    params.update(options)
    res = run_scenario(MODEL, params, trials=trials, seed=seed if trials is not None else None,
                       n_jobs=n_jobs, chunk_size=chunk_size, progress=progress)
    res.data = result_view(res)
    res.legacy = "frame"
    return res


def duel(a: Any, b: Any, *, skill_a: int = 4, skill_b: int = 4, range: str | None = None,
         ranges: str | list[str] | None = None, closing: str | None = None,
         start_distance: int | None = None, moved_a: str | None = None,
         moved_b: str | None = None, policy_a: Any = None, policy_b: Any = None,
         terrain_a: str | None = None, terrain_b: str | None = None,
         targeting_a: str | None = None, targeting_b: str | None = None, turns: int = 30,
         rules: str | None = None, trials: int | None = None, seed: int | None = None,
         n_jobs: int = 1, chunk_size: int | None = None,
         progress: bool | str | None = "never", **options: Any) -> Result:
    """An Alpha Strike fight, side ``a`` against side ``b``, to destruction or ``turns``
    (the ``duel`` model, :mod:`sim.alphastrike.duel`; reference-as-combat 20-23).

    A side is a unit name (catalog; unique prefixes work), a card path, an
    :class:`~sim.units.types.ASCard`, ``"UNIT@SKILL"`` or a force ``"U@S,U@S"`` of up to 4
    units; ``skill_a``/``skill_b`` are the skills of units written without ``@SKILL``.
    Range: ``range`` (``short``/``medium``/``long``, default short), or ``ranges`` (one band
    per turn, ``"long,medium,short"``, the last repeats), or ``closing`` (``close`` or
    ``hold-band``, 20.7) from ``start_distance`` inches (default 40). ``moved_*``:
    ``ground``/``still``/``jump``; ``policy_*``: overheat policy (``never`` default,
    ``hold``, ``max``, ``fixed:K``, ``below:H`` or a callable); ``terrain_*``: ``clear``,
    ``woods``, ``cover``, ``water``, ``underwater``; ``targeting_*``: force targeting
    (``focus``, ``nearest-to-death``, ``most-dangerous``, ``spread``). ``rules``: preset of
    the ``alphastrike`` options; ``**options``: rule options by name (``btsim rules --game
    alphastrike``: DuelRules and ASRules fields).

    Exact (Markov chain, 1-vs-1 within :data:`~sim.alphastrike.duel.markov.MAX_STATES`)
    when ``trials`` is None, else :class:`~sim.errors.UserError` asking for ``trials``; with
    ``trials`` a Monte Carlo run through :func:`run_scenario` (same bits as ``btsim duel
    --trials`` and a one-scenario ``sim.run`` with the same seed, trials and chunk size).

    Returns a :class:`~sim.result.Result`: ``.to_dict()`` is the ``btsim duel --json``
    object (``params``, ``notes``, ``mode``, ``p_win_a``, ``p_win_b``, ``p_draw``,
    ``p_timeout``, ``expected_turns``, the winner's Armor/Structure left, ``pv_a``, ``pv_b``,
    ``turns`` rows; ``_se`` beside every number and ``trials`` for Monte Carlo);
    ``res["p_win_a"]`` reads it; ``.frame`` has one row per turn; ``.metadata`` records
    every effective rule option.
    """
    from sim.alphastrike.duel.api import result_view
    from sim.alphastrike.duel.model import MODEL
    from sim.alphastrike.duel.scenario import range_params

    params: dict[str, Any] = {"a": a, "b": b, "skill_a": skill_a, "skill_b": skill_b,
                              "turns": turns, **range_params(range, ranges, closing)}
    for key, value in (("start_distance", start_distance), ("moved_a", moved_a),
                       ("moved_b", moved_b), ("policy_a", policy_a), ("policy_b", policy_b),
                       ("terrain_a", terrain_a), ("terrain_b", terrain_b),
                       ("targeting_a", targeting_a), ("targeting_b", targeting_b),
                       ("rules", rules)):
        if value is not None:
            params[key] = value
    params.update(options)
    res = run_scenario(MODEL, params, trials=trials, seed=seed if trials is not None else None,
                       n_jobs=n_jobs, chunk_size=chunk_size, progress=progress,
                       with_exact=False)
    res.data = result_view(res)
    res.legacy = "data"
    return res


def run(experiment: str | os.PathLike[str] | Mapping[str, Any] | Any, *,
        trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
        backend: str = "loky", scheduler: str | None = None, chunk_size: int | None = None,
        exact_only: bool = False, out: str | os.PathLike[str] | None = None,
        progress: bool | str | None = None,
        rule_overrides: Mapping[str, Any] | None = None) -> Result:
    """Run an experiment (a TOML path, a dict or an :class:`~sim.experiment.Experiment`).

    ``trials`` and ``seed`` override the file; ``exact_only`` computes exact values only;
    ``out`` (a results folder) writes ``out/<name>/`` atomically; ``progress`` is
    ``auto`` (default), ``always`` or ``never``; ``rule_overrides`` (rule option name ->
    value, see ``btsim rules``) applies to every scenario after the file's own. Returns a :class:`~sim.result.Result`
    whose ``.frame`` is the summary (one row per scenario row; ``res["p_hit"]`` etc. reach
    it as before) and whose ``.metadata`` is the run's metadata.
    """
    from sim import engine
    from sim.experiment import Experiment, load, with_rule_overrides
    from sim.experiment import run as run_experiment
    from sim.models import get_model

    exp = experiment if isinstance(experiment, Experiment) else load(experiment)
    exp = with_rule_overrides(exp, rule_overrides)
    frame = run_experiment(exp, trials=trials, seed=seed, n_jobs=n_jobs, backend=backend,
                           scheduler=scheduler, chunk_size=chunk_size, exact_only=exact_only,
                           out=out, progress=progress_flag(progress))
    model = get_model(exp.model)
    notes: list[str] = []
    options: list[dict[str, Any]] = []
    for params in exp.scenarios():
        scn = model.scenario(params)
        options.append(model.options(scn))
        notes += [n for n in model.notes(scn) if n not in notes]
    meta: dict[str, Any] = {
        "model": exp.model, "name": exp.name, "params": exp.scenarios(), "options": options,
        "mode": "exact" if exact_only else "monte-carlo",
        "trials": None if exact_only else (exp.trials if trials is None else trials),
        "seed": None if exact_only else (exp.seed if seed is None else seed),
        "chunk_size": None if exact_only else (chunk_size or engine.DEFAULT_CHUNK),
        "jobs": n_jobs, "backend": backend, "btsim_version": __version__, "notes": notes}
    return Result(frame=frame, metadata=meta, notes=notes)


def progress_flag(progress: bool | str | None) -> bool | None:
    """A ``progress`` mode (``auto``/``always``/``never``, or the older None/True/False) in
    the boolean spelling of :func:`sim.experiment.run` (None = auto)."""
    from sim.engine import check_progress

    return {"auto": None, "always": True, "never": False}[check_progress(progress)]


#: the Python API by name (the CLI and the docs list these)
API: dict[str, Callable[..., Result]] = {"attack": attack, "heat": heat, "duel": duel,
                                         "run": run}
