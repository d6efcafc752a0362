"""Blokus: a whole game record analysed exactly, move by move.

:func:`analyse_record` finds the first position of a record that the exact endgame search
(:func:`~polytile.puzzles.blokus.endgame.solve_endgame`) accepts under its piece limit, and
from there to the end gives every move its exact value before and after, what it lost, and
a best move in its place. The values follow ``solve-endgame``'s conventions:

* with **two players** (Duo, classic 2-player, teams) a position's value is the first
  player's final lead under perfect play; a move loses what it takes from its player's side
  (the first player's lead going down, or the second's going up);
* with **three or four players** a position's value for a player is the final score it can
  make sure of when all the others play against it; a move loses what it takes from its own
  player's.

Before that first position, on a board split into territories, the bounds may settle a
position with no search (:mod:`polytile.puzzles.blokus.settle`: every colour can make sure
of the most it can place); the analysis goes back through every such position, from the
first one the search accepts.

Each position is solved once: the value after move ``k`` is the value before move ``k + 1``.
Positions are solved from the end backward, so the cheap ones come first and a search cut
short by its time limit or Ctrl-C still leaves the last moves of the game analysed.

Every best move comes from a principal variation that the endgame search has replayed with
the rules engine to the value it announced; here it is also checked to be a legal move of
the player to move, and the values are checked against each other (no move can gain over
the value before it, and the move that was best cannot lose), else
:class:`~polytile.errors.SolverError`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from polytile.errors import SolverError
from polytile.puzzles.blokus.endgame import (
    DEFAULT_MAX_PIECES,
    Endgame,
    EndgameRefused,
    EndgameStopped,
    endgame_size,
    solve_endgame,
)
from polytile.puzzles.blokus.endgame_result import Proven, move_doc
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.scoring import player_names
from polytile.puzzles.blokus.sgf import GameRecord

__all__ = ["Analysis", "MoveReview", "analyse_record", "positions_of"]

#: Seconds at most for each CP-SAT search of the bounds tried before the first position the
#: exact search accepts (``solve-endgame --bounds-time``'s default).
_SETTLE_SECONDS = 5.0


@dataclass(frozen=True)
class MoveReview:
    """One move of the record, with its exact values.

    Attributes
    ----------
    number
        The move's number in the record (1 is the first move).
    move
        The move played.
    player
        The player who played it.
    before, after
        The exact value of the position before and after the move: the first player's lead
        (2 players) or the score ``player`` can make sure of (3 or 4 players).
    loss
        What the move cost its player (0 for a best move).
    best
        A best move in its place (the move played when that was one).
    """

    number: int
    move: Move
    player: str
    before: int
    after: int
    loss: int
    best: Move

    def as_dict(self) -> dict[str, Any]:
        """This move as JSON."""
        return {
            "number": self.number,
            "player": self.player,
            "move": move_doc(self.move),
            "value_before": self.before,
            "value_after": self.after,
            "loss": self.loss,
            "best_move": move_doc(self.best),
            "kind": "exact",
        }


@dataclass(frozen=True)
class Analysis:
    """The result of :func:`analyse_record`.

    Attributes
    ----------
    mode
        ``"difference"`` (2 players: values are the first player's lead) or ``"max-own"``
        (3 or 4 players: values are the score the move's player can make sure of).
    players
        The players, in the variant's order.
    total_moves
        Moves in the record.
    first_solvable
        The move number after which the analysis starts (0: from the start): the first
        position the exact search accepts, or before it the first of those the bounds
        settle back to it; None when not even the last position is solved.
    moves
        The moves analysed, in the record's order; when complete, every move after
        :attr:`first_solvable`.
    stopped
        None when complete, else ``"time"``, ``"nodes"`` or ``"interrupt"``: the search
        stopped before reaching :attr:`first_solvable` and only the last moves are analysed.
    refused
        Why the position before the first analysable move is too large (None when the
        record is solvable from its start).
    nodes, seconds
        The work done, all searches together.
    unfinished
        When stopped: the position whose search was stopped (``k``: after ``k`` moves, before
        move ``k + 1``) and what that search proved (its objective's interval and, once a
        root move was done, a move that makes sure of its end), else None.
    """

    mode: str
    players: tuple[str, ...]
    total_moves: int
    first_solvable: int | None
    moves: tuple[MoveReview, ...]
    stopped: str | None
    refused: str | None
    nodes: int
    seconds: float
    unfinished: tuple[int, Proven] | None = None

    @property
    def complete(self) -> bool:
        """True when every move after the first solvable position is analysed."""
        return self.stopped is None

    @property
    def mistakes(self) -> tuple[MoveReview, ...]:
        """The analysed moves that lost value."""
        return tuple(m for m in self.moves if m.loss > 0)

    def as_dict(self) -> dict[str, Any]:
        """The JSON document of ``polytile analyse --json`` (without the game's name)."""
        stop = self.unfinished
        unfinished = None if stop is None else {"before_move": stop[0] + 1, **stop[1].as_dict()}
        return {
            "mode": self.mode,
            "players": list(self.players),
            "complete": self.complete,
            "stopped": self.stopped,
            "refused": self.refused,
            "total_moves": self.total_moves,
            "first_solvable": self.first_solvable,
            "moves": [m.as_dict() for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "unfinished": unfinished,
        }


def positions_of(record: GameRecord) -> list[Blokus]:
    """The positions of ``record`` with the move about to be played: item ``k`` is the game
    after ``k`` moves and the forced passes that follow (the colour of move ``k + 1`` to
    move); the last item is the game after every move.

    Raises
    ------
    FormatError
        For a record whose moves the rules refuse (:meth:`GameRecord.position`).
    """
    record.position()  # checks every move, with messages naming it
    game = record.initial()
    out = []
    for move in record.moves:
        while game.to_move != move.color:
            game.push(Move.pass_turn(game.to_move))
        out.append(game.copy())
        game.push(move)
    out.append(game.copy())
    return out


def _first_solvable(
    positions: list[Blokus], max_pieces: int | None
) -> tuple[int | None, str | None]:
    """The first position of an accepted run that reaches the end, and why the one before
    it is refused."""
    if max_pieces is None:
        return 0, None
    for k in range(len(positions) - 1, -1, -1):
        sizes = endgame_size(positions[k])
        if any(v > max_pieces for v in sizes.values()):
            return (k + 1 if k + 1 < len(positions) else None), _too_large(k, sizes, max_pieces)
    return 0, None


def _too_large(k: int, sizes: dict[str, int], max_pieces: int) -> str:
    """Why the position after move ``k`` is refused, its pieces placeable being ``sizes``."""
    counts = ", ".join(f"{name} {v}" for name, v in sizes.items())
    return (f"the position after move {k} is too large for an exact search: pieces still "
            f"placeable per player ({counts}); the limit is {max_pieces}")  # fmt: skip


def analyse_record(
    record: GameRecord,
    *,
    max_pieces: int | None = DEFAULT_MAX_PIECES,
    time_limit: float | None = 60.0,
    node_limit: int | None = None,
    progress: Callable[[int, int, int, float], None] | None = None,
) -> Analysis:
    """Analyse the moves of ``record`` exactly, from its first position the endgame search
    accepts to the end (see the module notes).

    Parameters
    ----------
    record
        The game (read with :func:`~polytile.puzzles.blokus.sgf.read_blksgf`).
    max_pieces
        As :func:`~polytile.puzzles.blokus.endgame.solve_endgame`: positions where a player
        can still place more pieces are not searched; None searches every position.
    time_limit, node_limit
        For all searches together; when reached (or on Ctrl-C) the moves analysed so far are
        returned, with :attr:`Analysis.stopped` saying why.
    progress
        Called after each position and now and then during a search with (positions solved,
        positions to solve, positions searched, seconds).

    Returns
    -------
    Analysis

    Raises
    ------
    SolverError
        If a best move is illegal or the values contradict each other.

    Examples
    --------
    A random game of Blokus Duo, analysed where no player can place more than 3 pieces,
    and before that back to where the bounds no longer settle the position (after move
    27): yellow's last move lost one point of its side (blue's lead went from -11 to -10).

    >>> game = Blokus("duo")
    >>> _ = game.play_random(2)
    >>> record = GameRecord("duo", 2, tuple(m for m in game.move_stack if not m.is_pass))
    >>> analysis = analyse_record(record, max_pieces=3)
    >>> analysis.first_solvable
    27
    >>> [(m.number, m.player, m.before, m.after, m.loss) for m in analysis.moves if m.loss]
    [(32, 'yellow', -11, -10, 1)]

    Notes
    -----
    One exact search per position analysed (two with 3 or 4 players: for the player to
    move and for the player who moved last); each costs what
    :func:`~polytile.puzzles.blokus.endgame.solve_endgame` costs there.
    """
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    names = player_names(record.players, record.variant)
    two = len(names) == 2
    positions = positions_of(record)
    n = len(record.moves)
    first, refused = _first_solvable(positions, max_pieces)
    movers = [positions[k].player_to_move for k in range(n)]
    solved: dict[int, Endgame] = {}
    nodes, stopped = 0, None
    unfinished: tuple[int, Proven] | None = None
    todo = [] if first is None else list(range(n, first - 1, -1))
    # The compiled search keeps its tables from one position to the next: a position's
    # search may find later positions (its own continuations) already proved, those the
    # compiled search solved for the same player and that no other entry has replaced.
    from polytile.puzzles.blokus.endgame_kernel import KernelTables

    tables = KernelTables()
    for done, k in enumerate(todo):
        # The player to move first: the next position (k - 1) asks first for the player
        # who moved here, whose kept tables are then the most recently used of the two.
        wanted = [movers[k]] if k < n else []
        if k > 0 and movers[k - 1] not in wanted:
            wanted.append(movers[k - 1])
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            stopped = "time"
            break

        def report(searched: int, _: float, done: int = done, before: int = nodes) -> None:
            if progress is not None:
                progress(done, len(todo), before + searched, time.perf_counter() - started)

        try:
            solved[k] = solve_endgame(
                positions[k],
                players=None if two else wanted,
                max_pieces=None,  # the sizes were checked above
                time_limit=left,
                node_limit=None if node_limit is None else node_limit - nodes,
                progress=report,
                tables=tables,
                # the move played here and what it led to: a bound on this position
                played=(record.moves[k], solved[k + 1]) if k + 1 in solved else None,
            )
        except EndgameStopped as stop:
            nodes += stop.nodes
            stopped = stop.reason
            unfinished = None if stop.proven is None else (k, stop.proven)
            break
        except EndgameRefused as exc:  # pragma: no cover - max_pieces None never refuses
            raise SolverError(str(exc)) from exc
        except KeyboardInterrupt:
            stopped = "interrupt"
            break
        nodes += solved[k].nodes
        if progress is not None:
            progress(done + 1, len(todo), nodes, time.perf_counter() - started)
    if stopped is None and first != 0 and max_pieces is not None:
        first, refused = _settle_back(positions, solved, n if first is None else first - 1,
                                      deadline, max_pieces, first, refused)  # fmt: skip
    reviews = [
        _review(k + 1, record.moves[k], positions[k], movers[k], solved[k], solved[k + 1], two)
        for k in range(n)
        if k in solved and k + 1 in solved
    ]
    return Analysis(
        mode="difference" if two else "max-own",
        players=names,
        total_moves=n,
        first_solvable=first,
        moves=tuple(reviews),
        stopped=stopped,
        refused=refused,
        nodes=nodes,
        seconds=time.perf_counter() - started,
        unfinished=unfinished,
    )


def _settle_back(positions: list[Blokus], solved: dict[int, Endgame], k: int,
                 deadline: float | None, max_pieces: int, first: int | None,
                 refused: str | None) -> tuple[int | None, str | None]:  # fmt: skip
    """Positions from ``k`` backward that the search refused but the bounds settle
    (:func:`~polytile.puzzles.blokus.settle.settle`, on a board split into territories),
    into ``solved`` while each one is; the first position solved and why the one before it
    is not."""
    from polytile.puzzles.blokus.settle import settle

    while k >= 0:
        colors = len(positions[k].colors)
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left < colors:  # too little for its CP-SAT searches
            return first, f"{refused}; the time limit ran out before its bounds were tried"
        result = settle(positions[k], time_limit=_SETTLE_SECONDS if left is None else
                        min(_SETTLE_SECONDS, left / (2 * colors)))  # fmt: skip
        if result is None:
            return first, f"{refused}, and its bounds do not settle it"
        solved[k], first, k = result, k, k - 1
        if k >= 0:
            refused = _too_large(k, endgame_size(positions[k]), max_pieces)
    return first, None


def _value(result: Endgame, player: str) -> int:
    if result.mode == "difference":
        assert result.value is not None
        return result.value
    return result.lines[player].value


def _review(number: int, move: Move, position: Blokus, player: str, before: Endgame,
            after: Endgame, two: bool) -> MoveReview:  # fmt: skip
    """Move ``number``'s values, checked against each other and the rules."""
    best = before.best_move
    if best is None or best.color != move.color or not position.is_legal(best):
        raise SolverError(f"move {number}: the best move found ({best}) is not a legal move of "
                          f"{move.color} there")  # fmt: skip
    v0, v1 = _value(before, player), _value(after, player)
    sign = -1 if two and player != before.players[0] else 1
    loss = sign * (v0 - v1)
    if loss < 0:
        raise SolverError(f"move {number} ({move}) gains {-loss} over the exact value before it")
    if best == move and loss:
        raise SolverError(f"move {number} ({move}) is the best move found yet loses {loss}")
    return MoveReview(number, move, player, v0, v1, loss, best)
