"""The words every face speaks, apart from the faces themselves: where a verb prints
(:class:`Console`), the front end's clock (:class:`Clock`), an option declared as data
(:class:`Option`) and what ``solve-endgame`` asks (:class:`EndgameRequest`).

:mod:`polytile.faces.face`, :mod:`polytile.faces.puzzle` and :mod:`polytile.faces.view` all
import these from here, so none of them imports another for its types (the import circles
``face`` -> ``view`` -> ``face`` and ``face`` -> ``puzzle`` -> ``face`` are gone); ``face``
and ``puzzle`` re-export them under their old names.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "ENGINES",
    "PICTURE_SUFFIXES",
    "VIEW_OPTIONS",
    "Clock",
    "Console",
    "EndgameRequest",
    "Option",
    "engine_option",
]

#: The engine players every game's ``selfplay`` offers.
ENGINES = ("engine", "greedy", "random")

#: The picture files ``-o`` writes, by suffix.
PICTURE_SUFFIXES = (".svg", ".png", ".txt")


class Console(Protocol):
    """Where a face's verbs print: the CLI's is click's ``echo`` on stdout and stderr."""

    def out(self, text: str = "", *, nl: bool = True, color: bool | None = None) -> None:
        """Print ``text`` on standard output (``color``: keep ANSI colours, as click's)."""

    def err(self, text: str) -> None:
        """Print a line on standard error (what was written, progress, notes)."""

    def progress(self, label: str, enabled: bool,
                 describe: Callable[[Any], str] | None = None,
                 ) -> AbstractContextManager[Callable[[Any], None] | None]:  # fmt: skip
        """A progress display for work of many steps: yields a callback taking an object
        with ``done``, ``total`` and ``seconds`` (``describe`` words its note), or None
        when nothing is shown."""

    def search_progress(self, label: str, enabled: bool,
                        ) -> AbstractContextManager[Callable[[int, float], None]]:  # fmt: skip
        """A progress display for a search: yields the ``progress(positions, seconds)``
        callback the searches take."""


#: The :class:`EndgameRequest` fields that belong to the analysis from one player's view.
VIEW_OPTIONS = frozenset({"view", "samples", "max_exact", "seed", "workers", "open_analysis",
                          "plan"})  # fmt: skip


@dataclass(frozen=True)
class EndgameRequest:
    """What ``solve-endgame`` asks of a game: the shared options, and each game's own (a
    game reads those it declares in :attr:`EndgameFace.endgame_options`).

    ``time_limit`` is the seconds the solver may use (what is left of the command's
    limit); ``given`` names the options given on the command line, so that a game can
    refuse one that does not fit the analysis asked for. A game whose work comes in stages
    (a search, then bounds when it is refused) shares out the whole command's ``limit``
    itself with the front end's ``clock`` (:class:`~polytile.faces.base.Clock`).
    ``max_pieces`` is None when not given: the game takes its own default.
    """

    move: int | None = None
    as_json: bool = False
    time_limit: float = 60.0
    open_analysis: bool = False
    view: str | None = None  # None: not asked for; "to-move", or a player's name
    samples: int = 200
    max_exact: int = 5000
    seed: int = 0
    workers: int | None = None
    players: tuple[str, ...] = ()
    plan: bool = False
    max_drops: int = 6
    output: Path | None = None
    color: bool | None = None
    cell: int = 24
    max_pieces: int | None = None
    bounds_time: float = 5.0
    limit: float | None = None
    clock: Clock | None = None
    given: frozenset[str] = frozenset()

    @property
    def view_given(self) -> frozenset[str]:
        """The options of the analysis from one player's view given on the command line."""
        return self.given & VIEW_OPTIONS


@dataclass(frozen=True)
class Option:
    """An option a game takes in ``new`` or ``selfplay``, declared as data: the CLI makes
    its command-line option from it and gives the game only the options given.

    Attributes
    ----------
    name
        The name the game receives it by (``pass_limit``).
    help
        What it does, for ``--help``, with its default ("[default: 3]").
    choices
        The values it takes, as text (empty: an integer in ``low..high``, a switch, or
        text).
    low, high
        An integer option's range.
    switch
        An on/off flag.
    flag
        The command-line spelling, when not ``--`` and the name with dashes.
    metavar
        For an option that takes any text (the game reads it): what ``--help`` shows for
        its value (``NAMES``).
    """

    name: str
    help: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    switch: bool = False
    flag: str = ""
    metavar: str = ""

    @property
    def spelling(self) -> str:
        """The option as written on the command line (``--pass-limit``)."""
        return self.flag or "--" + self.name.replace("_", "-")


def engine_option(player: str, note: str = "") -> Option:
    """The ``selfplay`` option choosing ``player``'s engine (``--blue greedy``); ``note``
    is said after its name in the help ("(not with --players 3)")."""
    return Option(player, f"{player.capitalize()}'s player{note} [default: greedy].", ENGINES)


class Clock(Protocol):
    """The front end's clock: what is left of a whole command's time limit, and the guards
    that stop work which does not watch the clock (the CLI's are those of
    :mod:`polytile.cli.clock`)."""

    def left(self, limit: float | None, reserve: float = 0.0) -> float | None:
        """The seconds left of ``limit`` (counted from the command's start) for a search,
        keeping ``reserve`` back for what follows it; None without a limit."""

    def deadline(self, limit: float | None) -> Any:
        """A context that stops the enclosed work like a Ctrl-C (``KeyboardInterrupt``) once
        the command has run past ``limit``; its ``fired`` then says it was the clock, and
        its ``check()`` stops at once when that time has passed (before work not worth
        starting)."""

    def stop_flag(self) -> Any:
        """A context in which the first Ctrl-C only sets the flag (true when called, and its
        ``asked``), so that a search polling it stops with its best so far."""
