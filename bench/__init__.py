"""Benchmarks for Mythos Tables, each measured against a baseline run in the same process or run.

Figures on a shared 2-core machine drift from one minute to the next, so every target is a ratio to a
baseline measured moments apart under the same conditions: the command path against a two-hop Flask echo,
the Lua append against a raw XADD, a long game's load against a short game's. ``python -m bench`` runs them
all, prints a table with PASS/MISS per target and writes the same as JSON under ``bench-results/``.
Benchmarks live here, apart from the tests: no test asserts a wall-clock time.
"""
