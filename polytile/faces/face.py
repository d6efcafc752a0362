"""The face of a game: the one object through which every front end reaches it.

A game package (``polytile/puzzles/<game>/``) exports one :class:`Face` in its ``face``
module, found by name or by a file's ``format`` tag through :mod:`polytile.faces.registry`.
The command line, and later the web board and the puzzle store, call the face and never the
game's modules: a front end names no game, and a game imports no front end.

A face has two layers:

* **data**, for any front end: :meth:`Face.read` a file (the position after ``--move N`` of a
  record), a :meth:`Face.picture` of it (terminal text, plain text, SVG, PNG), its score
  (:meth:`Face.score_doc`, :meth:`Face.score_text`), what :meth:`Face.describe` says of a
  valid file, and the :meth:`Face.legal` moves of the player to move with what that player
  sees;
* **verbs**, written once here on top of the data layer: :meth:`Face.render`,
  :meth:`Face.score`, :meth:`Face.validate`, :meth:`Face.moves`. They print through a
  :class:`Console` the front end gives, and refuse options that do not fit with
  :class:`~polytile.errors.OptionError`, which the CLI shows as click shows a bad option.

What every game must give is abstract; what only some games have is declared as an
attribute (:attr:`Face.picture_cells`) rather than stubbed. The model is OpenSpiel's split
of a game's description from its state, as :mod:`polytile.puzzles.game` does for solvers.
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from polytile.errors import OptionError
from polytile.faces.base import (
    ENGINES,
    PICTURE_SUFFIXES,
    VIEW_OPTIONS,
    Console,
    EndgameRequest,
    Option,
    engine_option,
)
from polytile.faces.estimate import estimate_doc, print_estimate
from polytile.faces.move_cells import MoveCells, MovePiece
from polytile.faces.view import (
    check_view_player,
    print_view_moves,
    run_view_analysis,
    view_plan,
)
from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice
from polytile.text import printable, wrote

__all__ = [
    "ENGINES",
    "PICTURE_SUFFIXES",
    "VIEW_OPTIONS",
    "Console",
    "EndgameFace",
    "EndgameRequest",
    "Face",
    "Legal",
    "MoveCells",
    "MovePiece",
    "Option",
    "SelfplayFace",
    "check_view_player",
    "engine_option",
    "estimate_doc",
    "print_estimate",
    "print_view_moves",
    "proven_line",
    "report_problems",
    "run_view_analysis",
    "view_plan",
]

@dataclass(frozen=True)
class Legal:
    """The moves of one position, from the view of the player to move.

    Attributes
    ----------
    to_move
        The player (or colour) whose turn it is; None when the game is over.
    sees
        What that player may see that the board does not show, by name (its hand, its
        cards, the pieces left), as text.
    moves
        Every legal move in the game's own notation, as ``play`` reads it.
    groups
        For a game whose players move at once: each player's own moves, by player (then
        :attr:`moves` is empty and ``play`` takes one of each).
    note
        A line saying how to enter a move, or why there is none.
    at_once
        True when the players named in :attr:`to_move` move at the same time.
    known
        False in a view that hides the hand of the player to move: its moves are not
        known (:attr:`moves` is then empty, not a list of none).
    """

    to_move: str | None
    sees: dict[str, str] = field(default_factory=dict)
    moves: tuple[str, ...] = ()
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    note: str = ""
    at_once: bool = False
    known: bool = True

    def as_dict(self) -> dict[str, Any]:
        """The JSON form ``moves --json`` prints."""
        doc: dict[str, Any] = {"to_move": self.to_move, "at_once": self.at_once,
                               "sees": self.sees, "moves_known": self.known}  # fmt: skip
        if self.groups:
            doc["moves"] = {name: list(moves) for name, moves in self.groups.items()}
        else:
            doc["moves"] = list(self.moves)
        doc["count"] = self.count
        return doc

    @property
    def count(self) -> int:
        """How many moves are listed (for simultaneous moves, each player's summed)."""
        return sum(map(len, self.groups.values())) if self.groups else len(self.moves)


class Face(ABC):
    """One game as the front ends see it; subclasses set the class attributes and give the
    data layer, the verbs are shared.

    Attributes
    ----------
    name
        The game's registry name (``polytile new NAME``), also ``"game"`` in JSON output.
    title
        The game's name for people (``"City Blocks (Henning)"``).
    formats
        The ``format`` tags of the files that are this game's own.
    picture_cells
        The ``--cell`` values (pixels) an SVG or PNG picture accepts, and the words that
        say what a cell is when one is refused; None: any value the option allows.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    formats: ClassVar[tuple[str, ...]]
    picture_cells: ClassVar[tuple[int, int, str] | None] = None
    #: What ``polytile new NAME`` writes, for the list of games in ``new --help``.
    new_help: ClassVar[str] = ""
    #: The options of ``polytile new NAME`` beyond ``--seed``.
    new_options: ClassVar[tuple[Option, ...]] = ()
    #: How moves are written, for ``play --help`` (a block of examples, one a line).
    move_help: ClassVar[str] = ""
    #: The options of ``polytile render`` only this game takes (``--best``), declared as
    #: data: the CLI makes them, and gives :meth:`render` those given, by name.
    render_options: ClassVar[tuple[Option, ...]] = ()
    #: The options of ``polytile score`` only this game takes, as :attr:`render_options`.
    score_options: ClassVar[tuple[Option, ...]] = ()
    #: The defaults a game fills in itself for options a command shares among games and
    #: passes on as None when not given (``max_pieces``), by name: the help shows them.
    option_defaults: ClassVar[dict[str, Any]] = {}
    #: The kinds of document (the ``kind`` of what :meth:`read` returns) ``play``
    #: continues: game records, or positions for a game that has no records.
    play_kinds: ClassVar[tuple[str, ...]] = ("record",)

    # -- the data layer: each game's own ------------------------------------------------

    @abstractmethod
    def read(self, file: str, move: int | None = None) -> Any:
        """The document in ``file`` (``-``: standard input), a record shown after ``move``.

        Raises
        ------
        FormatError
            For a file that is not this game's, breaks its rules, or has no move ``move``.
        """

    @abstractmethod
    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        """A picture of ``doc``: ``kind`` is ``"text"`` (for a terminal, coloured when
        ``color`` or the terminal says so), ``"txt"`` (plain letters, a final newline),
        ``"svg"`` or ``"png"`` (``cell`` pixels a cell, ``title`` a caption)."""

    def notes(self, doc: Any) -> list[str]:
        """Lines printed under a terminal picture of ``doc`` (what is hidden in a view)."""
        return []

    @abstractmethod
    def score_doc(self, doc: Any) -> dict[str, Any]:
        """The score of ``doc``'s position as JSON (``score --json``)."""

    @abstractmethod
    def score_text(self, doc: Any, color: bool | None) -> str:
        """The score report for people: the picture and the table."""

    @abstractmethod
    def describe(self, doc: Any) -> str:
        """What a valid ``doc`` is, for ``validate`` ("game record, 30 moves, all legal")."""

    @abstractmethod
    def new(self, seed: int, options: dict[str, Any]) -> str:
        """The text of a new game's file (``polytile new``): the set-up ``seed`` gives, with
        ``options`` (those of :attr:`new_options` given, by name; the game's defaults for the
        rest).

        Raises
        ------
        OptionError
            For a value the game cannot take with the others.
        """

    @abstractmethod
    def legal(self, doc: Any) -> Legal:
        """The legal moves of ``doc``'s position and what the player to move sees."""

    @abstractmethod
    def play_move(self, doc: Any, text: str) -> None:
        """Play the move written ``text`` (as :meth:`legal` lists it) on the record ``doc``.

        Raises
        ------
        ValueError
            If ``text`` is not a move (:class:`~polytile.errors.IllegalMoveError`, a
            ValueError, if it breaks the rules); ``doc`` is then unchanged.
        """

    @abstractmethod
    def dumps(self, doc: Any) -> str:
        """The text of the record ``doc`` as its game writes it, moves played included (of
        a position with moves played on it, as the web board plays them: the position they
        reach)."""

    def move_cells(self, doc: Any, cell: int = 24) -> MoveCells | None:
        """Where the legal moves of ``doc``'s position fall in its SVG picture drawn with
        ``cell`` (:class:`MoveCells`), or None when the game does not say (the default):
        then a move is typed or picked from the list."""
        return None

    def move_pieces(self, doc: Any) -> tuple[MovePiece, ...]:
        """The pieces the player to move in ``doc`` holds (:class:`MovePiece`), for a move
        entered as a piece put down on the board's cells (:meth:`move_cells`); empty (the
        default) for a game whose moves place no pieces, or once it is over."""
        return ()

    def record_moves(self, doc: Any) -> tuple[str, ...]:
        """Every move of the record ``doc`` in the notation :meth:`play_move` reads (the
        whole record, also when it is shown after an earlier ``move``); empty for a
        position, which has no moves to step through (the web board's move list)."""
        return ()

    def played_text(self, doc: Any, text: str) -> str:
        """The move :meth:`play_move` just played on ``doc`` from ``text``, written as
        :meth:`record_moves` writes moves (the web board keeps a variation's moves so): by
        default ``text`` itself, for a game whose notation has one way to write a move."""
        return text

    def split_moves(self, words: tuple[str, ...]) -> list[str]:
        """The moves written in command-line ``words`` (one a word, unless a game's moves
        span several)."""
        return list(words)

    def move_place(self, doc: Any) -> str:
        """Where the next move of ``doc`` falls, for messages (", round 3"), or ""."""
        return ""

    def refuse_record(self, data: bytes, source: str) -> None:
        """Refuse the first bytes ``data`` of a file no game's face took when they look
        like one of this game's records in another program's format that cannot be read
        there (on standard input, or naming another game), saying why
        (:class:`~polytile.errors.FormatError`); asked of the games of
        :data:`~polytile.faces.registry.SGF_GAMES` only."""
        return None  # a game of no such records refuses nothing

    def finished(self, doc: Any) -> bool:
        """True when ``play`` should refuse any move of ``doc`` as the game being over
        (a game whose rules engine says so itself leaves this False)."""
        return False

    def engine_choice(self, doc: Any, seconds: float) -> tuple[str, EngineChoice] | None:
        """The engine player's move for the player to move in ``doc`` within ``seconds``:
        its text in the game's notation (as :meth:`play_move` reads it) and what it rests
        on; None when this game has no engine player to answer with (``play --reply``
        says so)."""
        return None

    # -- the verbs, shared -------------------------------------------------------------

    def render(self, console: Console, file: str, move: int | None, output: Path | None,
               color: bool | None, cell: int, title: str | None = None,
               options: dict[str, Any] | None = None) -> None:  # fmt: skip
        """``polytile render``: the picture on the terminal, or written to ``output`` (its
        suffix picks the kind); ``options`` are those of :attr:`render_options` given, by
        name (a game that declares some overrides this verb to read them)."""
        doc = self.read(file, move)
        if output is None:
            console.out(str(self.picture(doc, "text", color=color)))
            for line in self.notes(doc):
                console.out(line)
            return
        self.write_picture(console, doc, output, cell, title)

    def write_picture(self, console: Console, doc: Any, output: Path, cell: int,
                      title: str | None = None) -> None:  # fmt: skip
        """Write the picture of ``doc`` to ``output`` (.svg, .png or .txt) and say so."""
        from polytile._files import output_suffix
        from polytile.formats import write_atomic

        suffix = output_suffix(output, ".svg")  # -o -: SVG
        if suffix not in PICTURE_SUFFIXES:
            raise OptionError(f"{output}: use .svg, .png or .txt", "-o")
        if suffix != ".txt" and self.picture_cells is not None:
            low, high, what = self.picture_cells
            if not low <= cell <= high:
                raise OptionError(f"{what}, not {cell}", "--cell")
        write_atomic(output, self.picture(doc, suffix[1:], color=False, cell=cell, title=title))
        console.err(wrote(output))

    def score(self, console: Console, file: str, move: int | None, as_json: bool,
              color: bool | None, output: Path | None = None, cell: int = 24,
              options: dict[str, Any] | None = None) -> None:  # fmt: skip
        """``polytile score``: the report (or its JSON), and with ``output`` the picture
        ``render`` draws; ``options`` as for :meth:`render`, of :attr:`score_options`."""
        doc = self.read(file, move)
        if as_json:
            console.out(json.dumps(self.score_doc(doc)))
        else:
            console.out(self.score_text(doc, color))
        if output is not None:
            self.write_picture(console, doc, output, cell)

    def validate(self, console: Console, file: str, as_json: bool) -> None:
        """``polytile validate``: reading a file checks every rule and replays every move,
        so a file that reads is valid (one that does not raises FormatError, exit 2)."""
        doc = self.read(file)
        if as_json:
            console.out(json.dumps({"file": file, "valid": True, "game": self.name,
                                    "kind": doc.kind}))  # fmt: skip
        else:
            console.out(f"{printable(file)}: valid {self.title} {self.describe(doc)}")

    def play(self, console: Console, record: Path, moves: tuple[str, ...],
             color: bool | None, reply: bool = False,
             move_time: float = DEFAULT_MOVE_TIME) -> None:  # fmt: skip
        """``polytile play``: play ``moves`` on the game record (or position, of
        :attr:`play_kinds`) in ``record`` and, with ``reply``, the engine player's answer
        (``move_time`` seconds, checked by the rules engine as a typed move is); write it
        back, in place and atomically, only when every move is legal; then its picture and
        :meth:`notes`."""
        from polytile.formats import write_atomic

        doc = self.read(str(record))
        if doc.kind not in self.play_kinds:
            raise OptionError(f"{record} is a {doc.kind}; play continues a game "
                              f"{' or '.join(self.play_kinds)}", "RECORD")  # fmt: skip
        texts = self.split_moves(moves)
        # A last move the engine completes (a part left empty in a game moved at once).
        pending = self.pending_parts(texts[-1]) if reply and texts else None
        if pending is not None:
            texts = texts[:-1]
        for i, text in enumerate(texts, 1):
            if self.finished(doc):
                raise OptionError(f"move {i} ({text!r}): the game is over; nothing was written",
                                  "MOVES")  # fmt: skip
            where = self.move_place(doc)
            try:
                self.play_move(doc, text)
            except ValueError as e:
                raise OptionError(f"move {i} ({text!r}{where}): {e}; nothing was written",
                                  "MOVES") from None  # fmt: skip
        answer = self._engine_reply(doc, move_time, pending) if reply else None
        write_atomic(record, self.dumps(doc))
        console.err(wrote(record))
        shown = str(self.picture(doc, "text", color=color))
        console.out(shown, color="\x1b[" in shown)  # --color keeps its colours in a pipe
        for line in self.notes(doc):
            console.out(line)
        if answer is not None:
            console.out(answer)

    def pending_parts(self, text: str) -> dict[str, str] | None:
        """The parts of ``text``, a move the engine is to complete (``play --reply`` in a
        game whose players move at once, one player's part left empty), or None: a move to
        play as it is (always, in a game whose players take turns)."""
        return None

    def _engine_reply(self, doc: Any, seconds: float,
                      pending: dict[str, str] | None = None) -> str:  # fmt: skip
        """Play the engine's move on ``doc`` (:meth:`engine_choice`, checked by
        :meth:`play_move`): the line that says what it played and why. ``pending`` is
        for games moved at once (:meth:`pending_parts`)."""
        mover = self.legal(doc).to_move
        if self.finished(doc) or mover is None:
            raise OptionError("the game is over: the engine has no move to answer with; "
                              "nothing was written", "--reply")  # fmt: skip
        found = self.engine_choice(doc, seconds)
        if found is None:
            raise OptionError(f"{self.title} has no engine player to answer with here; "
                              "nothing was written", "--reply")  # fmt: skip
        text, choice = found
        self.play_move(doc, text)  # the rules engine checks the engine's move too
        return choice.said(mover, text)

    def moves(self, console: Console, file: str, move: int | None, as_json: bool,
              limit: int = 0) -> None:  # fmt: skip
        """``polytile moves``: whose turn it is, what that player sees and its legal moves
        (the text lists at most ``limit`` of them, 0: all)."""
        legal = self.legal(self.read(file, move))
        if as_json:
            console.out(json.dumps({"game": self.name, **legal.as_dict()}))
            return
        if legal.to_move is None:
            console.out(f"{self.title}: the game is over; there are no moves")
            if legal.note:
                console.out(legal.note)
            return
        console.out(f"{self.title}: {legal.to_move} to move" + (", at once" if legal.at_once
                                                                 else ""))  # fmt: skip
        for name, text in legal.sees.items():
            console.out(f"{name}: {text}")
        if legal.groups:
            for name, moves in legal.groups.items():
                console.out(f"{name}'s moves ({len(moves):,}):")
                _columns(console, moves, limit)
        elif not legal.known:
            console.out("legal moves: not known (the hand they come from is hidden)")
        else:
            console.out(f"legal moves ({len(legal.moves):,}):")
            _columns(console, legal.moves, limit)
        if legal.note:
            console.out(legal.note)


class SelfplayFace(Face):
    """A face whose game has engine players (``polytile selfplay``).

    Attributes
    ----------
    selfplay_options
        The options of ``polytile selfplay NAME`` beyond ``--seed``, ``--games`` and
        ``--stop-before-end``: each player's engine, the rule options.
    """

    selfplay_options: ClassVar[tuple[Option, ...]] = ()
    #: How its engine players choose, for ``selfplay --help``.
    selfplay_help: ClassVar[str] = ""
    #: The suffix of the records ``selfplay --games N`` writes into a folder.
    record_suffix: ClassVar[str] = ".json"
    #: True: ``selfplay -o FILE`` says only how each game ended, not "wrote FILE" too.
    quiet_writes: ClassVar[bool] = False

    def check_record_name(self, output: Path) -> None:
        """Refuse (:class:`~polytile.errors.OptionError`) a file name ``selfplay`` would
        write a record under that says another kind of file; the default takes any."""

    @abstractmethod
    def selfplay(self, seed: int, stop_before_end: int, options: dict[str, Any]) -> tuple[str, str]:
        """One game played by the engine players ``options`` names (the game's defaults for
        the others) from the set-up ``seed`` gives, its last ``stop_before_end`` moves taken
        back: the record's text and a line saying how it ended ("30 moves, blue by $21").

        Raises
        ------
        OptionError
            For options the game cannot take together.
        """


class EndgameFace(Face):
    """A face whose game has an exact endgame solver (``polytile solve-endgame``).

    Attributes
    ----------
    endgame_options
        The :class:`EndgameRequest` fields beyond ``move``, ``as_json`` and ``time_limit``
        that the game's solver reads; the CLI refuses the others when they are given.
    """

    endgame_options: ClassVar[frozenset[str]] = frozenset()

    @abstractmethod
    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        """``polytile solve-endgame``: the exact value and best line of ``file``'s position
        (after ``request.move``), or what the game can say instead, labelled; a stop by
        the time limit or Ctrl-C ends with ``SystemExit`` 1 or 130 after saying so."""

    def best_moves(self, answer: dict[str, Any]) -> tuple[str, ...]:
        """The best moves of the player to move that a ``solve-endgame --json`` ``answer``
        names, in the notation :meth:`play_move` reads (a view analysis's: the best by its
        estimate); empty when it names none (the web board highlights them).

        The default reads ``"best_moves"`` (a list of moves as ``play`` writes them), the
        ``"best"`` move of a tree search's estimate (``"kind"`` ``"mcts-estimate"``) or, for
        a view analysis, the moves of ``"moves"`` with the highest ``"mean"``; a game whose
        answer says its best move another way overrides it.
        """
        if answer.get("kind") == "mcts-estimate":
            return (answer["best"],) if isinstance(answer.get("best"), str) else ()
        best = answer.get("best_moves")
        if isinstance(best, list) and all(isinstance(m, str) for m in best):
            return tuple(best)
        rows = answer.get("moves")
        if not isinstance(rows, list):
            return ()
        scored = [(row["mean"], row["move"]) for row in rows if isinstance(row, dict)
                  and isinstance(row.get("move"), str)
                  and isinstance(row.get("mean"), int | float)]  # fmt: skip
        top = max((mean for mean, _ in scored), default=None)
        return tuple(move for mean, move in scored if mean == top)


def report_problems(console: Console, file: str, kind: str, reasons: list[str],
                    as_json: bool, puzzle: str | None = None) -> None:  # fmt: skip
    """``validate``'s verdict on a file checked problem by problem (a position, a
    solution): valid, or each problem on a line, and ``SystemExit`` 1 when there is one."""

    valid = not reasons
    if as_json:
        doc = {"valid": valid, "reasons": reasons, "file": file, "kind": kind, "puzzle": puzzle}
        console.out(json.dumps(doc, indent=2))
    elif valid:
        against = f" for puzzle {printable(puzzle)}" if puzzle is not None else ""
        console.out(f"{printable(file)}: valid {kind}{against}")
    else:
        for reason in reasons:
            console.out(printable(reason))  # reasons quote names read from the file
        console.err(f"{file}: invalid, {len(reasons)} problem(s)")
    if not valid:
        raise SystemExit(1)


def _columns(console: Console, moves: tuple[str, ...], limit: int, width: int = 88) -> None:
    """The first ``limit`` of ``moves`` (0: all) in aligned columns, as ``ls`` lists names."""
    if not moves:
        console.out("  (none)")
        return
    shown = moves[:limit] if limit else moves
    wide = max(map(len, shown)) + 2
    per_line = max(1, (width - 2) // wide)
    for i in range(0, len(shown), per_line):
        console.out("  " + "".join(m.ljust(wide) for m in shown[i : i + per_line]).rstrip())
    if len(shown) < len(moves):
        console.out(f"  ... {len(moves) - len(shown):,} more (--limit 0 lists them all, "
                    "--json too)")  # fmt: skip


def proven_line(proven: Any, subject: str, side: str) -> str:
    """What an exact search stopped early had proven (a
    :class:`~polytile.solvers.alphabeta.ProvenBounds`), for people: ``subject`` names the
    value ("blue's final margin"), ``side`` the player to move. Values are whole numbers."""
    parts = []
    if math.isfinite(proven.low):
        parts.append(f"at least {proven.low:+.0f}")
    if math.isfinite(proven.high):
        parts.append(f"at most {proven.high:+.0f}")
    bound = " and ".join(parts) or "not bounded yet"
    keeps = "makes sure of at least" if proven.maximizing else "holds it to at most"
    mine = proven.low if proven.maximizing else proven.high
    move = (f"; {side}'s best move so far, {proven.move}, {keeps} {mine:+.0f}"
            if proven.move is not None and math.isfinite(mine) else "")
    return (f"proven before the stop: {subject} is {bound}{move} ({proven.moves_done} of "
            f"{proven.moves} moves searched to the end)")
