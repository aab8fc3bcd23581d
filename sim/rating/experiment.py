"""The experiment kind ``rating`` (``kind = "rating"`` in an experiment TOML, run by
``btsim run``): a rating of units against a pool (:func:`sim.rating.run.rate`), written to
``results/<name>/`` like every run (summary.parquet: the tidy rating frame; metadata.json:
the plan, the curves, the price gap and the pairings).

Format::

    kind = "rating"
    name = "rating_alphastrike"
    game = "alphastrike"            # or "classic"
    units = "all"                   # or a list of names
    catalog = "builtin"             # units = "all" from: builtin (shipped) or all (+ imported)
    max_units = 24                  # with units = "all": at most this many, fully simulated first
    price = "official-else-computed"  # or "official" / "computed" (sim.rating.prices)
    pool = "auto"                   # or a list of names
    pool_size = 3                   # with pool = "auto"
    seatings = "both"               # or "one"
    target_error = 0.35             # 95% half-width of a strength (logit units)
    max_trials = 4000               # duels per pairing at most
    chunk_size = 200                # duels per seeded chunk
    seed = 12
    exact = false                   # Alpha Strike: exact chain where it fits
    correction = "holm"             # or "bh"
    tactics = ["competent"]         # optional, crossed with the scenarios
    [[scenario]]                    # optional (default: short, medium, long range with
    name = "short"                  #   both sides competent, plus maximin)
    range = "short"
    tactic = "competent"            # both sides; or maximin = true / a list of tactics
                                    # (screen_trials = N duels a screen cell)

``btsim run`` options: ``--trials N``: no pairing plays more than N duels (the cap becomes
the smaller of N and ``max_trials``, the chunk at most N; adaptive allocation may stop a
pairing earlier; it never raises the cap, so ``make report TRIALS=2000000`` cannot send an
unsettled Classic pairing to two million duels); ``--max-trials`` (which sets the cap either
way), ``--chunk-size`` and ``--target-error`` override the file's;
``--exact`` (exact values only, no Monte Carlo) is refused: a rating's pairings are Monte Carlo
except where the file's ``exact = true`` finds a chain that fits. ``--shard I/N`` (with
``--shard-wait SECONDS``) runs one shard of the rating: its share of every round, the other
shards' chunks read from the shared cache (:mod:`sim.rating.shards`); shard 1 writes the
summary, ``btsim merge`` can redo it. With ``catalog = "all"`` the
run key holds a digest of the user catalog file, so a new ``btsim units import`` reruns it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sim.errors import ConfigError, check_int
from sim.experiment import Experiment
from sim.rating import run as R

KEYS = ("kind", "name", "title", "question", "description", "report", "game", "units",
        "catalog", "max_units", "price", "pool", "pool_size", "seatings", "target_error", "max_trials", "chunk_size", "seed",
        "exact", "correction", "tactics", "scenario", "rule_overrides")


@dataclass
class RatingExperiment(Experiment):
    """A parsed ``kind = "rating"`` experiment (module docstring); an
    :class:`~sim.experiment.Experiment` whose ``model`` is the duel model of its game."""

    game: str = "alphastrike"
    units: list[str] | None = None
    catalog: str = "builtin"
    max_units: int | None = None
    price: str = "official-else-computed"
    pool: list[str] | str = "auto"
    pool_size: int | None = None
    seatings: str = "both"
    chunk_size: int | None = None
    correction: str = "holm"
    tactics: list[str] | None = None
    scenario: list[dict[str, Any]] | None = None
    kind: str = "rating"

    def to_dict(self) -> dict[str, Any]:
        """The experiment's fields; with ``catalog = "all"`` and ``units = "all"`` also a
        digest of the user catalog file (the run key changes with an import)."""
        out = asdict(self)
        if self.catalog == "all" and self.units is None:
            out["user_catalog_digest"] = user_catalog_digest()
        return out

    def scenarios(self) -> list[dict[str, Any]]:
        return R.expand_scenarios(self.scenario or R.default_scenarios(self.game),
                                  self.tactics)

    def validate(self) -> None:
        """Check units, pool and scenarios before anything runs."""
        from sim.units.catalog import lookup

        for u in self.units or []:
            lookup(u)
        if isinstance(self.pool, list):
            for u in self.pool:
                lookup(u)

    def run(self, *, out: str | os.PathLike[str] | None = None, seed: int | None = None,
            n_jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
            target_error: float | None = None, max_trials: int | None = None,
            cache: bool = True, progress: Any = None, trials: int | None = None,
            chunk_size: int | None = None, exact_only: bool = False, **_: Any
            ) -> pd.DataFrame:
        """Rate, and with ``out`` write ``out/<name>/`` atomically. ``trials`` caps every
        pairing (it replaces ``max_trials``), ``chunk_size`` replaces the file's; ``exact_only``
        is refused (module docstring)."""
        res = self.rating(out=out, seed=seed, n_jobs=n_jobs, backend=backend,
                          scheduler=scheduler, target_error=target_error,
                          max_trials=max_trials, cache=cache, trials=trials,
                          chunk_size=chunk_size, exact_only=exact_only)
        if out is not None:
            write(Path(out) / self.name, res, self)
        return res.frame

    def rating(self, *, out: str | os.PathLike[str] | None = None, seed: int | None = None,
               n_jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
               target_error: float | None = None, max_trials: int | None = None,
               cache: bool = True, trials: int | None = None, chunk_size: int | None = None,
               exact_only: bool = False, sharding: Any = None, **_: Any) -> R.Rating:
        """The :class:`sim.rating.run.Rating` of :meth:`run` (nothing written; chunks cached
        in ``out/<name>/.cache/``); ``sharding``: a shard's or a merge's share
        (:mod:`sim.rating.shards`)."""
        from sim.cache import CACHE_DIR

        check_run_options(trials=trials, exact_only=exact_only)
        chunk = chunk_size or self.chunk_size
        cap = max_trials or self.max_trials
        if trials is not None:  # lowers the cap only (module docstring)
            cap = min(trials, cap or R.GAMES[self.game]["max_trials"])
            chunk = min(chunk or R.GAMES[self.game]["chunk"], cap)
        folder = Path(out) / self.name if out is not None else None
        res = R.rate(self.units, game=self.game, pool=self.pool, scenarios=self.scenario,
                     tactics=self.tactics, seatings=self.seatings, pool_size=self.pool_size,
                     target_error=target_error or self.target_error or R.TARGET_ERROR,
                     max_trials=cap, chunk_size=chunk,
                     catalog=self.catalog, max_units=self.max_units, price=self.price,
                     seed=self.seed if seed is None else seed, n_jobs=n_jobs, backend=backend,
                     scheduler=scheduler, exact=self.exact, correction=self.correction,
                     rule_overrides=self.rule_overrides,
                     cache_dir=folder / CACHE_DIR if folder is not None and cache else None,
                     sharding=sharding)
        return res


def check_run_options(trials: int | None = None, exact_only: bool = False) -> None:
    """``btsim run``'s options for a rating experiment (module docstring): ``--exact`` is
    refused (ConfigError naming the option), ``--trials`` must be a positive count.
    ``--shard I/N`` runs one shard of the rating (:mod:`sim.rating.shards`)."""
    if exact_only:
        raise ConfigError("exact", True, "not with a rating experiment (it allocates Monte "
                          "Carlo duels adaptively; its file's exact = true uses the exact chain "
                          "where it fits)")
    if trials is not None:
        check_int("trials", trials, lo=1)


def user_catalog_digest() -> str | None:
    """SHA-256 (16 hex digits) of the user catalog file; None when there is none."""
    import hashlib

    from sim.units.user_catalog import user_catalog_path

    p = user_catalog_path()
    return hashlib.sha256(p.read_bytes()).hexdigest()[:16] if p.is_file() else None


def write(folder: Path, res: R.Rating, exp: RatingExperiment | None = None) -> Path:
    """The results folder of a rating (atomic, :func:`sim.results.write`)."""
    from sim import __version__
    from sim.results import git_commit, git_dirty
    from sim.results import write as write_results

    meta = {**res.meta, "name": folder.name,
            "title": (exp.title if exp else "") or f"Fair prices: {res.meta['game']} rating",
            "question": (exp.question if exp else "") or "Which units are over- or "
            "under-priced, beyond doubt, and how big a price gap decides a fight?",
            "btsim_version": __version__, "git_commit": git_commit(), "git_dirty": git_dirty(),
            "trials": None, "cores": os.cpu_count(),
            "experiment": exp.to_dict() if exp else {"report": "rating", "name": folder.name},
            "pairings_table": {c: res.pairings[c].tolist() for c in res.pairings.columns},
            "metric_kinds": {}}
    return write_results(folder, res.frame, meta)


def load(data: Mapping[str, Any], where: str | None = None) -> RatingExperiment:
    """Validate a ``kind = "rating"`` experiment (module docstring)."""
    from sim.experiment import _check_name
    from sim.options import check_overrides

    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise ConfigError(unknown[0], data[unknown[0]], "a rating experiment key: one of "
                          + ", ".join(KEYS))
    game = R.check_game(data.get("game", "alphastrike"))
    units = data.get("units", "all")
    if units == "all":
        units = None
    elif not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise ConfigError("units", units, "'all' or a list of unit names")
    pool = data.get("pool", "auto")
    if pool != "auto" and (not isinstance(pool, list) or not all(isinstance(u, str)
                                                                 for u in pool)):
        raise ConfigError("pool", pool, "'auto' or a list of unit names")
    if data.get("report", "rating") != "rating":
        raise ConfigError("report", data["report"], "'rating' for a rating experiment")
    scen = data.get("scenario")
    model = R.GAMES[game]["model"]
    te = data.get("target_error", R.TARGET_ERROR)
    if isinstance(te, bool) or not isinstance(te, int | float) or te <= 0:
        raise ConfigError("target_error", te, "a positive number")
    catalog = R.check_catalog(data.get("catalog", "builtin"))
    from sim.rating.prices import DEFAULT_PRICE, check_price

    price = check_price(data.get("price", DEFAULT_PRICE))
    if catalog != "builtin" and units is not None:
        raise ConfigError("catalog", catalog, "used with units = 'all' (named units come from "
                          "every catalog anyway)")
    return RatingExperiment(
        name=_check_name(data.get("name", "rating")), game=game, model=model, units=units,
        catalog=catalog, price=price, max_units=None if data.get("max_units") is None
        else check_int("max_units", data["max_units"], lo=2),
        pool=pool, pool_size=None if data.get("pool_size") is None
        else check_int("pool_size", data["pool_size"], lo=2),
        seatings=str(data.get("seatings", "both")), target_error=float(te),
        max_trials=None if data.get("max_trials") is None
        else check_int("max_trials", data["max_trials"], lo=1),
        chunk_size=None if data.get("chunk_size") is None
        else check_int("chunk_size", data["chunk_size"], lo=1),
        seed=check_int("seed", data.get("seed", 0), lo=0), exact=bool(data.get("exact", False)),
        report="rating", trials=1,
        correction=str(data.get("correction", "holm")), tactics=data.get("tactics"),
        scenario=R.check_scenarios(scen) if scen is not None else None,
        title=str(data.get("title", "")), question=str(data.get("question", "")),
        description=str(data.get("description", "")), source=where,
        rule_overrides=check_overrides(model, data.get("rule_overrides", {})))
