"""Blokus engine players and self-play: ``polytile selfplay blokus`` writes their games as
Pentobi records.

``random`` places a uniformly random legal piece; ``greedy`` its biggest piece where it
covers the most attach points of the other colours (:func:`greedy`); ``engine`` searches
(:mod:`polytile.puzzles.blokus.engine`: the exact endgame search where it answers in time,
Monte Carlo tree search before), a time a move. With three players,
green's moves are made by the player whose turn with green it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from polytile.errors import OptionError
from polytile.text import counted

if TYPE_CHECKING:
    from polytile.puzzles.blokus.rules import Blokus

__all__ = ["Chooser", "greedy", "new_game", "self_play", "selfplay", "take_back"]

#: A move chooser: ``(game, legal moves, rng) -> move`` (:func:`greedy`'s signature).
Chooser = Callable[[Any, list[Any], Any], Any]


def greedy(game: Any, moves: list[Any], rng: Any) -> Any:
    """The biggest piece; among those, the placement covering the most attach points of the
    other players' colours (blocking them); then at random."""
    size = max(len(m.cells) for m in moves)
    moves = [m for m in moves if len(m.cells) == size]
    mine = {game.to_move, *game.player_to_move.split("+")}
    theirs = {cell for c in game.colors if c not in mine for cell in game.attach_points(c)}
    most = max(len(theirs.intersection(m.cells)) for m in moves)
    moves = [m for m in moves if len(theirs.intersection(m.cells)) == most]
    return moves[int(rng.integers(len(moves)))]


def self_play(game: Any, engines: dict[str, str], seed: int,
              searcher: Chooser | None = None) -> None:  # fmt: skip
    """Play ``game`` to the end: each player's move by its engine (``random``: a uniformly
    random placement; ``greedy``: :func:`greedy`; ``engine``: ``searcher``, which the caller
    gives, :func:`polytile.puzzles.blokus.engine.engine_move`: this module does not import
    the engine, whose playouts play :func:`greedy`), forced passes as they come.
    ``engines`` are by player (:attr:`Blokus.player_to_move`) or by colour; with three
    players green's moves are made by the engine of the player whose turn with green it
    is.

    Raises
    ------
    ValueError
        For ``engine`` without a ``searcher``.
    """
    import numpy as np

    if "engine" in engines.values() and searcher is None:
        raise ValueError("an 'engine' player needs the engine's searcher")
    rng = np.random.default_rng(seed)
    while moves := game.legal_moves():
        engine = engines.get(game.player_to_move) or engines.get(game.to_move, "greedy")
        if moves[0].is_pass:
            game.push(moves[0])
        elif engine == "greedy":
            game.push(greedy(game, moves, rng))
        elif engine == "engine" and searcher is not None:
            game.push(searcher(game, moves, rng))
        else:
            game.push(moves[int(rng.integers(len(moves)))])


def take_back(game: Any, placements: int) -> None:
    """Take back the last ``placements`` placements (and the passes among them), then the
    passes before them: a record ends with a placement."""
    while placements > 0 and game.move_stack:
        placements -= not game.pop().is_pass
    while game.move_stack and game.move_stack[-1].is_pass:
        game.pop()


def new_game(variant: str, players: str | None) -> Blokus:
    """A new game of ``variant`` with ``players`` (``"2"``, ``"3"``, ``"4"``, ``"teams"``;
    None: the variant's), as ``new`` and ``selfplay`` set one up.

    Raises
    ------
    OptionError
        For a player count the variant does not take (``--players``).
    """
    from polytile.puzzles.blokus.rules import Blokus

    count: int | str | None = None if players is None else (
        players if players == "teams" else int(players))  # fmt: skip
    try:
        return Blokus(variant, count)
    except ValueError as e:
        raise OptionError(str(e), "--players") from None


def selfplay(variant: str, players: str | None, engines: dict[str, str | None], seed: int,
             stop_before_end: int, searcher: Chooser | None = None,
             move_time: float | None = None) -> tuple[str, str]:  # fmt: skip
    """One game of ``variant`` with ``players`` (None: the variant's), ``engines`` by colour
    (None: not given, greedy), its last ``stop_before_end`` placements taken back: the
    Pentobi record and a line saying how it ended.

    Raises
    ------
    OptionError
        For a player count the variant does not take, or an engine given to a colour with
        no player of its own.
    """
    from polytile.puzzles.blokus.sgf import write_blksgf

    game = new_game(variant, players)
    given = [c for c, e in engines.items() if e is not None]
    outside = [c for c in given if c not in game.colors]
    if game.players == 3 and "green" in given:
        outside.append("green")  # green's moves are made by the three players in turn
    if outside:
        raise OptionError(
            f"{', '.join(outside)}: no player of its own in this game (its players: "
            f"{', '.join(game.colors if game.players != 3 else game.colors[:3])})",
            ", ".join(f"--{c}" for c in outside),
        )
    chosen = {c: engines.get(c) or "greedy" for c in game.colors}
    if game.players == 3:
        chosen["green"] = "shared"
    self_play(game, chosen, seed, searcher)
    take_back(game, stop_before_end)
    names = ", ".join(f"{c} {e}" for c, e in chosen.items())
    if "engine" in chosen.values() and move_time is not None:
        names += f" ({move_time:g} s a move)"
    text = write_blksgf(game, C=f"polytile selfplay, seed {seed}: {names}")
    totals = game.score().player_totals
    state = "the end" if game.is_game_over() else "not finished"
    placed = sum(not m.is_pass for m in game.move_stack)
    scores = ", ".join(f"{p} {v}" for p, v in totals.items())
    return text, f"{counted(placed, 'move')}, {state}: {scores}"
