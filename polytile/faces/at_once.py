"""Games whose players move at the same time: :class:`AtOnceFace`, the optional part of a
face that writes one move from each player's part, so that a front end can take the parts
one by one (the web board) and play them as the move ``play`` reads, and that may let its
engine player make a whole move or one player's part (:meth:`AtOnceFace.engine_at_once`)."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

from polytile.faces.face import Face
from polytile.puzzles.engine import EngineChoice

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
