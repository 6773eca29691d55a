"""The move kernel in pure Python: the C kernel's twin and the reference it is held to.

Its functions have the names and meaning of the C module's (pdn/rules/_kernel.c), the two
satisfying one protocol, :class:`pdn.rules.kernel.Kernel`; pdn/rules/position.py chooses which runs.
A position is made as the one it comes from (``type(pos)``) and named by what is read of it
(pdn.rules.placement), so this module needs no Position.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence

from pdn.rules.geometry import BLACK, WHITE, Direction, Geometry
from pdn.rules.kernel import Pushed
from pdn.rules.move import Counts, Duplicates, HashKey, Move, Squares, pdn_path
from pdn.rules.placement import P
from pdn.rules.pyreader import plain_lines as plain_lines
from pdn.rules.pyreader import plain_run as plain_run
from pdn.rules.variants import Crowning, Precedence, Variant

name = "python"
title = "pure-Python core"


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def _shift(x: int, offset: int) -> int:
    return x << offset if offset > 0 else x >> -offset


def generate(pos: P, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
    """Legal moves of *pos* under its variant's rules."""
    v = pos.variant
    g = pos.geometry
    me = pos.turn
    men, kings, opp_men, opp_kings = pos._sides()
    occupied = men | kings | opp_men | opp_kings
    taken = _captures(g, v, me, men, kings, opp_men, opp_kings, duplicates)
    if taken and not v.capture_optional:
        return taken
    return taken + _quiet(g, me, men, kings, occupied)


def _capturing_men(g: Geometry, me: int, men: int, opp: int, empty: int) -> int:
    """Men that have a short jump: an enemy next to them and an empty square behind it."""
    found = 0
    for o in g.man_jump_offsets[me]:
        if o > 0:
            found |= men & (opp >> o) & (empty >> (o + o))
        else:
            found |= men & (opp << -o) & (empty << -(o + o))
    return found


def _quiet(g: Geometry, me: int, men: int, kings: int, occupied: int) -> list[Move]:
    empty = g.mask & ~occupied
    crown = g.crown_rows[me]
    moves: list[Move] = []
    for d in g.man_dirs[me]:
        o = d.offset
        for t in _bits(_shift(men, o) & empty):
            moves.append(Move((t - o, t), crowns=bool(crown >> t & 1)))
    flying = g.variant.flying_kings
    for s in _bits(kings):
        for d in g.king_dirs:
            for t in d.rays[s]:
                if occupied >> t & 1:
                    break
                moves.append(Move((s, t), by_king=True))
                if not flying:
                    break
    return moves


def _captures(
    g: Geometry,
    v: Variant,
    me: int,
    men: int,
    kings: int,
    opp_men: int,
    opp_kings: int,
    duplicates: Duplicates,
) -> list[Move]:
    opp = opp_men | opp_kings
    occupied = men | kings | opp
    jumpers = _capturing_men(g, me, men, opp, g.mask & ~occupied)
    if not jumpers and not kings:
        return []
    found: list[Move] = []
    crown_row = g.crown_rows[me]
    flying = v.flying_kings
    behind_only = v.king_lands_behind
    at_once = v.remove_at_once
    no_reversal = v.no_reversal
    crowning = v.crowning
    stops = crowning is Crowning.STOP
    promotes = crowning is not Crowning.PASS
    men_take_kings = v.men_capture_kings
    king_dirs = g.king_capture_dirs
    man_dirs = g.man_capture_dirs[me]

    def search(
        sq: int,
        king: bool,
        occ: int,
        alive: int,
        cap: int,
        path: list[int],
        taken: list[int],
        last: Direction | None,
        from_king: bool,
    ) -> bool:
        """Extend a capture from *sq*; record finished moves; True if any jump was possible."""
        any_jump = False
        for d in king_dirs if king else man_dirs:
            if no_reversal and last is not None and d.vector == last.reverse:
                continue
            if king and flying:
                ray = d.rays[sq]
                i, n = 0, len(ray)
                while i < n and not (occ >> ray[i] & 1):
                    i += 1
                if i >= n - 1:
                    continue
                victim = ray[i]
                if not (alive >> victim & 1):
                    continue
                landings = []
                for t in ray[i + 1 :]:
                    if occ >> t & 1:
                        break
                    landings.append(t)
                    if behind_only:
                        break
                if not landings:
                    continue
            else:
                victim = d.step[sq]
                if victim < 0 or not (alive >> victim & 1):
                    continue
                if not king and not men_take_kings and opp_kings >> victim & 1:
                    continue
                land = d.step[victim]
                if land < 0 or occ >> land & 1:
                    continue
                landings = [land]
            any_jump = True
            vbit = 1 << victim
            n_occ = occ & ~vbit if at_once else occ
            n_alive = alive & ~vbit
            n_cap = cap | vbit
            taken.append(victim)
            ends = []
            for land in landings:
                path.append(land)
                if not king and promotes and crown_row >> land & 1:
                    go_on = not stops and search(
                        land, True, n_occ, n_alive, n_cap, path, taken, d, from_king
                    )
                else:
                    go_on = search(land, king, n_occ, n_alive, n_cap, path, taken, d, from_king)
                path.pop()
                if not go_on:
                    ends.append(land)
            if len(ends) == len(landings):  # no landing square lets the capture go on
                order = tuple(taken)
                for land in ends:
                    crowns = not from_king and (king or bool(crown_row >> land & 1))
                    found.append(
                        Move((*path, land), order, crowns, from_king, n_cap, n_cap & opp_kings)
                    )
            taken.pop()
        return any_jump

    for s in _bits(jumpers):
        search(s, False, occupied & ~(1 << s), opp, 0, [s], [], None, False)
    for s in _bits(kings):
        search(s, True, occupied & ~(1 << s), opp, 0, [s], [], None, True)
    if not found:
        return found
    found = _apply_precedence(v.precedence, found)
    if duplicates is Duplicates.PATHS:  # a path and its landing squares determine its victims
        return found
    seen: set[object] = set()
    unique = []
    keep = duplicates is Duplicates.KEEP
    for m in found:
        path = m.path
        k = (path[0], path[-1], m.captured if keep else m.captured_mask)
        if k not in seen:
            seen.add(k)
            unique.append(m)
    return unique


def _frisian_rank(m: Move) -> tuple[int, int, int]:
    """Value first (a king weighs almost two men), then fewer kings, then a king capturing."""
    kings = m.kings_mask.bit_count()
    return (len(m.captured) + kings, -kings, int(m.by_king))


def _italian_rank(m: Move) -> tuple[int, int, int, tuple[int, ...]]:
    """Most pieces, then with a king, then most kings, then the kings met earliest."""
    first_kings = tuple(-i for i, k in enumerate(m.kings_taken) if k)
    return (len(m.captured), int(m.by_king), m.kings_mask.bit_count(), first_kings)


_RANKS: dict[Precedence, Callable[[Move], object]] = {
    Precedence.MAJORITY: lambda m: len(m.captured),
    Precedence.MAJORITY_KINGS: lambda m: (len(m.captured), m.kings_mask.bit_count()),
    Precedence.CZECH: lambda m: int(m.by_king),
    Precedence.ITALIAN: _italian_rank,
    Precedence.FRISIAN: _frisian_rank,
}


def _apply_precedence(rule: Precedence, moves: list[Move]) -> list[Move]:
    rank = _RANKS.get(rule)
    if rank is None:
        return moves
    ranks = [rank(m) for m in moves]
    best = max(ranks)  # type: ignore[type-var]
    return [m for m, r in zip(moves, ranks, strict=True) if r == best]


def count_moves(pos: P, duplicates: Duplicates = Duplicates.DROP) -> int:
    """len(pos.legal_moves()), counting quiet moves without building them."""
    g = pos.geometry
    me = pos.turn
    men, kings, opp_men, opp_kings = pos._sides()
    occupied = men | kings | opp_men | opp_kings
    n = 0
    if kings or _capturing_men(g, me, men, opp_men | opp_kings, g.mask & ~occupied):
        v = pos.variant
        n = len(_captures(g, v, me, men, kings, opp_men, opp_kings, duplicates))
        if n and not v.capture_optional:
            return n
        if kings:
            n += len(_quiet(g, me, 0, kings, occupied))
    empty = g.mask & ~occupied
    for o in g.man_step_offsets[me]:
        n += ((men << o if o > 0 else men >> -o) & empty).bit_count()
    return n


def perft(pos: P, depth: int, duplicates: Duplicates = Duplicates.DROP) -> int:
    """Number of move sequences of length *depth* from *pos* (draw rules ignored)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return count_moves(pos, duplicates)
    return sum(perft(play(pos, m), depth - 1, duplicates) for m in generate(pos, duplicates))


def play(pos: P, move: Move) -> P:
    """The position after *move*."""
    a, b = 1 << move.path[0], 1 << move.path[-1]
    cap = move.captured_mask
    men, kings, om, ok = pos._sides()
    if kings & a:
        kings = (kings & ~a) | b
    else:
        men &= ~a
        if move.crowns:
            kings |= b
        else:
            men |= b
    om &= ~cap
    ok &= ~cap
    if pos.turn == WHITE:
        return type(pos)(pos.variant, men, kings, om, ok, BLACK, pos.geometry)
    return type(pos)(pos.variant, om, ok, men, kings, WHITE, pos.geometry)


def captures(pos: P, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
    """The captures the rules allow (precedence applied); empty when there is none."""
    men, kings, opp_men, opp_kings = pos._sides()
    if not kings:  # the common case: a man can only take what stands next to it
        g = pos.geometry
        opp = opp_men | opp_kings
        if not _capturing_men(g, pos.turn, men, opp, g.mask & ~(men | opp)):
            return []
    return _captures(
        pos.geometry, pos.variant, pos.turn, men, kings, opp_men, opp_kings, duplicates
    )


def has_captures(pos: P) -> bool:
    """Whether the side to move can capture (see Position.has_captures).

    A capture exists when a man stands next to an enemy piece it may take (Italian men: not
    a king) in one of its capture directions with the square behind empty, or when the first
    piece along one of a king's capture lines (the next square only, for kings that step) is
    an enemy piece with the square behind it empty.
    """
    men, kings, opp_men, opp_kings = pos._sides()
    g = pos.geometry
    v = pos.variant
    opp = opp_men | opp_kings
    occupied = men | kings | opp
    empty = g.mask & ~occupied
    prey = opp if v.men_capture_kings else opp_men
    if men and _capturing_men(g, pos.turn, men, prey, empty):
        return True
    if not kings:
        return False
    if not v.flying_kings:
        for d in g.king_capture_dirs:
            o = d.offset
            if o > 0:
                if kings & (opp >> o) & (empty >> (o + o)):
                    return True
            elif kings & (opp << -o) & (empty << -(o + o)):
                return True
        return False
    for s in _bits(kings):
        for d in g.king_capture_dirs:
            ray = d.rays[s]
            for i, t in enumerate(ray):
                if occupied >> t & 1:
                    if opp >> t & 1 and i + 1 < len(ray) and empty >> ray[i + 1] & 1:
                        return True
                    break
    return False


def quiet_move(pos: P, start: int, end: int) -> Move | None:
    """The non-capturing move from *start* to *end*, if the piece there may make it."""
    men, kings, opp_men, opp_kings = pos._sides()
    g = pos.geometry
    occupied = men | kings | opp_men | opp_kings
    if occupied >> end & 1 or not g.mask >> end & 1:
        return None
    if men >> start & 1:
        if end - start in g.man_step_offsets[pos.turn]:  # ghost columns stop wrap-arounds
            return Move((start, end), crowns=bool(g.crown_rows[pos.turn] >> end & 1))
        return None
    if kings >> start & 1:
        for d in g.king_dirs:
            for t in d.rays[start]:
                if occupied >> t & 1:
                    break
                if t == end:
                    return Move((start, end), by_king=True)
                if not pos.variant.flying_kings:
                    break
    return None


def moves_between(pos: P, start: int, end: int) -> list[Move]:
    """The legal moves from *start* to *end* (see Position.moves_between)."""
    allowed = captures(pos)
    found = [m for m in allowed if m.path[0] == start and m.path[-1] == end]
    if allowed and not pos.variant.capture_optional:
        return found
    quiet = quiet_move(pos, start, end)
    return found if quiet is None else [*found, quiet]


def digest(pos: P) -> int:
    """The first 8 bytes of blake2b over "name:(white men, white kings, ..., turn)", signed."""
    text = f"{pos.variant.name}:{pos.hash_key()}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big", signed=True)


def has_moves(pos: P) -> bool:
    """Whether the side to move has any legal move."""
    men, kings, opp_men, opp_kings = pos._sides()
    g = pos.geometry
    empty = g.mask & ~(men | kings | opp_men | opp_kings)
    for o in g.man_step_offsets[pos.turn]:
        if (men << o if o > 0 else men >> -o) & empty:
            return True
    for s in _bits(kings):
        for d in g.king_dirs:
            t = d.step[s]
            if t >= 0 and empty >> t & 1:
                return True
    return bool(captures(pos))


MAX_WORDS = 8  # the most words a packed bitboard takes (scan, line_rows): 512 squares


def scan(
    positions: Sequence[P], words: int, digests: bool
) -> tuple[list[int], bytes, list[tuple[int, int, Counts]], Squares]:
    """A game's positions as the database stores them: their digests (where *digests* asks,
    else none); their bitboards packed (none for 0 *words*): the white men, white kings, black
    men and black kings of each as *words* little-endian 64-bit words, each word a column over
    the positions XORed with the one before it (the first with 0), the columns in that order,
    then one byte per position for the side to move; their runs of equal material, (first,
    length, counts); and the squares each of the four ever stood on (the union of its
    bitboards). A move changes few squares, so the columns are mostly zero (see
    pdn.db.search.compressed)."""
    if not 0 <= words <= MAX_WORDS:
        raise ValueError(f"words must be 0 to {MAX_WORDS}")
    hashes = [digest(p) for p in positions] if digests else []
    packed = b""
    if words:
        size = 8 * words
        laid = b"".join(
            board.to_bytes(size, "little")
            for p in positions
            for board in (p.white_men, p.white_kings, p.black_men, p.black_kings)
        )
        packed = delta_columns(laid + bytes(p.turn for p in positions), words)
    runs: list[tuple[int, int, Counts]] = []
    for i, pos in enumerate(positions):
        c = pos.counts()
        if runs and runs[-1][2] == c:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1, c)
        else:
            runs.append((i, 1, c))
    wm = wk = bm = bk = 0
    for p in positions:
        wm, wk, bm, bk = wm | p.white_men, wk | p.white_kings, bm | p.black_men, bk | p.black_kings
    return hashes, packed, runs, (wm, wk, bm, bk)


def delta_columns(laid: bytes, words: int) -> bytes:
    """Positions packed one after another (per position the four bitboards as *words* words
    each, then a side byte per position) as scan packs them: each word a column over the
    positions, XORed with the one before it."""
    n = len(laid) // (32 * words + 1)
    board_words = memoryview(laid)[: 32 * words * n].cast("Q")  # (native order: moved, not read)
    size = 8 * n
    columns = []
    for j in range(4 * words):
        column = int.from_bytes(board_words[j :: 4 * words].tobytes(), "little")
        columns.append((column ^ column << 64).to_bytes(size + 8, "little")[:size])
    return b"".join(columns) + laid[32 * words * n :]


def move_texts(
    positions: Sequence[P], moves: Sequence[Move], labels: Sequence[str], separator: str
) -> list[str]:
    """Each move, played in the position before it, in its PDN 3.0 short form: ``a-b`` for a
    quiet move, ``a<separator>b`` for a capture, every square notation.pdn_path writes where
    another capture the rules allow goes from a to b too. *labels*: each square's name, by bit
    index."""
    texts = []
    for pos, move in zip(positions, moves, strict=False):
        a, b = move.path[0], move.path[-1]
        if not move.captured:
            texts.append(f"{labels[a]}-{labels[b]}")
        elif any(
            m.path[0] == a and m.path[-1] == b and m.captured_mask != move.captured_mask
            for m in captures(pos)
        ):
            texts.append(separator.join(labels[s] for s in pdn_path(pos.geometry, move)))
        else:
            texts.append(f"{labels[a]}{separator}{labels[b]}")
    return texts


def _plain_move(pos: P, squares: Sequence[str], names: dict[str, int]) -> Move | None:
    """The one legal move between the two squares *names* knows of *squares* (None: not two
    known squares, or not exactly one such move)."""
    if len(squares) != 2:
        return None
    start, end = names.get(squares[0]), names.get(squares[1])
    if start is None or end is None:
        return None
    found = moves_between(pos, start, end)
    return found[0] if len(found) == 1 else None


def _written_move(pos: P, squares: Sequence[str], names: dict[str, int]) -> Move | None:
    """_plain_move, else where *squares* are three or more the board's, the one legal capture
    whose whole path (its start, then every landing square) they are: PDN's full form, which
    written_moves reads first (None: not one such capture)."""
    if len(squares) < 3:
        return _plain_move(pos, squares, names)
    path = tuple(names.get(s, -1) for s in squares)
    if -1 in path:
        return None
    found = [m for m in captures(pos) if m.path == path]
    return found[0] if len(found) == 1 else None


def _quiet_after(pos: P, move: Move, quiet: int, man_resets: bool) -> int:
    """The quiet count after *move* from *pos*: reset by a capture or a crowning, and by a man's
    move where *man_resets*; else one more."""
    if move.captured or move.crowns or (man_resets and pos.pieces(pos.turn)[0] >> move.path[0] & 1):
        return 0
    return quiet + 1


def push_plain(
    pos: P,
    moves: list[Sequence[str]],
    i: int,
    names: dict[str, int],
    history: dict[HashKey, int],
    quiet: int,
    watch: bool,
    settings: tuple[bool, int, int],
) -> tuple[P, int, int, bool, list[Pushed[P]]]:
    """The loop of Board.push_written: from moves[i] on, play each move written with two squares
    *names* knows while exactly one legal move goes between them, each key of a position reached
    counted in *history*. *settings*: whether a man's move resets the quiet count, the
    repetitions and the quiet plies that end a game. Returns the position, the index of the
    first move not played, the quiet count, whether the last move played reached a draw (looked
    for where *watch* asks; the loop stops there), and a record of each move played: the move,
    the position before it, the quiet count before it, the key of the position after it.
    """
    man_resets, repetitions, quiet_limit = settings
    records: list[Pushed[P]] = []
    n = len(moves)
    while i < n:
        move = _plain_move(pos, moves[i], names)
        if move is None:
            break
        after = play(pos, move)
        key = after.hash_key()
        records.append((move, pos, quiet, key))
        quiet = _quiet_after(pos, move, quiet, man_resets)
        seen = history[key] = history.get(key, 0) + 1
        pos = after
        i += 1
        if watch and (seen >= repetitions or quiet >= quiet_limit):
            return pos, i, quiet, True, records
    return pos, i, quiet, False, records


def check_plain(
    pos: P,
    moves: list[Sequence[str]],
    names: dict[str, int],
    settings: tuple[bool, int, int],
    resolve: Callable[[P, Sequence[str]], Move | None],
) -> tuple[P, int, int, int, int]:
    """Board.push_written's loop from a new board at *pos* (seen once, no quiet ply yet),
    keeping no record: each move as push_plain plays it or along its full path
    (:func:`_written_move`), else the one legal move ``resolve(position, squares)`` gives
    (None: the loop stops there). Returns the position reached, the index of the first move not
    played, the quiet count, the ply of the first draw by rule reached (0 for none: the loop
    goes on past it, as push_written does) and the times the position there had stood on the
    board."""
    man_resets, repetitions, quiet_limit = settings
    history = {pos.hash_key(): 1}
    quiet = draw = seen_there = 0
    i, n = 0, len(moves)
    while i < n:
        move = _written_move(pos, moves[i], names)
        if move is None:  # not a move the loop knows: the board's reading finds it
            move = resolve(pos, moves[i])
        if move is None:
            break
        quiet = _quiet_after(pos, move, quiet, man_resets)
        pos = play(pos, move)
        key = pos.hash_key()
        seen = history[key] = history.get(key, 0) + 1
        i += 1
        if not draw and (seen >= repetitions or quiet >= quiet_limit):
            draw, seen_there = i, seen
    return pos, i, quiet, draw, seen_there


def line_rows(
    pos: P,
    moves: list[Sequence[str]],
    names: dict[str, int],
    resolve: Callable[[P, Sequence[str]], Move | None],
    count: int,
    words: int,
    labels: Sequence[str],
    separator: str,
    keep: int,
) -> tuple[list[str], list[int], bytes, list[tuple[int, int, Counts]], Squares, list[P]]:
    """The first *count* moves of a checked main line played from *pos* (each as check_plain
    plays it, ``resolve`` giving the ones the loop does not know; None: it stops there) and what
    the database stores of them: the moves' short forms (move_texts), scan(positions, *words*,
    True) of the positions, then the first *keep* positions."""
    if count < 0 or keep < 0:
        raise ValueError("line_rows: count and keep cannot be negative")
    if not 0 <= words <= MAX_WORDS:
        raise ValueError(f"words must be 0 to {MAX_WORDS}")
    line, played = [pos], []
    for squares in moves[:count]:
        move = _written_move(pos, squares, names)
        if move is None:
            move = resolve(pos, squares)
        if move is None:
            break
        pos = play(pos, move)
        line.append(pos)
        played.append(move)
    texts = move_texts(line, played, labels, separator)
    return texts, *scan(line, words, True), line[:keep]


_RUN_CHARS = frozenset("0123456789-x.")


def run_moves(runs: list[str], who: str) -> list[Sequence[str]]:
    """The moves of *runs*: words of digits joined by "-" or "x" (moves) or ending with "."
    (move numbers, left out) between spaces, tabs and line ends, each move's squares its
    numbers (ValueError for any other character, naming *who*)."""
    moves: list[Sequence[str]] = []
    for run in runs:
        if not isinstance(run, str):
            raise TypeError(f"{who}: a run is a str")
        for word in run.replace("\t", " ").replace("\r", " ").replace("\n", " ").split(" "):
            if not word:
                continue
            if not _RUN_CHARS.issuperset(word):
                raise ValueError(f"{who}: not a run of plain moves")
            if word[-1] != ".":
                moves.append(tuple(word.replace("x", "-").split("-")))
    return moves


def top_square(runs: list[str]) -> int:
    """The largest square number the moves of *runs* write (:func:`run_moves`), counting the
    squares of digits alone, one past 99 as 100; 0 where there is none."""
    squares = (s for move in run_moves(runs, "top_square") for s in move if s.isdigit())
    return max((min(int(s), 100) for s in squares), default=0)


def line_rows_runs(
    pos: P,
    runs: list[str],
    names: dict[str, int],
    resolve: Callable[[P, Sequence[str]], Move | None],
    count: int,
    words: int,
    labels: Sequence[str],
    separator: str,
    keep: int,
) -> tuple[list[str], list[int], bytes, list[tuple[int, int, Counts]], Squares, list[P]]:
    """:func:`line_rows` over the moves of *runs* (:func:`run_moves`)."""
    moves = run_moves(runs, "line_rows_runs")
    return line_rows(pos, moves, names, resolve, count, words, labels, separator, keep)


def check_runs(
    pos: P,
    runs: list[str],
    names: dict[str, int],
    settings: tuple[bool, int, int],
    resolve: Callable[[P, Sequence[str]], Move | None],
) -> tuple[P, int, int, int, int, int]:
    """check_plain over the moves of *runs* (:func:`run_moves`); check_plain's result, then the
    number of moves."""
    moves = run_moves(runs, "check_runs")
    return (*check_plain(pos, moves, names, settings, resolve), len(moves))
