"""What the job queue keeps of a turn (issue 16): nobody reads an AI turn's or a timer's result, and RQ kept each
finished one ~500 s at ~7 KB (a failed one a year), seven times the Redis the games themselves took."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from rq import SimpleWorker

from session_service import scheduler as rq_scheduler
from session_service.worker import jobs
from session_service.storage.store import EventStore
from tests.support.stack import make_session_app
from tests.support.toy import GAME


def test_a_played_turn_leaves_no_job_record_and_a_timer_keeps_none_either(fake_redis, prefix):
    queue = rq_scheduler.make_queue(fake_redis, prefix)
    scheduler = rq_scheduler.RqScheduler(queue, EventStore(fake_redis, prefix))
    app, _ = make_session_app(fake_redis, prefix, {"toy": GAME}, RATE_LIMIT_PER_MINUTE=0, SCHEDULER=scheduler)
    game = app.test_client().post("/v1/games", json={"game": "toy", "seats": [{"name": "Ada", "ai": "random"}, {"name": "Bo"}]}).json
    tables = app.extensions["tables"]
    jobs.use_tables(tables)
    meta = tables.meta(game["id"])
    assert meta.to_act == [0]
    job_id = f"ai-{meta.id}-0-{meta.version}"
    job = queue.fetch_job(job_id)
    assert (job.result_ttl, job.failure_ttl) == (0, 24 * 3600)
    SimpleWorker([queue], connection=fake_redis, serializer=queue.serializer).work(burst=True)
    assert tables.meta(game["id"]).version > meta.version  # the turn was played
    assert queue.fetch_job(job_id) is None  # and nothing of its job is kept
    timed = rq_scheduler.RqScheduler(queue, tables.store)
    soon = datetime.now(timezone.utc) + timedelta(hours=1)
    with_deadline = meta.advanced(meta.version, {"status": "active", "head_hash": meta.head_hash, "to_act": "[1]",
                                                 "outcome": "null", "deadline": soon.isoformat(), "updated_at": meta.updated_at})
    timed.schedule(with_deadline)
    timer = queue.fetch_job(f"timeout-{meta.id}-1-{meta.version}")
    assert (timer.result_ttl, timer.failure_ttl) == (0, 24 * 3600)
