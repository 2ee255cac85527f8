"""The import contracts in pyproject.toml (``[tool.importlinter]``) hold: no import circle in shared/ or either
service, the session service's layers, no Flask in a use case or outside the HTTP edge, a worker that never imports
the edge, shared/ apart from both services. ``make lint`` checks them with ``lint-imports``; this keeps ``make
test`` from passing on a regression too."""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_hold(monkeypatch):
    monkeypatch.chdir(ROOT)  # import-linter finds the packages from the working directory
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0, (
        "an import breaks a contract of pyproject.toml's [tool.importlinter]: run `.venv/bin/lint-imports` to see which")
