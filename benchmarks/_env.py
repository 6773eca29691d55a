"""Helpers for the benchmarks: the corpus, timing, and other libraries in their own venvs.

pydraughts and py-draughts are both imported as ``draughts``, so each lives in its own virtual
environment under ``benchmarks/`` and is driven through a subprocess that prints JSON.
"""

from __future__ import annotations

import compileall
import importlib.util
import json
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parents[1] / "shared" / "corpus"


def corpus_file(relative: str) -> Path:
    """A file of ../shared/corpus, or exit with a clear message."""
    path = CORPUS / relative
    if not path.is_file():
        sys.exit(f"benchmark input missing: {path}")
    return path


def compiled_toolkit() -> None:
    """The toolkit's modules compiled to bytecode beside them, as an installed package holds
    them, for the commands a benchmark times: where PYTHONDONTWRITEBYTECODE is set (this
    machine sets it) every command would compile them anew, some 0.06 s of its start."""
    for package in ("pdn", "pdn.cli", "pdn.db", "pdn.web"):
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations is not None
        for folder in spec.submodule_search_locations:
            compileall.compile_dir(folder, quiet=1)


def timed(fn: Callable[..., Any]) -> tuple[float, Any]:
    """Seconds taken by fn() and its value (fn: a lambda, loop values bound as its defaults)."""
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def cpu_timed(fn: Callable[..., Any]) -> tuple[float, Any]:
    """CPU seconds of this process taken by fn() (steady on a shared machine) and its value."""
    start = time.process_time()
    value = fn()
    return time.process_time() - start, value


# py-draughts replaying the PDN texts of a JSON list (its path set first as PATH), in CPU time
PY_DRAUGHTS_FROM_PDN = """
import json, time
from draughts import StandardBoard
texts = json.load(open(PATH, encoding="utf-8"))
t = time.process_time()
ok = 0
for text in texts:
    try:
        StandardBoard.from_pdn(text)
        ok += 1
    except Exception:
        pass
print(json.dumps({"seconds": time.process_time() - t, "games": ok}))
"""


def other_library(package: str, code: str, timeout: float = 900) -> dict[str, Any] | None:
    """Run *code* in a venv holding *package* from PyPI; it prints one JSON object.

    Returns None (and says why) when the venv cannot be made or the run fails.
    """
    env = HERE / f".venv-{package}"
    python = env / "bin" / "python"
    try:
        if not python.exists():
            venv.create(env, with_pip=True)
            subprocess.run(
                [str(python), "-m", "pip", "install", "-q", package],
                check=True,
                capture_output=True,
            )
        done = subprocess.run(
            [str(python), "-c", code], check=True, capture_output=True, text=True, timeout=timeout
        )
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"  ({package} not measured: {exc})")
        return None
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
