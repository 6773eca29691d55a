"""`pdn fix`: repair archives into a new file (or folder), each change said on stderr."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, TextIO

import typer

from pdn.archive.repair import Fixed, Repairs, SplitBy, file_names, fix_paths
from pdn.cli.common import (
    ClusterOpt,
    GameVariantOpt,
    MaxSizeOpt,
    Paths,
    Rules,
    RulesOpt,
    WorkersOpt,
    check_output,
    fail,
    pipeline_run,
    say,
)
from pdn.cli.output import check_output_folder, is_dash, written, written_folder

_PDN = re.compile(r".+\.pdn")


class _Tally:
    """The changes said so far."""

    def __init__(self) -> None:
        self.changes = self.games = self.dropped = self.kept = 0

    def said(self, fixed: Iterable[Fixed]) -> Iterator[Fixed]:
        """The games kept, each change on stderr as it comes."""
        for game in fixed:
            for line in game.change_lines():
                say(line, err=True)
            self.changes += len(game.changes)
            self.games += bool(game.changes)
            if game.text is None:
                self.dropped += 1
                continue
            self.kept += 1
            yield game

    def summary(self) -> str:
        return (f"pdn fix: {self.changes} changes in {self.games} games; {self.kept} games "
                f"written, {self.dropped} dropped")  # fmt: skip


def _write_all(games: Iterable[Fixed], sink: TextIO) -> None:
    for i, game in enumerate(games):
        sink.write(("\n" if i else "") + (game.text or ""))


@contextmanager
def _backed_up(path: Path) -> Iterator[Path]:
    """A new file for *path*, put in its place once written; the old one kept as PATH.bak."""
    backup = path.with_name(path.name + ".bak")
    if backup.exists():
        fail(f"{backup}: a backup is there already; move it away first")
    new = path.with_name(f".{path.name}.fixing")
    try:
        yield new
        os.replace(path, backup)
        os.replace(new, path)
    finally:
        new.unlink(missing_ok=True)  # left only when writing it failed


def fix_command(
    paths: Paths,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="The repaired file (- is stdout; a folder with --split-by)."
        ),
    ] = None,
    in_place: Annotated[
        bool, typer.Option("--in-place", help="Rewrite each file, the old one kept as FILE.bak.")
    ] = False,
    truncate_at_error: Annotated[
        bool,
        typer.Option(
            "--truncate-at-error",
            help="Cut a line at its first illegal move (the rest kept in a comment); "
            "a main line cut gets the result *.",
        ),
    ] = False,
    fix_results: Annotated[
        bool,
        typer.Option(
            "--fix-results",
            help="Set a result the final position contradicts (the side to move has no move), "
            "or a win the rules drew where the moves end (repetition, moves or endgame rule "
            "of --rules that ends the game by itself), said in a comment.",
        ),
    ] = False,
    add_plycount: Annotated[
        bool, typer.Option("--add-plycount", help="Add (or correct) the PlyCount tag.")
    ] = False,
    drop_invalid: Annotated[
        bool, typer.Option("--drop-invalid", help="Leave out the games that still do not replay.")
    ] = False,
    split_by: Annotated[
        SplitBy | None,
        typer.Option("--split-by", help="One file per event, year or variant, in folder -o."),
    ] = None,
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.SEED,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """Repair games into -o OUT: a game no repair touches is written as read; every change
    is listed on stderr and counted."""
    if in_place and output is not None:
        fail("give -o OUT or --in-place, not both")
    if not in_place and output is None:
        fail("give -o OUT, or --in-place to rewrite the files (a backup kept)")
    if in_place and split_by:
        fail("--split-by writes a folder: give it with -o, not --in-place")
    if split_by and output is not None and is_dash(output):
        fail("--split-by writes a folder: give one with -o, not -")
    if in_place and any(is_dash(p) for p in paths):
        fail("- (stdin) cannot be rewritten in place: give -o OUT")
    repairs = Repairs(truncate_at_error, fix_results, add_plycount, drop_invalid, split_by,
                      rules.value)  # fmt: skip
    tally = _Tally()
    writes = [None if split_by else output]
    with pipeline_run("fixing", paths, variant, workers, cluster, writes=writes) as run:
        if output is None:
            for path in run.files:
                before = tally.changes
                kept = list(tally.said(fix_paths([path], repairs, variant, run.runner)))
                if tally.changes > before:
                    with _backed_up(path) as new, new.open("w", encoding="utf-8") as sink:
                        _write_all(kept, sink)
        elif split_by:
            check_output_folder(output)
            with written_folder(output, _PDN) as folder:
                fixed = fix_paths(run.files, repairs, variant, run.runner, run.progress,
                                  run.problem)  # fmt: skip
                _split(tally.said(fixed), folder)
        else:
            check_output(output)
            with written(output) as sink:
                fixed = fix_paths(run.files, repairs, variant, run.runner, run.progress,
                                  run.problem)  # fmt: skip
                _write_all(tally.said(fixed), sink)
    say(tally.summary(), err=True)
    raise typer.Exit(1 if run.problems else 0)


def _split(games: Iterable[Fixed], folder: Path) -> None:
    """Each game appended to its group's file."""
    names: dict[str, str] = {}
    for game in games:
        if game.group not in names:
            names.update(file_names([*names, game.group]))
        path = folder / names[game.group]
        gap = "\n" if path.exists() else ""
        with path.open("a", encoding="utf-8") as sink:
            sink.write(gap + (game.text or ""))
