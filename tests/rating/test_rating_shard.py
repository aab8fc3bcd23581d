"""A rating shards without a daemon (issue 23, :mod:`sim.rating.shards`): ``btsim run
RATING.toml --shard I/N`` computes its share of each round, waits for the other shards'
chunks, takes the same allocation decision; shard 1 (or ``btsim merge``) writes a summary
byte-identical to a one-machine run. A killed shard resumes; ``--shard-wait`` expires with
exit status 3 naming the missing shards."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
#: a small Alpha Strike rating: 6 pairings a scenario, a maximin screen of 4 cells a
#: pairing, 4 rounds (20, 40, 80, 160 duels a pairing) in which some pairings stop early
EXP = """kind = "rating"
name = "r"
game = "alphastrike"
units = ["Locust LCT-1V"]
pool = ["Commando COM-1B", "Griffin GRF-2N"]
target_error = 0.5
max_trials = 160
chunk_size = 20
seed = 3
[[scenario]]
name = "short"
range = "short"
[[scenario]]
name = "maximin"
range = "medium"
maximin = ["competent", "brawler"]
screen_trials = 20
"""


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """The experiment file and the summary bytes of its one-machine run."""
    base = tmp_path_factory.mktemp("rating-shard")
    exp = base / "r.toml"
    exp.write_text(EXP)
    assert cli(["run", str(exp), "--out", str(base / "one"), "--quiet"]) == 0
    import json

    rounds = json.loads((base / "one" / "r" / "metadata.json").read_text())["rounds"]
    # the allocation decides something here: some pairing stops before the cap
    assert any(r["continue"] < r["pairings"] for r in rounds[:-1]) and len(rounds) >= 3
    return exp, (base / "one" / "r" / "summary.parquet").read_bytes()


def _shard(exp: Path, out: Path, which: str, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), BTSIM_MALLOC_TUNING="0")
    return subprocess.Popen([sys.executable, "-m", "sim", "run", str(exp), "--out", str(out),
                             "--shard", which, *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


#: the shards' --shard-wait in the tests: longer than any machine takes (the suite's
#: per-test timeout is the guard), so no assertion depends on the machine's speed
WAIT = 86400


def _counts(stdout: str) -> tuple[int, int]:
    m = re.search(r"(\d+) chunks computed, (\d+) cached", stdout)
    assert m, stdout
    return int(m.group(1)), int(m.group(2))


def test_concurrent_shards_killed_and_restarted_give_the_one_machine_bytes(one, tmp_path):
    exp, want = one
    shared = tmp_path / "shared"
    # shard 1 alone: it computes its share of the screen, then waits for shard 2 (its
    # progress line, read as it comes: no clock), and is killed while it waits
    first = _shard(exp, shared, "1/2", "--shard-wait", str(WAIT))
    try:
        assert first.stderr is not None
        seen = []
        for line in first.stderr:           # ends (and fails below) if the shard exits
            seen.append(line)
            if "waiting for" in line:
                break
        assert "waiting for" in "".join(seen), "".join(seen)
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate()
    # both shards together (shard 1 restarted: it resumes from its chunks in the cache);
    # no bound of their own: the suite's per-test timeout catches a hang
    procs = [_shard(exp, shared, "1/2", "--shard-wait", str(WAIT)),
             _shard(exp, shared, "2/2", "--shard-wait", str(WAIT))]
    outs = [p.communicate() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert _counts(outs[0][0])[1] >= 1 and "summary written" in outs[0][0]
    assert (shared / "r" / "summary.parquet").read_bytes() == want
    assert cli(["merge", str(shared), "--quiet"]) == 0
    assert (shared / "r" / "summary.parquet").read_bytes() == want


def test_resubmitted_shards_that_do_not_wait_finish_the_same(one, tmp_path, capsys):
    """``--shard-wait 0``: each call computes its share of the current round and exits 3
    while the other's chunks are missing; resubmitted, the shards finish with the bytes of
    a one-machine run. A merge before that names the missing shard."""
    exp, want = one
    shared = tmp_path / "shared"
    base = ["run", str(exp), "--out", str(shared), "--quiet", "--shard-wait", "0"]
    assert cli([*base, "--shard", "1/2"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "2/2" in err[0] and "--shard-wait" in err[0]
    assert cli(["merge", str(shared)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "2/2" in err[0] and "1/2" not in err[0]
    assert not (shared / "r" / "summary.parquet").exists()
    codes: list[tuple[int, int]] = []
    for _ in range(8):
        codes.append((cli([*base, "--shard", "2/2"]), cli([*base, "--shard", "1/2"])))
        assert set(codes[-1]) <= {0, 3}, codes
        if codes[-1] == (0, 0):
            break
    assert codes[-1] == (0, 0) and len(codes) >= 2, codes
    assert (shared / "r" / "summary.parquet").read_bytes() == want
    logs = {p.name for p in (shared / "r" / ".cache").rglob("*.agg")}
    assert logs == {"shard-1-of-2.agg", "shard-2-of-2.agg"}


@pytest.mark.parametrize(("extra", "word"), [
    (["--shard", "3/2"], "'shard'"), (["--shard", "1/2", "--shard-wait", "-1"], "shard_wait"),
    (["--shard", "1/2", "--shard-wait", "x"], "shard_wait"),
    (["--shard-wait", "5"], "shard_wait"),
])
def test_bad_shard_options_are_one_line(one, tmp_path, capsys, extra, word):
    exp, _ = one
    assert cli(["run", str(exp), "--out", str(tmp_path / "o"), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and word in err[0]
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(("total", "n"), [(1, 3), (7, 2), (12, 5), (100, 100), (3, 8)])
def test_a_step_is_cut_into_contiguous_equal_shares(total, n):
    from sim.rating.shards import share

    parts = [share(total, i, n) for i in range(n)]
    assert parts[0][0] == 0 and parts[-1][1] == total
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:], strict=False))
    sizes = [hi - lo for lo, hi in parts]
    assert min(sizes) >= 0 and max(sizes) - min(sizes) <= 1


#: the same rating as EXP, as ``btsim rate`` options (its scenarios from a file)
RATE = ["rate", "Locust LCT-1V", "--game", "alphastrike", "--pool",
        "Commando COM-1B,Griffin GRF-2N", "--target-error", "0.5", "--max-trials", "160",
        "--chunk-size", "20", "--seed", "3", "--name", "r"]


def test_btsim_rate_shards_give_btsim_rate_bytes(tmp_path, capsys):
    """``btsim rate ... --shard I/N``: two shards at once (subprocesses, both waiting for the
    other) give the summary bytes of the same ``btsim rate`` on one machine, shard 1 prints
    the rating, shard 2 prints nothing on stdout, and ``btsim merge`` folds it again."""
    scen = tmp_path / "scen.toml"
    scen.write_text(EXP[EXP.index("[[scenario]]"):])
    args = [*RATE, "--scenarios", str(scen)]
    assert cli([*args, "--out", str(tmp_path / "one")]) == 0
    one_out = capsys.readouterr().out
    want = (tmp_path / "one" / "r" / "summary.parquet").read_bytes()
    env = dict(os.environ, PYTHONPATH=str(ROOT), BTSIM_MALLOC_TUNING="0")
    shared = tmp_path / "shared"
    procs = [subprocess.Popen([sys.executable, "-m", "sim", *args, "--out", str(shared),
                               "--shard", f"{i}/2", "--shard-wait", str(WAIT)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for i in (1, 2)]
    outs = [p.communicate() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert (shared / "r" / "summary.parquet").read_bytes() == want
    assert outs[0][0] == one_out and outs[1][0] == ""
    assert "shard 1/2:" in outs[0][1] and "summary written" in outs[0][1]
    assert "shard 2/2:" in outs[1][1] and "summary written" not in outs[1][1]
    assert cli(["merge", str(shared / "r")]) == 0
    assert (shared / "r" / "summary.parquet").read_bytes() == want


@pytest.mark.parametrize("extra,word", [(["--shard", "3/2"], "shard"),
                                        (["--shard-wait", "5"], "shard_wait"),
                                        (["--shard", "1/2", "--no-save"], "no_save")])
def test_btsim_rate_bad_shard_options_are_one_line(tmp_path, capsys, extra, word):
    assert cli([*RATE, "--out", str(tmp_path), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and word in err, err
    assert not (tmp_path / "r").exists()
