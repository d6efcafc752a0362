"""What the web board holds: the records it serves and the positions in them, through the
games' faces only (no aiohttp here, so a Python user or a test can drive it directly).

A :class:`Board` keeps a list of :class:`Record` entries, each found by its index (never by
a path): the files given on the command line, those uploaded, and the variations started by
playing a move. A variation is a file's moves up to a point plus the moves played on the
board, kept in memory; the file itself is never written. Every position is read again from
the file by its face (``read(file, move)``) and the moves played replayed by the face's rules
(``play_move``), so whatever the page shows is what the CLI would show for the same moves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polytile.errors import FormatError, PolytileError
from polytile.faces.at_once import AtOnceFace
from polytile.faces.face import EndgameFace, Face
from polytile.serve.turning import orientations
from polytile.text import counted, listed, printable

__all__ = [
    "MAX_UPLOAD_BYTES",
    "UPLOAD_SUFFIXES",
    "Board",
    "BoardError",
    "EngineTask",
    "Record",
    "analyses_record",
    "analysis_modes",
]

#: The largest file the board takes as an upload (a 60-move record is a few kB).
MAX_UPLOAD_BYTES = 2_000_000

#: The most moves a step plays on from the last position shown rather than read the file
#: again (the moves are the record's own, so both give the same position).
STEPS_PLAYED_ON = 8

#: Positions whose picture, score and legal moves are kept (a record's moves are never
#: changed, only added to, so a kept position stays right).
KEPT_POSITIONS = 256

#: The suffixes an uploaded file keeps (they tell a Pentobi record from a JSON file); any
#: other name is saved as ``.json``, and its reader says what it is not.
UPLOAD_SUFFIXES = (".blksgf", ".sgf", ".json")


class BoardError(PolytileError, ValueError):
    """A request the board cannot honour (no such record or move, an illegal move): its
    message is shown to the person on the page.

    Parameters
    ----------
    message
        What is wrong, in the rules' words where they gave them.
    status
        The HTTP status the server answers with (404 for what does not exist).
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Record:
    """A record (or position) the board shows.

    Attributes
    ----------
    title
        Its name on the page.
    file
        The file its face reads (given on the command line, or an upload the board saved).
    face
        Its game's face.
    kind
        ``"record"``, ``"position"`` or ``"view"``, as the face reads it.
    base
        The file's moves this record starts with: all of them for a file, those before the
        variation's first move for a variation.
    played
        The moves played on the board after ``base`` (a variation's own), in ``play``'s
        notation.
    parent
        The record a variation was started from (its index), or None for a file.
    """

    title: str
    file: str
    face: Face
    kind: str
    base: tuple[str, ...]
    played: list[str] = field(default_factory=list)
    parent: int | None = None
    _last: tuple[int, Any] | None = field(default=None, repr=False)

    @property
    def moves(self) -> tuple[str, ...]:
        """Every move of the record, in order."""
        return (*self.base, *self.played)

    def doc(self, move: int, *, keep: bool = False) -> Any:
        """The face's document of the position after ``move`` moves, the caller's to change
        (``keep``: one it only reads, kept so that the next step plays on from it instead
        of reading the file again; a record read replays its moves, tens of ms)."""
        last, self._last = self._last, None
        if last is not None and last[0] <= move <= last[0] + STEPS_PLAYED_ON:
            at, doc = last
            for text in self.moves[at:move]:
                self.face.play_move(doc, text)
        else:
            start = min(move, len(self.base))
            doc = self.face.read(self.file, start if self.kind == "record" else None)
            for text in self.played[: move - start]:
                self.face.play_move(doc, text)
        if keep:
            self._last = (move, doc)
        return doc

    def summary(self, index: int) -> dict[str, Any]:
        """This record as the page's list shows it (``length_text``: its length in words,
        "1 move", "5 rounds", the game's own word for a step)."""
        word = getattr(self.face, "move_word", "move")
        return {"index": index, "title": self.title, "game": self.face.name,
                "game_title": self.face.title, "kind": self.kind, "length": len(self.moves),
                "length_text": counted(len(self.moves), word),
                "variation": self.parent is not None, "parent": self.parent,
                # the move of the parent record the variation left it at (its own moves
                # follow): where "back to the record" leads
                "left_at": None if self.parent is None else len(self.base),
                "suffix": _suffix(self.file)}  # fmt: skip


@dataclass
class EngineTask:
    """An engine's move asked of the board (:meth:`Board.engine_task`): the position after
    ``at`` moves of record ``index``, as ``doc`` (the task's own), and what was asked.
    :meth:`think` reads nothing of the board, so it can run beside the board's other work."""

    index: int
    at: int
    face: Face
    doc: Any
    seconds: float
    to_move: str
    player: str | None = None
    parts: dict[str, str] | None = None

    def think(self) -> tuple[str, Any]:
        """The engine's move, as its text and its
        :class:`~polytile.puzzles.engine.EngineChoice`, found within ``seconds``.

        Raises
        ------
        BoardError
            When the face has no engine player in this position.
        """
        if isinstance(self.face, AtOnceFace):  # asked before any part of the person's is joined
            found = self.face.engine_at_once(self.doc, self.seconds, self.player)
        else:
            found = self.face.engine_choice(self.doc, self.seconds)
        if found is None:
            raise BoardError(f"{self.face.title} has no engine player here")
        return found


class Board:
    """The records served, by index.

    Its methods call the faces and may take a while (reading a file replays its moves): the
    server runs them one at a time outside its event loop.

    Examples
    --------
    >>> board = Board()
    >>> board.records
    []
    """

    def __init__(self) -> None:
        self.records: list[Record] = []
        self._kept: dict[tuple[int, int], dict[str, Any]] = {}

    def add_file(self, file: str, title: str | None = None) -> int:
        """Read ``file`` with its game's face and add it; its index.

        Raises
        ------
        FormatError
            For a file of no game, or one its game refuses (the rules' message).
        """
        from polytile.faces.registry import face_of_file

        found = face_of_file(file)
        if found is None:
            from polytile._files import explain_unread

            explain_unread(file)  # names what is wrong: empty, not UTF-8, not JSON, ...
            raise FormatError("not a record or position of a game polytile plays (Blokus, City "
                              "Blocks, Gridblock, Walkable Cities)", file)  # fmt: skip
        doc = found.read(file)
        name = title or os.path.basename(file)
        self.records.append(Record(name, file, found, str(doc.kind), found.record_moves(doc)))
        return len(self.records) - 1

    def record(self, index: int) -> Record:
        """The record of ``index``; BoardError (404) when there is none."""
        if not 0 <= index < len(self.records):
            raise BoardError(f"no record {index}: the board has {len(self.records)}", 404)
        return self.records[index]

    def _move(self, rec: Record, move: int | None) -> int:
        n = len(rec.moves)
        if move is None:
            return n
        if not 0 <= move <= n:
            raise BoardError(f"no move {move}: {rec.title} has {n} move{'s' * (n != 1)}", 404)
        return move

    def position(self, index: int, move: int | None = None) -> dict[str, Any]:
        """What the page shows of record ``index`` after ``move`` moves (None: the end):
        the face's SVG picture, the score, the moves, whose turn it is and the legal moves."""
        rec = self.record(index)
        at = self._move(rec, move)
        face = rec.face
        shown = self._kept.pop((index, at), None)
        if shown is None:
            shown = self._draw(rec, at)
        self._kept[index, at] = shown  # the most recent last
        while len(self._kept) > KEPT_POSITIONS:
            del self._kept[next(iter(self._kept))]
        return {
            **rec.summary(index),
            "at": at,
            "moves": list(rec.moves),
            **shown,
            "playable": rec.kind != "view",
            "move_help": face.move_help,
            "analysis": analysis_modes(face),
            "record_analysis": analyses_record(face, rec.kind),
            "at_once_players": _at_once(face),
            # whether the face says where its moves fall (asked for on the first click:
            # a Blokus opening's placements and their squares would double each step)
            "clickable": type(face).move_cells is not Face.move_cells,
            # an engine player to move for a side, or to answer a person's moves (in a game
            # whose players move at once: the whole move, or the parts a person left out)
            "engine": _engine_kind(face) is not None and rec.kind != "view",
        }

    @staticmethod
    def _draw(rec: Record, at: int) -> dict[str, Any]:
        """The picture, score and legal moves of ``rec`` after ``at`` moves."""
        doc = rec.doc(at, keep=True)
        face = rec.face
        legal = face.legal(doc)
        try:
            score: dict[str, Any] | None = face.score_doc(doc)
            score_error = ""
        except (PolytileError, ValueError) as exc:  # a position its score refuses
            score, score_error = None, printable(str(exc))
        picture = face.picture(doc, "svg", cell=24)
        return {"svg": picture.decode() if isinstance(picture, bytes) else picture,
                "score": score, "score_error": score_error,
                "legal": {**legal.as_dict(), "note": legal.note},
                "pieces": [{"name": p.name, "color": p.color, "prefix": p.prefix,
                            "playable": p.playable, "orientations": orientations(p.shape, False)}
                           for p in face.move_pieces(doc)] if rec.kind != "view" else [],
                "finished": face.finished(doc) or legal.to_move is None}  # fmt: skip

    def play(self, index: int, move: int, text: str, *, unseen: str = "") -> tuple[int, int]:
        """Play ``text`` after ``move`` moves of record ``index``, checked by the game's
        rules: the record it is added to and the number of moves there. ``unseen``: a part
        of ``text`` the person has not seen (the engine's part of a move made at once), left
        out of the message that refuses the move.

        At the end of a variation the move is added to it; anywhere else (a file's record,
        or an earlier move of a variation) it starts a new variation, so a file's moves are
        never changed.

        Raises
        ------
        BoardError
            For an illegal move (the rules' message), or a position the board does not
            continue (a view, whose hidden part the board does not know; a finished game).
        """
        rec = self.record(index)
        at = self._move(rec, move)
        text = text.strip()
        if not text:
            raise BoardError("no move given")
        if len(text) > 2000:
            raise BoardError("a move is at most 2000 characters")
        if rec.kind == "view":
            raise BoardError("this is a player's view: the hidden hands are not known, so the "
                             "board does not play on from it")  # fmt: skip
        doc = rec.doc(at)
        if rec.face.finished(doc) or rec.face.legal(doc).to_move is None:
            raise BoardError("the game is over: there are no moves")
        try:
            rec.face.play_move(doc, text)
        except ValueError as exc:  # IllegalMoveError and every parse error are ValueErrors
            said = f"{text}: {exc}"
            raise BoardError(printable(said.replace(unseen, "(the engine's part)") if unseen
                                       else said)) from None  # fmt: skip
        text = rec.face.played_text(doc, text)  # kept as the move list writes moves
        if rec.parent is not None and at == len(rec.moves):
            rec.played.append(text)
            return index, at + 1
        keep = min(at, len(rec.base))
        played = [*rec.played[: at - keep], text]
        origin = rec.parent if rec.parent is not None else index
        title = f"{self.records[origin].title}, variation from move {at}"
        self.records.append(Record(title, rec.file, rec.face, rec.kind, rec.base[:keep],
                                   played, origin))  # fmt: skip
        return len(self.records) - 1, at + 1

    def engine(self, index: int, move: int, seconds: float, player: str | None = None,
               parts: dict[str, str] | None = None) -> tuple[int, int, dict[str, Any]]:  # fmt: skip
        """The engine player's move after ``move`` moves of record ``index``, found within
        ``seconds`` and played as :meth:`play` plays a typed move (checked by the rules):
        the record it went into, the number of moves there, and what the choice rests on
        (:class:`~polytile.puzzles.engine.EngineChoice`, with ``mover``, the engine's
        ``text``, the move ``played``, ``value_for`` the player its value is for,
        ``unseen`` the players whose parts it did not see and a ``note`` saying so).

        In a game whose players move at once the engine makes the whole move, each part
        from its player's view; with ``player``, it makes that player's part only and the
        move is played with the other players' ``parts`` (a person's). That part is chosen
        from the position before the move: the face is asked before ``parts`` are joined
        to it, and the rules' message refusing the move leaves it out.

        It is :meth:`engine_task`, the task's :meth:`~EngineTask.think` and
        :meth:`engine_play` in one; the server runs the thinking apart from the board's
        other work, so that the board answers while the engine thinks.

        Raises
        ------
        BoardError
            For a game with no engine player, a view, a finished game, ``seconds``
            outside 0.1-60, a ``player`` or ``parts`` in a game whose players take turns,
            an unknown ``player``, or ``parts`` missing one of the other players'.
        """
        task = self.engine_task(index, move, seconds, player, parts)
        return self.engine_play(task, task.think())

    def engine_task(self, index: int, move: int, seconds: float, player: str | None = None,
                    parts: dict[str, str] | None = None) -> EngineTask:  # fmt: skip
        """The engine's move asked as :meth:`engine` asks it, checked and ready to think
        about: the request's errors are raised here, before any thinking."""
        rec = self.record(index)
        at = self._move(rec, move)
        face = rec.face
        if not 0.1 <= seconds <= 60:
            raise BoardError("the engine's time is 0.1 to 60 seconds")
        if _engine_kind(face) is None:
            raise BoardError(f"{face.title} has no engine player on the board")
        at_once = face if isinstance(face, AtOnceFace) else None
        if at_once is None and (player is not None or parts is not None):
            raise BoardError(f'in {face.title} the players take turns, so the engine makes '
                             'the next move: "player" and "parts" are for games whose players '
                             'move at once')  # fmt: skip
        if at_once is not None and player is not None:
            _check_parts(at_once, player, parts or {})
        elif parts is not None:
            raise BoardError('"parts" go with "player": the player whose part the engine makes')
        if rec.kind == "view":
            raise BoardError("this is a player's view: the hidden hands are not known, so the "
                             "engine does not play on from it")  # fmt: skip
        doc = rec.doc(at)
        legal = face.legal(doc)
        if face.finished(doc) or legal.to_move is None:
            raise BoardError("the game is over: there are no moves")
        return EngineTask(index, at, face, doc, seconds, legal.to_move, player, parts)

    def engine_play(self, task: EngineTask, found: tuple[str, Any]) -> tuple[
            int, int, dict[str, Any]]:  # fmt: skip
        """Play the move ``task``'s thinking ``found`` (:meth:`EngineTask.think`), as
        :meth:`engine` returns it. Records only grow, so the position it was found in is
        still the one after ``task.at`` moves of ``task.index``, whatever was played
        meanwhile."""
        face, player, parts = task.face, task.player, task.parts
        at_once = face if isinstance(face, AtOnceFace) else None
        valued = at_once.at_once_players[0] if at_once is not None else task.to_move
        text, choice = found
        played, unseen = text, []
        if at_once is not None and player is not None:
            played = self.join(task.index, {**(parts or {}), player: text})
            unseen = [p for p in at_once.at_once_players if p != player]
        where, now = self.play(task.index, task.at, played, unseen=text if unseen else "")
        note = ""
        if unseen:
            word, whose = getattr(face, "move_word", "move"), listed([p + "'s" for p in unseen])
            note = (f"chosen from the position before the {word}, without seeing {whose} "
                    f"part{'s' * (len(unseen) > 1)}")  # fmt: skip
        return where, now, {**choice.as_dict(), "text": text, "played": played,
                            "mover": player or task.to_move, "value_for": player or valued,
                            "unseen": unseen, "note": note}  # fmt: skip

    def cells(self, index: int, move: int | None = None) -> dict[str, Any] | None:
        """Where the legal moves after ``move`` moves of record ``index`` fall in its
        picture (:meth:`~polytile.faces.face.Face.move_cells`), or None."""
        rec = self.record(index)
        found = rec.face.move_cells(rec.doc(self._move(rec, move), keep=True), cell=24)
        return None if found is None else found.as_dict()

    def join(self, index: int, parts: dict[str, str]) -> str:
        """The move made of each player's part (a game whose players move at once).

        Raises
        ------
        BoardError
            For a game whose players do not, or a part missing.
        """
        face = self.record(index).face
        if not isinstance(face, AtOnceFace):
            raise BoardError(f"in {face.title} the players do not move at once: give the move")
        try:
            return face.join_parts(parts)
        except ValueError as exc:
            raise BoardError(printable(str(exc))) from None

    def preview(self, index: int, move: int, text: str) -> dict[str, Any]:
        """The board after ``text`` is played after ``move`` moves of record ``index``,
        without keeping it (an analysis's best move shown): its SVG picture and score.

        Raises
        ------
        BoardError
            For a move the rules refuse.
        """
        rec = self.record(index)
        doc = rec.doc(self._move(rec, move))
        try:
            rec.face.play_move(doc, text)
        except ValueError as exc:
            raise BoardError(printable(f"{text}: {exc}")) from None
        picture = rec.face.picture(doc, "svg", cell=24)
        return {"svg": picture.decode() if isinstance(picture, bytes) else picture,
                "text": text, "at": move}  # fmt: skip

    def download(self, index: int) -> tuple[str, str]:
        """Record ``index`` as its game writes it (every move) and a file name for it."""
        rec = self.record(index)
        if rec.kind == "view":  # no moves are played on a view: it is the file as read
            try:
                text = Path(rec.file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise BoardError(f"{rec.title} can no longer be read: {exc}") from None
        else:
            text = rec.face.dumps(rec.doc(len(rec.moves)))
        stem = Path(self.records[rec.parent if rec.parent is not None else index].title).stem
        name = f"{stem}-variation-{index}" if rec.parent is not None else stem
        return text, _safe_name(name) + _suffix(rec.file)

    def picture(self, index: int, move: int | None, kind: str) -> tuple[bytes, str, str]:
        """The picture of record ``index`` after ``move`` moves (None: the end), ``kind``
        ``"svg"`` or ``"png"`` as the face draws it for the page: its bytes, media type and a
        file name."""
        if kind not in ("svg", "png"):
            raise BoardError(f'"kind" must be svg or png, not {printable(kind[:20])!r}')
        rec = self.record(index)
        at = self._move(rec, move)
        drawn = rec.face.picture(rec.doc(at), kind, cell=24)
        data = drawn if isinstance(drawn, bytes) else drawn.encode("utf-8")
        stem = Path(self.records[rec.parent if rec.parent is not None else index].title).stem
        name = f"{_safe_name(stem)}-move-{at}.{kind}"
        return data, "image/svg+xml" if kind == "svg" else "image/png", name


def analysis_modes(face: Face) -> list[str]:
    """The analyses the page offers for ``face``'s positions: ``exact`` (``solve-endgame``),
    ``open`` and ``view`` where the game declares ``--open`` and ``--view``, and ``bounds``
    (``polytile bounds`` of every colour) where the game has them."""
    from polytile.faces.bounds import BoundsFace

    modes = []
    if isinstance(face, EndgameFace):
        declared = face.endgame_options
        modes += ["exact", *(["open"] if "open_analysis" in declared else []),
                  *(["view"] if "view" in declared else [])]  # fmt: skip
    return modes + (["bounds"] if isinstance(face, BoundsFace) else [])


def analyses_record(face: Face, kind: str) -> bool:
    """Whether a ``kind`` file of ``face``'s game is analysed move by move
    (``polytile analyse``): a record of a game whose face analyses records."""
    from polytile.faces.analysis import AnalyseFace, OwnAnalysisFace

    return kind == "record" and isinstance(face, AnalyseFace | OwnAnalysisFace)


def _at_once(face: Face) -> list[str] | None:
    """The players who give a part each of a move, for a game whose players move at once."""
    return list(face.at_once_players) if isinstance(face, AtOnceFace) else None


def _engine_kind(face: Face) -> str | None:
    """How the board's engine plays ``face``'s game: ``"turns"`` (the next move, the face's
    ``engine_choice``), ``"at once"`` (a whole move made at once, or a player's part of it:
    :meth:`~polytile.faces.at_once.AtOnceFace.engine_at_once`), or None (no engine)."""
    if isinstance(face, AtOnceFace):
        return None if type(face).engine_at_once is AtOnceFace.engine_at_once else "at once"
    return None if type(face).engine_choice is Face.engine_choice else "turns"


def _check_parts(face: AtOnceFace, player: str, parts: dict[str, str]) -> None:
    """Refuse (BoardError) an engine's answer for ``player`` whose other ``parts`` (the
    person's) are not all given, or that gives ``player``'s own."""
    players = face.at_once_players
    if player not in players:
        raise BoardError(f"no player {printable(player[:40])!r} in {face.title}: "
                         f"{' or '.join(players)}")  # fmt: skip
    if player in parts:
        raise BoardError(f"{player}'s part is the engine's to make: leave it out of \"parts\"")
    missing = [f"{p}'s" for p in players if p != player and not parts.get(p, "").strip()]
    if missing:
        raise BoardError(f'give {listed(missing)} part{"s" * (len(missing) > 1)} in "parts": '
                         f"the engine answers with {player}'s")  # fmt: skip


def _suffix(file: str) -> str:
    suffix = Path(file).suffix.lower()
    return suffix if suffix in UPLOAD_SUFFIXES else ".json"


def _safe_name(name: str) -> str:
    """A file name of letters, digits, ``-``, ``_`` and ``.`` only (for a download)."""
    kept = "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip(".-")
    return kept[:80] or "record"
