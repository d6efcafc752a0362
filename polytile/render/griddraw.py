"""The drawings of a :class:`~polytile.render.grids.GridScene`: the flat picture of a triangle
or hex board, or of a box of cubes as its layers side by side, and the isometric picture of
a box of cubes; :mod:`polytile.render.drawing` writes them as SVG and PNG.

Geometry, for ``cell`` pixels (about the side of a square of the same area):

- a triangle has side ``1.5 * cell``: triangle ``(r, c)`` is centred at ``x = (c + 1) *
  side / 2``, its row ``r`` runs from ``y = r * h`` to ``(r + 1) * h`` (``h = side *
  sqrt(3) / 2``), pointing up when ``r + c`` is even;
- a hexagon (pointy top) is ``cell`` wide: hexagon ``(r, q)`` is centred at ``x = (2q + r)
  * cell / 2``, ``y = r * 1.5 * size`` (``size = cell / sqrt(3)``, its circumradius);
- a box's layers are square grids of ``cell`` pixels, layer 1 (index 0) at the left, each
  captioned;
- in the isometric picture a cube's edge is ``cell`` pixels; layer 0 is the bottom, row 0 the
  back and column 0 the left: the columns run down to the right, the rows down to the left.

Each cell's corners are computed on an integer lattice (triangles: half sides across, rows
down; hexagons: half widths across, half sides down), so two cells share an edge exactly
when they share its two lattice points; that sorts every edge into a thin inner edge, a piece
outline or the board's border without a table of neighbours per grid.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from polytile.render.drawing import (
    Drawing,
    Group,
    Item,
    Label,
    Point,
    Poly,
    Strokes,
    clip_line,
    png_of,
    svg_of,
)
from polytile.render.grids import Coord, GridScene, GridShape, check_view, grid_scene
from polytile.render.scene import (
    BLOCKED_FILL,
    CONFLICT_INK,
    EMPTY_FILL,
    GRID_INK,
    INK,
    mix,
)

__all__ = ["grid_drawing", "grid_png", "grid_svg", "shown_cubes"]

_SQRT3 = math.sqrt(3)
Lattice = tuple[tuple[int, int], ...]


def grid_drawing(scene: GridScene, cell: int = 24, title: str | None = None,
                 view: str = "layers", *, show_empty: bool = False) -> Drawing:  # fmt: skip
    """The drawing of ``scene``.

    Parameters
    ----------
    scene
        A solution's scene (:func:`~polytile.render.grids.grid_scene`).
    cell
        Pixels per cell, 4 to 200 (see the module's geometry).
    title
        Caption above the picture (and the SVG's ``<title>``).
    view
        For a box of cubes, ``"layers"`` or ``"isometric"``; other grids have one view.
    show_empty
        In the isometric view, draw the box too, as a puzzle's board is drawn: its floor and
        back walls ruled in cells, its blocked cubes dark and its edges, so that the pieces
        given in place show inside it; without it only the pieces' cubes are drawn.

    Returns
    -------
    Drawing
        Flat: an ``empty`` polygon per empty cell, a ``blocked`` one per hole, and in group
        ``pieces`` a ``piece`` group per placement (``data-index``, ``data-piece``, and
        ``data-given`` for a piece given in place) holding a ``cell`` polygon per cell
        (``data-cell`` ``"r,c"``, or ``"layer,r,c"``); then thin ``grid`` edges, the
        ``frame``, a thick ``outline`` per piece, ``conflict`` crosses, the pieces'
        letters (``labels``), the layers' captions and the legend (``notes``). Isometric: a
        ``cube`` group per cube drawn, back to front, holding its visible ``face`` polygons
        (``data-face`` ``top``, ``front`` or ``right``) and their edges (a piece given in
        place has its faces hatched, ``given-hatch``); with ``show_empty``, first a ``room``
        group (the box's floor and back walls, ruled in cells), a ``blocked`` group per
        blocked cube among the cubes, and last the ``frame``, the box's edges in front.

    Raises
    ------
    ValueError
        If ``cell`` is out of range.
    """
    if not isinstance(cell, int) or isinstance(cell, bool) or not 4 <= cell <= 200:
        raise ValueError(f"cell size must be an integer from 4 to 200 pixels, got {cell!r}")
    if scene.grid.name == "cube" and view == "isometric":
        return _isometric(scene, cell, title, show_empty)
    return _flat(scene, cell, title)


@dataclass(frozen=True)
class _Frame:
    left: float  # x of the board's left edge
    top: float  # y of the board's top edge
    width: int
    height: int
    margin: int
    thick: int


def _frame(cell: int, title: str | None, board_w: float, board_h: float, *, above: int = 0,
           notes: Sequence[str] = ()) -> _Frame:  # fmt: skip
    """Where a picture puts a board of ``board_w`` x ``board_h`` pixels: margins as the
    square pictures', a band for the title, ``above`` pixels of captions over the board and
    a line per note under it."""
    margin = max(4, cell // 2)
    band = int(cell * 1.4) if title else 0
    # A generous guess at a text's width (sans-serif averages ~0.6 em per character).
    caption = round(len(title) * cell * 0.75 * 0.62) if title else 0
    noted = max((round(len(line) * cell * 0.5 * 0.62) for line in notes), default=0)
    foot = round(cell * 0.3 + len(notes) * cell * 0.75) if notes else 0
    inner = math.ceil(board_w - 1e-9)
    width = max(inner, caption, noted) + 2 * margin
    height = margin + band + above + math.ceil(board_h - 1e-9) + foot + margin
    return _Frame((width - inner) // 2, margin + band + above, width, height, margin,
                  max(2, round(cell / 8)))  # fmt: skip


def _text_items(fr: _Frame, cell: int, title: str | None, notes: Sequence[str],
                bottom: float) -> tuple[list[Item], list[Item]]:  # fmt: skip
    """The title's label, and the notes' group under the board (``bottom``)."""
    head: list[Item] = []
    if title:
        head.append(Label(fr.width / 2, fr.margin + cell * 0.7, title, cell * 0.75, cls="title"))
    lines = tuple(Label(fr.width / 2, bottom + cell * (0.3 + 0.75 * (k + 0.5)), line,
                        cell * 0.5, cls="note") for k, line in enumerate(notes))  # fmt: skip
    return head, [Group("notes", lines)] if lines else []


def _name(cell: Coord) -> str:
    return ",".join(map(str, cell))


def _lattice(scene: GridScene, gap: int) -> tuple[Callable[[Coord], Lattice], float, float]:
    """Each cell's corners on the grid's integer lattice (clockwise on the screen), and the
    lattice's steps across and down in cells."""
    name = scene.grid.name
    if name == "triangle":

        def triangle(cell: Coord) -> Lattice:
            r, c = cell
            if (r + c) % 2 == 0:  # up: apex, then the base right and left
                return ((c + 1, r), (c + 2, r + 1), (c, r + 1))
            return ((c, r), (c + 2, r), (c + 1, r + 1))

        return triangle, 0.75, 0.75 * _SQRT3
    if name == "hex":

        def hexagon(cell: Coord) -> Lattice:
            r, q = cell
            x, y = 2 * q + r, 3 * r
            return ((x, y - 2), (x + 1, y - 1), (x + 1, y + 1), (x, y + 2), (x - 1, y + 1),
                    (x - 1, y - 1))  # fmt: skip

        return hexagon, 0.5, 0.5 / _SQRT3
    stride = scene.cols + gap

    def square(cell: Coord) -> Lattice:
        z, r, c = cell
        x = z * stride + c
        return ((x, r), (x + 1, r), (x + 1, r + 1), (x, r + 1))

    return square, 1.0, 1.0


def _centre(points: Sequence[Point]) -> Point:
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def _label_at(cells: Sequence[Coord], centre: dict[Coord, Point]) -> Point:
    """The centre of the cell nearest the cells' centroid, where a piece's letter goes."""
    mx, my = _centre([centre[c] for c in cells])
    best = min(cells, key=lambda c: ((centre[c][0] - mx) ** 2 + (centre[c][1] - my) ** 2, c))
    return centre[best]


def _flat(scene: GridScene, cell: int, title: str | None) -> Drawing:
    cube = scene.grid.name == "cube"
    caption_size = cell * 0.5
    # room between layers for their captions, "layer 10" centred over each
    words = round(len(f"layer {scene.layers}") * 0.62 * caption_size / cell + 0.5, 2)
    gap = max(1, math.ceil(words - scene.cols))
    corners, ux, uy = _lattice(scene, gap)
    sx, sy = ux * cell, uy * cell
    drawn = sorted(scene.drawn())
    lattice = {c: corners(c) for c in drawn}
    xs = [x for pts in lattice.values() for x, _ in pts] or [0]
    ys = [y for pts in lattice.values() for _, y in pts] or [0]
    x0, y0 = min(xs), min(ys)
    board_w, board_h = (max(xs) - x0) * sx, (max(ys) - y0) * sy
    notes = scene.legend_lines()
    fr = _frame(cell, title, board_w, board_h, above=round(cell * 0.9) if cube else 0,
                notes=notes)  # fmt: skip

    def px(p: tuple[float, float]) -> Point:
        return (fr.left + (p[0] - x0) * sx, fr.top + (p[1] - y0) * sy)

    polygon = {c: tuple(px(p) for p in lattice[c]) for c in drawn}
    centre = {c: _centre(polygon[c]) for c in drawn}
    head, foot = _text_items(fr, cell, title, notes, fr.top + board_h)
    items: list[Item] = list(head)
    if cube:
        items.append(Group("captions", tuple(
            Label(px((z * (scene.cols + gap) + scene.cols / 2, y0))[0], fr.top - cell * 0.45,
                  f"layer {z + 1}", caption_size, cls="caption")
            for z in range(scene.layers))))  # fmt: skip
    covered = scene.covered()
    items += [Poly(polygon[c], EMPTY_FILL, "empty", (("data-cell", _name(c)),))
              for c in drawn if c in scene.open and c not in covered]  # fmt: skip
    items += [Poly(polygon[c], BLOCKED_FILL, "blocked", (("data-cell", _name(c)),))
              for c in drawn if c in scene.holes and c not in covered]  # fmt: skip
    pieces: list[Item] = []
    for i, shape in enumerate(scene.shapes):
        if shape.cells:
            attrs = (("data-index", str(i)), ("data-piece", shape.label),
                     *((("data-given", "true"),) if shape.given else ()))  # fmt: skip
            pieces.append(Group("piece", tuple(
                Poly(polygon[c], shape.fill, "cell", (("data-cell", _name(c)),))
                for c in sorted(shape.cells)), attrs))  # fmt: skip
    items.append(Group("pieces", tuple(pieces)))
    items += _given_hatch(scene, polygon, centre, cell, fr.thick)

    edges: dict[tuple[tuple[int, int], tuple[int, int]], list[Coord]] = {}
    for c in drawn:
        pts = lattice[c]
        for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
            edges.setdefault((min(a, b), max(a, b)), []).append(c)

    def segment(key: tuple[tuple[int, int], tuple[int, int]]) -> tuple[Point, Point]:
        return (px(key[0]), px(key[1]))

    items.append(Strokes(tuple(segment(k) for k, cs in edges.items() if len(cs) > 1),
                         GRID_INK, 1, "grid"))  # fmt: skip
    items.append(Strokes(tuple(segment(k) for k, cs in edges.items() if len(cs) == 1),
                         INK, max(1, fr.thick / 2), "frame"))  # fmt: skip
    outlines: list[Item] = []
    for i, shape in enumerate(scene.shapes):
        segments = []
        for c in sorted(shape.cells):
            pts = lattice[c]
            for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
                if sum(o in shape.cells for o in edges[(min(a, b), max(a, b))]) == 1:
                    segments.append((px(a), px(b)))
        outlines.append(
            Strokes(
                tuple(segments),
                INK,
                fr.thick,
                "outline",
                (("data-index", str(i)), ("data-piece", shape.label)),
            )
        )
    items.append(Group("outlines", tuple(outlines)))
    arm = cell * 0.22
    items.append(Strokes(tuple(
        seg for c in scene.conflicts() for seg in (
            ((centre[c][0] - arm, centre[c][1] - arm), (centre[c][0] + arm, centre[c][1] + arm)),
            ((centre[c][0] + arm, centre[c][1] - arm), (centre[c][0] - arm, centre[c][1] + arm)))
    ), CONFLICT_INK, fr.thick, "conflict"))  # fmt: skip
    if cell >= 12:
        size = cell * (0.5 if scene.grid.name == "triangle" else 0.55)
        labels = []
        for shape in scene.shapes:
            if shape.player or not shape.cells:
                continue
            parts = [sorted(c for c in shape.cells if c[0] == z) for z in range(scene.layers)]
            for part in parts if cube else [sorted(shape.cells)]:
                if part:
                    x, y = _label_at(part, centre)
                    labels.append(Label(x, y, shape.letter, size, bold=True))
        items.append(Group("labels", tuple(labels)))
    return Drawing(fr.width, fr.height, title, (*items, *foot))


def _given_hatch(scene: GridScene, polygon: dict[Coord, tuple[Point, ...]],
                 centre: dict[Coord, Point], cell: int, thick: int) -> list[Item]:  # fmt: skip
    """Falling strokes (``\\``) over each cell of a piece given in place, in a darker shade of
    its fill, as on squares."""
    step, d = cell * 0.3, (math.sqrt(0.5), math.sqrt(0.5))
    out: list[Item] = []
    for i, shape in enumerate(scene.shapes):
        if not (shape.given and shape.cells):
            continue
        segments = []
        for c in sorted(shape.cells):
            cx, cy = centre[c]
            for k in (-1, 0, 1):
                seg = clip_line((cx + k * step * d[0], cy - k * step * d[1]), d, polygon[c])
                if seg is not None:
                    segments.append(seg)
        out.append(
            Strokes(
                tuple(segments),
                mix(shape.fill, INK, 0.45),
                max(1, thick / 3),
                "given-hatch",
                (("data-index", str(i)), ("data-piece", shape.label)),
            )
        )
    return [Group("given", tuple(out))] if out else []


# -- the isometric picture of a box of cubes -------------------------------------------------
Step = tuple[int, int, int]
UP, DOWN, FRONT, BACK = (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)
RIGHT, LEFT = (0, 0, 1), (0, 0, -1)
#: The faces a viewer above, in front and to the right sees: normal, corners (offsets from the
#: cube's corner of lowest layer, row and column), and the step across each edge (corner i to
#: i + 1) to the face's neighbour in its own plane.
_FACES: tuple[tuple[str, Step, tuple[Step, ...], tuple[Step, ...]], ...] = (
    ("top", UP, ((1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 0)), (BACK, RIGHT, FRONT, LEFT)),
    ("front", FRONT, ((1, 1, 0), (1, 1, 1), (0, 1, 1), (0, 1, 0)), (UP, RIGHT, DOWN, LEFT)),
    ("right", RIGHT, ((1, 0, 1), (1, 1, 1), (0, 1, 1), (0, 0, 1)), (UP, FRONT, DOWN, BACK)),
)
_SEEN = frozenset((UP, FRONT, RIGHT))  # the directions faces turned to the viewer point


def _add(a: Sequence[int], b: Sequence[int]) -> Coord:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _isometric(scene: GridScene, cell: int, title: str | None, show_empty: bool) -> Drawing:
    owner: dict[Coord, int] = {}
    for i, shape in enumerate(scene.shapes):
        owner.update(dict.fromkeys(shape.cells, i))
    shapes = list(scene.shapes)
    rest = frozenset(scene.holes - set(owner))
    if show_empty and rest:  # the box's blocked cubes, a shape of their own without a letter
        owner.update(dict.fromkeys(rest, len(shapes)))
        shapes.append(GridShape("blocked", "", BLOCKED_FILL, rest, True))
    cubes = sorted(owner, key=lambda k: (sum(k), k))  # back to front: painter's order
    box = (scene.layers, scene.rows, scene.cols)

    def project(p: Sequence[float]) -> Point:
        z, r, c = p
        return ((c - r) * cell * _SQRT3 / 2, (c + r) * cell / 2 - z * cell)

    raw = [
        project(_add(k, o))
        for k in cubes
        for o in ((1, 0, 0), (1, 0, 1), (1, 1, 0), (0, 1, 1), (0, 1, 0), (0, 0, 1))
    ]
    if show_empty:  # the whole box
        raw += [project(p) for p in itertools.product(*((0, n) for n in box))]
    xs, ys = [x for x, _ in raw] or [0.0], [y for _, y in raw] or [0.0]
    x0, y0 = min(xs), min(ys)
    notes = scene.legend_lines()
    empty = 0 if show_empty else len(scene.open - set(owner))
    if empty:
        notes.append(f"{empty} empty cube{'s' * (empty != 1)} not shown")
    twice = len(scene.conflicts())
    if twice:
        notes.append(f"{twice} cube{'s' * (twice != 1)} claimed twice")
    fr = _frame(cell, title, max(xs) - x0, max(ys) - y0, notes=notes)

    def px(p: Sequence[float]) -> Point:
        x, y = project(p)
        return (fr.left + x - x0, fr.top + y - y0)

    labelled = _label_cubes(scene, owner) if cell >= 12 else {}
    head, foot = _text_items(fr, cell, title, notes, fr.top + max(ys) - y0)
    items: list[Item] = list(head)
    if show_empty:
        items.append(_room(box, px))
    for k in cubes:
        i = owner[k]
        shape = shapes[i]
        inner: list[Item] = []
        for face, normal, corners, steps in _FACES:
            if _add(k, normal) in owner:
                continue  # covered by the next cube
            fill = {"top": mix(shape.fill, "#ffffff", 0.3), "front": shape.fill,
                    "right": mix(shape.fill, INK, 0.22)}[face]  # fmt: skip
            pts = tuple(px(_add(k, o)) for o in corners)
            inner.append(Poly(pts, fill, "face", (("data-face", face),)))
            if shape.given:
                inner.append(_face_hatch(pts, mix(shape.fill, INK, 0.45), cell, fr.thick))
            thin: list[tuple[Point, Point]] = []
            thick: list[tuple[Point, Point]] = []
            for e, step in enumerate(steps):
                seg = (pts[e], pts[(e + 1) % 4])
                beyond, across = _add(_add(k, step), normal), _add(k, step)
                if beyond in owner:  # a fold inwards onto that cube's face
                    (thin if owner[beyond] == i else thick).append(seg)
                elif across in owner:  # the same plane goes on in that cube
                    (thin if owner[across] == i else thick).append(seg)
                else:  # the cube's own edge: a fold to a face we see, or the outline
                    (thin if step in _SEEN else thick).append(seg)
            inner.append(Strokes(tuple(thin), mix(fill, INK, 0.45), 1, "edge"))
            inner.append(Strokes(tuple(thick), INK, fr.thick, "outline"))
            if labelled.get(k) == face:
                x, y = _centre(pts)
                inner.append(Label(x, y, shape.letter, cell * 0.5, bold=True))
        if i >= len(scene.shapes):  # a blocked cube of the box
            items.append(Group("blocked", tuple(inner), (("data-cell", _name(k)),)))
            continue
        attrs = (("data-cell", _name(k)), ("data-index", str(i)), ("data-piece", shape.label),
                 *((("data-given", "true"),) if shape.given else ()))  # fmt: skip
        items.append(Group("cube", tuple(inner), attrs))
    if show_empty:  # the box's edges that no cube inside it can hide
        (layers, rows, cols) = box
        front = [(layers, 0, 0), (layers, 0, cols), (0, 0, cols), (0, rows, cols), (0, rows, 0),
                 (layers, rows, 0)]  # fmt: skip
        near = (layers, rows, cols)
        edges = [(px(a), px(b)) for a, b in zip(front, front[1:] + front[:1], strict=True)]
        # and the three edges at the corner nearest the viewer
        edges += [(px(near), px(p)) for p in ((0, rows, cols), (layers, 0, cols),
                                               (layers, rows, 0))]  # fmt: skip
        items.append(Strokes(tuple(edges), INK, max(1, fr.thick / 2), "frame"))
    return Drawing(fr.width, fr.height, title, (*items, *foot))


def _room(box: tuple[int, int, int], px: Callable[[Sequence[float]], Point]) -> Group:
    """The box's floor and its back and left walls, ruled in cells: what an empty box of a
    puzzle shows behind the cubes in it (the pieces given in place, the blocked cubes)."""
    layers, rows, cols = box
    floor = ((0, 0, 0), (0, 0, cols), (0, rows, cols), (0, rows, 0))
    back = ((0, 0, 0), (layers, 0, 0), (layers, 0, cols), (0, 0, cols))
    left = ((0, 0, 0), (0, rows, 0), (layers, rows, 0), (layers, 0, 0))
    lines = [((0, r, 0), (0, r, cols)) for r in range(1, rows)]
    lines += [((0, 0, c), (0, rows, c)) for c in range(1, cols)]
    lines += [((z, 0, 0), (z, 0, cols)) for z in range(1, layers)]
    lines += [((0, 0, c), (layers, 0, c)) for c in range(1, cols)]
    lines += [((z, 0, 0), (z, rows, 0)) for z in range(1, layers)]
    lines += [((0, r, 0), (layers, r, 0)) for r in range(1, rows)]
    corner = [((0, 0, 0), p) for p in ((layers, 0, 0), (0, rows, 0), (0, 0, cols))]
    return Group("room", (
        Poly(tuple(px(p) for p in floor), mix(EMPTY_FILL, GRID_INK, 0.25), "floor"),
        Poly(tuple(px(p) for p in back), EMPTY_FILL, "wall"),
        Poly(tuple(px(p) for p in left), EMPTY_FILL, "wall"),
        Strokes(tuple((px(a), px(b)) for a, b in lines), GRID_INK, 1, "grid"),
        Strokes(tuple((px(a), px(b)) for a, b in corner), mix(GRID_INK, INK, 0.4), 1, "grid"),
    ))  # fmt: skip


def shown_cubes(cells: Iterable[Coord]) -> frozenset[Coord]:
    """The cubes of which the isometric view shows some part: a cube may hide behind others
    (three around its corner, or one a step up, forward and to the right).

    Examples
    --------
    >>> corner = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    >>> sorted(shown_cubes(corner))
    [(0, 0, 1), (0, 1, 0), (1, 0, 0)]

    Notes
    -----
    The view takes a corner ``(layer, row, col)`` to ``(col - row, col + row - 2 layer)``,
    a point of a lattice of unit triangles; each face seen is two of its triangles, and each
    triangle shows the cube nearest the viewer (the largest ``layer + row + col``) that
    covers it. Linear in the cubes.
    """
    owner: dict[frozenset[tuple[int, int]], Coord] = {}
    for k in sorted(set(cells), key=lambda k: (sum(k), k)):  # back to front
        for _, _, corners, _ in _FACES:
            p = [(c - r, c + r - 2 * z) for z, r, c in (_add(k, o) for o in corners)]

            def length(a: tuple[int, int], b: tuple[int, int]) -> int:
                return 3 * (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2  # x is sqrt(3)/2 apart

            # a face is cut into its two triangles along its short diagonal
            if length(p[0], p[2]) < length(p[1], p[3]):
                halves = ((p[0], p[1], p[2]), (p[0], p[2], p[3]))
            else:
                halves = ((p[1], p[2], p[3]), (p[1], p[3], p[0]))
            for half in halves:
                owner[frozenset(half)] = k
    return frozenset(owner.values())


def _face_hatch(pts: tuple[Point, ...], ink: str, cell: int, thick: int) -> Strokes:
    """Falling strokes (``\\``) across a cube's face, a piece given in place's mark."""
    step, d = cell * 0.3, (math.sqrt(0.5), math.sqrt(0.5))
    cx, cy = _centre(pts)
    segments = []
    for k in (-1, 0, 1):
        seg = clip_line((cx + k * step * d[0], cy - k * step * d[1]), d, pts)
        if seg is not None:
            segments.append(seg)
    return Strokes(tuple(segments), ink, max(1, thick / 3), "given-hatch")


def _label_cubes(scene: GridScene, owner: dict[Coord, int]) -> dict[Coord, str]:
    """The face each piece's letter goes on: the front-most top face it shows, else its
    front-most face it shows (player pieces, like on squares, have none)."""
    out: dict[Coord, str] = {}
    for i, shape in enumerate(scene.shapes):
        if shape.player:
            continue
        mine = [k for k in shape.cells if owner.get(k) == i]
        tops = [k for k in mine if _add(k, UP) not in owner]
        if tops:
            out[max(tops, key=lambda k: (sum(k), k))] = "top"
            continue
        seen = [(sum(k), k, face) for k in mine for face, normal, _, _ in _FACES
                if _add(k, normal) not in owner]  # fmt: skip
        if seen:
            _, k, face = max(seen)
            out[k] = face
    return out


# -- SVG and PNG -----------------------------------------------------------------------------
def grid_svg(solution: Any, cell: int = 24, title: str | None = None, *,
             view: str | None = None, show_empty: bool = False) -> str:  # fmt: skip
    """The SVG picture of a solution on the triangle, hex or cube grid (see
    :func:`grid_drawing` for what it holds; ``show_empty``, for
    the isometric view of a puzzle's board, draws the box, its blocked cubes and its edges).

    Raises
    ------
    ValueError
        If ``cell`` is out of range or ``view`` is not one of :data:`VIEWS` for a box of
        cubes.
    """
    check_view(solution, view)
    return svg_of(grid_drawing(grid_scene(solution), cell, title, view or "layers",
                               show_empty=show_empty))  # fmt: skip


def grid_png(solution: Any, cell: int = 24, title: str | None = None, *,
             view: str | None = None, show_empty: bool = False) -> bytes:  # fmt: skip
    """The PNG file's bytes of the picture :func:`grid_svg` draws.

    Raises
    ------
    ValueError
        As :func:`grid_svg`.
    BoardError
        If the picture is larger than :data:`~polytile.render.png.MAX_PNG_PIXELS`.
    """
    check_view(solution, view)
    return png_of(grid_drawing(grid_scene(solution), cell, title, view or "layers",
                               show_empty=show_empty))  # fmt: skip
