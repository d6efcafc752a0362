"""The compiled Blokus endgame search keeps its values on the Duo positions 10 plies before the
end of ``benchmarks/blokus-deep.json``: the values below are those the search of commit 8da01bd
found (one thread, ``kernel_line``), before the work of issue 38 on its speed. Each line is
replayed by the rules engine to its value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polytile.formats import loads
from polytile.puzzles.blokus.endgame import _checked_line
from polytile.puzzles.blokus.endgame_kernel import kernel_line
from polytile.puzzles.blokus.rules import Blokus

POSITIONS = Path(__file__).resolve().parents[3] / "benchmarks" / "blokus-deep.json"

#: Blue's lead at the end of perfect play, per seed, as commit 8da01bd solved them.
VALUES_10 = {0: 1, 1: 12, 2: 9, 3: -6, 4: -6, 5: -18, 6: 3, 7: -11, 8: 7, 9: -6, 10: 6, 11: -8}
#: The two that take the longest (most of the set's time): left out at the reduced size.
BIGGEST = {5, 10}


@pytest.mark.slow
def test_the_deep_duo_positions_keep_their_values(slow_scale: str) -> None:
    rows = json.loads(POSITIONS.read_text())["10"]
    assert sorted(row["seed"] for row in rows) == sorted(VALUES_10)
    for row in rows:
        seed = row["seed"]
        if slow_scale == "reduced" and seed in BIGGEST:
            continue
        position = loads(json.dumps(row["position"]))
        game = Blokus.from_position(position)  # type: ignore[arg-type]
        value, pv, _ = kernel_line(game, [1, -1], [True, False], threads=1)
        assert value == VALUES_10[seed], f"seed {seed}"
        line = _checked_line(game, "blue", value, pv, [1, -1])  # raises unless it replays
        assert line.value == VALUES_10[seed]
