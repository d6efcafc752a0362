"""Hostile inputs (#17): malformed variants of every file format, made from valid files, fed
to the commands that read them, in-process with click's CliRunner.

Each variant must be refused with exit 2 and a message, or, when the damage happens to leave
a valid file, accepted (exit 0, or 1 for "invalid"/"no answer"); never exit 3 (an internal
error) nor a traceback. Names with control characters must never reach the output raw.

The sources: the examples (solutions, positions, a text board, Pentobi records), a puzzle
store made by ``generate`` at tiny size and a City Blocks (Henning) record from ``new
henning``. The variants: truncations, a wrong type in each top-level key, deleted keys, huge
and negative numbers, deep nesting, control characters, binary junk and the empty file.
The default run takes a sample of the wrong types and commands; ``slow`` runs them all.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from polytile.cli import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b"
DEEP = 100_000
TRUNCATE_AT = (0.0, 0.1, 0.5, 0.9, -1)

Variant = tuple[str, bytes]  # (label, content)


# -- running ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def run() -> Callable[..., Result]:
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args), catch_exceptions=False)


def check(result: Result, what: str) -> None:
    """Exit 0, 1 or 2 (2 with a message), no traceback, no raw control sequence."""
    out = result.stdout + result.stderr
    assert result.exit_code in (0, 1, 2), f"{what}: exit {result.exit_code}: {out[-600:]}"
    assert "Traceback" not in out, f"{what}: {out[-600:]}"
    if result.exit_code == 2:
        assert result.stderr.strip(), f"{what}: exit 2 without a message"
    for raw in ("\x1b[2J", "\x1b]0", "\x07", "\x9b"):
        assert raw not in out, f"{what}: control sequence {raw!r} printed raw: {out[-300:]!r}"


def commands(
    kind: str, path: Path, out_dir: Path, full: bool, endgame: bool = False
) -> list[tuple[str, ...]]:
    """The commands that read a file of ``kind`` (``endgame``: solve-endgame too, where it
    applies; it may search for its whole time limit)."""
    p = str(path)
    picture = [("render", p, "--no-attach", "-o", str(out_dir / "x.svg"))]
    if full:
        picture.append(("render", p, "--no-attach", "-o", str(out_dir / "x.png"), "--cell", "8"))
    if kind == "store":
        return [("validate", p), ("puzzles", "list", "--db", p)]
    runs = [("validate", p), ("render", p, "--no-color"), *picture, ("score", p)]
    if kind in ("blksgf", "henning", "blokus") and endgame:
        runs.append(("solve-endgame", p, "--time-limit", "2"))
    return runs


# -- variants --------------------------------------------------------------------------------
def truncations(data: bytes) -> Iterator[Variant]:
    for at in TRUNCATE_AT:
        cut = len(data) - 1 if at == -1 else int(len(data) * at)
        yield f"truncated at {cut}", data[:cut]


def junk(data: bytes) -> Iterator[Variant]:
    rng = random.Random(17)
    yield "empty", b""
    yield "binary junk", bytes(rng.randrange(256) for _ in range(2000))
    yield "NUL bytes", b"\x00" * 100
    yield "BOM only", b"\xef\xbb\xbf"
    yield "not UTF-8 in the middle", data[: len(data) // 2] + b"\xff\xfe" + data[len(data) // 2 :]
    flipped = bytearray(data)
    for _ in range(20):
        flipped[rng.randrange(len(flipped))] = rng.randrange(256)
    yield "random bytes changed", bytes(flipped)


WRONG = {
    "null": None,
    "true": True,
    "string": "x",
    "negative": -3,
    "huge": 10**30,
    "float": 1.5,
    "list": [],
    "object": {},
    "list of junk": [None, "x", [1, 2, 3]],
    "deep": "DEEP",
}
SAMPLE = ("null", "string", "negative", "object", "deep")


def _dump(doc: Any) -> bytes:
    text = json.dumps(doc, ensure_ascii=False)
    nested = "[" * DEEP + "]" * DEEP
    return text.replace('"DEEP"', nested).encode()


def _map(doc: Any, leaf: Callable[[Any], Any]) -> Any:
    if isinstance(doc, dict):
        return {k: _map(v, leaf) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_map(v, leaf) for v in doc]
    return leaf(doc)


def json_variants(data: bytes, full: bool) -> Iterator[Variant]:
    doc = json.loads(data)
    yield from truncations(data)
    yield from junk(data)
    for key in doc:
        yield f"{key} deleted", _dump({k: v for k, v in doc.items() if k != key})
        for name in WRONG if full else SAMPLE:
            yield f"{key} = {name}", _dump({**doc, key: WRONG[name]})
    yield "extra key", _dump({**doc, "unknown": WRONG["list of junk"]})
    ints: Callable[[Callable[[int], int]], Any] = lambda f: _map(  # noqa: E731
        doc, lambda v: f(v) if isinstance(v, int) and not isinstance(v, bool) else v
    )
    yield "huge numbers", _dump(ints(lambda v: 10**30))
    yield "big numbers", _dump(ints(lambda v: v + 10**6))
    yield "negative numbers", _dump(ints(lambda v: -v - 1))
    yield (
        "control characters",
        _dump(
            _map(doc, lambda v: v + ESCAPES if isinstance(v, str) and v != doc.get("format") else v)
        ),
    )
    yield (
        "control characters in keys",
        _dump({(k + ESCAPES if k != "format" else k): v for k, v in doc.items()}),
    )
    yield "deep nesting", _dump([doc, "DEEP"])
    yield "a list at the top", _dump([doc])
    yield "duplicate key", data.replace(b"{", b'{"format": 1, ', 1)


def text_variants(data: bytes, full: bool) -> Iterator[Variant]:
    yield from truncations(data)
    yield from junk(data)
    rows = data.decode().splitlines()
    yield "control characters", "\n".join(r + ESCAPES for r in rows).encode()
    yield "ragged rows", "\n".join(r + "." * i for i, r in enumerate(rows)).encode()
    yield "one wide row", ("." * 100_000).encode()
    yield "a board too tall", ("..\n" * 300).encode()
    yield "JSON-looking", b"[" * DEEP


def sgf_variants(data: bytes, full: bool) -> Iterator[Variant]:
    text = data.decode()
    yield from truncations(data)
    yield from junk(data)
    head = "(;GM[Blokus Duo]FF[4]"
    yield "nested variations", (head + "(;B[e10]" * DEEP + ")" * (DEEP + 1)).encode()
    yield "empty nodes", (head + ";" * 300_000 + ")").encode()
    yield "repeated moves", (head + ";B[e10,d11,e11,e12,f12]" * 20_000 + ")").encode()
    yield "long comment", (head + "C[" + "x" * 3_000_000 + "])").encode()
    yield "unclosed value", (head + "C[" + "\\]" * 1000).encode()
    yield "control characters", text.replace("]", ESCAPES + "]").encode()
    yield "control characters in GM", (f"(;GM[Blokus{ESCAPES}])").encode()
    yield "control characters in PL", (f"(;GM[Blokus Duo]PL[B{ESCAPES}])").encode()
    yield "huge point", text.replace("e10", "e" + "9" * 400, 1).encode()
    yield "negative point", text.replace("e10", "e-3", 1).encode()
    yield "point off the board", text.replace("e10", "z99", 1).encode()
    yield "unsupported game", text.replace("Blokus Duo", "Blokus Trigon").encode()
    yield "no game", text.replace("GM[Blokus Duo]", "").encode()
    yield "moves swapped", text.replace(";B[", ";X[").replace(";W[", ";B[").encode()


# -- sources ---------------------------------------------------------------------------------
SOURCES = [
    *(("json", p.name) for p in sorted(EXAMPLES.glob("*.json"))),
    *(("text", p.name) for p in sorted(EXAMPLES.glob("*.txt"))),
    *(("blksgf", p.name) for p in sorted(EXAMPLES.glob("*.blksgf"))),
    ("henning", "henning.json"),
]


@pytest.fixture(scope="module")
def henning(tmp_path_factory: pytest.TempPathFactory, run: Callable[..., Result]) -> bytes:
    path = tmp_path_factory.mktemp("henning") / "game.json"
    result = run("new", "henning", "--seed", "7", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    return path.read_bytes()


def _kind(kind: str, name: str, data: bytes) -> str:
    if kind == "json" and b'"blokus"' in data:
        return "blokus"
    return kind


@pytest.mark.parametrize(("kind", "name"), SOURCES, ids=[n for _, n in SOURCES])
def test_malformed_files_are_refused_cleanly(
    run: Callable[..., Result],
    henning: bytes,
    tmp_path: Path,
    kind: str,
    name: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _malformed(run, henning, tmp_path, kind, name, False, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "name"), SOURCES, ids=[n for _, n in SOURCES])
def test_malformed_files_are_refused_cleanly_every_variant(
    run: Callable[..., Result],
    henning: bytes,
    tmp_path: Path,
    kind: str,
    name: str,
    monkeypatch: pytest.MonkeyPatch,
    slow_scale: str,
) -> None:
    # solve-endgame may search for its time limit: reduced runs it on every 25th variant
    every = 1 if slow_scale == "full" else 25
    _malformed(run, henning, tmp_path, kind, name, True, monkeypatch, every)


def _malformed(
    run: Callable[..., Result],
    henning: bytes,
    tmp_path: Path,
    kind: str,
    name: str,
    full: bool,
    monkeypatch: pytest.MonkeyPatch,
    endgame_every: int = 0,
) -> None:
    if not full:  # the record limits, lowered so that the absurd records are quick to refuse
        from polytile.puzzles.blokus import sgf

        monkeypatch.setattr(sgf, "MAX_NODES", 2000)
        monkeypatch.setattr(sgf, "MAX_RECORD_BYTES", 500_000)
    data = henning if kind == "henning" else (EXAMPLES / name).read_bytes()
    make = {"json": json_variants, "henning": json_variants, "text": text_variants,
            "blksgf": sgf_variants}[kind]  # fmt: skip
    suffix = Path(name).suffix
    for i, (label, content) in enumerate(make(data, full)):
        path = tmp_path / f"v{i}{suffix}"
        path.write_bytes(content)
        endgame = endgame_every > 0 and i % endgame_every == 0
        for args in commands(_kind(kind, name, data), path, tmp_path, full, endgame):
            check(run(*args), f"{name}, {label}: polytile {' '.join(args[:1])}")


# -- the puzzle store ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, run: Callable[..., Result]) -> bytes:
    path = tmp_path_factory.mktemp("store") / "set.db"
    args = ("generate", "packing", "-n", "1", "--size", "4-5", "--seed", "1", "--workers", "1")
    result = run(*args, "--db", str(path))
    assert result.exit_code == 0, result.stderr
    return path.read_bytes()


COLUMNS = {  # every column is NOT NULL: a wrong type or damaged text is what can get in
    "kind": ["x", 3],
    "params": ["{", "[" * DEEP + "]" * DEEP, "NaN", 3],
    "seed": ["x", 1.5],
    "candidate": ["x", 10**18],
    "key": [3, b"\x00"],
    "puzzle": ["{", "[" * DEEP + "]" * DEEP, '{"format": 1}', "null", 7, b"\x00\xff"],
    "solution": ["{", "[" * DEEP + "]" * DEEP, "[]", 7],
    "solutions": ["many", -1],
    "difficulty": ["hard", b"\x01", 1e308 * 10],
    "stats": ["{", '{"a": NaN}', "[" * DEEP + "]" * DEEP],
}


def store_variants(data: bytes, folder: Path) -> Iterator[Variant]:
    yield from truncations(data)
    yield from junk(data)
    base = folder / "base.db"

    def damaged(sql: str, *args: Any) -> bytes:
        base.write_bytes(data)
        con = sqlite3.connect(base)
        try:
            con.execute("PRAGMA journal_mode=DELETE")
            con.execute(sql, args)
            con.commit()
        finally:
            con.close()
        return base.read_bytes()

    for value in ("abc", "", "99", "-1", "1e9"):
        yield f"schema {value!r}", damaged("UPDATE meta SET value=? WHERE name='schema'", value)
    yield "no schema row", damaged("DELETE FROM meta")
    for column, values in COLUMNS.items():
        for value in values:
            sql = f"UPDATE puzzles SET {column}=?"
            yield f"{column} = {value!r:.30}", damaged(sql, value)
    yield "no puzzles table", damaged("DROP TABLE puzzles")
    yield "jobs params", damaged("UPDATE jobs SET params='{'")


def test_damaged_puzzle_stores_are_refused_cleanly(
    run: Callable[..., Result], store: bytes, tmp_path: Path
) -> None:
    for i, (label, content) in enumerate(store_variants(store, tmp_path)):
        path = tmp_path / f"v{i}.db"
        path.write_bytes(content)
        for args in commands("store", path, tmp_path, False):
            check(run(*args), f"store, {label}: polytile {' '.join(args[:2])}")


# -- names with control characters ------------------------------------------------------------
def test_count_prints_a_hostile_puzzle_name_escaped(
    run: Callable[..., Result], tmp_path: Path
) -> None:
    """#17 item 10: ``count`` prints the puzzle's name from the file, escaped."""
    path = tmp_path / "p.json"
    doc = {
        "format": "polytile/puzzle@1",
        "name": "p" + ESCAPES,
        "board": ["..", ".."],
        "pieces": [{"name": "D" + ESCAPES, "shape": ["##"], "count": 2}],
    }
    path.write_text(json.dumps(doc))
    for args in ((), ("--json",)):
        result = run("count", str(path), "-w", "1", "--no-progress", *args)
        assert result.exit_code == 0, result.stderr
        check(result, "count")
        assert "owned" in result.stdout


@pytest.mark.parametrize("game", ["henning", "gridblock", "walkable"])
@pytest.mark.parametrize("command", ["play", "render", "score", "validate", "moves"])
def test_a_field_nested_900_deep_is_refused(tmp_path, game, command):
    """A record with an extra field nested 900 deep is refused (exit 2) by every reader of
    the three games, instead of a RecursionError when its extra fields are written back."""
    runner = CliRunner()
    path = tmp_path / "deep.json"
    assert runner.invoke(cli, ["new", game, "-o", str(path)]).exit_code == 0
    doc = json.loads(path.read_text())
    deep: object = 1
    for _ in range(900):
        deep = [deep]
    doc["deep"] = deep
    path.write_text(json.dumps(doc))
    move = {"henning": "pass", "gridblock": "setup b3 NE", "walkable": "I4 pass | I4 pass"}
    args = [command, str(path)] + ([move[game]] if command == "play" else [])
    result = runner.invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "nested more than 64 levels deep" in result.stderr and "deep[0][0]" in result.stderr


@pytest.mark.parametrize("game", ["henning", "gridblock", "walkable"])
@pytest.mark.parametrize("value", [123, None, "blokus", "x" * 200_000])
def test_a_wrong_game_field_is_refused_briefly(tmp_path, game, value):
    """Each of the three games' readers refuses a "game" that is not its own (City Blocks
    (Henning) accepted any), quoting at most a short prefix of it."""
    runner = CliRunner()
    path = tmp_path / "g.json"
    assert runner.invoke(cli, ["new", game, "-o", str(path)]).exit_code == 0
    doc = json.loads(path.read_text())
    doc["game"] = value
    path.write_text(json.dumps(doc))
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    assert f"game: must be '{game}', got" in result.stderr and len(result.stderr) < 400


# -- every file kind of the three newer games (issue 36) --------------------------------------
#: (game, kind): a file of each kind, made by the commands and the games' own writers.
GAME_FILES = [
    ("henning", "record"), ("henning", "position"), ("henning", "view"),
    ("gridblock", "record"), ("gridblock", "position"), ("gridblock", "view"),
    ("walkable", "record"), ("walkable", "position"), ("walkable", "path answer"),
]  # fmt: skip


@pytest.fixture(scope="module")
def game_files(tmp_path_factory: pytest.TempPathFactory,
               run: Callable[..., Result]) -> dict[tuple[str, str], bytes]:  # fmt: skip
    from polytile.puzzles.gridblock import files as gridblock
    from polytile.puzzles.henning import files as henning
    from polytile.puzzles.walkable import files as walkable

    folder = tmp_path_factory.mktemp("games")
    made: dict[tuple[str, str], bytes] = {}
    for game, args in (("henning", ("--seed", "7")),
                       ("gridblock", ("--seed", "5", "--players", "2", "--deal", "split")),
                       ("walkable", ("--seed", "1", "--red", "greedy"))):  # fmt: skip
        path = folder / f"{game}.json"
        result = run("selfplay", game, *args, "-o", str(path))
        assert result.exit_code == 0, result.stderr
        made[game, "record"] = path.read_bytes()
    h = henning.load_henning(folder / "henning.json", 20).state
    made["henning", "position"] = henning.dumps_position(h).encode()
    made["henning", "view"] = henning.dumps_view(h, h.to_move).encode()
    g = gridblock.load_gridblock(folder / "gridblock.json", 20).state
    made["gridblock", "position"] = gridblock.dumps_position(g).encode()
    made["gridblock", "view"] = gridblock.dumps_view(g, g.to_move).encode()
    w = walkable.load_walkable(folder / "walkable.json", 10).state
    made["walkable", "position"] = walkable.dumps_position(w).encode()
    answer = folder / "path.json"
    result = run("solve", "walkable-path", "--seed", "2", "--pieces", "1", "-o", str(answer))
    assert result.exit_code == 0, result.stderr
    made["walkable", "path answer"] = answer.read_bytes()
    return made


def _game_commands(kind: str, path: Path, out_dir: Path) -> list[tuple[str, ...]]:
    p = str(path)
    if kind == "path answer":
        return [("validate", p), ("validate", p, "--json")]
    svg = str(out_dir / "x.svg")
    runs = [("validate", p), ("render", p, "--no-color"), ("render", p, "-o", svg),
            ("score", p), ("score", p, "--json"), ("moves", p)]  # fmt: skip
    if kind == "record":
        runs.append(("analyse", p, "--time-limit", "1"))
    return runs


@pytest.mark.parametrize(("game", "kind"), GAME_FILES, ids=[f"{g}-{k}" for g, k in GAME_FILES])
def test_malformed_game_files_are_refused_cleanly(run: Callable[..., Result],
                                                  game_files: dict[tuple[str, str], bytes],
                                                  tmp_path: Path, game: str, kind: str,
                                                  slow_scale: str) -> None:  # fmt: skip
    """Every file kind of City Blocks (Henning), Gridblock and Walkable Cities, damaged in
    every way ``json_variants`` knows, through every command that reads it. The default run
    takes the sampled variants and one command in three of them; POLYTILE_SLOW=full all."""
    full = slow_scale == "full"
    every = 1 if full else 3
    move = {"henning": "pass", "gridblock": "setup b3 NE", "walkable": "I4 pass | I4 pass"}
    for i, (label, content) in enumerate(json_variants(game_files[game, kind], full)):
        path = tmp_path / f"v{i}.json"
        path.write_bytes(content)
        runs = _game_commands(kind, path, tmp_path)
        for args in runs if full else runs[i % every :: every]:
            check(run(*args), f"{game} {kind}, {label}: polytile {' '.join(args[:1])}")
        if kind != "path answer" and (full or i % every == 0):
            played = run("play", str(path), move[game])
            check(played, f"{game} {kind}, {label}: polytile play")
            if played.exit_code != 0:  # refused: the file is as it was
                assert path.read_bytes() == content, f"{game} {kind}, {label}: play changed it"
