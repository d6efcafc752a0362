"""The package's shape: no import cycles, click only in cli/, modules of a readable size.

The import graph is read statically with ``ast`` from every module under ``polytile/``:
module-level imports and imports inside functions alike (lazy imports are what hid the old
cycles), but not those under ``if TYPE_CHECKING:``, which never run. ``from polytile.a
import b`` is an edge to ``polytile.a.b`` when ``b`` is a submodule, else to ``polytile.a``.
Importing a submodule also runs its packages' ``__init__``, so each module has an edge to
its parent package, except a package's own ``__init__`` importing its submodules (that is
how a package re-exports, and it runs after the parent has started).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "polytile"
MAX_LINES = 700  # the house style's ~600, with room for a long numba kernel


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path, typing: bool = False) -> set[str]:
    """What module ``name`` imports; ``typing``: those under ``if TYPE_CHECKING:`` too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node) and not typing:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph(typing: bool = False) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        edges = {m for m in _imports(name, path, typing) if m in MODULES and m != name}
        parent = name.rpartition(".")[0]
        if parent in MODULES:
            edges.add(parent)
        if path.name == "__init__.py":  # a package re-exporting its own submodules
            edges = {m for m in edges if not m.startswith(name + ".")}
        graph[name] = edges
    return graph


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = dfs(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = dfs(node)
            if found:
                return found
    return None


def test_no_import_cycle() -> None:
    cycle = _find_cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


#: Imports made for type checking alone that still close a circle, each inside one game's
#: package (a module typing its arguments with a class of the module that calls it). The
#: circles between packages are gone (issue 48: the faces, formats and render, the store and
#: its kinds); this list may only shrink.
TYPE_ONLY_BACK_EDGES = {
    ("polytile.puzzles.gridblock._round_bounds", "polytile.puzzles.gridblock._round_search"),
    ("polytile.puzzles.henning.picture", "polytile.puzzles.henning.rules"),
    ("polytile.puzzles.tiling.puzzles", "polytile.puzzles.tiling.teasers"),
}


def test_no_import_cycle_even_for_types() -> None:
    """Nor through the imports made for type checking alone: two modules that each need
    the other's types are one concern split in two, or share a third module's types."""
    graph = _graph(typing=True)
    for src, dst in TYPE_ONLY_BACK_EDGES:
        assert dst in graph[src], f"{src} no longer imports {dst}: remove it from the list"
        graph[src].discard(dst)
    cycle = _find_cycle(graph)
    assert cycle is None, "import cycle (types included): " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_cycles() -> None:
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def test_click_only_in_the_cli() -> None:
    users = sorted(
        name
        for name, path in MODULES.items()
        if not name.startswith("polytile.cli") and "click" in _imports(name, path)
    )
    assert users == [], f"modules outside polytile/cli import click: {users}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_stay_readable(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it by concern"


def test_every_package_is_listed_for_installation() -> None:
    """A package missing from pyproject's explicit list is left out of a non-editable
    install (setuptools installs only what is listed)."""
    import tomllib

    config = tomllib.loads((ROOT.parent / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT.parent).parts) for p in ROOT.rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


# -- the games are reached through their faces ------------------------------------------------
GAMES = ("blokus", "cityblocks", "henning", "gridblock", "walkable", "tiling")

#: The modules outside each game's package that still import it, while the front ends move
#: onto the faces (issue 35's goal: the registry and at most one more). A module may leave
#: a list, never join one; the lists only shrink.
STILL_IMPORTING: dict[str, set[str]] = {
    "blokus": set(),
    "cityblocks": set(),
    "henning": set(),
    "gridblock": set(),
    "walkable": set(),
    "tiling": set(),
}  # fmt: skip


def importers(game: str, graph: dict[str, set[str]] | None = None) -> set[str]:
    """The modules outside ``polytile.puzzles.<game>`` that import it at runtime."""
    package = f"polytile.puzzles.{game}"

    def inside(name: str) -> bool:
        return name == package or name.startswith(package + ".")

    edges = (graph or _graph()).items()
    return {src for src, dsts in edges if not inside(src) and any(inside(d) for d in dsts)}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_imported_only_by_its_known_importers(game: str) -> None:
    found = importers(game)
    new = found - STILL_IMPORTING[game]
    assert not new, f"{sorted(new)} import polytile.puzzles.{game}: reach it through its face"
    gone = STILL_IMPORTING[game] - found
    assert not gone, f"{sorted(gone)} no longer import {game}: remove them from the list"


def test_the_registry_names_games_only_as_strings() -> None:
    """The registry finds the faces by name; importing it imports no game."""
    found = _imports("polytile.faces.registry", MODULES["polytile.faces.registry"])
    assert not [d for d in found if d.startswith("polytile.puzzles.") and d.split(".")[2] in GAMES]


def test_the_registry_formats_are_the_faces_own() -> None:
    from polytile.faces.registry import FACES, FORMATS, face

    for name in FACES:
        assert {t for t, g in FORMATS.items() if g == name} == set(face(name).formats), name


# -- front ends that know no game ------------------------------------------------------------
#: Modules that reach the games only through the registry (polytile/faces/registry.py): the
#: puzzle store and generation framework, and the commands that generate and browse its sets.
FRONT_ENDS = sorted(
    [name for name in MODULES if name == "polytile.store" or name.startswith("polytile.store.")]
    + ["polytile.cli.generate", "polytile.cli.puzzle_sets"]
)


def _games_imported(name: str) -> set[str]:
    """The game packages ``name`` imports at runtime (a submodule counts as its game)."""
    return {
        game
        for found in _imports(name, MODULES[name])
        for game in GAMES
        if found == f"polytile.puzzles.{game}" or found.startswith(f"polytile.puzzles.{game}.")
    }


def test_the_game_finder_sees_lazy_imports() -> None:
    """The kinds modules import their own game inside functions only: they are found."""
    assert _games_imported("polytile.puzzles.henning.kinds") == {"henning"}
    assert _games_imported("polytile.puzzles.tiling.kinds") == {"tiling"}


@pytest.mark.parametrize("name", FRONT_ENDS)
def test_the_store_and_its_commands_import_no_game(name: str) -> None:
    assert _games_imported(name) == set(), f"{name} imports a game; go through a kind"


@pytest.mark.parametrize("game", [g for g in GAMES if f"polytile.puzzles.{g}.kinds" in MODULES])
def test_a_games_kinds_import_no_other_game(game: str) -> None:
    assert _games_imported(f"polytile.puzzles.{game}.kinds") <= {game}
