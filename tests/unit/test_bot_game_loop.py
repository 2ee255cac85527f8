"""The bot runner's game loop (``session_service/cli/bot/game.py``) against a scripted API: a command goes in with the
version it was offered at and a key named by it, a lost answer is asked again with the same key, a 409 waits for the
next turn (a standing older than the game is never acted on), and a choice that raised or was not legal is replaced
by the first legal command. The runner against a real stack: tests/e2e/test_mythos_bot.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.games import GAMES
from shared.games.pocket_madness.commands import DrawCards, EndTurn
from session_service.cli.bot import game as game_module
from session_service.cli.bot.game import GameLoop, Played
from session_service.cli.bot.load import BotNotFound, load
from session_service.cli.bot.runner import report
from session_service.cli.terminal.api import PlayError

BOTS = Path(__file__).resolve().parents[2] / "docs" / "bots"
LEGAL = [{"type": "draw_cards", "count": 1}, {"type": "draw_cards", "count": 2}, {"type": "draw_cards", "count": 3}]


class ScriptedApi:
    """Answers each POST with the next of ``answers`` (an answer, or a PlayError raised)."""

    def __init__(self, *answers: Any):
        self.answers, self.posts = list(answers), []

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        self.posts.append((path, body, dict(headers or {})))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def loop_with(choose, *answers: Any) -> tuple[GameLoop, ScriptedApi, list[str]]:
    said: list[str] = []
    loop = GameLoop("http://nowhere", "pk_x", Played("g_1", "pocket-madness", 0, ["Bot", "AI 2"]), choose,
                    GAMES["pocket-madness"].catalogue.commands, said.append, lambda played: None)
    loop.api = ScriptedApi(*answers)  # type: ignore[assignment]
    return loop, loop.api, said


def standing(version: int, to_act=(0,), legal=LEGAL) -> dict[str, Any]:
    return {"version": version, "status": "active", "to_act": list(to_act), "legal_commands": legal, "view": {"hand": []}}


def test_a_choice_goes_in_as_a_record_with_its_version_and_a_key_named_by_it():
    seen = []

    def choose(view, legal):
        seen.append((view, legal))
        return max(legal, key=lambda c: c.count)

    loop, api, _ = loop_with(choose, {"version": 14, "events": []})
    loop.on_standing(standing(12))
    assert seen == [({"hand": []}, [DrawCards(1), DrawCards(2), DrawCards(3)])]
    assert api.posts == [("/v1/games/g_1/commands", {"command": {"type": "draw_cards", "count": 3}, "expected_version": 12},
                          {"Idempotency-Key": "bot-g_1-0-v12"})]
    assert loop.played.posted == 1
    loop.on_standing(standing(13))  # older than the answer's version: gone, never acted on
    assert len(api.posts) == 1


def test_a_standing_that_does_not_wait_on_the_seat_is_not_acted_on():
    loop, api, _ = loop_with(lambda view, legal: legal[0])
    loop.on_standing(standing(5, to_act=(1,)))
    loop.on_standing({**standing(5), "status": "finished"})
    loop.on_standing(standing(5, legal=[]))
    assert api.posts == []


def test_a_409_waits_for_the_next_turn_and_acts_on_it():
    conflict = PlayError("moved", "game/version_conflict", {"current_version": 9}, 409)
    loop, api, _ = loop_with(lambda view, legal: legal[0], conflict, {"version": 10, "events": []})
    loop.on_standing(standing(7))
    assert loop.played.conflicts == 1 and loop.played.posted == 0
    loop.on_standing(standing(8))  # the stream's turn from before the 409's version: stale
    assert len(api.posts) == 1
    loop.on_standing(standing(9))
    assert [p[2]["Idempotency-Key"] for p in api.posts] == ["bot-g_1-0-v7", "bot-g_1-0-v9"]
    assert loop.played.posted == 1


def test_a_lost_answer_is_asked_again_with_the_same_key_and_counted_once(monkeypatch):
    monkeypatch.setattr(game_module.time, "sleep", lambda s: None)
    lost = PlayError("cannot reach", "client/unreachable")
    down = PlayError("the server answered 502", "", None, 502)
    loop, api, _ = loop_with(lambda view, legal: legal[1], lost, down, {"version": 21, "events": []})
    loop.on_standing(standing(20))
    assert [p[1] for p in api.posts] == [{"command": {"type": "draw_cards", "count": 2}, "expected_version": 20}] * 3
    assert {p[2]["Idempotency-Key"] for p in api.posts} == {"bot-g_1-0-v20"}
    assert loop.played.posted == 1 and loop.floor == 21


def test_a_choice_that_raises_or_is_not_legal_is_replaced_by_the_first_legal_command():
    def broken(view, legal):
        raise RuntimeError("oops")

    loop, api, said = loop_with(broken, {"version": 2, "events": []})
    loop.on_standing(standing(1))
    assert api.posts[0][1]["command"] == LEGAL[0] and loop.played.replaced == 1
    assert "choose raised" in said[0] and "RuntimeError: oops" in said[0]
    for illegal in (EndTurn(), {"type": "draw_cards", "count": 2}, None):  # not offered; not a record; nothing
        loop, api, said = loop_with(lambda view, legal, c=illegal: c, {"version": 2, "events": []})
        loop.on_standing(standing(1))
        assert api.posts[0][1]["command"] == LEGAL[0] and loop.played.replaced == 1, illegal
        assert "not one of the legal commands" in said[0]


def test_a_refusal_is_logged_and_not_sent_again():
    refused = PlayError("not now", "rules/not_your_turn", {}, 422)
    loop, api, said = loop_with(lambda view, legal: legal[0], refused)
    loop.on_standing(standing(3))
    assert len(api.posts) == 1 and loop.played.posted == 0
    assert said == ["g_1: {'type': 'draw_cards', 'count': 1} was refused: not now (rules/not_your_turn)"]


def test_a_bot_is_a_function_or_a_mapping_of_games_to_functions():
    every = load(f"{BOTS}/every_game.py:BOT")
    assert every.plays("rise-of-cthulhu").__module__ == "rise_of_cthulhu"
    one = load(f"{BOTS}/pocket_madness.py")  # obj defaults to choose, which then plays every game
    assert one.plays("arkham-ritual") is one.plays("pocket-madness")
    for spec, words in (("nothing.py", "no file"), ("pocket_madness.py:nope", "has no nope"),
                        ("every_game.py:pocket_madness", "neither a function"), ("no_such_module:choose", "cannot import")):
        try:
            load(spec if spec.startswith("no_such") else f"{BOTS}/{spec}")
        except BotNotFound as exc:
            assert words in str(exc), (spec, exc)
        else:
            raise AssertionError(spec)


def test_the_end_is_reported_in_words_with_the_audit():
    played = Played("g_9", "pocket-madness", 1, ["Ada", "Bot"], outcome={"reason": "madness", "winners": [1], "scores": [9, 3]},
                    audit={"chain_ok": True, "replay_ok": True, "events": 88, "head_hash": "ab" * 32}, posted=30,
                    conflicts=2, resumed=[41])
    assert report(played) == [
        "g_9 over (madness): won; winners: you; scores [9, 3]; 30 commands, 2 answered 409, the stream resumed 1 time(s)",
        "g_9 audit: verified (hash chain ok, re-decision ok, 88 events, head abababababab)"]
    played.audit = {"chain_ok": True, "replay_ok": False, "events": 88, "head_hash": "cd", "first_divergence": {"version": 7}}
    assert report(played)[1:] == ["g_9 audit: NOT VERIFIED (hash chain ok, re-decision FAILED, 88 events, head cd)",
                                  "g_9 audit: first divergence {'version': 7}"]


def test_the_accept_policy_declines_by_its_conditions_and_refuses_words_it_does_not_know():
    from session_service.cli.bot.policy import Policy

    casual_person = {"rated": False, "challenger": {"name": "Ada", "bot": False}}
    rated_bot = {"rated": True, "challenger": {"name": "Botty", "bot": True}}
    assert Policy.parse("all").refuses(casual_person) is None and Policy.parse("all").refuses(rated_bot) is None
    assert Policy.parse("none").refuses(casual_person) == "this bot accepts no challenges"
    both = Policy.parse("casual, people")
    assert both.refuses(casual_person) is None
    assert both.refuses(rated_bot) == "this bot plays casual games only"
    assert Policy.parse("bots").refuses(casual_person) == "this bot plays other bots only"
    assert Policy.parse("rated").refuses(casual_person) == "this bot plays rated games only"
    for bad in ("sometimes", "", "casual,rated", "all,none"):
        try:
            Policy.parse(bad)
        except ValueError as exc:
            assert "--accept" in str(exc)
        else:
            raise AssertionError(bad)


def test_the_docs_page_shows_the_pocket_madness_bot_as_its_file_holds_it():
    page = (BOTS.parent / "writing-a-bot.md").read_text()
    code = (BOTS / "pocket_madness.py").read_text()
    shown = code[code.index("from session_service"):].strip()
    assert f"```python\n{shown}\n```" in page
