"""The report of a Monte Carlo tree search estimate, shared by the games whose exact
analysis can come back empty (``solve-endgame`` before the exact search reaches a position):
what the estimate rests on, the moves' visits and mean margins, the best move by it, always
said to be an estimate. Re-exported by :mod:`polytile.faces.face`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from polytile.faces.base import Console
    from polytile.solvers.mcts import MctsResult

__all__ = ["estimate_doc", "print_estimate"]


def estimate_doc(game: str, result: MctsResult, *, mover: str, lead: str, why: str,
                 stopped_by: str | None = None, text: Callable[[Any], str] = str,
                 sign: int = 1) -> dict[str, Any]:  # fmt: skip
    """The estimate as JSON: ``"exact": false``, ``"kind": "mcts-estimate"``, the mover,
    what the margin is (``lead``), why an estimate was made instead of an exact value, and
    the search's own fields (:meth:`~polytile.solvers.mcts.MctsResult.as_dict`).
    ``stopped_by`` ``"interrupt"`` says Ctrl-C ended it; ``text`` writes a move; ``sign``
    -1 turns the mover's margins into the other player's lead (``lead`` then says so)."""
    doc = {"game": game, "exact": False, **result.as_dict(text), "player": mover, "lead": lead,
           "why": why}  # fmt: skip
    if sign != 1:
        doc["value"] = round(sign * result.value, 3) + 0.0
        for m in doc["moves"]:
            m["margin"] = m["margin"] * sign + 0.0
    if stopped_by is not None:
        doc["stopped_by"] = stopped_by
    return doc


def print_estimate(console: Console, result: MctsResult, *, mover: str, lead: str,
                   how: str, width: int, shown: int = 15, text: Callable[[Any], str] = str,
                   sign: int = 1) -> None:  # fmt: skip
    """The estimate as text: its first lines say what it rests on (``how``: how a playout
    is played, after the playouts and seconds) and what each margin is (``lead``), then the
    moves (most visited first), the best by the estimate. ``width`` is the move column's,
    ``shown`` the moves listed (--json lists them all), ``text`` writes a move, ``sign``
    -1 writes the margins as the other player's lead (as :func:`estimate_doc`)."""
    n = result.playouts
    console.out(
        f"Estimate by Monte Carlo tree search for {mover}: {n:,} playout"
        f"{'s' * (n != 1)} in {result.elapsed:.1f} s, {how}."
    )
    console.out(f"Margins: {lead}, the mean over the playouts through each move. An "
                "estimate, not the game's value.")  # fmt: skip
    console.out()
    console.out(f"  {'move':<{width}}{'visits':>8}{'margin':>9}")
    for i, m in enumerate(result.moves):
        if i == shown:
            console.out(f"  ... {len(result.moves) - shown} more moves (--json lists them all)")
            break
        margin = f"{sign * m.margin + 0.0:>+9.2f}" if m.visits else f"{'-':>9}"
        console.out(f"  {text(m.move):<{width}}{m.visits:>8,}{margin}")
    console.out()
    console.out(f"best by this estimate: {text(result.best)}")
