"""Fair prices for every unit (issue 23): Bradley-Terry ratings from duels against a
reference pool, the fairness curve, verdicts that hold (see :mod:`sim.rating.fit` for the
statistics and :mod:`sim.rating.run` for the adaptive run)."""
