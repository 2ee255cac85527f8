"""Retention (issue 16: games never expired, ~390 KB an all-AI table): a game over for longer than RETENTION_DAYS is
exported (a record ``shared.audit.verify_export`` accepts), then its keys, listing entries and active mark are
gone; a game in play is untouched; a game whose export fails is kept. On a real Redis and a real Redis Cluster."""

from __future__ import annotations

import time

import orjson
import pytest

from session_service.worker import jobs

from session_service.use_cases import retention
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.players import Players
from shared.audit import verify_export
from session_service.storage.store import GAME_PARTS
from tests.support.stack import make_session_app
from tests.support.toy import GAME

DAY_S = retention.DAY_S
HUMANS = [{"name": "Ada"}, {"name": "Bo"}]
BOTS = [{"name": "Ada", "ai": "random"}, {"name": "Bo", "ai": "random"}]


@pytest.fixture(params=["redis", "cluster"])
def redis_client(request):
    return request.getfixturevalue({"redis": "real_redis", "cluster": "cluster_redis"}[request.param])


@pytest.fixture
def stack(redis_client, prefix):
    app, scheduler = make_session_app(redis_client, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, KEY_SHARDS=4)
    return app.test_client(), scheduler, app.extensions["tables"]


def open_table(client, seats) -> dict:
    reply = client.post("/v1/games", json={"game": "toy", "seats": seats})
    assert reply.status_code == 201, reply.json
    return reply.json


def keys_of(tables, game_id: str) -> list[str]:
    """Every key that names the game: its own, and its entries in the listing's indexes and the active set (sorted
    and once each: SCAN's order changes whenever Redis resizes or rehashes its table, and it may repeat a key)."""
    store = tables.store
    own = [part for part in GAME_PARTS if store.redis.exists(store.key(game_id, part))]
    shard = store.shard_of(game_id)
    listed = {key.decode() for key in store.redis.scan_iter(match=f"{store.prefix}:{{shard-{shard}}}:*", count=1000)
              if (store.redis.type(key) == b"zset" and store.redis.zscore(key, game_id) is not None)
              or (store.redis.type(key) == b"set" and store.redis.sismember(key, game_id))}
    return own + sorted(listed)


def finished_game(client, scheduler) -> dict:
    game = open_table(client, BOTS)
    scheduler.run_ai()
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "finished"
    return game


def test_an_old_finished_game_is_exported_then_gone_and_a_game_in_play_is_untouched(stack, tmp_path):
    client, scheduler, tables = stack
    done = finished_game(client, scheduler)
    playing = open_table(client, HUMANS)
    tables.store.mark_active(playing["id"])  # as the real scheduler does
    seen = client.get(f"/v1/games/{done['id']}").json
    assert client.get(f"/v1/games/{done['id']}/audit").json["replay_ok"]  # its verdict is kept: retired with it
    before = {k: tables.store.redis.hgetall(tables.store.key(playing["id"], k)) for k in ("meta",)}
    assert keys_of(tables, done["id"])

    policy = retention.Policy(days=30, export_dir=tmp_path / "exports")
    too_soon = retention.sweep(tables, policy, now=time.time() + 29 * DAY_S, force=True)
    assert too_soon == {"exported": 0, "failed": 0}
    assert client.get(f"/v1/games/{done['id']}").status_code == 200

    counts = retention.sweep(tables, policy, now=time.time() + 31 * DAY_S, force=True)
    assert counts == {"exported": 1, "failed": 0}
    export = orjson.loads((tmp_path / "exports" / f"{done['id']}.json").read_bytes())
    report = verify_export(export, {"toy": GAME}, commitment=seen["seed_commitment"], head=seen["head_hash"])
    assert report["ok"], report["problems"]
    assert export["game_id"] == done["id"] and len(export["events"]) == seen["version"]
    assert keys_of(tables, done["id"]) == []
    assert client.get(f"/v1/games/{done['id']}").status_code == 404
    assert done["id"] not in [g["id"] for g in client.get("/v1/games?limit=100").json["games"]]
    # The game in play: listed, readable, its meta unchanged, still marked active.
    assert {k: tables.store.redis.hgetall(tables.store.key(playing["id"], k)) for k in ("meta",)} == before
    assert client.get(f"/v1/games/{playing['id']}").json["status"] == "active"
    assert playing["id"] in list(tables.store.active_ids())


def test_a_game_whose_export_fails_is_not_deleted(stack, tmp_path):
    client, scheduler, tables = stack
    done = finished_game(client, scheduler)
    kept = keys_of(tables, done["id"])
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the export directory should be")
    later = time.time() + 31 * DAY_S
    counts = retention.sweep(tables, retention.Policy(days=30, export_dir=blocked), now=later, force=True)
    assert counts == {"exported": 0, "failed": 1}
    assert keys_of(tables, done["id"]) == kept
    assert client.get(f"/v1/games/{done['id']}").status_code == 200
    # Once the export can be written, the next round retires it.
    counts = retention.sweep(tables, retention.Policy(days=30, export_dir=tmp_path / "ok"), now=later, force=True)
    assert counts["exported"] == 1 and keys_of(tables, done["id"]) == []


def test_without_an_export_directory_nothing_is_deleted(stack):
    client, scheduler, tables = stack
    done = finished_game(client, scheduler)
    counts = retention.sweep(tables, retention.Policy(days=30, export_dir=None), now=time.time() + 365 * DAY_S, force=True)
    assert counts == {}
    assert client.get(f"/v1/games/{done['id']}").status_code == 200


def test_abandoned_games_ended_by_the_idle_rule_are_retired_like_any_other(stack, tmp_path):
    client, _, tables = stack
    waiting = tables.create({"game": "toy", "seats": [{"name": "Ada"}, {"open": True}]})  # the lobby's use case
    idle = open_table(client, HUMANS)
    lobby = Lobby(tables, Players(tables.store))
    ended_at = time.time() + 8 * DAY_S
    assert [lobby.end_if_idle(tables.meta(g["id"]), 7 * DAY_S, ended_at) for g in (waiting, idle)] == ["abort", "abandon"]
    assert client.get(f"/v1/games/{waiting['id']}").json["status"] == "aborted"
    assert client.get(f"/v1/games/{idle['id']}").json["outcome"]["reason"] == "abandoned"
    policy = retention.Policy(days=30, export_dir=tmp_path)
    # Ended just now (by the server's clock): kept RETENTION_DAYS from then like any ended game.
    assert retention.sweep(tables, policy, now=ended_at, force=True) == {"exported": 0, "failed": 0}
    counts = retention.sweep(tables, policy, now=time.time() + 31 * DAY_S, force=True)
    assert counts == {"exported": 2, "failed": 0}
    for game in (waiting, idle):
        report = verify_export(orjson.loads((tmp_path / f"{game['id']}.json").read_bytes()), {"toy": GAME})
        assert report["ok"], report["problems"]
        assert keys_of(tables, game["id"]) == []


def test_the_workers_sweep_runs_the_policy_once_a_period_across_workers(stack, tmp_path, monkeypatch):
    client, scheduler, tables = stack
    first, second = finished_game(client, scheduler), finished_game(client, scheduler)
    monkeypatch.setattr(retention, "clock", lambda: time.time() + 31 * DAY_S)
    jobs.use_tables(tables, retention.Policy(days=30, export_dir=tmp_path, every_s=3600, batch=1))
    assert jobs.sweep_once()["exported"] == 1  # a batch of one a round
    assert "exported" not in jobs.sweep_once()  # another worker's round within the period: none
    assert sorted(p.stem for p in tmp_path.glob("*.json")) in ([first["id"]], [second["id"]])


@pytest.mark.parametrize("game_id", ["../escape", "g/../../x", "", "g_" + "x" * 80, "g x"])
def test_an_id_that_is_not_a_plain_name_never_becomes_a_path(tmp_path, game_id):
    with pytest.raises(ValueError):
        retention._write(tmp_path / "exports", game_id, b"{}")
    assert not (tmp_path / "exports").exists() and not (tmp_path / "escape.json").exists()


def test_mythos_retention_retires_the_old_games_now(real_redis, redis_url, prefix, tmp_path, monkeypatch, capsys):
    """What the Kubernetes base's CronJob runs (deploy/k8s/retention.yaml): the environment's policy, now."""
    from session_service.cli.main import main

    app, scheduler = make_session_app(real_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, KEY_SHARDS=4)
    client, tables = app.test_client(), app.extensions["tables"]
    done = finished_game(client, scheduler)
    for name, value in {"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "KEY_SHARDS": "4", "RETENTION_DAYS": "30",
                        "RETENTION_EXPORT_DIR": str(tmp_path / "exports")}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(retention, "clock", lambda: time.time() + 31 * DAY_S)
    with pytest.raises(SystemExit) as ended:
        main(["retention"])
    assert ended.value.code == 0
    assert "1 games exported" in capsys.readouterr().out
    assert (tmp_path / "exports" / f"{done['id']}.json").exists()
    assert keys_of(tables, done["id"]) == []
    monkeypatch.setenv("RETENTION_EXPORT_DIR", "")
    with pytest.raises(SystemExit) as off:
        main(["retention"])
    assert off.value.code == 1  # told to retire with nowhere to export: says so, deletes nothing
