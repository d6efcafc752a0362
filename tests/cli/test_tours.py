"""The README's tours, replayed and compared byte for byte with the outputs recorded before
the front ends were moved onto the games' faces.

Each game's tour makes its records with ``selfplay``/``new`` (seeded, so the same files every
run), then runs the shared verbs on them: pictures, scores, validation, moves and the exact
endgames, with their exit codes, standard output, standard error and written files. Times and
search statistics that vary from run to run are blanked before comparing (``_steady``).

``POLYTILE_TOURS=record`` writes ``tours.json`` anew from the code as it is (do that only
when an output is meant to change, and say so in the commit).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from polytile.cli import cli

from .helpers import EXAMPLES

GOLDEN = Path(__file__).with_name("tours.json")

#: Each tour: the commands, run in order in one folder (``{ex}`` is the examples folder).
#: Files a command writes are compared by their bytes' hash (pictures) or text.
TOURS: dict[str, list[str]] = {
    "henning": [
        "new henning --seed 7 -o game.json",
        "play game.json S3@b3",
        "selfplay henning --seed 7 -o full.json",
        "score full.json",
        "score full.json --json",
        "score full.json --move 10 --no-color",
        "render full.json --no-color",
        "render full.json --move 12 -o city.txt",
        "render full.json -o city.svg",
        "validate full.json",
        "validate full.json --json",
        "selfplay henning --seed 7 --blue random --red random -o rnd.json",
        "solve-endgame rnd.json --move 30 --json",
        "solve-endgame full.json --move 28 --open --json",
        "render full.json --move 99",
        "score missing.json",
    ],
    "gridblock": [
        "new gridblock --seed 5 --players 2 --deal split -o game.json",
        "render game.json --no-color",
        "selfplay gridblock --seed 5 --players 2 --deal split -o full.json",
        "score full.json --no-color",
        "score full.json --json",
        "render full.json --move 20 -o grid.svg",
        "render full.json --move 20 -o grid.txt",
        "validate full.json",
        "validate full.json --json",
        "solve-endgame full.json --move 16 --json",
        "render full.json --move 999",
    ],
    "walkable": [
        "new walkable --seed 1 --dead 10 -o walk.json",
        'play walk.json "T4 1:c4,d4 2:e4 3:d5 | L4 pass"',
        "render walk.json -o walk.svg",
        "render walk.json --no-color",
        "score walk.json --no-color",
        "score walk.json --json",
        "selfplay walkable --red greedy --blue random -o game.json",
        "validate game.json",
        "validate game.json --json",
        "score game.json --move 10 --no-color",
        "render game.json --move 10 -o game.txt",
    ],
    "blokus": [
        "new blokus --variant duo -o duo.json",
        'play duo.json "e10 e9 f9" "V3 j5 j4 k4"',
        "render duo.json --no-color",
        "selfplay blokus --variant duo -o game.blksgf",
        "render game.blksgf --move 20 --no-color",
        "render game.blksgf --move 20 -o m20.svg",
        "score game.blksgf --no-color",
        "score game.blksgf --json",
        "validate duo.json",
        "solve-endgame game.blksgf --move 24 --json",
        "render {ex}/blokus-opening.json --no-color",
        "score {ex}/blokus-opening.json --json",
    ],
    "cityblocks": [
        "new cityblocks --players 2 -o city.json",
        "score city.json --no-color",
        "score city.json --json",
        "validate city.json",
        "render city.json --no-color",
    ],
    "tiling": [
        "render {ex}/pentomino-6x10.json --no-color",
        "validate {ex}/pentomino-6x10.json",
        "validate {ex}/pentomino-6x10-broken.json",
        "render {ex}/board-8x8-centre.txt --no-color",
    ],
}

# Times, search sizes and worker counts that vary between runs or machines.
_VARYING = [
    (re.compile(r"\d+(\.\d+)? s\b"), "<t> s"),
    (re.compile(r'"(seconds|nodes|workers|positions|elapsed)": [0-9.e+-]+'), r'"\1": <n>'),
    (re.compile(r"searched [\d,]+ positions"), "searched <n> positions"),
    (re.compile(r"[\d,]+ positions in"), "<n> positions in"),
]


#: Progress lines: a long step prints them, so a busy machine prints more of them.
_PROGRESS = re.compile(r"^(.*[\d,]+/s \(\d+(\.\d+)? s\)|compiling: .*\(\d+ s\))\n", re.M)


def _steady(text: str, folder: Path) -> str:
    text = _PROGRESS.sub("", text)
    text = text.replace(str(folder), "<dir>").replace(str(EXAMPLES), "<ex>")
    for pattern, replacement in _VARYING:
        text = pattern.sub(replacement, text)
    return text


def _split(command: str) -> list[str]:
    import shlex

    return shlex.split(command.replace("{ex}", str(EXAMPLES)))


def _run_tour(name: str, folder: Path) -> list[dict[str, object]]:
    runner = CliRunner()
    out = []
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for command in TOURS[name]:
            before = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
            result = runner.invoke(cli, _split(command))
            files = {}
            for path in sorted(folder.iterdir()):
                if before.get(path.name) == path.stat().st_mtime_ns:
                    continue
                data = path.read_bytes()
                if path.suffix in (".png",):
                    files[path.name] = "sha256:" + hashlib.sha256(data).hexdigest()
                else:
                    files[path.name] = _steady(data.decode("utf-8"), folder)
            out.append({
                "command": command,
                "exit": result.exit_code,
                "stdout": _steady(result.stdout, folder),
                "stderr": _steady(result.stderr, folder),
                "files": files,
            })  # fmt: skip
    finally:
        os.chdir(cwd)
    return out


@pytest.mark.parametrize("name", sorted(TOURS))
def test_tour_outputs_unchanged(name: str, tmp_path: Path) -> None:
    got = _run_tour(name, tmp_path)
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}
    if os.environ.get("POLYTILE_TOURS") == "record":
        recorded[name] = got
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        pytest.skip("recorded")
    assert name in recorded, "no recorded outputs: run with POLYTILE_TOURS=record"
    for was, now in zip(recorded[name], got, strict=True):
        assert now == was, now["command"]
