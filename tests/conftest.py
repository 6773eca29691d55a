"""Shared fixtures: the corpus beside the checkout (../shared/corpus)."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"


@dataclass(frozen=True, slots=True)
class CorpusFile:
    """One row of corpus/SOURCES.tsv."""

    path: Path
    variant: str
    games: int
    expect: str
    encoding: str


def corpus_dir() -> Path:
    """The corpus folder; fails under CI, skips elsewhere when it is missing."""
    if not CORPUS.is_dir():
        reason = f"the shared corpus is missing: expected it at {CORPUS}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason)
        pytest.skip(reason)
    return CORPUS


def corpus_files() -> list[CorpusFile]:
    """Every file listed in SOURCES.tsv (empty when the corpus is absent)."""
    sources = CORPUS / "SOURCES.tsv"
    if not sources.is_file():
        return []
    with sources.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [
        CorpusFile(CORPUS / r["file"], r["variant"], int(r["games"]), r["expect"], r["encoding"])
        for r in rows
    ]


@pytest.fixture
def corpus() -> Path:
    """Path of ../shared/corpus."""
    return corpus_dir()
