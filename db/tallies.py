"""The tallies: the games counted by what the statistics group them by, so that a question
over every game of a million reads a few thousand rows (pdn.db.questions).

``tallies`` count the games by variant, year, whether they begin at the start, the position
after three plies, how they ended and their result (as the board reads it, and by the side
that moved first), with the lowest place among each group's games; ``player_tallies`` count
each game for both its players by how it ended and its result as written;
``opening_tallies`` count the games from the start by the position after each of their first
plies and their result, with the lowest place.

A group may have several rows: an import appends the counts of each batch of games it writes,
in the batch's transaction, and once it has written every game sums each group's rows into
one (:func:`sum_tallies`, after the staged rows' move). A question sums the rows of each group
it asks of: the same answer before and after, as after an import that stopped. Games are never
deleted, but a game stored anew from an earlier place is the first copy's row: its names and
result as written may differ (whitespace, "?" for "*"), and its ending too where the import
ran under other draw rules. Its old row is counted down and its new one up, at the place it
is stored at now (which can only lower a group's first place); what the opening tallies count
it by is fixed by its record (pdn.archive.identity). So the tallies always count what the
games table holds.

``move_tallies`` count the moves played from the positions of the openings, by the game's
result: the positions with every man of the start on the board and no king, at most
:data:`EXPLORED_PLIES` plies from the start (:func:`opening_ply`). What makes them exact is that
such a position is one of these whatever game reaches it: every move within a run of them was
a man's step forward (no piece taken, no king made), so none repeats within a game, and a game
counts once for the move it played there, as `pdn explore` counts it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import groupby
from typing import TYPE_CHECKING, Any, TypeAlias

from sqlalchemy import Connection, Table, bindparam, func, inspect, select, union_all

from pdn.db.positions import opening_digests
from pdn.db.schema import (
    DIGEST_BYTES,
    MOVE_TALLIES,
    OPENING_TALLIES,
    PLAYED,
    PLAYER_TALLIES,
    TALLIES,
    BoardsRow,
    GameRow,
    OpeningRow,
)
from pdn.db.texts import unpack_moves

if TYPE_CHECKING:  # the rules are loaded by what replays (opening a database needs none)
    from pdn.rules.move import Counts
    from pdn.rules.position import Position
    from pdn.rules.variants import Variant

# what a game's record fixes (pdn.archive.identity): the same for every copy of it
GROUPED = ("variant", "year", "from_start", "opening_hash", "termination", "winner", "outcome")
PLAYER_GROUPED = ("termination", "winner", "outcome", "result")
EXPLORED_PLIES = 6  # move_tallies: the positions up to this many plies from the start
OPENING_PLIES_TALLIED = 6  # opening_tallies: the positions after plies 1 to this many
OPENING_GROUPED = ("variant", "winner", "outcome")  # with the ply and the digest after it


@lru_cache(maxsize=64)  # most games start from their variant's start position
def _advance(position: Position) -> int:
    """The rows White's men stand above the first rank, less the rows Black's do: a man's
    step forward adds one, whoever makes it (a man moves one square diagonally forward: FMJD
    Annex 1, official rules of international draughts, art. 3, and every variant's book but
    Turkish, ../shared/spec/rules.md section 1)."""
    coords = position.geometry.coords
    total = 0
    for men, sign in ((position.white_men, 1), (position.black_men, -1)):
        while men:
            low = men & -men
            total += sign * coords[low.bit_length() - 1][1]
            men ^= low
    return total


@cache
def _start(variant: Variant) -> tuple[tuple[int, int, int, int], int]:
    """The counts of the variant's start position and its advance."""
    from pdn.rules.position import Position

    start = Position.start(variant)
    return start.counts(), _advance(start)


def opening_ply(position: Position) -> int | None:
    """The plies between the variant's start and *position* when it is a position of the
    openings (every man of the start on the board, no king: every move to it was a man's step
    forward, one more row each), else None; None as well in Turkish, whose men also step
    sideways (rules.md: "forward or sideways"), so that a position may come back."""
    if position.variant.orthogonal:
        return None
    counts, advance = _start(position.variant)
    if position.counts() != counts:
        return None
    return _advance(position) - advance


def explored(position: Position) -> bool:
    """Whether move_tallies count the moves played from *position*: a position of the
    openings (:func:`opening_ply`) at most EXPLORED_PLIES plies from the start."""
    ply = opening_ply(position)
    return ply is not None and 0 <= ply <= EXPLORED_PLIES


Run: TypeAlias = "tuple[int, int, Counts]"  # first position, length, counts (Kernel.scan)


def explored_plies(
    variant: Variant, runs: Iterable[Run], position_at: Callable[[int], Position], plies: int
) -> list[int]:
    """The indexes of the first *plies* positions of a main line whose moves move_tallies count
    (:func:`explored`), from its *runs* of equal material (read no further than needed) and the
    position at the start of one (*position_at*). A game's positions of the openings follow one
    another, one ply further each: no man comes back (the start's men, once fewer, stay fewer;
    a game set up with more may come down to them), so the first run with fewer men than the
    start ends them, and a run with the start's counts holds them from the first, one more
    ply from the start each."""
    if variant.orthogonal:
        return []
    start, advance = _start(variant)
    kept: list[int] = []
    offset: int | None = None  # the plies from the start of the position at index 0
    for first, length, counts in runs:
        if first >= plies or counts[0] < start[0] or counts[2] < start[2]:
            break
        if counts != start:
            continue
        if offset is None:
            offset = _advance(position_at(first)) - advance - first
        if offset + first > EXPLORED_PLIES:
            break
        end = min(first + length, plies, EXPLORED_PLIES - offset + 1)
        kept.extend(range(max(first, -offset), end))
    return kept


def explored_moves(
    variant: Variant,
    runs: Iterable[Run],
    position_at: Callable[[int], Position],
    digests: Sequence[int],
    moves: Sequence[str],
) -> tuple[tuple[int, str], ...]:
    """The (digest, move) of each position of a main line (its *runs* of equal material, the
    position at the start of one, their *digests*, the *moves* played from them) that
    move_tallies count."""
    indexes = explored_plies(variant, runs, position_at, len(moves))
    return tuple((digests[i], moves[i]) for i in indexes)


def tally_rows(
    inserted: Iterable[dict[str, Any]],
    replaced: Sequence[dict[str, Any]] = (),
    gone: Sequence[dict[str, Any]] = (),
) -> list[tuple[Any, ...]]:
    """The rows of ``tallies`` for games rows written anew (*inserted*) and games stored anew
    from an earlier place (*replaced*, with the rows they replace, *gone*: stored under other
    draw rules, a game may have ended otherwise), counted up under the first two and down
    under the last, each at the place the game is stored at now: one a group, in its columns'
    order."""
    games: Counter[tuple[Any, ...]] = Counter()
    first: dict[tuple[Any, ...], int] = {}
    moved = [(-1, old, new["place"]) for old, new in zip(gone, replaced, strict=True)]
    counted = [*((1, row, row["place"]) for row in inserted),
               *((1, row, row["place"]) for row in replaced), *moved]  # fmt: skip
    for n, row, at in counted:
        key = tuple(row[c] for c in GROUPED)
        games[key] += n
        first[key] = min(first.get(key, at), at)
    return [(*key, games[key], first[key]) for key in first]


def opening_tally_rows(
    inserted: Iterable[dict[str, Any]], replaced: Iterable[dict[str, Any]]
) -> list[tuple[Any, ...]]:
    """The rows of ``opening_tallies`` for the games from the start among games rows written
    anew (*inserted*) and stored anew from an earlier place (*replaced*, counted before), as
    :func:`tally_rows` counts them: one a group. Games are counted by their first positions
    and group first, then each such opening by its positions (OCA_2.0.pdn's 4,000 a batch
    play some 1,000: a fifth of the keys to make)."""
    openings: dict[tuple[Any, ...], list[int]] = {}  # digests, grouped: games, first place
    cut = OPENING_PLIES_TALLIED * DIGEST_BYTES
    for counted, rows in ((1, inserted), (0, replaced)):
        for row in rows:
            if not row["from_start"]:
                continue
            key = (row["opening"][:cut], *(row[c] for c in OPENING_GROUPED))
            seen = openings.get(key)
            if seen is None:
                openings[key] = [counted, row["place"]]
            else:
                seen[0] += counted
                seen[1] = min(seen[1], row["place"])
    games: Counter[tuple[Any, ...]] = Counter()
    first: dict[tuple[Any, ...], int] = {}
    for (digests, *grouped), (n, at) in openings.items():
        for ply, digest in enumerate(opening_digests(digests), 1):
            key = (ply, digest, *grouped)
            games[key] += n
            first[key] = min(first.get(key, at), at)
    return [(*key, games[key], first[key]) for key in first]


def player_tally_rows(
    written: Iterable[dict[str, Any]], gone: Iterable[dict[str, Any]] = ()
) -> list[tuple[Any, ...]]:
    """The rows of ``player_tallies`` for games rows *written* and the rows they replaced
    (*gone*: a game stored anew, whose names and result as written may differ): one a group,
    counted up for the first and down for the others."""
    games: Counter[tuple[Any, ...]] = Counter()
    for rows, counted in ((written, 1), (gone, -1)):
        for row in rows:
            grouped = tuple(row[c] for c in PLAYER_GROUPED)
            games[(row["white"], *grouped)] += counted
            games[(row["black"], *grouped)] += counted
    return [(*key, n) for key, n in games.items() if n]


def move_tally_rows(
    games: Iterable[tuple[str, Sequence[tuple[int, str]]]],
) -> list[tuple[Any, ...]]:
    """The rows of ``move_tallies`` for games written anew, each its winner and explored moves
    (:func:`explored_moves`): one a group."""
    played: Counter[tuple[Any, ...]] = Counter()
    for winner, explored in games:
        for digest, move in explored:
            played[(digest, move, winner)] += 1
    return [(*key, n) for key, n in played.items()]


def batch_tallies(
    fresh: Sequence[tuple[dict[str, Any], Sequence[tuple[int, str]]]],
    anew: Sequence[tuple[dict[str, Any], dict[str, Any]]],
) -> list[tuple[Table, list[tuple[Any, ...]]]]:
    """The rows a batch of games appends to each tallies table: for the games rows written anew
    (*fresh*, each with its explored moves) and for those stored anew from an earlier place
    (*anew*, each with the row it replaces, as the tallies counted it)."""
    rows = [row for row, _ in fresh]
    replaced = [row for row, _ in anew]
    gone = [old for _, old in anew]
    return [
        (TALLIES, tally_rows(rows, replaced, gone)),
        (OPENING_TALLIES, opening_tally_rows(rows, replaced)),
        (PLAYER_TALLIES, player_tally_rows([*rows, *replaced], gone)),
        (MOVE_TALLIES, move_tally_rows((row["winner"], explored) for row, explored in fresh)),
    ]


def tallies_from_games(conn: Connection) -> None:
    """Fill the empty tallies from the games (a database made before schema 8): grouped, each
    group's words read (a number of schema 15's games, or the word of an older one's), and the
    moves of the openings from each game's boards and moves."""
    g = GameRow.__table__.c
    keys = [g[c] for c in GROUPED]
    counted = select(*keys, func.count().label("games"), func.min(g.place).label("first"))
    _insert(conn, TALLIES, [tuple(r) for r in conn.execute(counted.group_by(*keys))])
    sides = union_all(
        *(select(g[side].label("player"), *(g[c] for c in PLAYER_GROUPED))
          for side in ("white", "black"))
    ).subquery()  # fmt: skip
    keys = [sides.c[c] for c in ("player", *PLAYER_GROUPED)]
    per_player = select(*keys, func.count().label("games")).group_by(*keys)
    _insert(conn, PLAYER_TALLIES, [tuple(r) for r in conn.execute(per_player)])
    _opening_tallies_from_games(conn)
    _move_tallies_from_boards(conn)


FROM_BOARDS_AT_ONCE = 2000  # games whose boards (or openings) are read at a time
FIRST_ID = -(1 << 63)  # below every game id


def _opening_tallies_from_games(conn: Connection) -> None:
    """The opening tallies of the stored games (:func:`opening_tally_rows`), a batch of games
    at a time in id order, each game's opening from its row of openings (schema 15) or from
    games.opening itself (before: the step to schema 8 reads it so)."""
    c = GameRow.__table__.c
    batch = (
        select(c.id, c.place, c.from_start, *(c[n] for n in OPENING_GROUPED))
        .where(c.id > bindparam("after"), c.from_start)
        .order_by(c.id)
        .limit(FROM_BOARDS_AT_ONCE)
    )
    if inspect(conn).has_table(OpeningRow.__tablename__):  # schema 15: each game's by its id
        digests = func.coalesce(OpeningRow.digests, b"")
        batch = batch.add_columns(digests.label("opening")).outerjoin(OpeningRow, PLAYED)
    else:  # the digests themselves in games.opening
        batch = batch.add_columns(c.opening)
    after = FIRST_ID
    while rows := conn.execute(batch, {"after": after}).all():
        _insert(conn, OPENING_TALLIES, opening_tally_rows([row._asdict() for row in rows], []))
        after = rows[-1][0]


def _move_tallies_from_boards(conn: Connection) -> None:
    """The move tallies of the stored games (:func:`explored_moves`), from their boards and
    moves, a batch of games at a time in id order."""
    from pdn.db.search import unpacked  # (with the rules, which opening a database needs not)
    from pdn.rules.variants import get_variant

    batch = (
        select(GameRow.id, GameRow.variant, GameRow.winner, GameRow.moves, GameRow.pdn)
        .add_columns(BoardsRow.data)
        .join(BoardsRow, BoardsRow.game_id == GameRow.id)
        .where(GameRow.id > bindparam("after"), GameRow.variant.is_not(None))
        .order_by(GameRow.id)
        .limit(FROM_BOARDS_AT_ONCE)
    )
    after = FIRST_ID
    while rows := conn.execute(batch, {"after": after}).all():
        explored = []
        for _, name, winner, moves, text, data in rows:
            played = unpack_moves(moves, text).split()
            variant = get_variant(str(name))  # (not None, as the query asks)
            seen: list[Position] = []  # the positions explored_plies read, to take digests of
            runs = _runs(_kept(unpacked(variant, data), seen))
            kept = explored_plies(variant, runs, seen.__getitem__, len(played))
            explored.append((winner, tuple((seen[i].digest(), played[i]) for i in kept)))
        _insert(conn, MOVE_TALLIES, move_tally_rows(explored))
        after = rows[-1][0]


def _insert(conn: Connection, table: Table, rows: list[tuple[Any, ...]]) -> None:
    """Insert *rows* (values in *table*'s column order) into *table*."""
    columns = _columns(table)
    if rows:
        conn.execute(table.insert(), [dict(zip(columns, r, strict=True)) for r in rows])


def _runs(positions: Iterable[Position]) -> Iterator[Run]:
    """The runs of equal material of *positions*, as Kernel.scan finds them, read a run at a
    time."""
    first = 0
    for counts, run in groupby(positions, lambda p: p.counts()):
        length = sum(1 for _ in run)
        yield first, length, counts
        first += length


def _kept(positions: Iterator[Position], seen: list[Position]) -> Iterator[Position]:
    """*positions*, each kept in *seen* as it is read."""
    for position in positions:
        seen.append(position)
        yield position


def sum_tallies(conn: Connection) -> None:
    """Sum each group's rows into one, leaving out the groups of no game (the names a game
    stored anew no longer has); on PostgreSQL, the rows another import appends meanwhile stay
    as they are (the statement deletes and sums the rows it sees)."""
    for table in (TALLIES, PLAYER_TALLIES, OPENING_TALLIES, MOVE_TALLIES):
        keys = ", ".join(c.name for c in table.columns if c.name not in ("games", "first"))
        sums = "sum(games)" + (", min(first)" if "first" in table.c else "")
        every = ", ".join(_columns(table))
        summed = f"SELECT {keys}, {sums} FROM {{rows}} GROUP BY {keys} HAVING sum(games) <> 0"
        if _summed(conn, table, keys):
            continue
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(
                f"WITH gone AS (DELETE FROM {table.name} RETURNING {every}) INSERT INTO "
                f"{table.name} ({every}) {summed.format(rows='gone')}"
            )
            continue
        conn.exec_driver_sql(f"CREATE TEMP TABLE summed AS {summed.format(rows=table.name)}")
        conn.exec_driver_sql(f"DELETE FROM {table.name}")  # the writer holds the database
        conn.exec_driver_sql(f"INSERT INTO {table.name} ({every}) SELECT * FROM summed")
        conn.exec_driver_sql("DROP TABLE summed")


def _summed(conn: Connection, table: Table, keys: str) -> bool:
    """Whether every group of *table* has one row, of some game."""
    rows = conn.execute(select(func.count()).select_from(table)).scalar()
    groups = conn.exec_driver_sql(
        f"SELECT count(*) FROM (SELECT 1 FROM {table.name} GROUP BY {keys} HAVING "
        "sum(games) <> 0) AS g"
    ).scalar()
    return rows == groups


def _columns(table: Table) -> list[str]:
    return [c.name for c in table.columns]
