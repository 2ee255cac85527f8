"""The session service names a position the rules process keeps instead of sending its state (issue 32), and
only where that position is the game's head as the log says: after its own written batch, never after a batch
another process wrote, nor after a decision that lost its race."""

from __future__ import annotations

from typing import Any

from session_service.rules_client import LocalRules, Ruling
from tests.support.stack import make_session_app
from tests.support.toy import GAME


class KeepingRules(LocalRules):
    """The rules in process, answering a name for each position as the hop does, and noting the names it is sent."""

    def __init__(self) -> None:
        self.sent: list[str | None] = []
        self.made = 0

    def decide(self, game, state, command, seat, entropy, kept=None) -> Ruling:
        self.sent.append(kept)
        self.made += 1
        return Ruling(super().decide(game, state, command, seat, entropy).events, f"rules.{self.made}")


def post(client, game: dict[str, Any], seat: int) -> int:
    reply = client.post(f"/v1/games/{game['id']}/commands", json={"command": {"type": "draw_card"}},
                        headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"})
    assert reply.status_code == 200, reply.json
    return reply.json["version"]


def test_a_command_names_the_position_its_process_wrote_last_and_never_one_that_lost_its_race(fake_redis, prefix):
    rules, other_rules = KeepingRules(), KeepingRules()
    one = make_session_app(fake_redis, prefix, {"toy": GAME}, RULES=rules, RATE_LIMIT_PER_MINUTE=0)[0].test_client()
    two = make_session_app(fake_redis, prefix, {"toy": GAME}, RULES=other_rules, RATE_LIMIT_PER_MINUTE=0)[0].test_client()
    game = one.post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada"}, {"name": "Bo"}]}).json
    post(one, game, 0)
    post(one, game, 1)
    assert rules.sent == [None, "rules.1"]  # the first from the state; the next by the name the first answered
    post(two, game, 0)  # another session process: its cache is empty, so the state
    assert other_rules.sent == [None]
    # Process one decides on what it knew (its own last position, by name): the append finds the game moved and
    # refuses it, and the retry decides from the log's position, sending the state.
    post(one, game, 1)
    assert rules.sent == [None, "rules.1", "rules.2", None]
    post(one, game, 0)  # named by the retry's answer (4), never by the decision that lost its race (3)
    assert rules.sent[-1] == "rules.4"
