"""``polytile render``."""

from __future__ import annotations

from pathlib import Path

import pytest

from polytile.formats import load
from polytile.render import to_text

from .helpers import Invoke, assert_clean_failure


def test_help(invoke: Invoke) -> None:
    result = invoke("render", "--help")
    assert result.exit_code == 0
    assert "Examples" in result.stdout and ".png" in result.stdout


@pytest.mark.parametrize(
    "name",
    ["pentomino-6x10.json", "colours-4x4.json", "blokus-opening.json", "board-8x8-centre.txt"],
)
def test_prints_the_plain_picture(invoke: Invoke, examples: Path, name: str) -> None:
    result = invoke("render", str(examples / name), "--no-color")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == to_text(load(examples / name), color=False)
    assert result.stderr == ""


def test_colour_on_request(invoke: Invoke, examples: Path) -> None:
    result = invoke("render", str(examples / "colours-4x4.json"), "--color")
    assert result.exit_code == 0
    assert "\x1b[" in result.stdout


def test_automatic_colour_is_off_when_not_a_terminal(invoke: Invoke, examples: Path) -> None:
    result = invoke("render", str(examples / "colours-4x4.json"))
    assert "\x1b[" not in result.stdout


def test_reads_standard_input(invoke: Invoke, examples: Path) -> None:
    text = (examples / "colours-4x4.json").read_text()
    result = invoke("render", "-", "--no-color", input=text)
    assert result.exit_code == 0
    assert result.stdout.startswith("B B B B\n")


@pytest.mark.parametrize("suffix", [".svg", ".png", ".txt"])
def test_writes_a_file_and_says_where(
    invoke: Invoke, examples: Path, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"pic{suffix}"
    result = invoke(
        "render",
        str(examples / "pentomino-6x10.json"),
        "-o",
        str(out),
        "--cell",
        "16",
        "--title",
        "6x10",
    )
    assert result.exit_code == 0, result.stderr
    assert out.stat().st_size > 0
    assert result.stdout == ""
    assert str(out) in result.stderr


def test_unknown_picture_suffix(invoke: Invoke, examples: Path, tmp_path: Path) -> None:
    result = invoke(
        "render", str(examples / "pentomino-6x10.json"), "-o", str(tmp_path / "pic.gif")
    )
    assert_clean_failure(result)
    assert ".svg, .png or .txt" in result.stderr


def test_bad_file_names_file_and_line(invoke: Invoke, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "polytile/solution@1",\n  "rows": ,\n}')
    result = invoke("render", str(bad))
    assert_clean_failure(result)
    assert f"{bad}: line 2" in result.stderr


def test_missing_file(invoke: Invoke, tmp_path: Path) -> None:
    assert_clean_failure(invoke("render", str(tmp_path / "nope.json")))


def test_bad_cell_size_is_a_usage_error(invoke: Invoke, examples: Path) -> None:
    assert_clean_failure(invoke("render", str(examples / "colours-4x4.json"), "--cell", "1"))


def test_game_records_render_at_a_move(invoke: Invoke, examples: Path) -> None:
    record = str(examples / "duo-game.blksgf")
    start = invoke("render", record, "--move", "0", "--no-color")
    assert start.exit_code == 0 and set(start.stdout) <= {".", " ", "\n"}
    later = invoke("render", record, "--move", "2", "--no-color")
    assert later.exit_code == 0 and "B" in later.stdout and "Y" in later.stdout
    assert_clean_failure(invoke("render", record, "--move", "99"))
    assert_clean_failure(invoke("render", str(examples / "pentomino-6x10.json"), "--move", "1"))
