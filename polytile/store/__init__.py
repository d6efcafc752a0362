"""The puzzle store and the generation framework, which know no game.

Modules: :mod:`~polytile.store.kinds` (the :class:`~polytile.store.kinds.PuzzleKind` contract
each game's kinds implement, and :func:`~polytile.store.kinds.kind`, which finds one by name
through the registry :data:`polytile.faces.registry.KINDS`), ``candidates`` (what a kind's
generator makes), ``generate`` (one candidate of any kind), ``db`` (the SQLite puzzle store)
and ``sets`` (building a set on an executor, and re-verifying a store).

Examples
--------
>>> from polytile.store.db import PuzzleStore
>>> from polytile.store.generate import parse_params
>>> from polytile.store.sets import build_set, verify_store
>>> with PuzzleStore(":memory:") as db:
...     report = build_set(db, "blokus-teaser", parse_params("blokus-teaser", {}), 0, 1)
...     [(sp.kind, problems) for sp, (_, problems) in zip(db.puzzles(), verify_store(db))]
[('blokus-teaser', [])]
"""

__all__: list[str] = []
