"""Beyond one machine (issue 21): ``btsim run --shard I/N`` computes a fixed subset of the
chunks into a shared results folder; ``btsim merge DIR`` folds them into a summary
byte-identical to a one-machine run."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim import engine
from sim.cli import main as cli

EXP = """name = "sh"
model = "punch-demo"
trials = 2300
seed = 8
paired = ["piloting"]
[grid]
tons = [20, 70]
piloting = [4, 6]
"""


@pytest.mark.parametrize(("scenarios", "trials", "chunk", "n"),
                         [(1, 1000, 100, 3), (3, 2300, 500, 4), (5, 100, 100, 7),
                          (2, 10**12, 2**18, 1000)])
def test_shards_partition_the_chunks(scenarios, trials, chunk, n):
    per = -(-trials // chunk)
    sizes = []
    owned = {}
    for i in range(n):
        r = engine.shard_ranges(scenarios, trials, chunk, (i, n))
        sizes.append(sum(b - a for a, b in r.values()))
        for s, (a, b) in r.items():
            assert 0 <= a < b <= per
            if per * scenarios <= 10**4:
                for c in range(a, b):
                    assert (s, c) not in owned
                    owned[(s, c)] = i
    assert sum(sizes) == scenarios * per and max(sizes) - min(sizes) <= 1
    if per * scenarios <= 10**4:
        assert len(owned) == scenarios * per


def test_merged_shards_are_byte_identical_to_one_machine(tmp_path, capsys):
    exp = tmp_path / "sh.toml"
    exp.write_text(EXP)
    base = ["run", str(exp), "--chunk-size", "300", "--quiet"]
    assert cli([*base, "--out", str(tmp_path / "one")]) == 0
    shared = tmp_path / "shared"
    assert cli([*base, "--out", str(shared), "--shard", "1/3"]) == 0
    assert cli([*base, "--out", str(shared), "--shard", "3/3", "--jobs", "2",
                "--backend", "threading"]) == 0
    capsys.readouterr()
    assert cli(["merge", str(shared)]) == 2  # shard 2 is missing: named, nothing written
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "2/3" in err[0] and "1/3" not in err[0]
    assert not (shared / "sh" / "summary.parquet").exists()
    assert cli([*base, "--out", str(shared), "--shard", "2/3"]) == 0
    assert cli(["merge", str(shared)]) == 0
    one = (tmp_path / "one" / "sh" / "summary.parquet").read_bytes()
    assert (shared / "sh" / "summary.parquet").read_bytes() == one
    logs = sorted(p.name for p in (shared / "sh" / ".cache").rglob("*.agg"))
    assert {n for n in logs} == {"shard-1-of-3.agg", "shard-2-of-3.agg", "shard-3-of-3.agg"}
    # a plain rerun on the merged folder computes nothing and keeps the bytes
    assert cli([*base, "--out", str(shared)]) == 0
    assert (shared / "sh" / "summary.parquet").read_bytes() == one


@pytest.mark.parametrize(("extra", "word"), [
    (["--shard", "0/3"], "'shard'"), (["--shard", "4/3"], "'shard'"),
    (["--shard", "x"], "'shard'"), (["--shard", "1/2", "--exact"], "--exact"),
    (["--shard", "1/2", "--target-error", "0.01"], "--target-error"),
])
def test_bad_shards_are_one_line(tmp_path, capsys, extra, word):
    exp = tmp_path / "sh.toml"
    exp.write_text(EXP)
    assert cli(["run", str(exp), "--out", str(tmp_path / "o"), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and word in err[0]
    assert not (tmp_path / "o" / "sh").exists()


def test_shards_of_different_runs_do_not_mix(tmp_path, capsys):
    exp = tmp_path / "sh.toml"
    exp.write_text(EXP)
    base = ["run", str(exp), "--chunk-size", "300", "--quiet", "--out", str(tmp_path / "s")]
    assert cli([*base, "--shard", "1/2"]) == 0
    assert cli([*base, "--shard", "2/2", "--trials", "4000"]) == 2
    assert cli([*base[:3], "400", *base[4:], "--shard", "2/2"]) == 2
    assert cli(["merge", str(tmp_path / "nothing-here")]) == 2
    assert cli(["merge", str(Path(tmp_path))]) == 2
