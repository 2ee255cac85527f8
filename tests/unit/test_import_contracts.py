"""The import contracts in pyproject.toml (``[tool.importlinter]``) hold: no import circle in shared/, either
service or deploy/, deploy/'s stacks over the services (which never import them), the session service's layers, no Flask in a use case or outside the HTTP edge, a worker that never imports
the edge, shared/ apart from both services, no Redis in a use case (and, below, no use case reaching an adapter's
client through it). ``make lint`` checks them with ``lint-imports``; this keeps ``make
test`` from passing on a regression too."""

from __future__ import annotations

import ast
import re
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


def test_no_use_case_touches_a_redis_client_or_a_store_s_keys():
    """Storage owns its keys and scripts (``session_service/storage/``): a use case that reads ``store.redis``, makes a
    key with ``store.key(`` or registers a script has let Redis into the use cases again."""
    found = []
    for path in sorted((ROOT / "session_service" / "use_cases").glob("*.py")):
        source = path.read_text()
        found += [f"{path.name}:{n}: {line.strip()}" for n, line in enumerate(source.splitlines(), 1)
                  if re.search(r"\.redis\b|store\.key\(", line)]
        found += [f"{path.name}:{node.lineno}: .{node.attr}" for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Attribute) and node.attr in {"redis", "register_script", "pipeline"}]
    assert not found, "\n".join(found)
