"""An in-process session service for API tests: fakeredis or a real Redis, the rules in process, and a
scheduler that records AI turns so a test can run them (the real stack uses RQ and a worker)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from session_service.worker import jobs
from session_service.http.app import create_app
from session_service.rules_client import LocalRules
from session_service.use_cases.meta import Meta
from session_service.use_cases.ports import Scheduler


@dataclass
class RecordingScheduler(Scheduler):
    pending: list[tuple[str, int, int]] = field(default_factory=list)

    def __post_init__(self):
        self.after_change = self.record

    def record(self, meta: Meta) -> None:
        self.pending.extend((meta.id, seat, meta.version) for seat in meta.to_act if meta.seats[seat]["ai"])

    def run_ai(self, limit: int = 10_000) -> int:
        """Play pending AI turns (and the ones they cause) through the real job function."""
        played = 0
        while self.pending and played < limit:
            game_id, seat, version = self.pending.pop(0)
            if jobs.ai_turn(game_id, seat, version) == "played":
                played += 1
        return played


TEST_TOKEN_SECRET = "5f0c8e2a9b7d41c3a6e8f1b2d4c7a9e03b5d8f1a2c4e6b8d0f3a5c7e9b1d2f4a"  # of derived tokens (bootstrap.token_secret)
TEST_HOP_SECRET = "c41e9a7f3b2d8e6a0f5c1b9d7e3a2f8c6b4d0e9a1f7c3b5e8d2a6f0c9b4e1d7a"  # the internal hop's (shared/wire/hop_frame.py)
# Tests open many tables from one address; the quota tests ask for quotas (tests/integration/test_quotas.py).
NO_QUOTAS = {"OPEN_TABLES_PER_CLIENT": 0, "TABLES_PER_CLIENT_PER_HOUR": 0, "AI_TABLES_PER_CLIENT_PER_HOUR": 0,
             "AI_CPU_SECONDS_PER_CLIENT_PER_HOUR": 0, "PLAYERS_PER_CLIENT_PER_HOUR": 0, "SEATS_PER_CLIENT": 0,
             "JOINS_PER_TABLE_PER_CLIENT": 0, "LOG_READS_PER_CLIENT_PER_MINUTE": 0}


def make_session_app(client: Any, prefix: str, games: dict, **config: Any):
    scheduler = RecordingScheduler()
    app = create_app({"REDIS": client, "KEY_PREFIX": prefix, "RULES": LocalRules(), "GAMES": games,
                      "SCHEDULER": scheduler, "TESTING": True, "TOKEN_SECRET": TEST_TOKEN_SECRET, **NO_QUOTAS,
                      **config})
    jobs.use_tables(app.extensions["tables"])
    return app, scheduler
