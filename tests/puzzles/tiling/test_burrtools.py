"""BurrTools puzzle files (issue 47, item 6): puzzles on the cube grid read as polytile
puzzles (flat ones as squares, the others as polycubes, issue 51), the rest refused naming
why. The files here are written by the test, to the format
BurrTools reads (voxels x fastest, then y, then z; '#' filled, '_' empty, '+' variable)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polytile.cli import cli
from polytile.errors import FormatError
from polytile.puzzles.tiling.burrtools import read_xmpuzzle
from polytile.puzzles.tiling.catalogue import load_puzzle
from polytile.puzzles.tiling.puzzle_file import parse_puzzle
from polytile.solvers.counting import count_tiling


def xmpuzzle(shapes: list[tuple[int, int, int, str, str]], parts: list[str], result: int,
             grid: int = 0) -> str:  # fmt: skip
    """A puzzle file's XML: shapes as (x, y, z, name, voxels), the problem's <shape> tags."""
    voxels = "\n".join(f'    <voxel x="{x}" y="{y}" z="{z}" name="{n}" type="0">{v}</voxel>'
                       for x, y, z, n, v in shapes)  # fmt: skip
    return (f'<?xml version="1.0"?>\n<puzzle version="2">\n  <gridType type="{grid}"/>\n'
            f"  <colors/>\n  <shapes>\n{voxels}\n  </shapes>\n  <problems>\n"
            f'    <problem name="p" state="0">\n      <shapes>\n'
            + "\n".join(f"        {p}" for p in parts)
            + f'\n      </shapes>\n      <result id="{result}"/>\n    </problem>\n'
            "  </problems>\n</puzzle>\n")  # fmt: skip


SHAPES = [(6, 5, 1, "Board", "#" * 30), (3, 2, 1, "P", "###_##"), (4, 2, 1, "L", "####___#"),
          (3, 3, 1, "V", "#__#__###"), (4, 2, 1, "Y", "####_#__"), (3, 3, 1, "U", "#_####___"),
          (2, 2, 1, "O", "####")]  # fmt: skip
PARTS = ['<shape id="1" count="1"/>', '<shape id="2" count="1"/>', '<shape id="3" count="1"/>',
         '<shape id="4" count="1"/>', '<shape id="5" min="0" max="2"/>',
         '<shape id="6" min="0" max="3"/>']  # fmt: skip
SAME = {"format": "polytile/puzzle@1", "name": "same", "board": ["......"] * 5, "pieces": [
    {"name": "P", "shape": ["###", ".##"]}, {"name": "L", "shape": ["####", "...#"]},
    {"name": "V", "shape": ["#..", "#..", "###"]}, {"name": "Y", "shape": ["####", ".#.."]},
    {"name": "U", "shape": ["#.#", "###"], "count": "0-2"},
    {"name": "O", "shape": ["##", "##"], "count": "0-3"}]}  # fmt: skip


@pytest.mark.parametrize("zipped", [True, False])
def test_a_flat_puzzle_reads_as_the_same_polytile_puzzle(tmp_path: Path, zipped: bool) -> None:
    text = xmpuzzle(SHAPES, PARTS, 0)
    path = tmp_path / "six.xmpuzzle"
    path.write_bytes(gzip.compress(text.encode()) if zipped else text.encode())
    read = load_puzzle(path)
    same = parse_puzzle(SAME)
    assert read.problem.counts == same.problem.counts and read.problem.low == same.problem.low
    assert count_tiling(read.problem).count == count_tiling(same.problem).count > 0
    out = tmp_path / "six.json"
    assert CliRunner().invoke(cli, ["convert", str(path), "-o", str(out)]).exit_code == 0
    assert parse_puzzle(json.loads(out.read_text())).problem == read.problem


@pytest.mark.parametrize(("shapes", "grid", "said"), [
    (SHAPES, 1, "triangular prism grid"),
    ([(6, 5, 1, "Board", "+" + "#" * 29), *SHAPES[1:]], 0, "variable voxels"),
    ([(6, 5, 1, "Board", "#3" + "#" * 29), *SHAPES[1:]], 0, "colour constraint"),
    ([(6, 5, 1, "Board", "#" * 29), *SHAPES[1:]], 0, "29 voxels for a 6x5x1 space"),
])  # fmt: skip
def test_what_polytile_does_not_read_is_refused_naming_it(
    tmp_path: Path, shapes: list, grid: int, said: str
) -> None:
    path = tmp_path / "x.xmpuzzle"
    path.write_text(xmpuzzle(shapes, PARTS, 0, grid))
    with pytest.raises(FormatError, match=said):
        read_xmpuzzle(path)
    result = CliRunner().invoke(cli, ["count", str(path)])
    assert result.exit_code == 2 and said in result.stderr


def _voxels(cells: tuple[tuple[int, ...], ...]) -> tuple[int, int, int, str]:
    """A solid's BurrTools voxel space: x fastest, then y, then z."""
    sz, sy, sx = (1 + max(c[i] for c in cells) for i in range(3))
    text = "".join("#" if (z, y, x) in cells else "_"
                   for z in range(sz) for y in range(sy) for x in range(sx))  # fmt: skip
    return sx, sy, sz, text


def test_a_solid_puzzle_reads_as_a_puzzle_of_polycubes(tmp_path: Path) -> None:
    from polytile.geometry import piece_set

    soma = piece_set("soma")
    shapes = [(3, 3, 3, "Cube", "#" * 27)]
    shapes += [(*_voxels(p.cells)[:3], p.name, _voxels(p.cells)[3]) for p in soma]
    parts = [f'<shape id="{i + 1}" count="1"/>' for i in range(len(soma))]
    path = tmp_path / "soma.xmpuzzle"
    path.write_text(xmpuzzle(shapes, parts, 0))
    doc = read_xmpuzzle(path)
    assert doc["grid"] == "cube" and doc["board"] == ["... ... ..."] * 3
    read = load_puzzle(path)
    assert read.problem.one_sided and read.problem.symmetries == "mirror-pieces"
    assert {t.canonical_one_sided() for t in read.problem.types} == {
        p.canonical_one_sided() for p in soma}
    result = count_tiling(read.problem)
    assert (result.count, result.count_up_to_symmetry) == (11_520, 240)


def test_latin_1_comments_are_read(tmp_path: Path) -> None:
    """BurrTools writes a comment's accented letters in Latin-1 without declaring it."""
    comment = "<comment>Gr\xf6\xdfe</comment></puzzle>"
    text = xmpuzzle(SHAPES, PARTS, 0).replace("</puzzle>", comment)
    path = tmp_path / "c.xmpuzzle"
    path.write_bytes(text.encode("latin-1"))
    assert read_xmpuzzle(path)["name"] == "p"


def test_not_a_puzzle(tmp_path: Path) -> None:
    for content, said in ((b"<notxml", "XML error"), (b"<shapes/>", "root is <shapes>"),
                          (gzip.compress(b"<puzzle/>"), "holds no problem")):  # fmt: skip
        path = tmp_path / "y.xmpuzzle"
        path.write_bytes(content)
        with pytest.raises(FormatError, match=said):
            read_xmpuzzle(path)


def test_render_draws_a_flat_puzzle_with_its_ranges(tmp_path: Path) -> None:
    path = tmp_path / "six.xmpuzzle"
    path.write_bytes(gzip.compress(xmpuzzle(SHAPES, PARTS, 0).encode()))
    shown = CliRunner().invoke(cli, ["render", str(path), "--no-color"])
    assert shown.exit_code == 0, shown.output
    assert "U 0-2" in shown.stdout and "O 0-3" in shown.stdout and "P x1" in shown.stdout
    path.write_text(xmpuzzle(SHAPES, PARTS, 0, 1))
    refused = CliRunner().invoke(cli, ["render", str(path)])
    assert refused.exit_code == 2 and "triangular prism grid" in refused.stderr
    assert "Traceback" not in refused.output
