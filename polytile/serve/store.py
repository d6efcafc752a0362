"""Puzzle sets on the web board: the stores ``polytile generate`` writes, browsed through
their kinds (:class:`~polytile.store.kinds.PuzzleKind`), as ``polytile puzzles`` does.

A puzzle is shown as its kind shows it: a picture for the kinds drawn on SVG sheets
(:class:`~polytile.store.kinds.DrawnKind`), the text of ``puzzles show`` for the others. A
solution is revealed only after the kind's ``show`` has checked the stored answer by the
rules engine (:class:`~polytile.store.kinds.UnsoundAnswerError` otherwise), so whatever the
page shows as a solution is one the rules accept.
"""

from __future__ import annotations

import os
from typing import Any

from polytile.serve.board import BoardError
from polytile.text import printable

__all__ = ["MOST_LISTED", "Shelf"]

#: Puzzles listed at once (the filters find the others).
MOST_LISTED = 500


class Shelf:
    """The puzzle stores served, by index (never by path)."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    def add(self, path: str) -> int:
        """Open the store at ``path`` once to check it is one; its index.

        Raises
        ------
        FormatError, sqlite3.Error
            For a file that is not a puzzle store.
        """
        with self._open_path(path) as store:
            store.count()
        self.paths.append(path)
        return len(self.paths) - 1

    @staticmethod
    def _open_path(path: str) -> Any:
        from polytile.store.db import PuzzleStore

        return PuzzleStore(path, create=False, lock_timeout=5.0)

    def _open(self, index: int) -> Any:
        if not 0 <= index < len(self.paths):
            raise BoardError(f"no puzzle set {index}: the board has {len(self.paths)}", 404)
        return self._open_path(self.paths[index])

    def stores(self) -> list[dict[str, Any]]:
        """Each store: its index, name, how many puzzles and of which kinds."""
        rows = []
        for i, path in enumerate(self.paths):
            with self._open(i) as store:
                rows.append({"index": i, "title": os.path.basename(path),
                             "count": store.count(), "kinds": store.kinds()})  # fmt: skip
        return rows

    def puzzles(self, index: int, kind: str | None = None, low: float | None = None,
                high: float | None = None) -> dict[str, Any]:  # fmt: skip
        """The puzzles of store ``index`` (of ``kind``, difficulty from ``low`` to ``high``),
        one row each as ``puzzles list`` gives it; at most :data:`MOST_LISTED`."""
        from polytile.store.kinds import kind as find_kind

        rows: list[dict[str, Any]] = []
        total = 0
        with self._open(index) as store:
            for sp in store.puzzles(kind, low, high):
                total += 1
                if len(rows) >= MOST_LISTED:
                    continue
                shape = find_kind(sp.kind).row(sp.puzzle) if sp.known else {}
                rows.append({"id": sp.id, "kind": printable(sp.kind[:40]), "known": sp.known,
                             **shape, "difficulty": round(sp.difficulty, 2)})  # fmt: skip
        return {"index": index, "puzzles": rows, "total": total}

    def stored(self, index: int, puzzle_id: int) -> Any:
        """The :class:`~polytile.store.db.StoredPuzzle` ``puzzle_id`` of store ``index``.

        Raises
        ------
        BoardError
            For no such store or puzzle (404), or a kind this version does not know.
        """
        from polytile.errors import PolytileError

        with self._open(index) as store:
            try:
                sp = store.get(puzzle_id)
            except PolytileError as exc:
                raise BoardError(printable(str(exc).replace(self.paths[index],
                                                            "the set")), 404) from None  # fmt: skip
        if not sp.known:
            raise BoardError(f"puzzle {sp.id}: {sp.unknown()}")
        return sp

    def puzzle(self, index: int, puzzle_id: int, solution: bool) -> dict[str, Any]:
        """Puzzle ``puzzle_id`` of store ``index`` as its kind shows it, and with
        ``solution`` its answer, checked by the rules first.

        Raises
        ------
        BoardError
            For no such puzzle, a kind this version does not know, or an answer the rules
            refuse.
        """
        from polytile.render import to_svg
        from polytile.store.kinds import ByHandKind, DrawnKind, UnsoundAnswerError
        from polytile.store.kinds import kind as find_kind

        sp = self.stored(index, puzzle_id)
        shown = find_kind(sp.kind)
        try:
            text = "".join(shown.show(sp, solution, False))
        except UnsoundAnswerError as exc:
            raise BoardError(f"puzzle {sp.id}'s stored answer is unsound: {exc}") from None
        doc: dict[str, Any] = {"id": sp.id, "kind": sp.kind, "difficulty": sp.difficulty,
                               "caption": shown.caption(sp.puzzle), "text": text,
                               "svg": None, "solution_svg": None, "solution": solution,
                               "answer_lead": shown.answer_lead,
                               "by_hand": isinstance(shown, ByHandKind)}  # fmt: skip
        if isinstance(shown, DrawnKind):
            doc["svg"] = to_svg(shown.picture(sp.puzzle), 24)
            if solution:  # checked by show above
                doc["solution_svg"] = to_svg(shown.answer_picture(sp.solution()), 24)
        return doc
