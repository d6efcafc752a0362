"""The numpy and the compiled Blokus kernels agree, result for result and in the same order,
on every position of random games; and the switch between them happens when it should."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from polytile.puzzles.blokus import _compiled, kernels
from polytile.puzzles.blokus.moves import COLOR_NAMES, placement_table
from polytile.puzzles.blokus.rules import Blokus


@pytest.fixture(autouse=True)
def numpy_kernels() -> Iterator[None]:
    """Each test starts on the numpy kernels, and leaves them as it found them."""
    was = kernels.compiled()
    kernels.use_numpy()
    yield
    if was:
        kernels.use_compiled()
    else:
        kernels.use_numpy()


def _positions(variant: str, seed: int) -> Iterator[Blokus]:
    """Every position of a seeded random game."""
    rng = random.Random(seed)
    game = Blokus(variant)
    yield game
    while not game.is_game_over():
        moves = game.legal_moves()
        game.push(rng.choice(moves))
        yield game


@pytest.mark.parametrize(("variant", "seed"), [("duo", 1), ("duo", 2), ("classic", 3)])
def test_numpy_kernels_agree_with_the_compiled_ones(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    t = placement_table(Blokus(variant).size)
    n = t.size
    out_np = np.empty(len(t.piece), dtype=np.int64)
    out_nb = np.empty(len(t.piece), dtype=np.int64)
    seen_moves = 0
    for game in _positions(variant, seed):
        bits, k = game._bits, len(game.variant.colors)
        grid = np.frombuffer(bytes(game._grid), dtype=np.uint8).copy()
        for ci, color in enumerate(game.variant.colors):
            args = (bits[0], bits[1 + ci], bits[1 + k + ci], game._hand[ci])
            a = kernels._generate(t.masks, t.piece, t.cell_ptr, t.cell_placements, *args, out_np)
            b = _compiled.generate(t.masks, t.piece, t.cell_ptr, t.cell_placements, *args, out_nb)
            assert a == b and out_np[:a].tolist() == out_nb[:b].tolist()
            seen_moves += a
            for p in rng.sample(range(len(t.piece)), 40) + out_np[: min(a, 5)].tolist():
                status = (t.masks, p, bits[0], bits[1 + ci], bits[1 + k + ci])
                assert kernels._placement_status(*status) == _compiled.placement_status(*status)
            r, c = game.variant.starts[color]
            code = COLOR_NAMES.index(color) + 1
            results = []
            for fn in (kernels._reach, _compiled.reach):
                reach = np.empty(n * n, dtype=np.bool_)
                pieces = np.empty(21, dtype=np.uint8)
                count = fn(grid, n, code, r * n + c, game._hand[ci].copy(), t.flat, t.piece,
                           t.cell_ptr, t.cell_placements, reach, pieces)  # fmt: skip
                results.append((int(count), reach.tolist(), pieces.tolist()))
            assert results[0] == results[1]
        if a:
            p = int(out_np[0])
            one, two = bits.copy(), bits.copy()
            kernels._place(one, 0, k, p, t.masks, t.edge_masks, t.corner_masks)
            _compiled.place(two, 0, k, p, t.masks, t.edge_masks, t.corner_masks)
            assert (one == two).all()
    assert seen_moves > 100  # the games did reach positions with moves to compare


def test_the_switch_waits_for_enough_numpy_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernels, "SWITCH_AFTER", 3600.0)
    game = Blokus("duo")
    for _ in range(6):
        game.push(game.legal_moves()[0])
    assert not kernels.compiled()
    monkeypatch.setattr(kernels, "SWITCH_AFTER", 0.0)
    moves = game.legal_moves()  # charged, and now due
    assert kernels.compiled() and kernels.generate is _compiled.generate
    assert game.legal_moves() == moves  # the same answer from the compiled kernel


def test_use_numpy_goes_back() -> None:
    kernels.use_compiled()
    assert kernels.compiled()
    kernels.use_numpy()
    assert not kernels.compiled() and kernels.reach is kernels._reach
