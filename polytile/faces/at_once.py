"""Games whose players move at the same time: :class:`AtOnceFace`, the optional part of a
face that writes one move from each player's part, so that a front end can take the parts
one by one (the web board) and play them as the move ``play`` reads, and that may let its
engine player make a whole move or one player's part (:meth:`AtOnceFace.engine_at_once`)."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

from polytile.errors import OptionError
from polytile.faces.face import Face
from polytile.puzzles.engine import EngineChoice
from polytile.text import listed

__all__ = ["AtOnceFace"]


class AtOnceFace(Face):
    """A face whose players move at once (its :class:`~polytile.faces.face.Legal` says
    ``at_once``).

    Attributes
    ----------
    at_once_players
        The players who each give a part, in the order the move writes them.
    """

    at_once_players: ClassVar[tuple[str, ...]]

    @abstractmethod
    def join_parts(self, parts: dict[str, str]) -> str:
        """The move :meth:`~polytile.faces.face.Face.play_move` reads, made of each
        player's part (``parts`` by player: one for each of :attr:`at_once_players`).

        Raises
        ------
        ValueError
            When a player's part is missing.
        """

    def engine_at_once(self, doc: Any, seconds: float,
                       player: str | None = None) -> tuple[str, EngineChoice] | None:  # fmt: skip
        """The engine player's choice at ``doc``'s position within ``seconds``: its text and
        what it rests on; None (the default) when the game has no engine player here.

        With ``player`` None, the whole move, every part chosen by the engine, each from its
        own player's view (the text :meth:`~polytile.faces.face.Face.play_move` reads; its
        value is the first of :attr:`at_once_players`'). With ``player`` one of
        :attr:`at_once_players`, that player's part only (as :meth:`join_parts` takes it;
        its value is ``player``'s), chosen from ``doc`` alone: nothing of the other parts of
        the move reaches it, as a player moving at once sees none of them.

        It is not :meth:`~polytile.faces.face.Face.engine_choice`, the engine's answer to a
        move (``play --reply``): here there is no move to answer, only parts made at once.
        """
        return None

    def split_parts(self, text: str) -> dict[str, str] | None:
        """Each player's part of the move ``text`` (by player, empty where none is written),
        or None where ``text`` is not written in parts (:meth:`play_move` then says what is
        wrong with it); the inverse of :meth:`join_parts`. None by default: no part of a
        move can be left to the engine."""
        return None

    def pending_parts(self, text: str) -> dict[str, str] | None:
        """``text``'s parts when exactly one player's part is empty: the engine makes it."""
        parts = self.split_parts(text)
        if parts is None or sum(not parts[p].strip() for p in self.at_once_players) != 1:
            return None
        return parts

    def _engine_reply(self, doc: Any, seconds: float,
                      pending: dict[str, str] | None = None) -> str:  # fmt: skip
        """``play --reply``: the engine makes the whole next move, or, with ``pending``,
        the one part left empty in it, from the position before the move alone (the other
        parts unseen, as a player moving at once sees none of them); the move is checked by
        :meth:`play_move`. The line that says what it played and why."""
        players = self.at_once_players
        if self.finished(doc):
            raise OptionError("the game is over: the engine has no move to answer with; "
                              "nothing was written", "--reply")  # fmt: skip
        missing = None if pending is None else next(p for p in players if not pending[p])
        found = self.engine_at_once(doc, seconds, missing)
        if found is None:
            raise OptionError(f"{self.title} has no engine player to answer with here; "
                              "nothing was written", "--reply")  # fmt: skip
        text, choice = found
        if pending is None:
            self.play_move(doc, text)  # the rules engine checks the engine's move too
            line = choice.said(players[0], text)  # the value is the first player's
            both = f"engine ({listed(list(players))})"
            return line.replace(f"engine ({players[0]})", both, 1)
        move = self.join_parts({**pending, missing: text})  # type: ignore[dict-item]
        where = self.move_place(doc)
        try:
            self.play_move(doc, move)
        except ValueError as e:
            raise OptionError(f"{move!r}{where}, {missing}'s part made by the engine: {e}; "
                              "nothing was written", "MOVES") from None  # fmt: skip
        given = listed([f"{p}'s" for p in players if p != missing])
        word = getattr(self, "move_word", "move")
        return (f"{choice.said(str(missing), text)}; chosen from the position before the "
                f"{word}, without seeing {given} part")  # fmt: skip
