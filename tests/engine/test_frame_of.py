"""The summary's frame is built column by column (issue 18: a DataFrame per scenario cost a
1,224-scenario resume most of its summary); it must equal the concatenation of per-scenario
frames in values, dtypes and element types, also for columns mixing None and numbers."""

import numpy as np
import pandas as pd
import pytest

from sim.engine import _frame_of

CASES = [
    [{"a": [None]}, {"a": [3]}, {"a": [None]}],
    [{"a": [None]}, {"a": [None]}],
    [{"a": [None, None]}, {"a": [3.5, 2.0]}],
    [{"a": ["x"]}, {"a": [None]}],
    [{"a": [True]}, {"a": [None]}],
    [{"a": [True]}, {"a": [1]}],
    [{"a": [1, None]}, {"a": [2, 3]}],
    [{"a": np.array([1, 2])}, {"a": [None, 3]}],
    [{"a": np.array([1.0, 2])}, {"a": [None, None]}],
    [{"a": np.array([1, 2])}, {"a": ["s", "t"]}],
    [{"a": [[1.0, 2.0]]}, {"a": [None]}],
    [{"a": ["x", "y"]}, {"a": ["z"]}, {"a": [None]}],
    [{"a": ["x", "y"]}, {"a": ["z"]}],
    [{"a": [], "b": []}, {"a": [None], "b": [1.0]}],
    [{"a": [1], "b": np.array([0.5])}, {"a": [None], "b": np.array([1.5])}],
]


@pytest.mark.parametrize("parts", CASES)
def test_frame_of_equals_the_concatenation(parts):
    fast = _frame_of(parts)
    slow = pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)
    assert fast.dtypes.equals(slow.dtypes)
    assert fast.equals(slow)
    for col in slow.columns:
        assert [type(x) for x in fast[col]] == [type(x) for x in slow[col]]
