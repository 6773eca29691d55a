"""The selection `pdn filter` and `pdn query` share: its options, declared once in
:class:`Selection` and given to both commands by :func:`selection_options`, and their values
read and checked into criteria."""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated

import typer

from pdn.archive.criteria import Criteria, result_refused
from pdn.archive.judgement import side_checked
from pdn.archive.players import AliasError, Aliases
from pdn.archive.selection import SpecError, parse_material, parse_pattern
from pdn.cli.common import fail
from pdn.cli.output import unreadable

# -- the criteria, as options shared by filter and query --------------------------------------

WhiteOpt = Annotated[
    str | None,
    typer.Option(help="White contains this (case aside); with * a pattern; =NAME the whole name."),
]
BlackOpt = Annotated[
    str | None,
    typer.Option(help="Black contains this (case aside); with * a pattern; =NAME the whole name."),
]
PlayerOpt = Annotated[str | None, typer.Option(help="White or Black contains this.")]
EventOpt = Annotated[str | None, typer.Option(help="Event contains this (=NAME: is this).")]
SiteOpt = Annotated[str | None, typer.Option(help="Site contains this (=NAME: is this).")]
SelectVariantOpt = Annotated[
    str | None, typer.Option("--variant", "-v", help="Games (replayed) under this variant.")
]


def _result(value: str | None) -> str | None:
    """A --result, refused as :func:`result_refused` says."""
    why = result_refused(value) if value is not None else None
    if why:
        fail(f"--result {value!r}: {why}")
    return value


ResultOpt = Annotated[
    str | None,
    typer.Option(
        help="white, black, draw or unknown (no result), each game's result read for its "
        "variant (in English Black moves first and 1-0 is a Black win); first or second (the "
        "side that moves first won, or the other); or a result as written (1-0).",
        callback=_result,
    ),
]
DateFromOpt = Annotated[int | None, typer.Option(help="The Date tag's year is this or later.")]
DateToOpt = Annotated[int | None, typer.Option(help="The Date tag's year is this or earlier.")]
PliesMinOpt = Annotated[
    int | None, typer.Option(help="At least this many plies in the main line (as replayed).")
]
PliesMaxOpt = Annotated[int | None, typer.Option(help="At most this many plies.")]
ValidOpt = Annotated[
    bool | None,
    typer.Option(
        "--valid/--invalid", help="Only games whose every move is legal, or only the others."
    ),
]
TerminationOpt = Annotated[
    str | None,
    typer.Option(help="How the game ended: win, draw-repetition, draw-40-moves (or the "
                 "rules' other draws, see docs/rules.md), as-recorded."),
]  # fmt: skip
MovesOpt = Annotated[
    str | None,
    typer.Option(
        help='Games that reach the position after these moves, e.g. "32-28 19-23" (any order '
        "of them; from --fen if given); needs --variant."
    ),
]
FenPositionOpt = Annotated[
    str | None, typer.Option("--fen", help="Games that reach this position; needs --variant.")
]
MaterialOpt = Annotated[
    str | None,
    typer.Option(
        help='Men and kings per side, e.g. "W:3K1,B:1K" (White 3 men and a king, Black a '
        "king); counts as 2, 2-4, 2+ or *; a side not given: any."
    ),
]
MaterialPliesOpt = Annotated[
    int, typer.Option(help="The material stands in this many positions in a row.", min=1)
]
PatternOpt = Annotated[
    str | None,
    typer.Option(
        help='Squares that hold these pieces, the rest any: "W:W28,K45:B12:E23" (White to '
        "move, white man on 28, king on 45, black man on 12, 23 empty; *12 man or king)."
    ),
]
BlundersOpt = Annotated[
    str | None,
    typer.Option(help="Games in which an engine analysis (pdn analyse) marked a blunder by "
                 "white, black or any side; in files, the %eval comments it wrote."),
]  # fmt: skip
MistakesOpt = Annotated[
    str | None, typer.Option(help="The same for a mistake (a smaller fall than a blunder).")
]
LossMinOpt = Annotated[
    float | None,
    typer.Option(help="Games with a move that lost at least this many men (by the analysis).",
                 min=0),
]  # fmt: skip
AliasesOpt = Annotated[
    Path | None,
    typer.Option(help="Alias file (CSV: alias,name): players matched under these names."),
]


def load_aliases(path: Path | None) -> Aliases | None:
    """The alias file, or a one-line usage error."""
    if path is None:
        return None
    try:
        return Aliases.load(path)
    except OSError as exc:
        fail(unreadable(exc))
    except AliasError as exc:
        fail(str(exc))


@dataclass(frozen=True, slots=True)
class Selection:
    """The criteria as given on the command line (every field an option of filter and query,
    in this order)."""

    white: WhiteOpt = None
    black: BlackOpt = None
    player: PlayerOpt = None
    event: EventOpt = None
    site: SiteOpt = None
    variant: SelectVariantOpt = None
    result: ResultOpt = None
    date_from: DateFromOpt = None
    date_to: DateToOpt = None
    plies_min: PliesMinOpt = None
    plies_max: PliesMaxOpt = None
    valid: ValidOpt = None
    termination: TerminationOpt = None
    moves: MovesOpt = None
    fen: FenPositionOpt = None
    material: MaterialOpt = None
    material_plies: MaterialPliesOpt = 1
    pattern: PatternOpt = None
    aliases: AliasesOpt = None
    blunders: BlundersOpt = None
    mistakes: MistakesOpt = None
    loss_min: LossMinOpt = None

    def criteria(self) -> dict[str, object]:
        """The criteria as Criteria fields, specs read and checked (a mistake is one line and
        exit 2)."""
        try:
            given: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
            given.update(
                material=None if self.material is None else parse_material(self.material),
                pattern=None if self.pattern is None else parse_pattern(self.pattern),
                aliases=load_aliases(self.aliases),
            )
            Criteria(**given).check()  # type: ignore[arg-type]
            side_checked(self.blunders, "--blunders")
            side_checked(self.mistakes, "--mistakes")
        except (SpecError, ValueError) as exc:
            fail(str(exc))
        return given


EVERY = Selection()  # no criterion: every game


def selection_options(command: Callable[..., None]) -> Callable[..., None]:
    """*command*, whose parameter ``selection: Selection`` is shown to typer as the options of
    :class:`Selection` in its place, and given to it as one Selection."""
    own = inspect.signature(command)
    hints = typing.get_type_hints(command, include_extras=True)
    shared = typing.get_type_hints(Selection, include_extras=True)
    names = [f.name for f in fields(Selection)]
    params: list[inspect.Parameter] = []
    for param in own.parameters.values():
        if param.name != "selection":
            params.append(param.replace(annotation=hints[param.name]))
            continue
        params += [
            inspect.Parameter(name, param.kind, default=getattr(EVERY, name),
                              annotation=shared[name])
            for name in names
        ]  # fmt: skip

    @functools.wraps(command)
    def run(**given: typing.Any) -> None:
        chosen = Selection(**{name: given.pop(name) for name in names})
        command(selection=chosen, **given)

    run.__signature__ = own.replace(parameters=params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    return run
