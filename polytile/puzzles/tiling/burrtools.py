"""BurrTools puzzle files (``.xmpuzzle``: XML, usually gzipped) read as polytile puzzles.

What polytile reads of the format (learned from BurrTools' own reader and writer):

* ``<gridType type="0"/>``: the grid; 0 is cubes, the others (triangular prisms, spheres,
  rhombic, tetrahedra and octahedra) are refused, naming the grid.
* ``<shapes>``: one ``<voxel x= y= z= name=>`` per shape, its text one character a voxel,
  ``x`` fastest, then ``y``, then ``z``: ``#`` filled, ``_`` empty, ``+`` variable (may be
  filled or not); a character may be followed by digits, a colour constraint.
* ``<problems>``: each ``<problem name=>`` lists ``<shape id= count=>`` (or ``min= max=``)
  and ``<result id=>``, the shape the pieces must fill.

A puzzle on the cube grid is read with no variable voxel in the result (polytile covers its
board exactly) and no colour constraint. When every shape it uses has its voxels in one
layer it becomes a puzzle of squares, its pieces free to turn over (a flat piece can be
flipped in space); otherwise a puzzle of polycubes (``"grid": "cube"``), its pieces turning
by rotations only, as solid pieces do.
"""

from __future__ import annotations

import gzip
import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from polytile.errors import FormatError

__all__ = ["GRIDS", "read_xmpuzzle"]

#: BurrTools' grids by number.
GRIDS = {0: "cube", 1: "triangular prism", 2: "sphere", 3: "rhombic",
         4: "tetrahedron and octahedron"}  # fmt: skip
#: The largest file read, and the most it may inflate to, in bytes.
MOST_BYTES = 16 * 2**20
MOST_XML = 64 * 2**20


def _xml(path: str) -> ET.Element:
    with open(path, "rb") as f:
        data = f.read(MOST_BYTES + 1)
    if len(data) > MOST_BYTES:
        raise FormatError(f"larger than {MOST_BYTES // 2**20} MB", path)
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as g:
                data = g.read(MOST_XML + 1)
        except (OSError, EOFError) as exc:
            raise FormatError(f"not a readable gzip file: {exc}", path) from None
        if len(data) > MOST_XML:
            raise FormatError(f"inflates to more than {MOST_XML // 2**20} MB", path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # BurrTools writes its comments in Latin-1, undeclared
        text = data.decode("latin-1")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise FormatError(f"not a BurrTools puzzle: XML error {exc}", path) from None
    if root.tag != "puzzle":
        raise FormatError(f"not a BurrTools puzzle: the XML root is <{root.tag}>", path)
    return root


def _int(node: ET.Element, key: str, path: str, where: str, default: int | None = None) -> int:
    text = node.get(key)
    if text is None and default is not None:
        return default
    try:
        return int(text or "")
    except ValueError:
        raise FormatError(f"attribute {key}={text!r} is not a whole number", path,
                          where) from None  # fmt: skip


def _voxels(node: ET.Element, path: str, where: str) -> tuple[int, int, int, list[str]]:
    """A shape's size and its voxels' states ('#', '_', '+'), colours refused."""
    sx, sy, sz = (_int(node, k, path, where) for k in ("x", "y", "z"))
    if min(sx, sy, sz) < 1 or sx * sy * sz > 10**6:
        raise FormatError(f"a shape of {sx}x{sy}x{sz} voxels", path, where)
    states: list[str] = []
    for ch in (node.text or "").strip():
        if ch in "#_+":
            states.append(ch)
        elif ch.isdigit():
            if ch != "0":
                raise FormatError("a colour constraint on a voxel: polytile has none", path,
                                  where)  # fmt: skip
        else:
            raise FormatError(f"character {ch!r} in a voxel space (#, _ and + only)", path, where)
    if len(states) != sx * sy * sz:
        raise FormatError(f"{len(states)} voxels for a {sx}x{sy}x{sz} space", path, where)
    return sx, sy, sz, states


def _solid(node: ET.Element, path: str, where: str) -> dict[tuple[int, int, int], str]:
    """The shape's non-empty voxels as (layer, row, column)."""
    sx, sy, _, states = _voxels(node, path, where)
    cells: dict[tuple[int, int, int], str] = {}
    for i, state in enumerate(states):
        if state != "_":
            x, rest = i % sx, i // sx
            cells[(rest // sy, rest % sy, x)] = state  # (z, y, x)
    return cells


def _flat(cells: dict[tuple[int, int, int], str]) -> dict[tuple[int, int], str]:
    """A shape of one layer as (row, column)."""
    return {(y, x): state for (_, y, x), state in cells.items()}


def _layers(cells: dict[tuple[int, int, int], Any], filled: str = "#",
            empty: str = ".") -> list[str]:  # fmt: skip
    """A solid shape in the cube grid's text form (layers side by side), moved to 0."""
    from polytile.grids import grid

    low = [min(c[i] for c in cells) for i in range(3)]
    moved: dict[tuple[int, ...], str] = {(z - low[0], y - low[1], x - low[2]): filled
                                         for z, y, x in cells}
    return grid("cube").write_text(moved, empty)


def _rows(cells: dict[tuple[int, int], Any], filled: str = "#", empty: str = ".") -> list[str]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    height = max(r for r, _ in cells) - top + 1
    width = max(c for _, c in cells) - left + 1
    return ["".join(filled if (top + r, left + c) in cells else empty for c in range(width))
            for r in range(height)]  # fmt: skip


def read_xmpuzzle(path: str | Path, problem: int | None = None) -> dict[str, Any]:
    """The ``polytile/puzzle@1`` document of a flat BurrTools puzzle (the module's
    docstring): ``problem`` picks one of the file's problems (0-based; default the first).

    Raises
    ------
    FormatError
        Naming the file and the part at fault: another grid, a shape in several layers, a
        variable voxel in the result, a colour constraint, XML that is not a puzzle.
    """
    path = str(path)
    root = _xml(path)
    grid = root.find("gridType")
    kind = 0 if grid is None else _int(grid, "type", path, "gridType", 0)
    if kind != 0:
        raise FormatError(f"a puzzle on BurrTools' {GRIDS.get(kind, str(kind))} grid: polytile "
                          "reads puzzles of BurrTools' cube grid (squares and polycubes)",
                          path, "gridType")  # fmt: skip
    shapes = root.findall("shapes/voxel")
    problems = root.findall("problems/problem")
    if not problems:
        raise FormatError("the file holds no problem", path, "problems")
    index = 0 if problem is None else problem
    if not 0 <= index < len(problems):
        raise FormatError(f"problem {index} asked for; the file has {len(problems)} (0 to "
                          f"{len(problems) - 1})", path, "problems")  # fmt: skip
    chosen = problems[index]
    where = f"problem {index}"
    result = chosen.find("result")
    if result is None:
        raise FormatError("the problem has no result shape", path, where)
    rid = _int(result, "id", path, where)
    if not 0 <= rid < len(shapes):
        raise FormatError(f"result shape {rid} is not in the file", path, where)
    board = _solid(shapes[rid], path, f"shape {rid} (the result)")
    if "+" in board.values():
        raise FormatError("the result has variable voxels (+), which the pieces may leave "
                          "empty: polytile covers its board exactly", path, where)  # fmt: skip
    if not board:
        raise FormatError("the result shape is empty", path, where)
    used: list[tuple[int, int, int, dict[tuple[int, int, int], str]]] = []
    for entry in chosen.findall("shapes/shape"):
        sid = _int(entry, "id", path, where)
        if not 0 <= sid < len(shapes) or sid == rid:
            raise FormatError(f"piece shape {sid} is not a shape of the file", path, where)
        count = entry.get("count")
        low = _int(entry, "count" if count is not None else "min", path, where, 1)
        high = low if count is not None else _int(entry, "max", path, where, 1)
        if high < 1:
            continue
        cells = _solid(shapes[sid], path, f"shape {sid}")
        if not cells:
            raise FormatError(f"shape {sid} is empty", path, where)
        if "+" in cells.values():
            raise FormatError(f"shape {sid} has variable voxels (+)", path, where)
        used.append((sid, low, high, cells))
    if not used:
        raise FormatError("the problem uses no piece", path, where)
    flat = all(len({z for z, _, _ in cells}) == 1 for cells in [board] + [u[3] for u in used])
    pieces: list[dict[str, Any]] = []
    names: set[str] = set()
    for sid, low, high, cells in used:
        name = shapes[sid].get("name") or f"S{sid + 1}"
        while name in names:
            name += "'"
        names.add(name)
        shape = _rows(_flat(cells)) if flat else _layers(cells)
        pieces.append({"name": name, "shape": shape,
                       "count": high if low == high else f"{low}-{high}"})  # fmt: skip
    doc: dict[str, Any] = {"format": "polytile/puzzle@1",
                           "name": chosen.get("name") or Path(path).stem}  # fmt: skip
    if flat:
        doc["board"] = _rows(_flat(board), ".", "#")
    else:
        doc["grid"] = "cube"
        doc["board"] = _layers(board, ".", "#")
    doc.update(pieces=pieces, description=f"read from the BurrTools file {Path(path).name}")
    return doc
