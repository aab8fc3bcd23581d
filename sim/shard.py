"""Beyond one machine: ``btsim run EXP --shard i/N`` and ``btsim merge DIR``.

A fixed-trials run is a fixed set of chunks (scenario, chunk index), each seeded by
``(seed, stream, chunk)`` alone (:mod:`sim.engine`). Shard ``i`` of ``N`` computes a fixed
contiguous ``1/N`` of them (:func:`sim.engine.shard_ranges`) into the chunk cache of the
shared results folder, ``DIR/<name>/.cache/``, each shard appending to its own log
(``shard-i-of-N.agg``) so machines sharing the folder (NFS, Lustre) never write the same
file. Shards hold the experiment's lock shared (they run together; a plain ``btsim run`` or a
merge of the same experiment waits). ``btsim merge DIR`` checks that every chunk is there
(else it names the unfinished shards), then runs the experiment from the cache: it computes
nothing and folds every scenario chunk by chunk in chunk order, so ``summary.parquet`` is
byte-identical to a single-machine run (tests/engine/test_shard.py). No daemon is involved,
so any job array (SLURM, PBS, GNU parallel) can run the shards.

A rating experiment (``kind = "rating"``) shards round by round instead: every shard runs
the whole rating, computes its share of each round's chunks, waits for the others' chunks
of the round (``--shard-wait``) and takes the same allocation decision; shard 1 writes the
summary and ``btsim merge`` replays it from the cache (:mod:`sim.rating.shards`,
:func:`run_rating_shard`).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sim.errors import ConfigError, UserError

#: the run a shard belongs to, written beside the cache manifest (``btsim merge`` reads it)
SPEC_NAME = "run.json"


def _claim_spec(folder: Path, text: bytes, what: str) -> None:
    """Write the shards' run file (``text``: what every shard must share) or check that it
    is the same; UserError naming ``what`` differs otherwise. Called under the folder lock."""
    from sim import results
    from sim.cache import CACHE_DIR, atomic_write_bytes

    path = folder / CACHE_DIR / SPEC_NAME
    results.refuse_link(path, "shard run file")
    if path.is_file() and path.read_bytes() != text:
        raise UserError(f"{folder}: its shards were started with another experiment, "
                        f"{what}; use the same command for every shard (or `btsim cache "
                        "clean` the folder).")
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, text)


def parse_shard(text: Any) -> tuple[int, int]:
    """``"i/N"`` (1 <= i <= N, N <= 10000) -> ``(i - 1, N)``; ConfigError naming
    ``shard``."""
    m = re.fullmatch(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*", str(text))
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)) <= 10_000:
        raise ConfigError("shard", str(text)[:100], "I/N with 1 <= I <= N <= 10000 (e.g. "
                          "--shard 3/8; with a SLURM array: --shard $SLURM_ARRAY_TASK_ID/8 "
                          "and --array=1-8)")
    return int(m.group(1)) - 1, int(m.group(2))


def parse_wait(text: Any) -> float:
    """``--shard-wait SECONDS`` (a finite number >= 0; 0: do not wait) -> seconds;
    ConfigError naming ``shard_wait``."""
    try:
        value = float(str(text).strip())
    except ValueError:
        value = math.nan
    if not 0 <= value <= 10**7:
        raise ConfigError("shard_wait", str(text)[:100], "a number of seconds >= 0 and <= "
                          "1e7 (how long a rating shard waits for the other shards' chunks "
                          "of a round; 0: exit with status 3 at once when they are missing)")
    return value


def log_name(shard: tuple[int, int]) -> str:
    """The chunk log a shard appends to in each scenario folder of the cache."""
    return f"shard-{shard[0] + 1}-of-{shard[1]}.agg"


def run_shard(exp: Any, shard: tuple[int, int], *, out: str | os.PathLike[str],
              trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
              backend: str = "loky", scheduler: str | None = None,
              chunk_size: int | None = None, progress: Any = None) -> Any:
    """Compute shard ``shard`` of experiment ``exp`` (a :class:`sim.experiment.Experiment`)
    into ``out/<name>/.cache/``; the :class:`sim.engine.RunOutcome` (nothing folded)."""
    import dataclasses

    from sim import engine, results
    from sim.cache import CACHE_DIR, ChunkCache
    from sim.models import get_model

    if exp.target_error is not None:
        raise ConfigError("shard", f"{shard[0] + 1}/{shard[1]}", "used with a fixed trial "
                          "count: a target-error run decides its chunks as it goes (drop "
                          "target_error, or run it on one machine or with --scheduler)")
    exp = dataclasses.replace(exp, trials=exp.trials if trials is None else trials,
                              seed=exp.seed if seed is None else seed)
    model = get_model(exp.model)
    tr, sd, jobs, be, chunk = engine.validate_run(exp.trials, exp.seed, n_jobs, backend,
                                                  chunk_size, model)
    exp = dataclasses.replace(exp, trials=tr, seed=sd)
    params = exp.scenarios()
    scenarios = [model.scenario(p) for p in params]
    streams, _ = exp.streams()
    spawn = streams if exp.paired else None
    folder = Path(out) / exp.name
    spec = {"experiment": exp.to_dict(), "trials": tr, "seed": sd, "chunk_size": chunk,
            "shards": shard[1], "model": model.name, "model_version": str(model.version)}
    text = (json.dumps(spec, indent=1, default=str) + "\n").encode()  # file order: the grid order
    with results.lock(folder, shared=True):
        results.check_folder(folder)
        store = ChunkCache(folder / CACHE_DIR, log=log_name(shard), strict=True)
        store.bind(model, scenarios, params, sd, chunk, spawn)
        store._ensure()
        _claim_spec(folder, text, "trial count, seed, chunk size or shard count")
        return engine.run_shard(model, scenarios, tr, sd, shard, store, n_jobs=jobs,
                                backend=be, chunk_size=chunk, progress=progress,
                                scheduler=scheduler, streams=spawn)


def _rating_spec(exp: Any, shards: int, settings: dict[str, Any]) -> dict[str, Any]:
    """The ``run.json`` of a sharded rating: its experiment, the options of the command
    that change its numbers (the same for every shard) and the shard count."""
    from sim.models import get_model

    model = get_model(exp.model)
    keep = {k: settings.get(k) for k in RATING_OPTIONS}
    return {"kind": "rating", "experiment": exp.to_dict(), "options": keep, "shards": shards,
            "model": model.name, "model_version": str(model.version)}


#: the options of ``btsim run`` that change a rating's numbers (its run key's settings)
RATING_OPTIONS = ("trials", "seed", "chunk_size", "target_error", "target_metric",
                  "max_trials")


def _rating_experiment(spec: dict[str, Any]) -> Any:
    from sim.rating.experiment import RatingExperiment

    fields = {k: v for k, v in spec["experiment"].items() if k != "user_catalog_digest"}
    return RatingExperiment(**fields)


def _write_rating(folder: Path, exp: Any, res: Any, options: dict[str, Any]) -> None:
    """Write a sharded rating's results folder (the caller holds its exclusive lock) and
    stamp the run key a one-machine ``btsim run`` with the same options would have, so
    that command then reads the result back instead of recomputing it."""
    from sim import experiment, results
    from sim.rating.experiment import write

    write(folder, res, exp)
    key = experiment._run_key(exp, {**options, "exact_only": False, "cache": True})
    results.stamp(folder, key)


def run_rating_shard(exp: Any, shard: tuple[int, int], *, out: str | os.PathLike[str],
                     wait: float | None = None, n_jobs: int = 1, backend: str = "loky",
                     scheduler: str | None = None, quiet: bool = False, **settings: Any
                     ) -> dict[str, Any]:
    """Run shard ``shard`` of rating experiment ``exp`` into ``out/<name>/``
    (:mod:`sim.rating.shards`); ``settings``: ``btsim run``'s options that change numbers
    (:data:`RATING_OPTIONS`). Shard 1 writes the summary at the end. Returns
    ``{"computed", "cached", "written", "rating"}`` (``rating``: the finished
    :class:`sim.rating.run.Rating`, the same on every shard)."""
    from sim import results
    from sim.rating.shards import DEFAULT_WAIT, Sharding, stderr_line

    folder = Path(out) / exp.name
    spec = _rating_spec(exp, shard[1], settings)
    text = (json.dumps(spec, indent=1, default=str) + "\n").encode()
    sharding = Sharding(count=shard[1], shard=shard,
                        wait=DEFAULT_WAIT if wait is None else wait,
                        say=None if quiet else stderr_line, label=str(folder))
    with results.lock(folder, shared=True):
        results.check_folder(folder)
        _claim_spec(folder, text, "options or shard count")
        res = exp.rating(out=out, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                         sharding=sharding, **spec["options"])
    written = shard[0] == 0
    if written:  # the exclusive lock waits for the other shards to let go of theirs
        with results.lock(folder, quiet=True):
            _write_rating(folder, exp, res, spec["options"])
    return {"computed": sharding.computed, "cached": sharding.cached, "written": written,
            "rating": res}


def merge_rating(folder: Path, spec: dict[str, Any]) -> Any:
    """Fold a sharded rating under ``folder`` from its cache (nothing computed: UserError
    naming the shards of a missing chunk) and write its results folder; its frame."""
    from sim import results
    from sim.rating.shards import Sharding

    exp = _rating_experiment(spec)
    with results.lock(folder):
        results.clean_leftovers(folder)
        res = exp.rating(out=folder.parent, sharding=Sharding(count=int(spec["shards"]),
                                                              label=str(folder)),
                         **spec["options"])
        _write_rating(folder, exp, res, spec["options"])
    return res.frame


def _specs(root: Path) -> Iterator[Path]:
    from sim.cache import CACHE_DIR

    if (root / CACHE_DIR / SPEC_NAME).is_file():
        yield root
        return
    try:
        subs = sorted(e.path for e in os.scandir(root) if e.is_dir(follow_symlinks=False))
    except OSError:
        return
    for sub in subs:
        if (Path(sub) / CACHE_DIR / SPEC_NAME).is_file():
            yield Path(sub)


def missing(folder: Path, spec: dict[str, Any]) -> tuple[int, list[int]]:
    """Chunks of a sharded run not in its cache yet: (count, unfinished shards, 0-based)."""
    from sim import engine
    from sim.cache import CACHE_DIR, ChunkCache
    from sim.experiment import Experiment
    from sim.models import get_model

    exp = Experiment(**spec["experiment"])
    model = get_model(exp.model)
    params = exp.scenarios()
    scenarios = [model.scenario(p) for p in params]
    streams, _ = exp.streams()
    store = ChunkCache(folder / CACHE_DIR, quiet=True, strict=True)
    tr, chunk, n = int(spec["trials"]), int(spec["chunk_size"]), int(spec["shards"])
    store.bind(model, scenarios, params, int(spec["seed"]), chunk,
               streams if exp.paired else None)
    per = max(1, -(-tr // chunk))
    gaps: list[tuple[int, int]] = []
    for s in range(len(scenarios)):
        have = store.load(s)
        gaps += [(s, c) for c in range(per)
                 if (c, engine.chunk_trials(c, tr, chunk)) not in have]
    ranges = [engine.shard_ranges(len(scenarios), tr, chunk, (i, n)) for i in range(n)]
    owners: set[int] = set()
    for s, c in gaps[:10_000]:
        owners.update(i for i, r in enumerate(ranges)
                      if r.get(s, (0, 0))[0] <= c < r.get(s, (0, 0))[1])
    shards = sorted(owners)
    return len(gaps), shards


def merge(root: str | os.PathLike[str], *, n_jobs: int = 1, progress: Any = None
          ) -> list[tuple[Path, Any]]:
    """Fold the shards of every sharded run under ``root`` (a shared results folder or one
    experiment's folder) into its summary (:func:`sim.experiment.run` from the cache, which
    then computes nothing). UserError naming the unfinished shards when chunks are missing
    (nothing is written then; a rating's missing chunks are found as its rounds are
    replayed, :func:`merge_rating`, after the folders before it were written). The written
    folders and their summary frames."""
    from sim.cache import CACHE_DIR
    from sim.experiment import Experiment, run

    base = Path(root)
    if not base.is_dir():
        raise UserError(f"The 'dir' parameter must be an existing results folder; got "
                        f"{str(base)[:100]!r} (not found).")
    folders = list(_specs(base))
    if not folders:
        raise UserError(f"No sharded run under {str(base)[:100]!r} (no <name>/.cache/"
                        f"{SPEC_NAME}); start the shards with `btsim run EXP --shard I/N "
                        f"--out {base}`.")
    specs = []
    for folder in folders:
        try:
            spec = json.loads((folder / CACHE_DIR / SPEC_NAME).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError(f"{folder}: unreadable shard run file ({exc}).") from None
        if isinstance(spec, dict) and spec.get("kind") == "rating":
            specs.append((folder, spec))  # checked as it is replayed (merge_rating)
            continue
        count, todo = missing(folder, spec)
        if count:
            names = ", ".join(f"{i + 1}/{spec['shards']}" for i in todo[:20])
            raise UserError(f"{folder}: {count} chunk(s) missing, from shard(s) {names}; run "
                            "them (btsim run EXP --shard I/N with the same options), then "
                            "merge again.")
        specs.append((folder, spec))
    done = []
    for folder, spec in specs:
        if spec.get("kind") == "rating":
            done.append((folder, merge_rating(folder, spec)))
            continue
        exp = Experiment(**spec["experiment"])
        frame = run(exp, trials=int(spec["trials"]), seed=int(spec["seed"]),
                    chunk_size=int(spec["chunk_size"]), n_jobs=n_jobs, out=folder.parent,
                    progress=progress, cache=True)
        done.append((folder, frame))
    return done
