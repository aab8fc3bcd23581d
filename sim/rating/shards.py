"""A rating on many machines, without a daemon (issue 23): ``btsim run RATING.toml --shard
I/N`` on every machine (a job array's tasks), ``btsim merge DIR`` (or shard 1) for the summary.

A rating decides its duels as it goes (:mod:`sim.rating.run`, "Adaptive allocation"), but
each decision is taken at a round boundary from the folded results alone, and each round is
a fixed list of chunks once the rounds before it are known: the maximin screen's cells
first, then in round ``r`` every still-active pairing's chunks from what the rounds before
folded up to the round's goal, pairing by pairing in the plan's order, chunk by chunk.
So every shard runs the same rating:

1. **its share**: of each round's list, shard ``i`` of ``N`` computes the ``i``-th of ``N``
   contiguous parts of equal size to within one (:func:`share`), into the shared results
   folder's chunk cache, appending to its own log (``shard-i-of-N.agg`` in each pairing's
   folder: the cache's framed, checksummed records, one writer per file, so machines
   sharing the folder over NFS or Lustre never write the same file; :mod:`sim.cache`);
2. **the barrier**: it posts a marker (an empty file in ``.cache/steps/``, named by a
   hash of the step's chunk list and the shard, :func:`marker`) once its share is in its
   log, then polls the markers of the other shards (every 0.2 s at first, at most every
   :data:`MAX_POLL` s: one ``stat`` per shard, so a 100,000-pairing round does not read
   100,000 folders a poll), reading a shard's share once its marker is there, with a
   progress line on stderr (:data:`SAY_EVERY` s apart) naming the shards it waits for.
   ``--shard-wait S`` bounds each wait: when it expires, one last read of every missing
   chunk (a shard killed after its chunks but before its marker), then the shard stops
   with one line naming the missing shards and exit status 3 (:class:`ShardWaitExpired`);
3. **the decision**: every shard folds the round's chunks in chunk order (the one Monte
   Carlo loop, :func:`sim.engine.sample_run`, finds them all and computes nothing), refits
   and takes the same allocation decision, since it holds the same numbers; the next round
   starts.

After the last round every shard holds the finished rating; shard 1 writes the summary
(under the results folder's exclusive lock, which waits for the other shards to let go of
their shared one), byte-identical to a one-machine ``btsim run`` (a chunk read from the
cache has the bits of the computed one, and the fold order is the same). ``btsim merge DIR``
replays the rounds from the cache and computes nothing: a missing chunk stops it with the
unfinished shards named. A shard killed and started again replays its rounds from the cache
(its own chunks and everyone else's) and computes only what is missing.

Why a barrier and not one process per round: the whole rating stays **one command per
job-array task**. The cost is that the ``N`` tasks must run at the same time (a round waits
for its slowest shard). An array that cannot start all its tasks at once (``--array=1-64%8``)
uses ``--shard-wait 0``: each task computes its share of the current round and, if the
others' chunks are not all there yet, exits with status 3 at once; the job script resubmits
until every task exits 0 (README "Beyond one machine"). Each submission resumes from the
cache, so the only cost of that mode is one rating replay per submission.
"""

from __future__ import annotations

import bisect
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sim.errors import UserError

#: seconds a shard waits for the other shards' chunks of a round by default (``--shard-wait``)
DEFAULT_WAIT = 3600.0
#: the first and the longest pause between two polls of the results folder (seconds)
FIRST_POLL, MAX_POLL = 0.2, 2.0
#: seconds between two progress lines of a waiting shard
SAY_EVERY = 30.0
#: exit status of a shard whose wait expired (bad input is 2)
WAIT_EXPIRED = 3


class ShardWaitExpired(UserError):
    """A rating shard waited ``--shard-wait`` seconds for the other shards' chunks of a round
    (exit status :data:`WAIT_EXPIRED`: start them, or resubmit this shard; it resumes)."""

    exit_code = WAIT_EXPIRED


@dataclass
class Sharding:
    """How a rating runs its rounds: ``shard`` = ``(i, N)`` (0-based ``i``) computes its share
    of each round and waits ``wait`` seconds at most for the others'; ``shard`` None is
    ``btsim merge`` (nothing computed, nothing waited for; ``count`` names the shards of a
    missing chunk). ``say`` prints a progress line (None: quiet). ``computed`` and ``cached``
    count this shard's chunks."""

    count: int
    shard: tuple[int, int] | None = None
    wait: float = DEFAULT_WAIT
    say: Callable[[str], None] | None = None
    label: str = "rating"
    computed: int = 0
    cached: int = 0

    @property
    def log(self) -> str:
        """The chunk log this shard appends to (``chunks.agg`` for a merge)."""
        from sim.cache import LOG_NAME
        from sim.shard import log_name

        return LOG_NAME if self.shard is None else log_name(self.shard)

    def name(self, i: int) -> str:
        return f"{i + 1}/{self.count}"


def share(total: int, i: int, n: int) -> tuple[int, int]:
    """The part ``[lo, hi)`` of a round's ``total`` chunks shard ``i`` of ``n`` computes:
    contiguous, the ``n`` parts of equal size to within one, together every chunk once."""
    return i * total // n, (i + 1) * total // n


def fill(sharding: Sharding, model: Any, scenarios: Sequence[Any], streams: Sequence[int],
         trials: int, chunk: int, seed: int, view: Any, what: str, *, n_jobs: int = 1,
         backend: str = "loky", scheduler: str | None = None) -> None:
    """Make every chunk of a step (chunks ``0 .. ceil(trials / chunk)`` of each of
    ``scenarios``) present in ``view.mem`` (``view``: a :class:`sim.rating.run._View` over
    the shared cache ``view.backing``, scenario ``s`` being its pairing or screen cell
    ``view.ids[s]``, drawing from stream ``streams[s]``): compute this shard's share of the
    chunks not folded yet and post its marker (:func:`marker`), then read each other
    shard's share once its marker is there (module docstring); when the wait runs out, one
    last read of everything missing before ShardWaitExpired. For a merge, one read of
    everything, and UserError naming the shards whose chunks are missing."""
    from sim import engine

    per = max(1, math.ceil(trials / chunk))
    need = [(s, c) for s in range(len(scenarios)) for c in range(per)
            if (c, engine.chunk_trials(c, trials, chunk)) not in view.mem.get(view.ids[s], {})]
    if not need:
        return
    n = sharding.count
    step = step_key(what, trials, chunk, [(int(streams[s]), c) for s, c in need])
    if sharding.shard is not None:
        me = sharding.shard[0]
        lo, hi = share(len(need), me, n)
        ranges: dict[int, tuple[int, int]] = {}
        for s, c in need[lo:hi]:  # the chunks to fold of a pairing are consecutive
            a, _ = ranges.get(s, (c, c))
            ranges[s] = (a, c + 1)
        if ranges:
            out = engine.run_shard(model, scenarios, trials, seed, (0, 1), view,
                                   n_jobs=n_jobs, backend=backend, chunk_size=chunk,
                                   progress="never", scheduler=scheduler, streams=streams,
                                   ranges=ranges)
            sharding.computed += out.chunks_computed
            sharding.cached += out.chunks_cached
        post(view.backing.root, step, me, n)
    # what is still missing, by the shard that computes it
    bounds = [share(len(need), i, n)[0] for i in range(n + 1)]
    pending: dict[int, dict[int, set[int]]] = {}
    for k, (s, c) in enumerate(need):
        if (c, engine.chunk_trials(c, trials, chunk)) not in view.mem.get(view.ids[s], {}):
            j = bisect.bisect_right(bounds, k) - 1
            pending.setdefault(j, {}).setdefault(s, set()).add(c)

    def read(j: int) -> None:
        """Move shard ``j``'s chunks of the step found in the cache into ``view.mem``."""
        mine = pending[j]
        for s in list(mine):
            g = view.ids[s]
            view.backing.forget(g)
            have = view.backing.load(g)
            box = view.mem.setdefault(g, {})
            for c in sorted(mine[s]):
                key = (c, engine.chunk_trials(c, trials, chunk))
                if key in have:
                    box[key] = have[key]
                    mine[s].discard(c)
            if not mine[s]:
                del mine[s]
        if not mine:
            del pending[j]

    t0 = time.monotonic()
    delay, said = FIRST_POLL, -math.inf
    root = view.backing.root
    while pending:
        waited = time.monotonic() - t0
        last = sharding.shard is None or waited >= sharding.wait
        for j in sorted(pending):
            if last or marker(root, step, j, n).is_file():
                read(j)
        if not pending:
            break
        missing = sum(len(cs) for m in pending.values() for cs in m.values())
        who = ", ".join(sharding.name(j) for j in sorted(pending)[:20])
        if sharding.shard is None:
            raise UserError(f"{sharding.label}: {missing} chunk(s) of the {what} missing, from "
                            f"shard(s) {who}; run them (btsim run EXP --shard I/N with the "
                            "same options), then merge again.")
        me_name = sharding.name(sharding.shard[0])
        if last:
            raise ShardWaitExpired(
                f"{sharding.label}, shard {me_name}: waited {waited:.0f} s (--shard-wait "
                f"{sharding.wait:g}) for {missing} chunk(s) of the {what} from shard(s) {who}; "
                "start them (the same command with their --shard), then run this shard "
                "again: it resumes from the cache")
        if sharding.say is not None and waited - said >= SAY_EVERY:
            sharding.say(f"{sharding.label}, shard {me_name}: {what}: waiting for {missing} "
                         f"chunk(s) of shard(s) {who} ({waited:.0f} s of --shard-wait "
                         f"{sharding.wait:g})")
            said = waited
        time.sleep(max(0.0, min(delay, sharding.wait - waited)))
        delay = min(delay * 1.5, MAX_POLL)


#: the folder of a shared cache that holds the steps' markers
STEPS_DIR = "steps"


def step_key(what: str, trials: int, chunk: int, chunks: Sequence[tuple[int, int]]) -> str:
    """The identity of one step of a sharded rating: a hash of its name, its trials and
    chunk size and its chunks (stream, index) in order; a marker of another plan never
    matches."""
    import hashlib
    import json

    text = json.dumps([what, int(trials), int(chunk), [list(x) for x in chunks]])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def marker(root: Any, step: str, i: int, n: int) -> Any:
    """The file shard ``i`` (0-based) of ``n`` posts in the shared cache ``root`` once its
    share of step ``step`` is in its log: the others then read that share (a poll is one
    ``stat`` per shard, not a read of every pairing's logs)."""
    from pathlib import Path

    return Path(root) / STEPS_DIR / f"{step}.{i + 1}-of-{n}.done"


def post(root: Any, step: str, i: int, n: int) -> None:
    """Post shard ``i``'s marker of ``step`` (an empty file, written atomically after the
    chunks: a reader that sees it opens logs closed before it)."""
    from sim.cache import atomic_write_bytes
    from sim.results import refuse_link

    path = marker(root, step, i, n)
    refuse_link(path.parent, "cache folder")
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, b"")


def stderr_line(text: str) -> None:
    """A shard's progress line (``btsim: ...`` on stderr)."""
    print(f"btsim: {text}", file=sys.stderr, flush=True)
