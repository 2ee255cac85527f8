"""Soak runs (``make soak``): the trust and liveness suites at a larger scale, and a long mixed load on one real stack.

The scale comes from the environment, read when the trust modules are imported, so it is set here first;
each can be raised further from the command line (``MYTHOS_FUZZ_EXAMPLES=2000 make soak``).
"""

from __future__ import annotations

import os

os.environ.setdefault("MYTHOS_FUZZ_EXAMPLES", "300")
os.environ.setdefault("MYTHOS_NI_SEEDS", "15")
os.environ.setdefault("MYTHOS_RACE_SCALE", "4")
os.environ.setdefault("MYTHOS_SOAK_SECONDS", "180")
os.environ.setdefault("MYTHOS_LIVENESS_SCALE", "10")
# The AI's timing at full scale: two games of `medium` seats, as the review measured (tests/e2e/test_ai_timing.py).
os.environ.setdefault("MYTHOS_AI_TIMING_SCALE", "1")
os.environ.setdefault("MYTHOS_AI_TIMING_LEVEL", "medium")
os.environ.setdefault("MYTHOS_AI_TIMING_GAMES", "2")

from tests.trust.conftest import api, trust_redis  # noqa: E402,F401 - the trust fixtures, shared
