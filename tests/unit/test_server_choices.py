"""Choices the server makes for a seat (AI moves, timeouts) come from the game's secret seed.

An AI seeded from public inputs (``random.Random(f"{game}:{seat}:{version}")``) could be predicted by every
player: over one all-AI Rites game every AI move matched that formula, including sealed bids before their
reveal. These pin that the choice depends on the secret seed, not on the public ids, and that it stays
reproducible for the audit.
"""

from __future__ import annotations

import random

from shared.kernel import seat_rng
from session_service.worker.jobs import choose_random

LEGAL = {"legal_commands": [{"type": "play_card", "card": c} for c in range(40)]}


def test_an_ai_choice_cannot_be_computed_from_the_public_game_id_seat_and_version():
    public_formula = [choose_random(LEGAL, random.Random(f"g_abc:1:{v}")) for v in range(1, 30)]
    seeded = [choose_random(LEGAL, seat_rng(b"\x01" * 32, "ai", 1, v)) for v in range(1, 30)]
    assert seeded != public_formula


def test_an_ai_choice_depends_on_the_secret_seed_and_is_reproducible_from_it():
    run = [choose_random(LEGAL, seat_rng(b"seed-one", "ai", 0, v)) for v in range(30)]
    assert run == [choose_random(LEGAL, seat_rng(b"seed-one", "ai", 0, v)) for v in range(30)]
    assert run != [choose_random(LEGAL, seat_rng(b"seed-two", "ai", 0, v)) for v in range(30)]


def test_an_ai_and_a_timer_draw_apart_from_each_other_and_from_each_seat():
    draws = {(purpose, seat): seat_rng(b"s", purpose, seat, 7).random() for purpose in ("ai", "timeout") for seat in (0, 1)}
    assert len(set(draws.values())) == 4
