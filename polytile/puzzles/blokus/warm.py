"""The Blokus endgame search run on a small ending, so that numba compiles and caches it
(:mod:`polytile._warm` runs :func:`warm_up` in a process of its own the first time)."""

from __future__ import annotations

import numpy as np

from polytile.puzzles.blokus import kernels
from polytile.puzzles.blokus.endgame import endgame_size, score_ranges
from polytile.puzzles.blokus.endgame_kernel import kernel_line
from polytile.puzzles.blokus.rules import Blokus

__all__ = ["warm_up"]


def warm_up() -> None:
    """Compile what ``solve-endgame`` runs: the compiled move generator a long command
    switches to, the reach bounds, and the search itself with one thread and with two; and
    the engine's ranking and playouts (:func:`polytile.puzzles.blokus.engine.load`)."""
    from polytile.puzzles.blokus import engine

    kernels.use_compiled()
    engine.compile_playouts()
    game = Blokus("duo")
    rng = np.random.default_rng(0)
    while max(endgame_size(game).values()) > 2:
        score_ranges(game)
        moves = game.legal_moves()
        game.push(moves[int(rng.integers(len(moves)))])
    kernel_line(game, [1, -1], [True, False], threads=1)
    kernel_line(game, [1, 0], [True, True], threads=2)
