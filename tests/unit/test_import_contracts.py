"""The import contracts in pyproject.toml (``[tool.importlinter]``) hold: no import circle in shared/ or either
service, the session service's layers, no Flask in a use case or outside the HTTP edge, a worker that never imports
the edge, shared/ apart from both services. ``make lint`` checks them with ``lint-imports``; this keeps ``make
test`` from passing on a regression too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_hold():
    # In a process of its own: import-linter configures logging as it starts, which would silence this process's.
    checked = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache", "--config", "pyproject.toml"],
                             cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]
    assert "0 broken" in checked.stdout
