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
2. **the barrier**: it then polls the folder (every 0.2 s at first, at most every
   :data:`MAX_POLL` s) until every chunk of the round is there, reading each chunk once,
   with a progress line on stderr (:data:`SAY_EVERY` s apart) naming the shards it waits
   for. ``--shard-wait S`` bounds the wait: when it expires the shard stops with one line
   naming the missing shards and exit status 3 (:class:`ShardWaitExpired`);
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


def owners(positions: Sequence[int], total: int, n: int) -> list[int]:
    """The shards (0-based, sorted) whose parts of a round of ``total`` chunks hold the
    chunks at ``positions`` (:func:`share`)."""
    bounds = [share(total, i, n)[0] for i in range(n + 1)]
    return sorted({bisect.bisect_right(bounds, k) - 1 for k in positions})


def fill(sharding: Sharding, model: Any, scenarios: Sequence[Any], streams: Sequence[int],
         trials: int, chunk: int, seed: int, view: Any, what: str, *, n_jobs: int = 1,
         backend: str = "loky", scheduler: str | None = None) -> None:
    """Make every chunk of a round (chunks ``0 .. ceil(trials / chunk)`` of each of
    ``scenarios``) present in ``view.mem`` (``view``: a :class:`sim.rating.run._View` over
    the shared cache ``view.backing``, scenario ``s`` being its pairing or screen cell
    ``view.ids[s]``, drawing from stream ``streams[s]``): compute this shard's share of the
    chunks not folded yet, then read the others' from the cache as they land (module
    docstring). ShardWaitExpired when ``sharding.wait`` runs out; for a merge, UserError
    naming the shards whose chunks are missing."""
    from sim import engine

    per = max(1, math.ceil(trials / chunk))
    need = [(s, c) for s in range(len(scenarios)) for c in range(per)
            if (c, engine.chunk_trials(c, trials, chunk)) not in view.mem.get(view.ids[s], {})]
    if not need:
        return
    n = sharding.count
    if sharding.shard is not None:
        lo, hi = share(len(need), sharding.shard[0], n)
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
    where = {sc: k for k, sc in enumerate(need)}
    pending: dict[int, set[int]] = {}
    for s, c in need:
        if (c, engine.chunk_trials(c, trials, chunk)) not in view.mem.get(view.ids[s], {}):
            pending.setdefault(s, set()).add(c)
    t0 = time.monotonic()
    delay, said = FIRST_POLL, -math.inf
    while True:
        for s in list(pending):
            g = view.ids[s]
            view.backing.forget(g)
            have = view.backing.load(g)
            box = view.mem.setdefault(g, {})
            for c in sorted(pending[s]):
                key = (c, engine.chunk_trials(c, trials, chunk))
                if key in have:
                    box[key] = have[key]
                    pending[s].discard(c)
            if not pending[s]:
                del pending[s]
        if not pending:
            return
        missing = sum(map(len, pending.values()))
        who = ", ".join(sharding.name(i) for i in owners(
            [where[(s, c)] for s, cs in pending.items() for c in cs], len(need), n)[:20])
        waited = time.monotonic() - t0
        if sharding.shard is None:
            raise UserError(f"{sharding.label}: {missing} chunk(s) of the {what} missing, from "
                            f"shard(s) {who}; run them (btsim run EXP --shard I/N with the "
                            "same options), then merge again.")
        me = sharding.name(sharding.shard[0])
        if waited >= sharding.wait:
            raise ShardWaitExpired(
                f"{sharding.label}, shard {me}: waited {waited:.0f} s (--shard-wait "
                f"{sharding.wait:g}) for {missing} chunk(s) of the {what} from shard(s) {who}; "
                "start them (the same command with their --shard), then run this shard "
                "again: it resumes from the cache")
        if sharding.say is not None and waited - said >= SAY_EVERY:
            sharding.say(f"{sharding.label}, shard {me}: {what}: waiting for {missing} "
                         f"chunk(s) of shard(s) {who} ({waited:.0f} s of --shard-wait "
                         f"{sharding.wait:g})")
            said = waited
        time.sleep(max(0.0, min(delay, sharding.wait - waited)))
        delay = min(delay * 1.5, MAX_POLL)


def stderr_line(text: str) -> None:
    """A shard's progress line (``btsim: ...`` on stderr)."""
    print(f"btsim: {text}", file=sys.stderr, flush=True)
