"""The benchmark suite still runs: ``python -m bench --quick`` (a smoke mode of tiny sizes) prints its table
and writes its JSON. Nothing here looks at a time or a ratio: benchmarks are judged by ``make bench``.

The peer section (boardgame.io) needs Node.js: where it is installed the quick run measures the peer too, and
where it is not the section says why and the rest runs; the second test takes Node away to check that."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.games import GAMES

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_bench_runs_every_section_and_reports_every_target(tmp_path):
    run = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "targets:" in run.stdout and "baseline (same run)" in run.stdout
    [written] = tmp_path.glob("bench-*-quick.json")
    result = json.loads(written.read_text())
    rows = {(r["section"], r["name"]): r for r in result["rows"]}
    measured = {"rules", "command path", "append", "rebuild", "memory", "live streams", "scaled", "projections"}
    if "skipped" in result["details"].get("peer", {}):  # no Node.js here, or npm could not install the peer
        assert any("boardgame.io" in note for note in result["notes"])
    else:
        measured.add("peer")
    assert {section for section, _ in rows} == measured
    judged = [r for r in result["rows"] if r["target"]]
    assert judged and all(r["verdict"] in ("PASS", "MISS") for r in judged)
    for game in GAMES:  # every registered game is measured, by its own id
        assert ("rules", f"{game}: decide") in rows
        assert any(s == "rebuild" and n.startswith(game) for s, n in rows)
    levels = result["details"]["command path"]["levels"]
    for level in levels.values():  # the clients played real games: every command they posted was accepted
        assert level["stack"]["writes"] > 0 and level["stack"]["unexpected"] == {}
        assert level["echo"]["writes"] > 0
    assert result["details"]["memory"]["rss_after_bytes"] > 0
    streams = result["details"]["live streams"]
    assert streams["held"]["open"] > 0 and streams["held"]["closed"] == 0
    deliveries = [v["deliveries"] for k, v in streams.items() if k.startswith("delivery, ")]
    assert deliveries and all(n > 0 for n in deliveries)  # the watchers received the driver's moves
    for level in result["details"]["scaled"]["levels"].values():  # the scaled stack played the same games
        assert level["scaled"]["writes"] > 0 and level["scaled"]["unexpected"] == {}
    if "peer" in measured:  # both sides played: every command and every move sent was accepted
        for level in result["details"]["peer"]["levels"].values():
            assert level["mythos"]["writes"] > 0 and level["mythos"]["unexpected"] == {}
            assert level["floor"]["writes"] > 0  # the two bare hops, beside them (bench/echo.py)
            assert {"boardgame.io in-memory", "boardgame.io FlatFile"} <= set(level)  # and PostgreSQL where installed
            for peer in [k for k in level if k.startswith("boardgame.io ")]:
                assert level[peer]["writes"] > 0 and level[peer]["accepted"] >= level[peer]["writes"]
                assert level[peer]["refused"] == 0 and level[peer]["unanswered"] == 0


def test_without_node_the_peer_section_says_why_and_the_bench_still_succeeds(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    run = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "peer", "--out", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, env={**os.environ, "PATH": str(empty)})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "peer: skipped: node and npm not on PATH" in run.stdout
    [written] = tmp_path.glob("bench-*-quick.json")
    result = json.loads(written.read_text())
    assert result["rows"] == [] and "node" in result["details"]["peer"]["skipped"]
    assert result["sections"] == ["peer"] and result["notes"]
