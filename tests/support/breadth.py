"""How much of a suite's breadth a run plays, where many cases repeat one check at a cost (a browser playing a
whole game, say): ``make test`` the cases named for it, chosen so each kind of case is still there (each width, a
long game and a short one); ``make soak`` (``MYTHOS_SOAK=1``) every case, collecting the same test functions from
tests/soak."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

WHOLE = os.environ.get("MYTHOS_SOAK") == "1"


def cases(every: Iterable[str], in_make_test: Sequence[str]) -> list[str]:
    """``every`` under ``make soak``; else those of it ``in_make_test`` names (each of which must be one of them)."""
    every = list(every)
    assert set(in_make_test) <= set(every), f"not cases: {sorted(set(in_make_test) - set(every))}"
    return every if WHOLE else [case for case in every if case in in_make_test]
