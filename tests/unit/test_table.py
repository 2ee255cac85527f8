"""The table around every game: opening, joining, starting, resigning, aborting, abandoning, and the end."""

from __future__ import annotations

import random

import orjson
import pytest

from shared.games import GAMES
from shared.kernel import RuleViolation, entropy_for
from shared.kernel.game import GameOver
from shared.kernel import replace
from shared.kernel.table import (Abandon, Abort, Decline, Join, Leave, OpenTable, Resign, Seating, Start, Status, Table,
                                 TableEnd, read_table_command, table_batch)
from shared.games.toy.state import ToyState
from tests.support.scenario import decide
from tests.support.toy import GAME

SEATING = Seating(GAME)
SEED = b"table-seed"


def setup(players, options):
    return GAME.start(players, options, entropy_for(SEED, 0))[1]


def batch(table, command, seat=None):
    events = table_batch(SEATING, table, command, seat, setup)
    return SEATING.fold(table, events), events


def opened(*seats, visibility="public"):
    return batch(None, OpenTable(game_id="g_1", seats=seats, options={}, visibility=visibility))


def play(table, seat, command):
    SEATING.check_game_command(table)
    decided = decide(GAME, table.game, command, seat, entropy_for(SEED, table.game_events))
    events, after = SEATING.played(table, decided.events, decided.state)
    return after, events


def test_a_full_table_is_set_up_in_the_same_batch_that_opens_it():
    table, events = opened({"name": "Ada"}, {"name": "Bo"})
    assert [e.type for e in events][0] == "table_opened" and events[-1].type == "table_started"
    assert table.status == Status.ACTIVE and table.game is not None and not table.moved
    assert table.game_events == len(events) - 2 == table.setup_events


def test_a_table_with_an_open_seat_waits_and_deals_nothing_until_it_is_taken():
    table, events = opened({"name": "Ada"}, {"open": True})
    assert [e.type for e in events] == ["table_opened"]
    assert table.status == Status.WAITING and table.game is None and table.open_seats == [1]
    assert SEATING.to_act(table) == frozenset()
    with pytest.raises(RuleViolation) as refused:
        SEATING.check_game_command(table)
    assert refused.value.code == "rules/not_started"
    table, events = batch(table, Join(seat=1, name="Cy", player="p_cy", ai=None))
    assert [e.type for e in events][:1] == ["table_seat_joined"] and events[-1].type == "table_started"
    assert table.status == Status.ACTIVE and table.seats[1].player == "p_cy"


def test_a_taken_seat_cannot_be_joined_and_a_player_sits_once():
    table, _ = opened({"name": "Ada", "player": "p_ada"}, {"open": True}, {"open": True})
    for command, code in (Join(seat=0, name="X"), "rules/seat_taken"), \
                         (Join(seat=1, name="X", player="p_ada"), "rules/already_seated"):
        with pytest.raises(RuleViolation) as refused:
            batch(table, command)
        assert refused.value.code == code


def test_a_seat_given_back_while_the_table_waits_opens_again_for_anyone():
    table, _ = opened({"name": "Ada"}, {"open": True}, {"open": True})
    table, _ = batch(table, Join(seat=1, name="Cy", player="p_cy", ai=None))
    table, events = batch(table, Leave(), seat=1)
    assert [e.type for e in events] == ["table_seat_left"] and events[0].data == {"seat": 1}
    assert table.open_seats == [1, 2] and table.seats[1].player is None and table.status == Status.WAITING
    for seat, code in ((1, "rules/seat_not_held"), (2, "rules/seat_not_held")):
        with pytest.raises(RuleViolation) as refused:
            batch(table, Leave(), seat=seat)
        assert refused.value.code == code
    table, _ = batch(table, Join(seat=1, name="Di", player=None, ai=None))
    table, _ = batch(table, Join(seat=2, name="Ed", player=None, ai=None))
    with pytest.raises(RuleViolation) as refused:
        batch(table, Leave(), seat=2)
    assert table.status == Status.ACTIVE and refused.value.code == "rules/game_started"


def test_a_seat_kept_for_a_player_is_declined_by_that_player_only_and_opens_for_anyone():
    table, _ = opened({"name": "Ada"}, {"open": True, "player": "p_cy"})
    with pytest.raises(RuleViolation) as refused:
        batch(table, Decline(seat=1, player="p_eve"))
    assert refused.value.code == "rules/not_invited"
    table, events = batch(table, Decline(seat=1, player="p_cy"))
    assert [e.type for e in events] == ["table_seat_declined"] and table.seats[1].player is None
    with pytest.raises(RuleViolation):
        batch(table, Decline(seat=1, player="p_cy"))
    table, events = batch(table, Join(seat=1, name="Eve", player="p_eve", ai=None))
    assert events[-1].type == "table_started" and table.seats[1].name == "Eve"


def test_starting_early_fills_every_open_seat_with_the_ai():
    table, _ = opened({"name": "Ada"}, {"open": True}, {"open": True})
    table, events = batch(table, Start(ai="random"))
    assert [s.ai for s in table.seats] == [None, "random", "random"] and table.status == Status.ACTIVE


def test_a_resignation_with_one_opponent_left_ends_the_game_for_that_opponent():
    table, _ = opened({"name": "Ada"}, {"name": "Bo"})
    table, events = batch(table, Resign(ai="random"), seat=0)
    assert [e.type for e in events] == ["table_seat_resigned", "table_ended"]
    assert table.status == Status.FINISHED and SEATING.outcome(table).winners == (1,)
    assert SEATING.outcome(table).reason is TableEnd.RESIGNATION


def test_a_resigned_seat_is_played_by_the_ai_and_can_never_win():
    table, _ = opened({"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"})
    table, events = batch(table, Resign(ai="random"), seat=1)
    assert [e.type for e in events] == ["table_seat_resigned"] and table.seats[1].ai == "random"
    ended = replace(table, game=ToyState(3, ((), (), ()), (), (3, 16, 5), 0))  # seat 1 reached the target
    assert GAME.decider.outcome(ended.game).winners == (1,)
    assert SEATING.outcome(ended).winners == (2,) and SEATING.outcome(ended).details["resigned"] == [1]
    with pytest.raises(RuleViolation):
        batch(table, Resign(ai="random"), seat=1)


def test_a_table_can_be_aborted_before_its_first_move_only():
    table, _ = opened({"name": "Ada"}, {"name": "Bo"})
    aborted, events = batch(table, Abort(), seat=1)
    assert aborted.status == Status.ABORTED and [e.type for e in events] == ["table_aborted"]
    with pytest.raises(GameOver):
        SEATING.check_game_command(aborted)
    moved, _ = play(table, 0, {"type": "draw_card"})
    with pytest.raises(RuleViolation) as refused:
        batch(moved, Abort(), seat=1)
    assert refused.value.code == "rules/already_moved"


def test_an_abandoned_table_ends_with_no_winner():
    table, _ = opened({"name": "Ada"}, {"name": "Bo"})
    table, events = batch(table, Abandon(idle_s=600))
    assert [e.type for e in events] == ["table_abandoned", "table_ended"]
    assert SEATING.outcome(table).winners == () and table.status == Status.FINISHED


def test_the_game_s_last_command_is_followed_by_game_ended_with_its_outcome():
    table, _ = opened({"name": "Ada"}, {"name": "Bo"})
    seat = 0
    for _ in range(100):
        if table.status == Status.FINISHED:
            break
        table, events = play(table, seat, GAME.decider.legal_commands(table.game, seat)[-1])
        seat = 1 - seat
    assert events[-1].type == "table_ended"
    assert events[-1].data["outcome"] == orjson.loads(orjson.dumps(GAME.decider.outcome(table.game).to_json()))
    assert SEATING.outcome(table).reason is GAME.decider.outcome(table.game).reason  # read back from the record, typed


def test_a_table_survives_the_snapshot_codec():
    table, _ = opened({"name": "Ada"}, {"open": True})
    table, _ = batch(table, Join(seat=1, name="Cy", player=None, ai=None))
    table, _ = batch(table, Resign(ai="random"), seat=0)
    again = SEATING.codec.decode(orjson.loads(orjson.dumps(SEATING.codec.encode(table))))
    assert again == table and isinstance(again, Table)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_commands_events_come_with_the_table_folding_them_reaches(game_id):
    """``Seating.played`` hands back the table its events leave, which the session's cache and the audit's replay
    take instead of folding the events a second time: it must be exactly the fold, ``table_ended`` included."""
    game, rng = GAMES[game_id], random.Random(game_id)
    seating = Seating(game)
    seats = [{"name": f"p{i}"} for i in range(game.catalogue.min_players)]
    start = table_batch(seating, None, OpenTable(game_id="g_1", seats=tuple(seats), options={}, visibility="public"), None,
                        lambda players, options: game.start(players, options, entropy_for(SEED, 0))[1])
    table = seating.fold(None, start)
    while seating.outcome(table) is None:
        seat = sorted(seating.to_act(table))[0]
        command = rng.choice(seating.legal_commands(table, seat))
        decided = decide(game, table.game, command, seat, entropy_for(SEED, table.game_events))
        events, after = seating.played(table, decided.events, decided.state)
        assert after == seating.fold(table, events) == seating.played(table, decided.events)[1]
        table = after
    assert events[-1].type == "table_ended" and after.ended is not None


def test_a_table_command_is_recorded_as_posted_and_read_back_as_its_record():
    """The audit re-decides a batch from the command its record keeps: the record's form reads back as the same
    typed command, and a type the table does not know is refused."""
    for command in (OpenTable(game_id="g_1", seats=({"name": "Ada"}, {"open": True}), options={"target": 9},
                              visibility="private"),
                    Join(seat=1, name="Cy", player="p_cy"), Leave(), Decline(seat=2, player="p_bo"), Start(ai="easy"),
                    Resign(ai="random"), Abort(), Abandon(idle_s=60)):
        record = orjson.loads(orjson.dumps(command.to_record()))
        assert record["type"] == command.type and read_table_command(record) == command
    assert read_table_command({"type": "join", "seat": 1, "name": "Cy"}) == Join(seat=1, name="Cy", player=None, ai=None)
    with pytest.raises(ValueError):
        read_table_command({"type": "draw_card"})
