"""The benchmark suite still runs: ``python -m bench --quick`` (a smoke mode of tiny sizes) prints its table
and writes its JSON. Nothing here looks at a time or a ratio: benchmarks are judged by ``make bench``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from shared.games import GAMES

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_bench_runs_every_section_and_reports_every_target(tmp_path):
    run = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "targets:" in run.stdout and "baseline (same run)" in run.stdout
    [written] = tmp_path.glob("bench-*-quick.json")
    result = json.loads(written.read_text())
    rows = {(r["section"], r["name"]): r for r in result["rows"]}
    assert {section for section, _ in rows} == {"rules", "command path", "append", "rebuild", "memory"}
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
