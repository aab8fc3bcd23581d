"""Scalar-Python oracles: plain one-trial-at-a-time implementations of the rules, used by the
tests to check the vectorized kernels and by ``btsim bench`` as the scalar baseline."""
