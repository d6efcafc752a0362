"""Games whose players move at the same time: :class:`AtOnceFace`, the optional part of a
face that writes one move from each player's part, so that a front end can take the parts
one by one (the web board) and play them as the move ``play`` reads."""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

from polytile.faces.face import Face

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
