"""What each game's issue asks to see over HTTP on the real stack.

All-AI tables at a game's fewest and most players are played by tests/e2e/test_audit_every_game.py, which also
exports and audits them (with what each game's finished table must show: ``FINISHED``); the tables here are the
sizes in between and the options and seeds each game's issue names.

Some endings are rare under random play (Rise of Cthulhu's late tie-breaks). Their seeds were found by a
kernel search (random_playout over seeds 0-2500, keeping the first seed per ending); the test replays each
over HTTP and asserts the ending, so a rules change that moves them fails here rather than passing quietly.
"""

from __future__ import annotations

import pytest

from shared.games import GAMES
from tests.support.client import ApiClient, replay_over_http
from tests.support.finished import FINISHED
from tests.support.properties import random_playout

pytestmark = pytest.mark.e2e
POWER_PLAYS = {"become_grand_cultist", "excavate_artifact", "steal_artifact"}


@pytest.fixture(scope="module")
def api(stack):
    return ApiClient(stack.url)


def all_ai(api, game_id, seats, **extra):
    created = api.create(game_id, [{"name": f"Bot {i}", "ai": "random"} for i in range(seats)], **extra)
    final = api.wait_finished(created["id"], timeout_s=300)
    assert final["outcome"] is not None
    return final


# -- Arkham Ritual -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [5])  # 3 and 7: test_audit_every_game.py
def test_arkham_ritual_all_ai_tables_reach_an_outcome(api, seats):
    all_ai(api, "arkham-ritual", seats)


@pytest.mark.parametrize("great_old_one", ["nyarlathotep", "yog_sothoth", "hastur"])
def test_arkham_ritual_with_every_alternate_card_and_the_doom_track_reaches_an_outcome(api, great_old_one):
    options = {"event_card": "shining_trapezohedron", "investigator_or_wary_student": "wary_student",
               "cultist_or_mad_professor": "mad_professor", "great_old_one": great_old_one, "doom_track": True}
    final = all_ai(api, "arkham-ritual", 5, options=options)
    assert final["options"] == {**final["options"], **options}


# -- Rise of Cthulhu ---------------------------------------------------------------------------------
ENDINGS = {  # (outcome reason, Azathoth awake) -> seed
    ("points", False): 0, ("locations", False): 1, ("points", True): 2, ("hand", False): 132,
    ("artifacts", True): 171, ("artifacts", False): 306, ("monsters", False): 353, ("hand", True): 575,
    ("monsters", True): 1368, ("tie", False): 1540,
}


@pytest.mark.parametrize("ending, seed", ENDINGS.items(), ids=[f"{r}-azathoth-{a}" for r, a in ENDINGS])
def test_rise_of_cthulhu_ends_on_each_tie_break_over_http(api, ending, seed):
    game = GAMES["rise-of-cthulhu"]
    final = replay_over_http(api, random_playout(game, 2, seed), seed)
    outcome = final["outcome"]
    assert (outcome["reason"], outcome["details"]["azathoth"]) == ending
    assert outcome["winners"] == [] if ending[0] == "tie" else len(outcome["winners"]) == 1


@pytest.mark.parametrize("seed", range(4))
def test_rise_of_cthulhu_all_ai_games_reach_an_outcome(api, seed):
    final = all_ai(api, "rise-of-cthulhu", 2, seed=seed.to_bytes(8, "big").hex())  # four seeded deals, not four random
    assert final["seed"] == seed.to_bytes(8, "big").hex()


# -- Cthulhu: The Great Old One ----------------------------------------------------------------------
@pytest.mark.parametrize("seats", [4])  # 2 and 6: test_audit_every_game.py
def test_great_old_one_all_ai_tables_reach_an_outcome(api, seats):
    all_ai(api, "great-old-one", seats)


def first_out_of_turn(game, types, players, seeds):
    """A playout and the index of its first command of ``types`` by a seat whose every legal command is one."""
    for seed in seeds:
        play = random_playout(game, players, seed, keep_states=True)
        for index, (seat, command) in enumerate(play.commands):
            legal = game.decider.legal_commands(play.states[index], seat)
            if command["type"] in types and all(c.type in types for c in legal):
                return seed, play, index
    raise AssertionError("no out-of-turn command in these seeds")


def replay_prefix(api, play, seed, upto):
    created = api.create(play.game.id, [{"name": f"Seat {i}"} for i in range(play.players)], options=play.options,
                         seed=seed.to_bytes(8, "big").hex())
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    version = created["version"]
    for seat, command in play.commands[:upto]:
        reply = api.post_command(created["id"], tokens[seat], command, version)
        assert reply.status_code == 200, reply.text
        version = reply.json()["version"]
    return created["id"], tokens, version


def test_great_old_one_a_sign_is_played_out_of_turn_by_a_seat_that_is_not_to_act(api):
    game = GAMES["great-old-one"]
    seed, play, index = first_out_of_turn(game, {"play_sign"}, 4, range(40))
    game_id, tokens, version = replay_prefix(api, play, seed, index)
    seat, command = play.commands[index]
    state = api.get(f"/v1/games/{game_id}/state", tokens[seat]).json()
    assert state["view"]["turn"] != seat and {c["type"] for c in state["legal_commands"]} == {"play_sign"}
    # nothing public says the seat holds a Sign: the game waits on the turn only, and no view counts Signs
    assert state["to_act"] == [state["view"]["turn"]]
    spectator = api.get(f"/v1/games/{game_id}/state").json()
    assert spectator["to_act"] == [state["view"]["turn"]] and all("signs" not in s for s in spectator["view"]["seats"])
    reply = api.post_command(game_id, tokens[seat], command, version)
    assert reply.status_code == 200, reply.text
    assert reply.json()["events"][0]["seat"] == seat


# -- Rites of Cthulhu --------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [4])  # 2 and 6: test_audit_every_game.py, with the same check (FINISHED)
def test_rites_of_cthulhu_all_ai_tables_play_every_rite_to_an_outcome(api, seats):
    final = all_ai(api, "rites-of-cthulhu", seats)
    FINISHED["rites-of-cthulhu"](final, api.get(f"/v1/games/{final['id']}/state").json())


def test_rites_of_cthulhu_a_power_play_by_a_seat_that_is_not_to_act_is_accepted_and_takes_effect(api):
    game = GAMES["rites-of-cthulhu"]
    seed, play, index = first_out_of_turn(game, POWER_PLAYS, 4, range(60))
    game_id, tokens, version = replay_prefix(api, play, seed, index)
    seat, command = play.commands[index]
    before = api.get(f"/v1/games/{game_id}/state", tokens[seat]).json()
    assert {c["type"] for c in before["legal_commands"]} <= POWER_PLAYS
    reply = api.post_command(game_id, tokens[seat], command, version)
    assert reply.status_code == 200, reply.text
    after = api.get(f"/v1/games/{game_id}/state", tokens[seat]).json()
    assert after["version"] > before["version"] and after["view"] != before["view"]
