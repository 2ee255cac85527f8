"""One typed ``Settings`` per service, read from the environment once by the entry point (issue 43): a module
imported reads nothing from the environment, and each value (the keep-alive's bound among them) is stated once."""

from __future__ import annotations

import json
import subprocess
import sys

from session_service.config import Settings
from session_service.http.app import create_app
from tests.support.stack import TEST_HOP_SECRET, TEST_TOKEN_SECRET
from tests.support.toy import GAME

IMPORTED = """
import json
from rules_service import app as rules
from session_service.worker import jobs
print(json.dumps([jobs.SWEEP_EVERY_S, jobs.IDLE_TABLE_S, rules.MAX_ANSWER_BYTES, rules.HOP_KEPT_POSITIONS,
                  rules.POSITION_BOUNDS.items]))
"""


def test_the_worker_and_the_rules_service_read_no_environment_when_imported():
    env = {"SWEEP_EVERY_S": "1", "IDLE_TABLE_S": "60", "MAX_ANSWER_BYTES": "40", "HOP_KEPT_POSITIONS": "3",
           "MAX_POSITION_ITEMS": "5", "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", IMPORTED], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(run.stdout) == [20.0, 7 * 86400, 128 * 1024, 2000, 2048]
    assert Settings.from_env(env).sweep_every_s == 1.0 and Settings.from_env(env).idle_table_s == 60


def test_the_keep_alive_is_bounded_in_one_place(fake_redis, prefix):
    assert Settings(sse_keepalive_s=60).keepalive_s == 15 and Settings(sse_keepalive_s=2).keepalive_s == 2
    app = create_app({"REDIS": fake_redis, "KEY_PREFIX": prefix, "GAMES": {"toy": GAME}, "SCHEDULER": None,
                      "TOKEN_SECRET": TEST_TOKEN_SECRET, "HOP_SECRET": TEST_HOP_SECRET,
                      "SSE_KEEPALIVE_S": 60})
    assert app.extensions["settings"].keepalive_s == 15 and app.extensions["streams"].hub.recheck_s == 15


def test_settings_parse_the_environments_strings_and_a_tests_typed_values():
    settings = Settings.from_env({"MYTHOS_ALLOW_CLIENT_SEED": "1", "KEY_SHARDS": "4", "CHAT_MAX_CHARS": "9"},
                                 SNAPSHOT_EVERY=7)
    assert (settings.allow_client_seed, settings.key_shards, settings.chat.max_chars, settings.snapshot_every) == \
        (True, 4, 9, 7)
    assert Settings.from_env({}) == Settings() and not Settings().allow_client_seed
    assert Settings.from_env({"REDIS_URL": "redis+cluster://a:1"}).replica_acks == 1 and Settings().replica_acks == 0
