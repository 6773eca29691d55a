"""A client for engines that speak the Hub protocol (version 2, Scan 3.1's ``protocol.txt``), run
as a subprocess: ``HubEngine("scan hub")``, ``HubEngine("dame hub")``, ``HubEngine("pdn engine")``.

The protocol, as protocol.txt gives it: lines ``<command> <arg>=<val> ...`` (values with spaces
in double quotes; unknown commands and arguments ignored). The GUI sends ``hub`` and the engine
answers ``id``, ``param`` lines and ``wait``; ``set-param`` and ``init``, answered by ``ready``.
A search is ``pos pos=<side><one letter per square> [moves="..."]``, ``level depth=|nodes=|
move-time=``, ``go think|analyze``; the engine writes ``info`` lines and ``done move=...``; ``stop``
ends a search early, ``ping`` is answered ``pong``, ``quit`` ends the engine.

This client sends the moves since the last capture or man move with the position before them
(the moves a repetition or a moves rule can reach back to; Hub itself "only sends king moves"),
reads the engine's moves with their captured squares in any order (or as a PDN path) by matching
them to a legal move of the board, and turns every failure into one :class:`EngineError`: the
engine exited, said nothing for the limit's time plus :data:`GRACE` seconds, or wrote a move or
a number that cannot be read. The engine's process never outlives the client: it is killed (its
whole process group) on :meth:`HubEngine.close`, on leaving a ``with`` block, when the client is
collected and when the interpreter exits.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pdn.board import Board
from pdn.engine.types import Closing, EngineError, Info, Limit, PovScore, Score
from pdn.rules.geometry import WHITE, Color
from pdn.rules.position import Move, Position
from pdn.rules.variants import Variant, get_variant

GRACE = 2.0  # seconds an engine may take past a time limit (and to start, quit) before it is dead
PATIENCE = 600.0  # seconds a search limited by depth or nodes only may take
STARTUP = 10.0  # seconds for the answers to "hub" and "init"

# Hub variant names (Scan 3.1 declares "normal killer bt frisian losing"); other variants go by
# this toolkit's own names.
HUB_NAMES = {"international": "normal"}

# Scan 3.1 (src/score.hpp): a forced win is Inf - ply centi-men with Inf = 10000, so a score of
# 100 - N/100 men is a win in N plies; Eval_Inf = Inf - 2000 bounds every ordinary evaluation.
WIN_CENTIMEN = 10_000
EVAL_CENTIMEN = 8_000

_ARG = re.compile(r'([^\s=]+)(?:=("[^"]*"|[^\s"]*))?')


def hub_variant(variant: Variant) -> str:
    """The variant's name in the Hub protocol."""
    return HUB_NAMES.get(variant.name, variant.name)


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """A Hub line as its command and its arguments (a flag's value is the empty string)."""
    command, _, rest = line.strip().partition(" ")
    args = {m[1]: (m[2] or "").strip('"') for m in _ARG.finditer(rest)}
    return command, args


def quote(value: str) -> str:
    """A Hub value, in double quotes when it holds a space, an '=' or nothing."""
    return f'"{value}"' if not value or any(c in value for c in ' ="') else value


def hub_position(pos: Position) -> str:
    """The position in the Hub form: ``W`` or ``B``, then w/b (men), W/B (kings) or e per square
    in the order of the variant's square numbers."""
    g = pos.geometry
    wm, wk, bm, bk = pos.white_men, pos.white_kings, pos.black_men, pos.black_kings
    cells = []
    for n in range(1, len(g.squares) + 1):
        bit = 1 << g._by_number[n]
        cells.append(
            "w" if wm & bit else "W" if wk & bit else "b" if bm & bit else "B" if bk & bit else "e"
        )
    return ("W" if pos.turn == WHITE else "B") + "".join(cells)


def read_hub_position(text: str, variant: Variant) -> Position:
    """The position a Hub position string gives, for *variant* (ValueError if it is not one)."""
    pos = Position.start(variant)
    g = pos.geometry
    if len(text) != len(g.squares) + 1 or text[0] not in "WB":
        raise ValueError(f"not a Hub position of {variant.name}: {text!r}")
    bits = {c: 0 for c in "wWbBe"}
    for n, c in enumerate(text[1:], 1):
        if c not in bits:
            raise ValueError(f"square {n} holds {c!r}, not w, b, W, B or e")
        bits[c] |= 1 << g._by_number[n]
    turn = Color.of(text[0]).value
    return Position(variant, bits["w"], bits["W"], bits["b"], bits["B"], turn)


def hub_move(pos: Position, move: Move) -> str:
    """The move in Hub form: ``from-to``, or ``fromxto`` and each captured square (``28x19x23``)."""
    g = pos.geometry
    if not move.captured:
        return f"{g.number(move.start)}-{g.number(move.end)}"
    return "x".join(str(g.number(s)) for s in (move.start, move.end, *move.captured))


def read_hub_move(board: Board, text: str) -> Move | None:
    """The legal move of *board* that the Hub move *text* names (from, to and the captured
    squares in any order, or a PDN path of landing squares), or None."""
    numbers = [int(n) for n in re.split(r"[-x:]", text) if n.isdigit()]
    if len(numbers) < 2 or not re.fullmatch(r"\d+([-x:]\d+)+", text):
        return None
    g = board.position.geometry
    by_number = g._by_number
    if any(n not in by_number for n in numbers):
        return None
    start, end = by_number[numbers[0]], by_number[numbers[1]]
    taken = {by_number[n] for n in numbers[2:]}
    legal = board.legal_moves
    fits = [m for m in legal if m.start == start and m.end == end and set(m.captured) == taken]
    if not fits and taken:  # not captured squares: the landing squares of a PDN path
        try:
            fits = board.find_moves([str(numbers[0]), *(str(n) for n in numbers[2:]),
                                     str(numbers[1])])  # fmt: skip
        except ValueError:
            fits = []
        if not fits:
            fits = board.find_moves([str(n) for n in numbers])
    if not taken and not fits:
        fits = [m for m in legal if m.start == start and m.end == end]
    keys = {m.key for m in fits}
    return fits[0] if len(keys) == 1 else None


def hub_score(value: str) -> Score:
    """A Hub score in men, seen by the side to move; 100 - N/100 men (0 < N < 2000) is a win in
    N plies as Scan 3.1 writes it. ValueError if it is not a number."""
    men = float(value)
    centimen = round(men * 100)
    if EVAL_CENTIMEN < abs(centimen) < WIN_CENTIMEN:
        plies = WIN_CENTIMEN - abs(centimen)
        return Score.win(plies if centimen > 0 else -plies)
    return Score.of_men(men)


def score_text(score: Score) -> str:
    """A score as a Hub engine writes it: men, or 100 - N/100 for a win in N plies."""
    if score.plies is None:
        assert score.men is not None
        return f"{score.men:.2f}"
    value = (WIN_CENTIMEN - abs(score.plies)) / 100
    return f"{value if score.is_win else -value:.2f}"


def board_tail(board: Board) -> tuple[Position, list[Move]]:
    """The position after the last capture or man move of *board* (or a setup, or its start),
    and the moves played since: all that repetitions and the moves rules can see."""
    positions, moves = board.positions(), board.move_stack
    first = 0
    for i, move in enumerate(moves):
        before, after = positions[i], positions[i + 1]
        mover = before.turn
        irreversible = move.captured or before.pieces(mover)[0] >> move.start & 1
        if irreversible or before.play(move) != after:
            first = i + 1
    return positions[first], moves[first:]


@dataclass(slots=True)
class _Search:
    """What one search has told so far."""

    board: Board
    score: Score | None = None
    depth: int = 0
    nodes: int = 0
    nps: int = 0
    seconds: float = 0.0
    pv_text: str = ""  # the last line told (read into moves once the search is done)
    pv: tuple[Move, ...] = ()
    best: Move | None = None


@dataclass(slots=True)
class _Process:
    """The engine's process and the threads reading its output."""

    popen: subprocess.Popen[str]
    lines: queue.Queue[str | None] = field(default_factory=queue.Queue)
    errors: deque[str] = field(default_factory=lambda: deque(maxlen=3))


def _read(stream: object, into: queue.Queue[str | None] | deque[str]) -> None:
    """Copy each line of *stream* into *into* (None after the last, for a queue)."""
    assert hasattr(stream, "readline")
    try:
        for line in iter(stream.readline, ""):
            if isinstance(into, deque):
                into.append(line.rstrip())
            else:
                into.put(line)
    except (OSError, ValueError):
        pass
    if isinstance(into, queue.Queue):
        into.put(None)


def _kill(popen: subprocess.Popen[str]) -> None:
    """End the engine's process group at once and reap it."""
    if popen.poll() is None:
        try:
            os.killpg(popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            popen.kill()
    for stream in (popen.stdin, popen.stdout, popen.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=GRACE)


class HubEngine(Closing):
    """An engine speaking Hub, run as a subprocess (see the module's docstring).

    *command* is a command line (``"scan hub"``) or its words; *variant* the variant to set up
    (another board's variant restarts the engine); *params* are set with ``set-param`` before
    ``init`` when the engine declares them.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        variant: Variant | str = "international",
        params: Mapping[str, str] | None = None,
        grace: float = GRACE,
        patience: float = PATIENCE,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise EngineError("no engine command given")
        self.label = shlex.join([Path(self.command[0]).name, *self.command[1:]])
        self.grace, self.patience = grace, patience
        self.params = dict(params or {})
        self.name, self.version, self.author = self.label, "", ""
        self.declared: dict[str, dict[str, str]] = {}
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self._process: _Process | None = None
        self._finalizer: weakref.finalize[..., HubEngine] | None = None
        self._write_lock = threading.Lock()
        self._searching = False
        self._closed = False
        self._start()

    # -- the process ---------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The engine process's id (None before it starts)."""
        return self._process.popen.pid if self._process else None

    def _start(self) -> None:
        try:
            popen = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            raise EngineError(f"{self.label}: cannot start: {exc.strerror or exc}") from None
        process = _Process(popen)
        self._process = process
        self._finalizer = weakref.finalize(self, _kill, popen)
        for stream, into in ((popen.stdout, process.lines), (popen.stderr, process.errors)):
            threading.Thread(target=_read, args=(stream, into), daemon=True).start()
        try:
            self._handshake()
        except BaseException:
            self._end()
            raise

    def _handshake(self) -> None:
        self._send("hub")
        deadline = time.monotonic() + STARTUP
        for command, args in self._answers(deadline, "answer to hub"):
            if command == "wait":
                break
            if command == "id":
                self.name = args.get("name", self.name)
                self.version = args.get("version", self.version)
                self.author = args.get("author", self.author)
            elif command == "param" and "name" in args:
                self.declared[args["name"]] = args
        for name, value in self._settings().items():
            self._send(f"set-param name={quote(name)} value={quote(value)}")
        self._send("init")
        for command, _ in self._answers(time.monotonic() + STARTUP, "ready after init"):
            if command == "ready":
                break

    def _settings(self) -> dict[str, str]:
        """The parameters to set: the variant, and those asked for that the engine declares."""
        wanted = hub_variant(self.variant)
        declared = self.declared.get("variant")
        values = declared.get("values", "").split() if declared else ["normal"]
        if wanted not in values:
            raise EngineError(f"{self.name} does not play {self.variant.name} (it plays "
                              f"{', '.join(values) or 'nothing it names'})")  # fmt: skip
        settings = {}
        if declared and declared.get("value") != wanted:
            settings["variant"] = wanted
        for name, value in self.params.items():
            if name in self.declared and self.declared[name].get("value") != value:
                settings[name] = value
        return settings

    def _send(self, line: str) -> None:
        process = self._process
        if process is None or self._closed:
            raise EngineError(f"{self.label}: the engine is closed")
        with self._write_lock:
            try:
                assert process.popen.stdin is not None
                process.popen.stdin.write(line + "\n")
                process.popen.stdin.flush()
            except (OSError, ValueError):
                raise self._died() from None

    def _answers(self, deadline: float, waiting_for: str) -> Iterator[tuple[str, dict[str, str]]]:
        """The engine's lines, parsed, until *deadline*; EngineError if it exits or is silent
        past the deadline; an ``error`` line is an EngineError with its message."""
        process = self._process
        assert process is not None
        allowed = deadline - time.monotonic()
        while True:
            left = deadline - time.monotonic()
            try:
                line = process.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self._end()
                hangs = f"no {waiting_for} within {allowed:.1f} s: the engine hangs"
                raise EngineError(f"{self.label}: {hangs}") from None
            if line is None:
                raise self._died()
            if not line.strip():
                continue
            command, args = parse_line(line)
            if command == "error":
                raise EngineError(f"{self.label}: {args.get('message') or line.strip()}")
            yield command, args

    def _died(self) -> EngineError:
        process = self._process
        assert process is not None
        try:
            code = process.popen.wait(timeout=self.grace)
        except subprocess.TimeoutExpired:
            code = None
        time.sleep(0.05)  # the last words on stderr
        said = f": {process.errors[-1]}" if process.errors else ""
        self._end()
        how = f"exited with code {code}" if code is not None else "closed its output"
        return EngineError(f"{self.label}: the engine {how}{said}")

    def _end(self) -> None:
        """Kill the process (idempotent)."""
        if self._finalizer is not None:
            self._finalizer()
        self._closed = True

    # -- searching -----------------------------------------------------------------------------

    def _search(self, board: Board, limit: Limit, mode: str) -> _Search:
        if self._closed:
            raise EngineError(f"{self.label}: the engine is closed")
        if board.variant.name != self.variant.name:
            self._end()
            self._closed = False
            self.variant = board.variant
            self._start()
        if not board.legal_moves:
            raise EngineError(f"{self.label}: the game is over, there is no move to search")
        start, moves = board_tail(board)
        line = f"pos pos={hub_position(start)}"
        if moves:
            replay = Board.from_position(start, board.rules)
            texts = []
            for m in moves:
                texts.append(hub_move(replay.position, m))
                replay.push(m)
            line += f' moves="{" ".join(texts)}"'
        self._send(line)
        for level in _levels(limit):
            self._send(f"level {level}")
        allowed = limit.time if limit.time is not None else self.patience
        deadline = time.monotonic() + allowed + self.grace
        self._searching = True
        try:
            self._send(f"go {mode}")
            return self._results(_Search(board), deadline)
        finally:
            self._searching = False

    def _results(self, found: _Search, deadline: float) -> _Search:
        for command, args in self._answers(deadline, "move"):
            if command == "info":
                self._info(found, args)
            elif command == "done":
                text = args.get("move", "")
                found.best = read_hub_move(found.board, text)
                if found.best is None:
                    self._end()
                    raise EngineError(f"{self.label}: wrote {text!r} for its move, which is no "
                                      f"legal move of {found.board.fen()}")  # fmt: skip
                found.pv = _line(found.board, found.pv_text.split())
                if not found.pv or found.pv[0] != found.best:
                    found.pv = (found.best,)
                return found
        raise AssertionError("unreachable")

    def _info(self, found: _Search, args: dict[str, str]) -> None:
        try:
            if "score" in args:
                found.score = hub_score(args["score"])
            if "depth" in args:
                found.depth = int(args["depth"])
            if "nodes" in args:
                found.nodes = int(args["nodes"])
            if "time" in args:
                found.seconds = float(args["time"])
            if "nps" in args:
                found.nps = round(float(args["nps"]) * 1e6)  # protocol.txt: "speed in MNPS"
        except ValueError:
            self._end()
            said = " ".join(f"{k}={v}" for k, v in args.items())
            raise EngineError(f"{self.label}: wrote an info line it cannot mean: {said}") from None
        if "pv" in args:
            found.pv_text = args["pv"]

    def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> list[Info]:
        """The best line of *board*'s position, searched to *limit* with ``go analyze`` (Hub has
        one line per search: *multipv* above 1 gives that one line)."""
        found = self._search(board, limit, "analyze")
        if found.score is None:
            raise EngineError(f"{self.label}: gave its move without a score")
        score = PovScore(found.score, board.turn)
        nps = found.nps or (round(found.nodes / found.seconds) if found.seconds else 0)
        return [Info(score, found.pv, found.depth, found.nodes, nps, found.seconds)]

    def play(self, board: Board, limit: Limit) -> Move:
        """The move the engine plays in *board*'s position (``go think``)."""
        best = self._search(board, limit, "think").best
        assert best is not None
        return best

    def stop(self) -> None:
        """End the running search early (from any thread): the engine answers with its move."""
        if self._searching and not self._closed:
            with contextlib.suppress(EngineError):
                self._send("stop")

    def ping(self, timeout: float = STARTUP) -> None:
        """Ask ``ping`` and wait for ``pong`` (EngineError if it does not come)."""
        self._send("ping")
        for command, _ in self._answers(time.monotonic() + timeout, "pong"):
            if command == "pong":
                return

    def close(self) -> None:
        """Ask the engine to quit, and kill it if it has not within the grace time."""
        process = self._process
        if process is None or self._closed:
            return
        try:
            self._send("quit")
            assert process.popen.stdin is not None
            process.popen.stdin.close()
            process.popen.wait(timeout=self.grace)
        except (EngineError, OSError, subprocess.TimeoutExpired):
            pass
        self._end()

    def __repr__(self) -> str:
        return f"HubEngine({shlex.join(self.command)!r})"


def _levels(limit: Limit) -> list[str]:
    """The ``level`` lines for *limit* (one per bound set)."""
    levels = []
    if limit.depth is not None:
        levels.append(f"depth={limit.depth}")
    if limit.nodes is not None:
        levels.append(f"nodes={limit.nodes}")
    if limit.time is not None:
        levels.append(f"move-time={limit.time:g}")
    return levels


def _line(board: Board, texts: list[str]) -> tuple[Move, ...]:
    """The moves of a principal variation, as far as they are legal in turn."""
    line: list[Move] = []
    replay = board.copy()
    for text in texts:
        move = read_hub_move(replay, text)
        if move is None or replay.outcome() is not None:
            break
        line.append(move)
        replay.push(move)
    return tuple(line)
