"""Retention is on unless turned off (issue 33: a public deployment grew without bound): the configuration's
defaults keep an ended game 30 days, then export it to ``var/exports`` and delete it; ``mythos run`` keeps the
exports in its own data directory; an empty export directory deletes nothing."""

from __future__ import annotations

from pathlib import Path

from deploy.stacks.dev import Stack
from session_service.config import Settings
from session_service.use_cases import retention


def test_the_default_configuration_retires_games_after_thirty_days_into_var_exports(monkeypatch):
    for name in ("RETENTION_DAYS", "RETENTION_EXPORT_DIR"):
        monkeypatch.delenv(name, raising=False)
    policy = Settings.from_env().retention
    assert (policy.days, policy.export_dir, policy.deletes) == (30, Path("var/exports"), True)
    assert Settings().retention.deletes and retention.Policy.from_config({}).deletes  # saying nothing: the same defaults


def test_an_empty_export_directory_or_zero_days_deletes_nothing(monkeypatch):
    monkeypatch.setenv("RETENTION_EXPORT_DIR", "")
    assert not Settings.from_env().retention.deletes
    monkeypatch.setenv("RETENTION_EXPORT_DIR", "/somewhere")
    monkeypatch.setenv("RETENTION_DAYS", "0")
    assert not Settings.from_env().retention.deletes


def test_mythos_run_exports_into_its_own_data_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("RETENTION_EXPORT_DIR", raising=False)
    env = Stack(data_dir=tmp_path / "var").env()
    assert env["RETENTION_EXPORT_DIR"] == str((tmp_path / "var" / "exports").resolve())
    monkeypatch.setenv("RETENTION_EXPORT_DIR", "/elsewhere")
    assert Stack(data_dir=tmp_path / "var").env()["RETENTION_EXPORT_DIR"] == "/elsewhere"  # the operator's wins
