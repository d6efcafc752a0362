"""``polytile count --symmetry``: which group a count up to symmetry is taken under, said
in the text, in ``--json`` and in ``--help``; ``mirror-pieces`` (issue 47, item 2) and its
refusal for a set without every mirror twin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import Invoke, assert_clean_failure

# the one-sided tetrominoes (the five with J4 and S4, the mirror images of L4 and Z4), as
# many of each as fit, on 4x4
ONE_SIDED = {"format": "polytile/puzzle@1", "name": "one-sided-4x4", "board": ["...."] * 4,
             "one_sided": True,
             "pieces": [{"set": "tetrominoes", "count": "*"},
                        {"name": "J4", "shape": ["..#", "###"], "count": "*"},
                        {"name": "S4", "shape": [".##", "##."], "count": "*"}]}  # fmt: skip


def _file(tmp_path: Path, doc: dict) -> str:
    path = tmp_path / f"{doc['name']}.json"
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.mark.parametrize(("group", "up", "words", "names"), [
    ("board", 37, "the 4 rotations of the board", ["id", "rot90", "rot180", "rot270"]),
    ("rotations", 37, "the 4 rotations of the board", ["id", "rot90", "rot180", "rot270"]),
    ("mirror-pieces", 22, "the 8 symmetries of the board, its reflections turning each piece "
     "into its mirror twin", ["id", "rot90", "rot180", "rot270", "flip-lr", "flip-tb",
                              "transpose", "anti"]),
])  # fmt: skip
def test_the_text_and_json_say_which_group(invoke: Invoke, tmp_path: Path, group: str, up: int,
                                           words: str, names: list[str]) -> None:  # fmt: skip
    puzzle = _file(tmp_path, ONE_SIDED)
    text = invoke("count", puzzle, "--symmetry", group, "--no-progress")
    assert text.exit_code == 0, text.output
    assert text.stdout.strip() == f"one-sided-4x4: 117 solutions ({up} up to {words})"
    doc = json.loads(invoke("count", puzzle, "--symmetry", group, "--json").stdout)
    assert (doc["count"], doc["count_up_to_symmetry"], doc["symmetry"]) == (117, up, group)
    assert (doc["up_to"], doc["group"], doc["symmetries"]) == (words, names, len(names))


def test_none_and_no_symmetry_identify_nothing(invoke: Invoke, tmp_path: Path) -> None:
    puzzle = _file(tmp_path, ONE_SIDED)
    doc = json.loads(invoke("count", puzzle, "--symmetry", "none", "--json").stdout)
    assert (doc["count_up_to_symmetry"], doc["up_to"], doc["group"]) == (117, None, ["id"])
    doc = json.loads(invoke("count", puzzle, "--no-symmetry", "--json").stdout)
    assert (doc["count_up_to_symmetry"], doc["up_to"], doc["group"]) == (None, None, None)


def test_free_pieces_are_counted_alike_by_board_and_mirror_pieces(invoke: Invoke) -> None:
    for group in ("board", "mirror-pieces"):
        doc = json.loads(invoke("count", "pentomino-3x20", "--symmetry", group, "--json").stdout)
        assert (doc["count"], doc["count_up_to_symmetry"]) == (8, 2)
        assert doc["up_to"] == "the 4 symmetries of the board"


def test_mirror_pieces_is_refused_for_a_set_without_every_twin(invoke: Invoke,
                                                               tmp_path: Path) -> None:  # fmt: skip
    doc = dict(ONE_SIDED, name="lonely", pieces=[
        {"set": "tetrominoes", "count": "*"},
        {"name": "J4", "shape": ["..#", "###"], "count": "0-2"}])  # fmt: skip
    result = invoke("count", _file(tmp_path, doc), "--symmetry", "mirror-pieces")
    assert_clean_failure(result)
    said = " ".join(result.stderr.split())
    assert "--symmetry" in said and "lonely:" in said
    assert "both mirror images of each piece" in said  # what it is for
    assert "Z4 has no mirror twin in the set" in said
    assert "L4 (0-4 copies) and its twin J4 (0-2 copies) have different supplies" in said
    # the board's group still counts it
    assert invoke("count", _file(tmp_path, doc), "--no-progress").exit_code == 0


def test_help_names_every_group(invoke: Invoke) -> None:
    text = " ".join(invoke("count", "--help").stdout.split())
    assert "[board|rotations|none|mirror-pieces]" in text
    said = "mirror-pieces: every rotation and reflection, a reflection also turning each piece"
    assert f"{said} into its mirror twin" in text
