"""Fixtures for the web board's tests: self-played records of every game, written once."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="the web board needs aiohttp (pip install 'polytile[serve]')")

#: One self-played record or position per game: (file name, game, selfplay options).
RECORDS = (
    ("henning.json", "henning", {}),
    ("duo.blksgf", "blokus", {"variant": "duo"}),
    ("grid.json", "gridblock", {}),
    ("walk.json", "walkable", {}),
)


@pytest.fixture(scope="session")
def game_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each game's file by game name: the self-played records of :data:`RECORDS` (seed 3),
    a new City Blocks (Ritchie) position and a two-player Gridblock record with the split
    deal (``"gridblock-split"``)."""
    from polytile.faces.registry import face

    folder = tmp_path_factory.mktemp("records")
    files = {}
    for name, game, options in RECORDS:
        text, _ = face(game).selfplay(3, 0, options)  # type: ignore[attr-defined]
        files[game] = folder / name
        files[game].write_text(text)
    files["cityblocks"] = folder / "cityblocks.json"
    files["cityblocks"].write_text(face("cityblocks").new(0, {}))
    # two players, split deal: in rounds 2, 4 and 6 every hand is known to every player
    text, _ = face("gridblock").selfplay(3, 0, {"players": 2, "deal": "split"})  # type: ignore[attr-defined]
    files["gridblock-split"] = folder / "grid-split.json"
    files["gridblock-split"].write_text(text)
    return files


@pytest.fixture(scope="session")
def store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A puzzle set: a Blokus teaser (drawn as a picture) and a City Blocks (Henning) puzzle
    (shown as text)."""
    from polytile.store.db import PuzzleStore
    from polytile.store.generate import parse_params
    from polytile.store.sets import build_set

    path = tmp_path_factory.mktemp("store") / "set.db"
    with PuzzleStore(path) as db:
        build_set(db, "blokus-teaser", parse_params("blokus-teaser", {}), 0, 1)
        build_set(db, "henning", parse_params("henning", {}), 0, 1)
    return path


@pytest.fixture(scope="session")
def hand_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A puzzle set to solve by hand: a packing puzzle of three tetrominoes, none given in
    place (the tests place the solution's pieces in order), and a teaser of two colours
    with two pieces each."""
    from polytile.store.db import PuzzleStore
    from polytile.store.generate import parse_params
    from polytile.store.sets import build_set

    path = tmp_path_factory.mktemp("hand") / "hand.db"
    packing = {"pieces": "tetrominoes", "min_pieces": 3, "max_pieces": 3, "max_given": 0}
    teaser = {"min_pieces": 2, "max_pieces": 2, "colors": 2}
    with PuzzleStore(path) as db:
        build_set(db, "packing", parse_params("packing", packing), 0, 1)
        build_set(db, "blokus-teaser", parse_params("blokus-teaser", teaser), 0, 1)
    return path
