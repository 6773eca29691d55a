"""Type stub of the compiled move kernel (pdn/rules/_kernel.c): a pdn.rules.kernel.Kernel."""

from collections.abc import Callable, Sequence

from pdn.rules.geometry import Geometry
from pdn.rules.kernel import Pushed
from pdn.rules.move import Duplicates, HashKey, Move
from pdn.rules.position import Position

name: str
title: str

def setup(
    move: type[Move],
    position: type[Position],
    keep: Duplicates,
    paths: Duplicates,
    rules_of: Callable[[Geometry], tuple[object, ...]],
    /,
) -> None: ...
def generate(pos: Position, duplicates: Duplicates = ..., /) -> list[Move]: ...
def captures(pos: Position, duplicates: Duplicates = ..., /) -> list[Move]: ...
def count_moves(pos: Position, duplicates: Duplicates = ..., /) -> int: ...
def perft(pos: Position, depth: int, duplicates: Duplicates = ..., /) -> int: ...
def has_moves(pos: Position, /) -> bool: ...
def has_captures(pos: Position, /) -> bool: ...
def quiet_move(pos: Position, start: int, end: int, /) -> Move | None: ...
def moves_between(pos: Position, start: int, end: int, /) -> list[Move]: ...
def play(pos: Position, move: Move, /) -> Position: ...
def digest(pos: Position, /) -> int: ...
def push_plain(
    pos: Position,
    moves: list[Sequence[str]],
    i: int,
    names: dict[str, int],
    history: dict[HashKey, int],
    quiet: int,
    watch: bool,
    settings: tuple[bool, int, int],
    /,
) -> tuple[Position, int, int, bool, list[Pushed[Position]]]: ...
def check_plain(
    pos: Position,
    moves: list[Sequence[str]],
    names: dict[str, int],
    settings: tuple[bool, int, int],
    resolve: Callable[[Position, Sequence[str]], Move | None],
    /,
) -> tuple[Position, int, int, int, int]: ...
def check_runs(
    pos: Position,
    runs: list[str],
    names: dict[str, int],
    settings: tuple[bool, int, int],
    resolve: Callable[[Position, Sequence[str]], Move | None],
    /,
) -> tuple[Position, int, int, int, int, int]: ...
def top_square(runs: list[str], /) -> int: ...
def plain_run(text: str, pos: int, /) -> tuple[int, int] | None: ...
def plain_lines(
    lines: list[bytes],
    odd: bytes | bytearray,
    i: int,
    movetext: bool,
    ended: bool,
    size: int,
    limit: int,
    /,
) -> tuple[int, bool, bool, int]: ...
def line_rows(
    pos: Position,
    moves: list[Sequence[str]],
    names: dict[str, int],
    resolve: Callable[[Position, Sequence[str]], Move | None],
    count: int,
    words: int,
    labels: Sequence[str],
    separator: str,
    keep: int,
    /,
) -> tuple[
    list[str],
    list[int],
    bytes,
    list[tuple[int, int, tuple[int, int, int, int]]],
    tuple[int, int, int, int],
    list[Position],
]: ...
def line_rows_runs(
    pos: Position,
    runs: list[str],
    names: dict[str, int],
    resolve: Callable[[Position, Sequence[str]], Move | None],
    count: int,
    words: int,
    labels: Sequence[str],
    separator: str,
    keep: int,
    /,
) -> tuple[
    list[str],
    list[int],
    bytes,
    list[tuple[int, int, tuple[int, int, int, int]]],
    tuple[int, int, int, int],
    list[Position],
]: ...
def scan(
    positions: Sequence[Position], words: int, digests: bool, /
) -> tuple[
    list[int], bytes, list[tuple[int, int, tuple[int, int, int, int]]], tuple[int, int, int, int]
]: ...
def move_texts(
    positions: Sequence[Position],
    moves: Sequence[Move],
    labels: Sequence[str],
    separator: str,
    /,
) -> list[str]: ...
def search_setup(tables_of: Callable[[Geometry], tuple[object, ...]], /) -> None: ...
def search(
    pos: Position,
    history: Sequence[Position],
    settings: tuple[
        int,
        int,
        int,
        int,
        int,
        int,
        tuple[int, int],
        tuple[tuple[int, int, int, int, int, int], ...],
        int,
        int,
        tuple[int, int, int],
    ],
    depth: int | None,
    nodes: int | None,
    seconds: float | None,
    stop: bytearray,
    multipv: int,
    tt_bits: int,
    table: object | None,
    /,
) -> tuple[int, int, float, list[tuple[int, list[Move]]]]: ...
def search_table(tt_bits: int, /) -> object: ...
def zobrist(pos: Position, /) -> int: ...
def evaluate(pos: Position, /) -> int: ...
