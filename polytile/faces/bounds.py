"""Bounds on how a colour can still end a game (``polytile bounds``), for every game that
has them: the optional face part :class:`BoundsFace` and what its games' reports share.

A game's bounds say, for one colour of a position, the most it can still reach (its pieces
laid out as if every other colour passed) and what it can make sure of however the others
play. Each game computes and words them its own way (Blokus in squares still placeable and
final scores, City Blocks (Ritchie) in points, with an exact value when few pieces are
left); what they share is here: the request, the JSON names of the lower bound, the ``?``
of a bound not proven tight, and how a run stopped before every colour was bounded ends.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from polytile.faces.face import Console, Face

if TYPE_CHECKING:
    from polytile.faces.base import Clock

__all__ = ["CAN_ENSURE", "BoundsFace", "BoundsRequest", "bounds_json", "end_incomplete",
           "incomplete", "mark", "not_bounded_why"]  # fmt: skip


@dataclass(frozen=True)
class BoundsRequest:
    """What ``polytile bounds`` asks of a game.

    Attributes
    ----------
    color
        The colour to bound, ``"all"``, or None for the colour to move.
    time_limit
        The whole command's limit in seconds, counted from its start: the game shares
        what is left of it (``clock``) among the colours and their searches.
    clock
        The front end's :class:`~polytile.faces.base.Clock`.
    workers, seed
        CP-SAT's workers and random seed.
    exact_pieces
        Search the exact value when at most this many pieces can still be placed (a game
        that declares it in :attr:`BoundsFace.bounds_options`); 0 never.
    move
        For a game record: the position after this many moves (None: the end).
    """

    clock: Clock
    color: str | None = None
    as_json: bool = False
    time_limit: float = 10.0
    workers: int = 2
    seed: int = 0
    exact_pieces: int = 6
    move: int | None = None


class BoundsFace(Face):
    """A face whose game can bound how a colour can still end a position
    (``polytile bounds``).

    Attributes
    ----------
    bounds_options
        The :class:`BoundsRequest` fields beyond the colour, ``--json``, the time limit,
        the workers, the seed and ``--move`` that the game reads; the CLI refuses the
        others when they are given.
    """

    bounds_options: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def bounds(self, console: Console, file: str, request: BoundsRequest) -> None:
        """``polytile bounds``: the bounds of ``request.color`` (or of every colour) in
        ``file``'s position, as text or ``--json``; when the time limit or Ctrl-C stops it
        before every colour is bounded, those bounded are printed and :func:`end_incomplete`
        ends it."""


#: JSON names of the lower bound that say what it is (#18): what the colour can make sure of
#: if it plays well, not what it will get (a colour that blunders ends below it). The old
#: names are kept beside them for one version.
CAN_ENSURE = {"lower": "can_ensure", "lower_proven": "can_ensure_proven",
              "score_lower": "score_can_ensure"}  # fmt: skip


def bounds_json(b: Any) -> dict[str, Any]:
    """The JSON document of one colour's bounds: ``b.as_dict()`` and the names of
    :data:`CAN_ENSURE`."""
    doc: dict[str, Any] = b.as_dict()
    return doc | {new: doc[old] for old, new in CAN_ENSURE.items() if old in doc}


def mark(value: int, proven: bool) -> str:
    """A bound as a table shows it: ``?`` after one not proven tight."""
    return f"{value}{'' if proven else '?'}"


def not_bounded_why(by_time: bool) -> str:
    """Why a colour asked for has no bounds, in words: what a report says in its row, so
    that every colour asked for has one (#48: the reason was only on standard error)."""
    return ("the time limit ran out before it was bounded" if by_time
            else "interrupted (Ctrl-C) before it was bounded")  # fmt: skip


def incomplete(missing: list[str], by_time: bool) -> dict[str, Any]:
    """The JSON fields of a run stopped before ``missing`` were bounded (none: empty):
    ``"reason"`` says why in words."""
    if not missing:
        return {}
    return {"complete": False, "stopped_by": "time" if by_time else "interrupt",
            "not_bounded": missing, "reason": not_bounded_why(by_time)}  # fmt: skip


def end_incomplete(console: Console, missing: list[str], by_time: bool = False) -> None:
    """After Ctrl-C (exit 130) or the end of the time limit in work that does not watch it,
    such as building a model (exit 1): say which colours were not bounded."""
    if missing:
        why = "the time limit ran out" if by_time else "interrupted"
        console.err(f"{why}: the bounds are incomplete; not bounded: {', '.join(missing)}")
        raise SystemExit(1 if by_time else 130)
