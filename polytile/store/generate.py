"""One candidate of any kind, and a kind's parameters: the generation framework's two entry
points, which find the kind by name (:func:`polytile.store.kinds.kind`) and know none.

A *kind* turns ``(params, seed, index)`` into one candidate puzzle, reproducibly: the same
three always give the same candidate, whichever process computes it (so candidates can run on
any executor, :mod:`polytile.store.sets`). A candidate is kept when its answer is proved
unique; otherwise it is dropped with a reason. The kinds: ``polytile generate --help``.

Examples
--------
>>> from polytile.store.generate import make_candidate, parse_params
>>> params = parse_params("packing", {"min_pieces": 5, "max_pieces": 5})
>>> c = make_candidate("packing", params, seed=1, index=0)
>>> c.accepted, c.puzzle.problem.n_pieces + len(c.puzzle.given)
(True, 5)
>>> make_candidate("packing", params, 1, 0).key == c.key
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polytile.store.candidates import Candidate
from polytile.store.kinds import kind

__all__ = ["make_candidate", "parse_params"]


def parse_params(name: str, values: Mapping[str, Any]) -> Any:
    """The parameters of the kind ``name`` from a mapping; missing ones take their defaults.

    Raises
    ------
    UnknownNameError
        For an unknown kind or parameter name.
    PolytileError
        For a kind that is not built, or values out of range.
    """
    return kind(name).parse_params(values)


def make_candidate(name: str, params: Any, seed: int, index: int) -> Candidate:
    """Candidate number ``index`` of a run of the kind ``name`` with ``params`` and ``seed``.

    Deterministic: the same arguments give the same candidate in any process.

    Raises
    ------
    UnknownNameError
        For an unknown kind (the message lists the others).
    """
    return kind(name).candidate(params, seed, index)
