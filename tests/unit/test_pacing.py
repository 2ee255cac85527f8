"""An AI seat's think time tells nobody about its hand (issue 33, item 2): each server move is due at a time drawn
from the game's secret seed, never at the time its choice took (``session_service/worker/pacing.py``).

Here, deterministically: the plan of a due time, the levels' distributions (their support lies above the think
time), and a whole game of ``medium`` seats whose every move, forced or free, is due exactly at the anchor plus
its drawn delay. The statistical test on the real stack (the spectator's view of ``at`` timestamps) is in
``tests/e2e/test_ai_timing.py``.
"""

from __future__ import annotations

import threading

import pytest

from shared.ai import LEVELS, MARGIN_S, TIMER
from shared.ai.levels import WALL_FACTOR
from shared.kernel import seat_rng
from session_service.use_cases.meta import parse_iso
from session_service.worker import jobs, pacing
from session_service.worker.pacing import Move, Publisher, plan
from tests.support.stack import make_session_app
from tests.support.toy import GAME

SEED = "5eed" * 16  # a game of the toy whose seats have forced moves and free ones


@pytest.mark.parametrize("level", [*LEVELS.values(), TIMER], ids=lambda level: level.name)
def test_every_levels_delay_lies_above_its_think_time(level):
    low, high = level.publish_after
    assert level.seconds + MARGIN_S <= low < high
    rng = seat_rng(b"\1" * 32, "publish", 0, 1)
    assert all(low <= level.delay(rng) <= high for _ in range(1000))


def test_a_move_in_time_is_due_at_its_anchor_plus_its_delay_and_may_think_until_then():
    timing = plan(anchor=100.0, now=100.05, delay=1.5, think_s=1.0, margin_s=0.1, wall_cap_s=3.0)
    assert (timing.due, timing.late) == (101.5, False)
    assert timing.wall_s == pytest.approx(1.35)  # the wall clock left before the due time, less the margin


def test_a_turn_that_starts_too_late_to_think_in_time_is_due_its_delay_after_it_started():
    timing = plan(anchor=100.0, now=100.6, delay=1.5, think_s=1.0, margin_s=0.1, wall_cap_s=3.0)
    assert (timing.due, timing.late) == (102.1, True)
    assert timing.wall_s == pytest.approx(1.4) and timing.wall_s >= 1.0  # still its whole think time


def test_the_wall_clock_a_search_gets_never_exceeds_its_levels_cap():
    assert plan(anchor=100.0, now=100.0, delay=9.0, think_s=1.0, margin_s=0.1, wall_cap_s=3.0).wall_s == 3.0


def test_every_move_of_a_game_forced_or_free_is_due_at_its_anchor_plus_the_seeds_delay(fake_redis, prefix):
    """A whole game of `medium` seats through the worker's job: each move handed over is due exactly at the `at` of
    the log's head plus the delay its seat and version draw from the seed, whether the seat had one command or many."""
    app, scheduler = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, ALLOW_CLIENT_SEED=True)
    tables = app.extensions["tables"]
    handed: list[tuple[Move, float, int]] = []

    class Capture:
        def add(self, move: Move) -> None:
            meta = tables.meta(move.game_id)
            pos = tables.position(meta.id, meta)
            handed.append((move, parse_iso(meta.updated_at).timestamp(), len(pos.seating.legal_commands(pos.table, move.seat))))
            jobs.publish(move, tables)

    jobs.use_tables(tables, pace=jobs.Pace(1.0, Capture()))  # type: ignore[arg-type]
    seats = [{"name": "M", "ai": "medium"}, {"name": "N", "ai": "medium"}]
    game = app.test_client().post("/v1/games", json={"game": "toy", "seats": seats, "seed": SEED}).json
    scheduler.run_ai()
    assert app.test_client().get(f"/v1/games/{game['id']}").json["status"] == "finished"
    seed = tables.meta(game["id"]).seed
    counts = {n for _, _, n in handed}
    assert 1 in counts and max(counts) > 1  # forced and free moves both
    for move, anchor, _ in handed:
        delay = LEVELS["medium"].delay(seat_rng(seed, "publish", move.seat, move.version))
        assert move.due == pytest.approx(anchor + delay, abs=1e-6)


def test_the_publisher_publishes_each_move_at_its_time_and_once(fake_redis):
    now = [1000.0]
    published: list[int] = []
    publisher = Publisher(fake_redis, "pub", lambda move: published.append(move.version) or "played", clock=lambda: now[0])
    for version, due in ((2, 1000.5), (1, 1000.2), (3, 1002.0)):
        publisher.add(Move("g_x", 0, version, "ai", {"type": "end_turn"}, due))
    assert publisher.next_due()[0] is None and publisher.next_due()[1] == pytest.approx(min(0.2, pacing.POLL_S))
    now[0] = 1000.6
    first, second = publisher.next_due()[0], publisher.next_due()[0]
    assert (first.version, second.version) == (1, 2) and publisher.next_due()[0] is None
    now[0] = 1003.0
    stop = threading.Event()
    runner = threading.Thread(target=publisher.run, args=(stop,))
    runner.start()
    while not published:
        publisher.woken.wait(0.01)
    stop.set()
    publisher.woken.set()
    runner.join(5)
    assert published == [3] and fake_redis.zcard("pub") == 0


def test_the_search_is_cut_at_its_wall_budget():
    """A search stops at its think time in CPU or at the wall clock left before its due time, whichever is first."""
    from shared.ai.levels import _elapsed

    cpu, wall = [0.0], [0.0]
    used = _elapsed(lambda: cpu[0], lambda: wall[0], think=1.0, wall_s=1.35)
    default = _elapsed(lambda: cpu[0], lambda: wall[0])
    wall[0] = 1.35
    assert used() == pytest.approx(1.0)  # the wall budget spent: as good as the think time spent
    cpu[0], wall[0] = 0.2, 0.5
    assert used() == pytest.approx(0.5 / 1.35)  # a starved search: the wall clock decides
    cpu[0] = 0.9
    assert used() == pytest.approx(0.9)  # a search with its core: the CPU decides
    assert default() == pytest.approx(max(0.9, 0.5 / WALL_FACTOR))  # the level's own cap: WALL_FACTOR × think


def test_nothing_of_an_ai_move_reaches_the_metrics_before_the_move_reaches_the_table(fake_redis, prefix):
    """Issue 41, L6: the worker counted each AI move's choice time in the stats /metrics serves as soon as it was
    chosen, ~150 ms before its due time: polling /metrics told forced moves from free ones ahead of the table. The
    figures are now counted when the move is published."""
    app, scheduler = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, ALLOW_CLIENT_SEED=True)
    tables = app.extensions["tables"]
    stats = tables.store.key("stats", "ai")
    held: list[Move] = []

    class Hold:
        def add(self, move: Move) -> None:
            held.append(move)

    jobs.use_tables(tables, pace=jobs.Pace(1.0, Hold()))  # type: ignore[arg-type]
    seats = [{"name": "M", "ai": "medium"}, {"name": "N", "ai": "medium"}]
    game = app.test_client().post("/v1/games", json={"game": "toy", "seats": seats, "seed": SEED}).json
    scheduler.run_ai()
    assert len(held) == 1 and held[0].chose_s > 0
    assert fake_redis.hgetall(stats) == {}, "chosen, not yet on the table: nothing in the metrics"
    version = tables.meta(game["id"]).version
    assert jobs.publish(held[0], tables) == "played" and tables.meta(game["id"]).version > version
    figures = fake_redis.hgetall(stats)
    assert int(figures[b"moves"]) == 1 and float(figures[b"seconds"]) == pytest.approx(held[0].chose_s)
    assert Move.decoded(held[0].encoded()) == held[0], "the figures travel with the move to the publisher"


def test_the_worker_lets_its_publisher_take_the_gil_within_half_a_millisecond(monkeypatch):
    """Issue 41, L5: the AI's search holds the GIL on the worker's main thread; at Python's 5 ms switch interval the
    publisher's thread waited up to 5 ms at each of a publication's round trips, and another client's moves came
    0.60 s apart instead of 0.16 under one client's `hard` tables (measured again in make soak:
    tests/soak/test_ai_fairness.py)."""
    import sys

    from session_service.worker import main

    monkeypatch.setattr(main.logs, "configure", lambda *args, **kw: None)
    before = sys.getswitchinterval()
    try:
        main.configure_process()
        assert sys.getswitchinterval() <= 0.001
    finally:
        sys.setswitchinterval(before)


def test_a_seats_turn_of_several_commands_is_chosen_at_once_and_published_at_one_due_time(fake_redis, prefix,
                                                                                           monkeypatch):
    """Issue 46: in The Great Old One a turn is ~5 commands, each paced on its own (a ``hard`` turn ~11 s). Now the
    first job of a turn chooses all of it (each command from the position the last leaves), hands it over as one
    move due at one time, and the jobs the table schedules for the rest of the turn do nothing."""
    from shared.ai import Level
    from shared.games import GAMES

    monkeypatch.setitem(LEVELS, "easy", Level("easy", 8, 0.25, LEVELS["easy"].publish_after))
    app, scheduler = make_session_app(fake_redis, prefix, {"great-old-one": GAMES["great-old-one"]},
                                      RATE_LIMIT_PER_MINUTE=0, ALLOW_CLIENT_SEED=True)
    tables = app.extensions["tables"]
    handed: list[tuple[Move, float]] = []
    checked: list[str] = []

    class Capture:
        def add(self, move: Move) -> None:
            meta = tables.meta(move.game_id)
            handed.append((move, parse_iso(meta.updated_at).timestamp()))
            if move.rest and not checked:  # the first command out, the rest not yet: the next job finds it planned
                tables.command(move.game_id, move.seat, move.command, expected_version=move.version,
                               idempotency_key=str(move.version), by="ai")
                checked.append(jobs.ai_turn(move.game_id, move.seat, move.rest[0][0]))
                move = Move(move.game_id, move.seat, move.rest[0][0], "ai", move.rest[0][1], move.due, rest=move.rest[1:])
            jobs.publish(move, tables)

    jobs.use_tables(tables, pace=jobs.Pace(1.0, Capture()))  # type: ignore[arg-type]
    seats = [{"name": "E", "ai": "easy"}, {"name": "F", "ai": "easy"}]
    game = app.test_client().post("/v1/games", json={"game": "great-old-one", "seats": seats, "seed": SEED}).json
    scheduler.run_ai()
    client = app.test_client()
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    assert checked == ["planned"]
    seed = tables.meta(game["id"]).seed
    for move, anchor in handed:
        delay = LEVELS["easy"].delay(seat_rng(seed, "publish", move.seat, move.version))
        assert move.due == pytest.approx(anchor + delay, abs=1e-6)
    records = client.get(f"/v1/games/{game['id']}/export").json["events"]
    batches = [r["cause"] for i, r in enumerate(records) if (r.get("cause") or {}).get("by") == "ai"
               and (i == 0 or (records[i - 1].get("cause") or {}).get("id") != r["cause"].get("id"))]
    turns = [b for i, b in enumerate(batches) if i == 0 or batches[i - 1]["seat"] != b["seat"]]
    assert sum(1 + len(m.rest) for m, _ in handed) == len(batches)  # every command of the log was handed over
    # one move a turn, but in the simultaneous opening, where the other seat may act between a seat's two commands
    assert len(turns) <= len(handed) <= len(turns) + len(seats) and max(len(m.rest) for m, _ in handed) >= 3
