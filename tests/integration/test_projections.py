"""Read models from the logs on a real Redis (issue 44): the projector folds ended games into ratings, leaderboards
and histories once each, whatever crashes; a rebuild gives the same bytes; profiles show no private table; quick
play seats two seekers together and their streams say so."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from shared import ratings
from session_service.cli import standings
from session_service.storage.projections import EndedFeed
from session_service.use_cases.errors import Unavailable
from session_service.use_cases.projector import Projector, RebuildRaced
from session_service.worker import jobs
from tests.support.contract import Contract
from tests.support.stack import make_session_app
from tests.support.toy import GAME
from tests.support.lobby import auth, player
from tests.support.quick_play import matched


@pytest.fixture
def app(real_redis, prefix):
    return make_session_app(real_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, LEADERBOARD_MIN_GAMES=1,
                            KEY_SHARDS=2, SSE_KEEPALIVE_S=0.2)[0]


@pytest.fixture
def client(app):
    return app.test_client()


def projector(app, consumer="p1"):
    return Projector(app.extensions["tables"], app.extensions["players"], min_games=1, consumer=consumer)


def rated_game(client, winner, loser, rated=True, visibility="public"):
    """A two-seat table the ``loser`` resigns: the ``winner`` wins it."""
    body = {"game": "toy", "seats": [{"me": True}, {"open": True}], "visibility": visibility, **({"rated": True} if rated else {})}
    made = client.post("/v1/games", json=body, headers=auth(winner["key"]))
    assert made.status_code == 201, made.json
    game_id = made.json["id"]
    join = {"invite": made.json["invite"]} if visibility == "private" else {}
    assert client.post(f"/v1/games/{game_id}/join", json=join, headers=auth(loser["key"])).status_code == 200
    resigned = client.post(f"/v1/games/{game_id}/resign", headers=auth(loser["key"]))
    assert resigned.status_code == 200, resigned.json
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    return game_id


def test_a_rated_end_moves_both_ratings_in_profiles_and_the_leaderboard(client, app):
    contract = Contract(client.get("/openapi.json").get_json())
    ada, cy = player(client, "Ada"), player(client, "Cy")
    game_id = rated_game(client, ada, cy)
    assert projector(app).run_once() == 1
    profile = client.get(f"/v1/players/{ada['id']}").json
    contract.check("Profile", profile)
    (rating,) = profile["ratings"]
    assert rating["game"] == "toy" and rating["games"] == 1 and rating["mu"] > ratings.MODEL.mu
    assert [g["game_id"] for g in profile["games"]] == [game_id] and profile["games"][0]["rated"]
    loser = client.get(f"/v1/players/{cy['id']}").json["ratings"][0]
    assert loser["mu"] < ratings.MODEL.mu
    board = client.get("/v1/leaderboards/toy").json
    contract.check("Leaderboard", board)
    assert [e["name"] for e in board["entries"]] == ["Ada", "Cy"] and board["entries"][0]["rank"] == 1
    assert board["rating_algorithm"]["library"] == "openskill"


def test_a_casual_table_is_in_the_history_and_moves_no_rating(client, app):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    game_id = rated_game(client, ada, cy, rated=False)
    projector(app).run_once()
    profile = client.get(f"/v1/players/{ada['id']}").json
    assert profile["ratings"] == [] and [g["game_id"] for g in profile["games"]] == [game_id]


def test_a_private_table_appears_in_no_profile_and_no_leaderboard(client, app):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    game_id = rated_game(client, ada, cy, rated=False, visibility="private")
    assert client.post("/v1/games", json={"game": "toy", "seats": [{"me": True}, {"open": True}], "rated": True,
                                          "visibility": "private"}, headers=auth(ada["key"])).status_code == 400
    projector(app).run_once()
    for who in (ada, cy):
        profile = client.get(f"/v1/players/{who['id']}")
        assert profile.status_code == 200 and game_id not in profile.text
        assert profile.json["games"] == [] and profile.json["ratings"] == []
    assert client.get("/v1/leaderboards/toy").json["entries"] == []


def test_a_rated_table_seats_only_players(client):
    ada = player(client, "Ada")
    named = {"game": "toy", "seats": [{"me": True}, {"name": "Bob"}], "rated": True}
    refused = client.post("/v1/games", json=named, headers=auth(ada["key"]))
    assert refused.status_code == 400 and "player" in refused.json["error"]["message"]
    made = client.post("/v1/games", json={"game": "toy", "seats": [{"me": True}, {"open": True}], "rated": True},
                       headers=auth(ada["key"])).json
    assert made["rated"] is True
    guest = client.post(f"/v1/games/{made['id']}/join", json={"name": "Guest"})
    assert guest.status_code == 401 and client.get(f"/v1/games/{made['id']}").json["status"] == "waiting"


def test_a_projector_killed_between_the_end_and_its_projection_counts_the_game_once(client, app, monkeypatch):
    ada, cy = player(client, "Ada"), player(client, "Cy")
    game_id = rated_game(client, ada, cy)
    dying = projector(app, "dies")
    monkeypatch.setattr(dying, "fold", lambda result: (_ for _ in ()).throw(SystemExit("killed")))
    with pytest.raises(SystemExit):
        dying.run_once()  # delivered to it, never acknowledged
    assert projector(app, "next").run_once(claim_idle_ms=60_000) == 0  # not yet given up for dead
    assert projector(app, "next").run_once(claim_idle_ms=0) == 1  # claimed from the dead one
    # killed after its write and before its acknowledgement: delivered again, counted once
    again = projector(app, "again")
    EndedFeed(app.extensions["tables"].store).add(game_id)
    app.extensions["tables"].store.redis.delete(app.extensions["tables"].store.key(game_id, "projected"))
    assert again.run_once() == 1
    assert client.get(f"/v1/players/{ada['id']}").json["ratings"][0]["games"] == 1


def test_an_end_the_feed_never_heard_of_is_told_by_the_sweeper(client, app):
    tables = app.extensions["tables"]
    told = []

    def down(game_id):  # the feed's Redis unreachable (EndedFeed.add answers False)
        told.append(game_id)
        return False

    tables.on_end = down
    ada, cy = player(client, "Ada"), player(client, "Cy")
    game_id = rated_game(client, ada, cy)
    assert told == [game_id] and projector(app).run_once() == 0
    tables.on_end = EndedFeed(tables.store).add
    tables.store.mark_active(game_id)  # what the real scheduler did at the game's first change
    jobs.sweep_once()
    assert game_id not in set(tables.store.active_ids())
    assert projector(app).run_once() == 1


def test_a_late_game_is_folded_in_order_and_a_rebuild_gives_the_same_bytes(client, app):
    tables = app.extensions["tables"]
    people = [player(client, name) for name in ("Ada", "Cy", "Eve")]
    games = [rated_game(client, people[i % 3], people[(i + 1) % 3]) for i in range(5)]
    games.append(rated_game(client, people[0], people[1], rated=False))
    feed = EndedFeed(tables.store)
    live = projector(app)
    shards = {tables.store.shard_of(g) for g in games}
    # project out of order: the newest game first, the others after (as a late delivery would)
    live.project(games[4])
    for game_id in games:
        live.project(game_id)
    feed.ack((shard, entry_id) for shard, entry_id, _ in feed.read("drain", 1000))
    assert shards and feed.pending() == 0
    ids = [p["id"] for p in people]
    before = live.models.dump(["toy"], ids)
    expected = ratings.fold([ratings.result_of(tables.store.records(g)) for g in games])["toy"]
    for entry, rating in expected.items():
        assert json.loads(tables.store.redis.hget(f"{tables.store.prefix}:{{lb:toy}}:ratings", entry)) == rating.to_json()
    rebuilt = projector(app, "rebuild").rebuild(ratings.result_of(tables.store.records(g)) for g in games)
    assert rebuilt == 6 and live.models.dump(["toy"], ids) == before



def test_a_rebuild_a_live_projector_races_stops_and_says_so_instead_of_leaving_a_mix(client, app):
    tables = app.extensions["tables"]
    people = [player(client, name) for name in ("Ada", "Cy")]
    games = [rated_game(client, people[0], people[1]) for _ in range(2)]
    late = rated_game(client, people[1], people[0])
    live, rebuilding = projector(app), projector(app, "rebuild")
    for game_id in games:
        live.project(game_id)
    commit = rebuilding.models.commit

    def raced(*args, **kwargs):  # the live projector rates the late game between the rebuild's read and its write
        live.project(late)
        return commit(*args, **kwargs)

    rebuilding.models.commit = raced
    with pytest.raises(RebuildRaced, match="stop the workers' projectors"):
        rebuilding.rebuild(ratings.result_of(tables.store.records(g)) for g in games)


def test_a_projector_remembers_a_bounded_number_of_players_pools(client, app, monkeypatch):
    monkeypatch.setattr("session_service.use_cases.projector.POOLS_KEPT", 2)
    live = projector(app)
    people = [player(client, name) for name in ("Ada", "Cy", "Eve")]
    assert [live.pool_of(p["id"]) for p in people] == ["humans"] * 3
    assert list(live._pools) == [people[1]["id"], people[2]["id"]]
    live.pool_of(people[1]["id"])  # asked again: the most recent
    assert list(live._pools) == [people[2]["id"], people[1]["id"]]

@contextmanager
def round_trips(client):
    """The round trips ``client`` makes meanwhile: each command, and each pipeline that sends any."""
    made: list[str] = []
    command, pipeline = client.execute_command, client.pipeline

    def counted(*args, **kwargs):
        made.append(str(args[0]))
        return command(*args, **kwargs)

    def counted_pipeline(*args, **kwargs):
        pipe = pipeline(*args, **kwargs)
        execute = pipe.execute

        def run(*a, **k):
            if pipe.command_stack:
                made.append("pipeline")
            return execute(*a, **k)

        pipe.execute = run
        return pipe

    client.execute_command, client.pipeline = counted, counted_pipeline
    try:
        yield made
    finally:
        del client.execute_command, client.pipeline


def test_a_batch_of_ended_games_costs_the_round_trips_of_one_and_an_idle_pass_one(client, app):
    redis = app.extensions["tables"].store.redis
    people = [player(client, name) for name in ("Ada", "Cy", "Eve")]
    live = projector(app)
    rated_game(client, people[0], people[1]), rated_game(client, people[1], people[2])
    live.run_once(claim_idle_ms=0)  # the groups made, the players' pools known
    with round_trips(redis) as idle:
        assert live.run_once() == 0
    assert idle == ["XREADGROUP"], "an idle pass is one read"
    costs = []
    for n in (1, 6):
        games = [rated_game(client, people[i % 3], people[(i + 1) % 3]) for i in range(n)]
        with round_trips(redis) as made:
            assert live.run_once() == n
        costs.append(made)
        assert all(live.models.projected(g) for g in games)
    assert costs[0] == costs[1] and len(costs[0]) <= 8, f"round trips for a batch of 1 and of 6: {costs}"
    assert sum(live.models.history_size(p["id"]) for p in people) == 2 * 9, "each game in both its players' histories"
    expected = ratings.fold([r for r in live.logged_results()])["toy"]
    assert {p["id"]: client.get(f"/v1/players/{p['id']}").json["ratings"][0]["mu"] for p in people} == \
        {p["id"]: expected[p["id"]].mu for p in people}, "a batch rates as one game after another does"


def test_the_matchmakers_round_looks_at_every_pool_at_once_and_seats_a_fill_that_came_due(client, app):
    matchmaker = app.extensions["matchmaker"]
    redis = app.extensions["tables"].store.redis
    with round_trips(redis) as idle:
        assert matchmaker.match_all() == 0
    assert idle == ["pipeline"], "an idle round is one look at the pools' sizes"
    ada = player(client, "Ada")
    made = client.post("/v1/seeks", json={"game": "toy", "seats": 2, "ai_fill_after_s": 30}, headers=auth(ada["key"]))
    assert made.status_code == 201 and made.json["waiting"]
    assert matchmaker.match_all() == 0, "not yet due"
    now = matchmaker.clock()
    matchmaker.clock = lambda: now + 31
    assert matchmaker.match_all() == 1
    (told,) = matched(app.extensions["players"], ada["id"])
    assert [s["player"] for s in client.get(f"/v1/games/{told['game']}").json["seats"]] == [ada["id"], None]


def stream_of(client, key):
    """The player's stream, past its first message: its lines (None for a keep-alive, every 0.2 s)."""
    reply = client.get("/v1/me/stream", headers={**auth(key), "Accept": "application/x-ndjson"})
    read = (json.loads(chunk) if chunk.strip() else None for chunk in reply.response)
    assert next(read)["type"] == "tables"
    return reply, read


def next_of(read, kind, keepalives=25):
    """The next message of ``kind``, or a failure after a few keep-alives (about five seconds) without it."""
    for message in read:
        if message is None:
            keepalives -= 1
            assert keepalives > 0, f"no {kind} message on the stream"
        elif message["type"] == kind:
            return message
    raise AssertionError("the stream ended")


def test_two_seekers_are_seated_together_and_their_streams_say_matched(client, app):
    contract = Contract(client.get("/openapi.json").get_json())
    ada, cy = player(client, "Ada"), player(client, "Cy")
    streams = {p["id"]: stream_of(client, p["key"]) for p in (ada, cy)}
    try:
        first = client.post("/v1/seeks", json={"game": "toy", "seats": 2}, headers=auth(ada["key"]))
        assert first.status_code == 201, first.json
        mine = client.get("/v1/seeks", headers=auth(ada["key"])).json
        contract.check("Seek", first.json)
        contract.check("Seeks", mine)
        assert first.json["waiting"] and mine["seeks"][0]["id"] == first.json["id"]
        second = client.post("/v1/seeks", json={"game": "toy", "seats": 2}, headers=auth(cy["key"]))
        assert second.status_code == 201 and not second.json["waiting"]
        told = {who: next_of(read, "matched") for who, (_, read) in streams.items()}
    finally:
        for reply, _ in streams.values():
            reply.close()
    for message in told.values():
        contract.check("PlayerStreamMessage", message)
    a, c = told[ada["id"]]["data"], told[cy["id"]]["data"]
    assert a["game"] == c["game"] and {a["seat"], c["seat"]} == {0, 1} and a["seek"] == first.json["id"]
    game = client.get(f"/v1/games/{a['game']}").json
    assert game["status"] == "active" and {s["player"] for s in game["seats"]} == {ada["id"], cy["id"]}
    for who, told_seat in ((ada, a["seat"]), (cy, c["seat"])):  # each plays its seat with its player key
        state = client.get(f"/v1/games/{a['game']}/state", headers=auth(who["key"])).json
        assert bool(state["legal_commands"]) == (told_seat in state["to_act"])
    assert client.get("/v1/seeks", headers=auth(ada["key"])).json["seeks"] == []


def test_seeks_refuse_bad_input_and_keep_their_limits(client, app):
    ada, bot = player(client, "Ada"), player(client, "Botty", bot=True)
    for body in ({"game": "toy", "seats": 9}, {"game": "toy", "seats": 2, "min_seats": 2}, {}):
        reply = client.post("/v1/seeks", json=body, headers=auth(ada["key"]))
        assert reply.status_code in (400, 422), (body, reply.json)
    # a game or AI level the document admits but the server lacks is a 422 with its code, as a table's is
    for body, code in (({"game": "nope"}, "rules/unknown_game"),
                       ({"game": "toy", "ai_fill_after_s": 5, "ai": "grandmaster"}, "rules/unknown_ai")):
        reply = client.post("/v1/seeks", json=body, headers=auth(ada["key"]))
        assert (reply.status_code, reply.json["error"]["code"]) == (422, code), reply.json
    assert client.post("/v1/seeks", json={"game": "toy"}).status_code == 401
    assert client.get("/v1/seeks", headers=auth(ada["key"])).json["seeks"] == []
    refused = client.post("/v1/seeks", json={"game": "toy", "rated": True, "pool": "humans"}, headers=auth(bot["key"]))
    assert refused.status_code == 401
    assert client.post("/v1/seeks", json={"game": "toy", "rated": True}, headers=auth(bot["key"])).json["pool"] == "bots"
    made = client.post("/v1/seeks", json={"game": "toy", "seats": 3}, headers=auth(ada["key"]))
    assert made.status_code == 201
    assert client.post("/v1/seeks", json={"game": "toy", "seats": 4}, headers=auth(ada["key"])).status_code == 429
    assert client.delete(f"/v1/seeks/{made.json['id']}", headers=auth(ada["key"])).status_code == 204
    assert client.delete(f"/v1/seeks/{made.json['id']}", headers=auth(ada["key"])).status_code == 404


def test_a_seek_lapses_once_its_players_stream_is_gone_and_ai_fills_a_long_wait(client, app):
    matchmaker = app.extensions["matchmaker"]
    ada, cy = player(client, "Ada"), player(client, "Cy")
    client.post("/v1/seeks", json={"game": "toy", "seats": 2}, headers=auth(ada["key"]))
    matchmaker.pools.store.redis.delete(matchmaker.pools._alive_key(ada["id"]))  # its stream gone past the lapse
    client.post("/v1/seeks", json={"game": "toy", "seats": 2, "ai_fill_after_s": 0}, headers=auth(cy["key"]))
    assert client.get("/v1/seeks", headers=auth(ada["key"])).json["seeks"] == []
    (told,) = matched(app.extensions["players"], cy["id"])
    seats = client.get(f"/v1/games/{told['game']}").json["seats"]
    assert [s["player"] for s in seats] == [cy["id"], None] and seats[1]["ai"]


def test_seekers_whose_table_cannot_be_opened_wait_again_in_their_places(client, app, monkeypatch):
    matchmaker, rules = app.extensions["matchmaker"], app.extensions["tables"].rules
    ada, cy = player(client, "Ada"), player(client, "Cy")
    first = client.post("/v1/seeks", json={"game": "toy", "seats": 2}, headers=auth(ada["key"])).json

    def down(*args, **kwargs):
        raise Unavailable("the rules service")

    with monkeypatch.context() as patched:
        patched.setattr(rules, "setup", down)  # the rules service down: no table can be set up
        second = client.post("/v1/seeks", json={"game": "toy", "seats": 2}, headers=auth(cy["key"]))
        assert second.status_code == 201 and second.json["waiting"], "made; the round seats it"
        with pytest.raises(Unavailable):
            matchmaker.match_all()  # the worker's round fails as the seek's own match did
        for who, made in ((ada, first), (cy, second.json)):
            (waiting,) = client.get("/v1/seeks", headers=auth(who["key"])).json["seeks"]
            assert (waiting["id"], waiting["made_at"], waiting["waiting"]) == (made["id"], made["made_at"], True)
    assert matchmaker.match_all() == 1
    (a,), (c,) = matched(app.extensions["players"], ada["id"]), matched(app.extensions["players"], cy["id"])
    assert a["game"] == c["game"] and (a["seat"], c["seat"]) == (0, 1)


def test_mythos_ratings_over_the_exports_prints_the_servers_ratings_to_the_last_digit(client, app, tmp_path, capsys):
    people = [player(client, name) for name in ("Ada", "Cy", "Eve")]
    games = [rated_game(client, people[i % 3], people[(i + 2) % 3]) for i in range(4)]
    projector(app).run_once()
    for game_id in games:
        export = client.get(f"/v1/games/{game_id}/export").json
        assert export["rating_algorithm"] == ratings.ALGORITHM
        (tmp_path / f"{game_id}.json").write_text(json.dumps(export))
    assert standings.ratings_dir(str(tmp_path), {"toy": GAME}) == 0
    printed = capsys.readouterr().out
    board = client.get("/v1/leaderboards/toy").json["entries"]
    assert len(board) == 3
    for entry in board:
        line = next(line for line in printed.splitlines() if f"({entry['player']})" in line)
        assert f"mu {entry['mu']!r}  sigma {entry['sigma']!r}  ordinal {entry['ordinal']!r}  games {entry['games']}" in line
        assert line.split(".")[0].strip() == str(entry["rank"]) and entry["name"] in line
    tampered = json.loads((tmp_path / f"{games[0]}.json").read_text())
    tampered["events"][-1]["data"]["outcome"]["winners"] = [1]
    (tmp_path / f"{games[0]}.json").write_text(json.dumps(tampered))
    assert standings.ratings_dir(str(tmp_path), {"toy": GAME}) == 1
    assert "NOT VERIFIED" in capsys.readouterr().err


@pytest.fixture
def cluster_app(cluster_redis, prefix):
    return make_session_app(cluster_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, LEADERBOARD_MIN_GAMES=1)[0]


def test_the_projector_and_a_rebuild_work_on_redis_cluster(cluster_app):
    client = cluster_app.test_client()
    people = [player(client, name) for name in ("Ada", "Cy")]
    games = [rated_game(client, people[i % 2], people[(i + 1) % 2]) for i in range(3)]
    live = projector(cluster_app)
    assert live.run_once() == 3
    ids = [p["id"] for p in people]
    before = live.models.dump(["toy"], ids)
    assert len(before[f"{live.tables.store.prefix}:{{lb:toy}}:ledger"]) == 3
    assert sorted(r.game_id for r in live.logged_results()) == sorted(games)
    assert live.rebuild(live.logged_results()) == 3 and live.models.dump(["toy"], ids) == before


def test_retention_projects_before_it_retires_and_a_rebuild_from_logs_and_exports_gives_the_same(client, app, tmp_path):
    from pathlib import Path

    from session_service.use_cases import retention

    tables = app.extensions["tables"]
    people = [player(client, name) for name in ("Ada", "Cy")]
    games = [rated_game(client, people[i % 2], people[(i + 1) % 2]) for i in range(3)]
    live = projector(app)
    live.run_once(count=1)  # some of them projected by the projector, the others not yet
    policy = retention.Policy(days=1, export_dir=Path(tmp_path), after_projection=True, min_games=1)
    assert retention.sweep(tables, policy, now=retention.clock() + 3 * 86400, force=True)["exported"] == 3
    assert all(tables.store.meta(g) is None for g in games) and list(live.logged_results()) == []
    profile = client.get(f"/v1/players/{people[0]['id']}").json
    assert sorted(g["game_id"] for g in profile["games"]) == sorted(games) and profile["ratings"][0]["games"] == 3
    live.run_once()
    assert live.feed.pending() == 0, "the feed's entries of retired games are settled"
    late = rated_game(client, people[0], people[1])
    live.run_once()
    ids = [p["id"] for p in people]
    with_late = live.models.dump(["toy"], ids)
    problems: list[str] = []
    found = standings.ended_results(live, Path(tmp_path), problems, {"toy": GAME})  # what `mythos projections rebuild` folds
    assert sorted(r.game_id for r in found) == sorted([*games, late]) and problems == []
    assert projector(app, "rebuild").rebuild(found) == 4 and live.models.dump(["toy"], ids) == with_late


def test_a_rating_window_widens_as_a_seek_waits_until_two_seekers_are_seated(client, app):
    matchmaker = app.extensions["matchmaker"]
    ada, cy = player(client, "Ada"), player(client, "Cy")
    live = projector(app)
    for _ in range(3):  # Ada wins three rated games: their ordinals part
        live.project(rated_game(client, ada, cy))
    now = [matchmaker.clock()]
    matchmaker.clock = lambda: now[0]
    body = {"game": "toy", "seats": 2, "rated": True, "window": 0}
    assert client.post("/v1/seeks", json=body, headers=auth(ada["key"])).json["waiting"]
    assert client.post("/v1/seeks", json=body, headers=auth(cy["key"])).json["waiting"], "outside each other's window"
    assert matchmaker.match_all() == 0
    now[0] += 3600  # an hour on: both windows have widened by SEEK_WIDEN_PER_S × 3,600 points
    assert matchmaker.match_all() == 1
    assert not client.get("/v1/seeks", headers=auth(ada["key"])).json["seeks"]
