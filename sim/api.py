"""The Python API (``sim.attack``, ``sim.heat``, ``sim.fire``, ``sim.profile``, ``sim.run``) and its one door to the engine.

Every call builds the scenario with its model and goes through :mod:`sim.engine`
(:func:`~sim.engine.simulate` or :func:`~sim.engine.exact_frame`) via :func:`run_scenario`,
the single-scenario entry every model (today's and future ones) uses. So the same seed,
trials and chunk size give the same bits by every door: ``sim.attack``, ``sim.run`` of a
one-scenario experiment, ``btsim attack`` and ``btsim run`` agree to the last bit.

Every call returns a :class:`sim.result.Result`. Heavy modules are imported inside the
functions, so ``import sim`` stays fast.

Progress: every Monte Carlo call takes ``progress`` = ``"auto"`` (the default everywhere,
as on the command line), ``"always"`` or ``"never"``. ``auto`` draws a tqdm bar on stderr
only when stderr is a terminal and the run lasts over ~2 s: a long call from a terminal
shows one; a notebook, a script with redirected stderr or a test shows none (their stderr
is not a terminal). ``always`` draws it at once anywhere (also in a notebook's stderr);
``never`` draws none.
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

__all__ = ["attack", "classic_duel", "classic_force", "compare", "duel", "fire", "heat", "hit", "profile",
           "run", "run_scenario"]


def run_scenario(model: Model | str, params: Mapping[str, Any], *, trials: int | None = None,
                 seed: int | None = None, n_jobs: int = 1, chunk_size: int | None = None,
                 progress: bool | str | None = "auto", backend: str = "loky",
                 with_exact: bool = True, target_error: float | None = None,
                 target_metric: str | list[str] | None = None,
                 max_trials: int | None = None) -> Result:
    """One scenario of any registered model, exact (``trials=None``) or Monte Carlo.

    The Monte Carlo run is :func:`sim.engine.simulate` of ``[params]`` (scenario index 0,
    chunk ``c`` seeded ``SeedSequence(seed, spawn_key=(0, c))``), bit-identical to a
    one-scenario ``sim.run`` with the same seed, trials and chunk size. ``progress``:
    ``auto`` (default: a bar after ~2 s only when stderr is a terminal), ``always`` or
    ``never`` (module docstring).
    Returns a :class:`~sim.result.Result` whose ``data`` is None (generic JSON view);
    :func:`attack` and :func:`heat` attach their own views.

    ``target_error`` (with optional ``target_metric`` and ``max_trials``): Monte Carlo that
    stops when every chosen metric's 95% CI half-width is at most the target
    (:class:`sim.engine.Precision`; ``trials`` is then not needed). The frame gains
    ``trials_used`` and ``target_reached``; the metadata ``target_error``,
    ``target_reached`` and ``trials`` (= trials used).
    """
    from sim import engine
    from sim.models import get_model

    mdl = get_model(model) if isinstance(model, str) else model
    scn = mdl.scenario(params)
    meta: dict[str, Any] = {"model": mdl.name, "params": mdl.params(scn),
                            "options": mdl.options(scn), "btsim_version": __version__}
    precision = engine.check_precision(mdl, target_error, target_metric, max_trials)
    if precision is not None:
        tr, sd, jobs, be, chunk = engine.validate_run(trials or 1, 0 if seed is None else seed,
                                                      n_jobs, backend, chunk_size, mdl)
        frame = engine.simulate(mdl, [params], tr, sd, n_jobs=jobs, backend=be,
                                chunk_size=chunk, progress=progress, with_exact=with_exact,
                                precision=precision)
        meta.update(mode="monte-carlo", trials=int(frame["trials_used"].iloc[0]), seed=sd,
                    chunk_size=chunk, jobs=jobs, backend=be,
                    target_error=precision.target_error,
                    target_metric=None if precision.metrics is None else list(precision.metrics),
                    max_trials=precision.max_trials,
                    target_reached=bool(frame["target_reached"].iloc[0]))
    elif trials is None:
        if seed is not None:
            from sim.errors import ConfigError

            raise ConfigError("seed", seed, "given only with trials (exact answers need none)")
        ex = engine.check_exact_values(mdl, mdl.exact(scn))
        if ex is None:
            raise UserError("this scenario is too large for the exact computation; "
                            "pass trials= and seed= (CLI: --trials N --seed S) for a Monte "
                            "Carlo run")
        frame = engine.exact_frame(mdl, [params], known=[(scn, ex)])  # computed once
        meta.update(mode="exact", trials=None, seed=None, chunk_size=None, jobs=None)
    else:
        tr, sd, jobs, be, chunk = engine.validate_run(trials, 0 if seed is None else seed,
                                                      n_jobs, backend, chunk_size, mdl)
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
           chunk_size: int | None = None, progress: bool | str | None = "auto",
           flat: bool = False, target_error: float | None = None,
           target_metric: str | list[str] | None = None, max_trials: int | None = None,
           **options: Any) -> Result:
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
    mc = trials is not None or target_error is not None
    res = run_scenario(MODEL, params, trials=trials, seed=seed if mc else None,
                       n_jobs=n_jobs, chunk_size=chunk_size, progress=progress,
                       target_error=target_error, target_metric=target_metric,
                       max_trials=max_trials)
    res.data = result_view(res, flat=flat)
    res.legacy = "data"
    return res


def heat(unit: Any = None, *, ov: int | None = None, policy: Any = "max", turns: int = 10,
         start_heat: int = 0, water: bool = False, range: str = "medium",
         skill: int | None = None, incoming: Any = (), rules: str = "default",
         trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
         chunk_size: int | None = None, progress: bool | str | None = "auto",
         target_error: float | None = None, target_metric: str | list[str] | None = None,
         max_trials: int | None = None, **options: Any) -> Result:
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
    mc = trials is not None or target_error is not None
    res = run_scenario(MODEL, params, trials=trials, seed=seed if mc else None,
                       n_jobs=n_jobs, chunk_size=chunk_size, progress=progress,
                       target_error=target_error, target_metric=target_metric,
                       max_trials=max_trials)
    res.data = result_view(res)
    res.legacy = "frame"
    return res


def fire(unit: Any, *, gunnery: int = 4, range: int | None = None, ranges: Any = None,
         moved: str = "stand", target_hexes: int = 0, target_jumped: bool = False,
         terrain: str = "clear", policy: Any = "all", turns: int = 10, start_heat: int = 0,
         water: bool = False, jump_hexes: int | None = None, trials: int | None = None,
         seed: int | None = None, n_jobs: int = 1, chunk_size: int | None = None,
         progress: bool | str | None = "auto", **rules: Any) -> Result:
    """One Classic 'Mech firing at a target for ``turns`` turns (model ``fire``, issue 11).

    ``unit``: a catalog name, an ``.mtf`` path or a :class:`~sim.units.types.ClassicMech`.
    ``range`` (default 6) or ``ranges`` (a per-turn script, a list or ``"3,6,9"``; the last
    range repeats). ``moved``: stand, walk, run or jump (the attacker's movement, which also
    makes heat); ``target_hexes``/``target_jumped``/``terrain``: the target's modifiers.
    ``policy``: ``all``, ``neutral``, ``below:H``, ``max-expected`` or a callable
    ``f(heat, turn, state) -> weapons``. ``rules``: fire rule options by name
    (``uac_jam="never"``; ``btsim rules`` lists them).

    Exact (Markov chain) when ``trials`` is None; otherwise Monte Carlo through
    :func:`run_scenario` (same bits as ``btsim fire --trials`` and ``btsim run`` with the
    ``fire`` model). Returns a :class:`~sim.result.Result`: ``.frame`` one row per turn (read
    after that turn's heat phase), ``.to_dict()`` the ``btsim fire --json`` document
    (``params``, ``notes``, ``weapons``, ``turns``, ``mode``; ``_se`` beside every number for
    Monte Carlo), ``.notes`` everything not simulated and every unknown item.
    """
    from sim.classic.fire.api import fire_result

    params: dict[str, Any] = {"unit": unit, "gunnery": gunnery, "moved": moved,
                              "target_hexes": target_hexes, "target_jumped": target_jumped,
                              "terrain": terrain, "policy": policy, "turns": turns,
                              "start_heat": start_heat, "water": water, **rules}
    if jump_hexes is not None:
        params["jump_hexes"] = jump_hexes
    if ranges is not None:
        if range is not None:
            from sim.errors import ConfigError

            raise ConfigError("range", range, "omitted when ranges is given")
        params["ranges"] = ranges
    else:
        params["range"] = 6 if range is None else range
    return fire_result(params, trials=trials, seed=seed,
                       n_jobs=n_jobs, chunk_size=chunk_size, progress=progress)


def profile(unit: Any, *, gunnery: int = 4, turns: int = 10, policy: Any = "all",
            trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
            chunk_size: int | None = None, progress: bool | str | None = "auto",
            **rules: Any) -> Result:
    """Damage versus range of one Classic 'Mech (model ``profile``, issue 11).

    One row per range from 1 to the unit's longest: ``max_damage`` (every forward weapon in
    range hits in full), ``hit_weighted`` (one turn's expected damage at ``gunnery``, both
    standing, no heat) and ``sustained`` (expected damage per turn over ``turns`` turns
    under ``policy`` with heat, shutdowns, jams and ammunition carried). Exact by default;
    ``trials``/``seed`` run Monte Carlo for ``sustained``. ``rules``: fire rule options.
    Returns a :class:`~sim.result.Result` whose ``.to_dict()`` is the ``btsim profile
    --json`` document (``params``, ``notes``, ``ranges``, ``mode``).
    """
    from sim.classic.fire.api import profile_result

    params: dict[str, Any] = {"unit": unit, "gunnery": gunnery, "turns": turns,
                              "policy": policy, **rules}
    return profile_result(params, trials=trials, seed=seed, n_jobs=n_jobs,
                          chunk_size=chunk_size, progress=progress)
def duel(a: Any, b: Any, *, skill_a: int = 4, skill_b: int = 4, range: str | None = None,
         ranges: str | list[str] | None = None, closing: str | None = None,
         start_distance: int | None = None, moved_a: str | None = None,
         moved_b: str | None = None, policy_a: Any = None, policy_b: Any = None,
         terrain_a: str | None = None, terrain_b: str | None = None,
         targeting_a: str | None = None, targeting_b: str | None = None, turns: int = 30,
         rules: str | None = None, trials: int | None = None, seed: int | None = None,
         n_jobs: int = 1, chunk_size: int | None = None,
         progress: bool | str | None = "auto", **options: Any) -> Result:
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


def classic_duel(a: Any, b: Any, **kwargs: Any) -> Result:
    """A Classic BattleTech fight of two 'Mechs to destruction (the ``classic-duel`` model,
    :mod:`sim.classic.duel`; ``btsim duel --game classic``). Keywords as
    :func:`sim.classic.duel.api.classic_duel`: gunnery/piloting, range or ranges or closing,
    movement, firing and physical-attack policies per side (``_a``/``_b``), ``turns``,
    ``rules`` (rule options by name), ``trials`` and ``seed`` (Monte Carlo)."""
    from sim.classic.duel.api import classic_duel as _classic_duel

    return _classic_duel(a, b, **kwargs)


def classic_force(a: Any, b: Any, **kwargs: Any) -> Result:
    """A Classic engagement of 1 to 4 'Mechs a side (the ``classic-force`` model, issue 21;
    ``btsim duel --game classic "A@G/P,B" "C,D"``): sides as ``"UNIT@G/P,UNIT@G/P"``.
    Keywords as :func:`sim.classic.duel.force_api.classic_force`: the duel's per side
    (``_a``/``_b``) plus ``targeting_a``/``targeting_b``, ``range`` or ``ranges``,
    ``turns``, ``rules``, ``trials``, ``seed``."""
    from sim.classic.duel.force_api import classic_force as _classic_force

    return _classic_force(a, b, **kwargs)


def hit(unit: Any, **kwargs: Any) -> Result:
    """What damage groups do to a Classic 'Mech (``btsim hit``, issue 13 "What one hit
    does"): exact by default, Monte Carlo with ``method="mc"`` (``trials``, ``seed``; every
    estimate then has ``<name>_se``). Keywords as :func:`sim.classic.hit_api.hit`:
    ``damage`` or ``groups``, ``location`` (with ``rear``) or ``side``, ``rules``,
    ``state``.

    Returns a :class:`~sim.result.Result`: ``.to_dict()`` is the ``btsim hit --json``
    document (``res["p_destroyed"]`` reads it), ``.frame`` one row per location
    (``p_location_destroyed``, ``expected_armor_left``, ``expected_structure_left``,
    ``p_critical``), ``.metadata`` the parameters and mode, ``.notes``."""
    import pandas as pd

    from sim.classic.damage_state.layout import LOCS
    from sim.classic.hit_api import hit as _hit

    doc = _hit(unit, **kwargs)
    cols = ("p_location_destroyed", "expected_armor_left", "expected_structure_left",
            "p_critical")
    frame = pd.DataFrame({"location": list(LOCS),
                          **{c: [doc[c][loc] for loc in LOCS] for c in cols}})
    prm = doc["params"]
    meta: dict[str, Any] = {"model": "hit", "params": prm, "options": prm["rules"],
                            "mode": "exact" if prm["method"] == "exact" else "monte-carlo",
                            "btsim_version": __version__,
                            **({"trials": prm["trials"], "seed": prm["seed"]}
                               if prm["method"] == "mc" else {})}
    return Result(frame, meta, list(doc["notes"]), data=doc, legacy="data")


def run(experiment: str | os.PathLike[str] | Mapping[str, Any] | Any, *,
        trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
        backend: str = "loky", scheduler: str | None = None, chunk_size: int | None = None,
        exact_only: bool = False, out: str | os.PathLike[str] | None = None,
        progress: bool | str | None = "auto",
        rule_overrides: Mapping[str, Any] | None = None, target_error: float | None = None,
        target_metric: str | list[str] | None = None, max_trials: int | None = None,
        cache: bool = True) -> Result:
    """Run an experiment (a TOML path, a dict or an :class:`~sim.experiment.Experiment`).

    ``trials`` and ``seed`` override the file; ``exact_only`` computes exact values only;
    ``out`` (a results folder) writes ``out/<name>/`` atomically; ``progress`` is
    ``auto`` (default), ``always`` or ``never``; ``rule_overrides`` (rule option name ->
    value, see ``btsim rules``) applies to every scenario after the file's own. Returns a :class:`~sim.result.Result`
    whose ``.frame`` is the summary (one row per scenario row; ``res["p_hit"]`` etc. reach
    it as before) and whose ``.metadata`` is the run's metadata. ``target_error`` etc. stop
    at a target precision (README "Precision"); with ``out`` finished chunks are cached in
    ``out/<name>/.cache/`` so the same call resumes or extends a run (``cache=False``: no).
    """
    from sim import engine
    from sim.experiment import Experiment, load, with_rule_overrides
    from sim.experiment import run as run_experiment
    from sim.models import get_model

    exp = experiment if isinstance(experiment, Experiment) else load(experiment)
    exp = with_rule_overrides(exp, rule_overrides)
    frame = run_experiment(exp, trials=trials, seed=seed, n_jobs=n_jobs, backend=backend,
                           scheduler=scheduler, chunk_size=chunk_size, exact_only=exact_only,
                           out=out, progress=progress_flag(progress),
                           target_error=target_error, target_metric=target_metric,
                           max_trials=max_trials, cache=cache)
    if getattr(exp, "kind", "") == "rating":  # sim.rating: the tidy frame, its own plan
        return Result(frame=frame, metadata={"model": exp.model, "name": exp.name,
                                             "kind": "rating", "btsim_version": __version__},
                      notes=[])
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
        "chunk_size": None if exact_only else (chunk_size or model.default_chunk
                                               or engine.DEFAULT_CHUNK),
        "jobs": n_jobs, "backend": backend, "btsim_version": __version__, "notes": notes}
    return Result(frame=frame, metadata=meta, notes=notes)


def compare(model: Model | str, a: Mapping[str, Any], b: Mapping[str, Any],
            common: Mapping[str, Any] | None = None, *, trials: int | None = None,
            seed: int = 0, n_jobs: int = 1, backend: str = "loky",
            chunk_size: int | None = None, paired: bool = True,
            metrics: list[str] | None = None, target_error: float | None = None,
            target_metric: str | list[str] | None = None, max_trials: int | None = None,
            progress: bool | str | None = "auto") -> Any:
    """Compare two scenarios of one model: ``B - A`` for every probability and mean metric.

    The scenarios are ``common`` updated by ``a`` and by ``b``. ``paired`` (default): both
    draw from the same random stream chunk by chunk (common random numbers), and the
    difference's standard error comes from the per-chunk paired differences
    (:class:`sim.engine.PairedDiff`); ``paired=False``: independent streams,
    ``SE = sqrt(SE_A^2 + SE_B^2)``. ``trials`` or ``target_error`` (which then applies to
    each scenario's own metrics). Returns a long DataFrame: the row-index columns of the model
    (e.g. ``turn``), ``metric``, ``a``, ``b`` (each with ``_ci_low``/``_ci_high``), ``diff``, ``diff_se``, ``diff_ci_low``,
    ``diff_ci_high``, ``independent_se`` (what independent streams would give at these
    trials: ``sqrt(SE_A^2 + SE_B^2)``), ``trials`` and ``a_exact``/``b_exact`` where exact
    values exist.
    """
    import dataclasses

    import numpy as np
    import pandas as pd

    from sim import engine
    from sim.models import get_model

    mdl = get_model(model) if isinstance(model, str) else model
    base = dict(common or {})
    params = [base | dict(a), base | dict(b)]
    precision = engine.check_precision(mdl, target_error, target_metric, max_trials)
    if precision is None and trials is None:
        from sim.errors import ConfigError

        raise ConfigError("trials", None, "a trial count (or a target error)")
    tr, sd, jobs, be, chunk = engine.validate_run(trials or 1, seed, n_jobs, backend,
                                                  chunk_size, mdl)
    if paired:  # enough chunks for the paired standard error (engine.PAIRED_MIN_CHUNKS)
        if precision is not None:
            precision = dataclasses.replace(precision, min_chunks=engine.PAIRED_MIN_CHUNKS)
        chunk = engine.paired_chunk(trials, chunk_size and chunk,
                                    mdl.default_chunk or engine.DEFAULT_CHUNK, precision)
    frame = engine.simulate(mdl, params, tr, sd, n_jobs=jobs, backend=be, chunk_size=chunk,
                            progress=progress, metrics=metrics, precision=precision,
                            streams=[0, 0] if paired else [0, 1],
                            pairs={1: 0} if paired else None)
    scns = [mdl.scenario(p) for p in params]
    k = [len(r) if (r := mdl.rows(s)) is not None else 1 for s in scns]
    fa, fb = frame.iloc[: k[0]].reset_index(drop=True), frame.iloc[k[0]:].reset_index(drop=True)
    if k[0] != k[1]:
        from sim.errors import ConfigError

        raise ConfigError("b", dict(b), "a scenario with as many rows as A "
                          f"({k[0]}; e.g. the same number of turns)")
    rows = mdl.rows(scns[1])
    out = []
    for m in engine._selected(mdl, metrics):
        if m.kind == "hist" or m.name not in fb.columns:
            continue
        part = pd.DataFrame(index=range(k[1])) if rows is None else rows.reset_index(drop=True)
        part = part.copy()
        part["metric"] = m.name
        part["a"], part["b"] = fa[m.name].to_numpy(), fb[m.name].to_numpy()
        for side, f in (("a", fa), ("b", fb)):   # each side's own 95% interval
            part[side + "_ci_low"] = f[m.name + "_ci_low"].to_numpy()
            part[side + "_ci_high"] = f[m.name + "_ci_high"].to_numpy()
        indep = np.sqrt(fa[m.name + "_se"].to_numpy() ** 2 + fb[m.name + "_se"].to_numpy() ** 2)
        if paired:
            part["diff"] = fb[m.name + "_diff"].to_numpy()
            part["diff_se"] = fb[m.name + "_diff_se"].to_numpy()
            part["diff_ci_low"] = fb[m.name + "_diff_ci_low"].to_numpy()
            part["diff_ci_high"] = fb[m.name + "_diff_ci_high"].to_numpy()
        else:
            part["diff"] = part["b"] - part["a"]
            part["diff_se"] = indep
            part["diff_ci_low"] = part["diff"] - engine.Z95 * indep
            part["diff_ci_high"] = part["diff"] + engine.Z95 * indep
        part["independent_se"] = indep
        part["trials"] = fb["trials"].to_numpy()
        if m.name + "_exact" in fb.columns:
            part["a_exact"] = fa[m.name + "_exact"].to_numpy()
            part["b_exact"] = fb[m.name + "_exact"].to_numpy()
        out.append(part)
    res = pd.concat(out, ignore_index=True)
    res.attrs = {"paired": paired, "seed": sd, "chunk_size": chunk, "model": mdl.name,
                 "a": params[0], "b": params[1]}
    return res


def progress_flag(progress: bool | str | None) -> bool | None:
    """A ``progress`` mode (``auto``/``always``/``never``, or the older None/True/False) in
    the boolean spelling of :func:`sim.experiment.run` (None = auto)."""
    from sim.engine import check_progress

    return {"auto": None, "always": True, "never": False}[check_progress(progress)]


#: the Python API by name (the CLI and the docs list these)
API: dict[str, Callable[..., Result]] = {"attack": attack, "heat": heat, "fire": fire,
                                         "profile": profile, "duel": duel, "classic_duel": classic_duel,
                                         "classic_force": classic_force,
                                         "hit": hit, "run": run,
                                         "compare": compare}
