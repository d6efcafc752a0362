"""The web board's HTTP API through aiohttp's test client: every route, the token and the
``Host`` check, path traversal, malformed and oversized uploads; after each bad request the
server still answers."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from aiohttp.test_utils import TestClient, TestServer

from polytile.faces.registry import face
from polytile.serve.app import _ANALYSES as _ANALYSES_KEY
from polytile.serve.app import make_app
from polytile.serve.board import MAX_UPLOAD_BYTES, Board, EngineTask

TOKEN = "test-token-123"
AUTH = {"X-Polytile-Token": TOKEN}
GAMES = ("henning", "blokus", "gridblock", "walkable", "cityblocks")


@asynccontextmanager
async def serving(files: list[Path]) -> AsyncIterator[TestClient[Any, Any]]:
    board = Board()
    for file in files:
        board.add_file(str(file))
    async with TestClient(TestServer(make_app(board, token=TOKEN))) as client:
        yield client


def run(files: list[Path], scenario: Callable[[TestClient[Any, Any]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with serving(files) as client:
            await scenario(client)
            await still_answers(client)

    asyncio.run(main())


async def still_answers(client: TestClient[Any, Any]) -> None:
    r = await client.get("/api/records", headers=AUTH)
    assert r.status == 200, await r.text()


async def error(r: Any, status: int) -> str:
    assert r.status == status, await r.text()
    return str((await r.json())["error"])


def test_token_is_required(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        for url in ("/", "/api/records", "/api/records/0", "/api/records/0/download"):
            assert "token" in await error(await client.get(url), 403)
            assert "token" in await error(await client.get(url + "?token=wrong"), 403)
            wrong = {"X-Polytile-Token": TOKEN + "x"}
            assert "token" in await error(await client.get(url, headers=wrong), 403)
        r = await client.post("/api/records/0/play", json={"text": "pass"})
        await error(r, 403)
        assert (await client.get(f"/?token={TOKEN}")).status == 200
        assert (await client.get(f"/api/records?token={TOKEN}")).status == 200
        for asset in ("/board.js", "/board.css"):  # the page's own files hold no data
            assert (await client.get(asset)).status == 200

    run([game_files["henning"]], scenario)


def test_host_header_is_checked(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        port = client.port
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}",
                     f"localhost.evil.example:{port}", ""):  # fmt: skip
            r = await client.get("/api/records", headers={**AUTH, "Host": host})
            assert "Host" in await error(r, 403), host
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            r = await client.get("/api/records", headers={**AUTH, "Host": host})
            assert r.status == 200, host

    run([game_files["henning"]], scenario)


def test_the_first_load_moves_the_token_into_a_cookie(game_files: dict[str, Path]) -> None:
    """#50: ``/?token=`` sets an HttpOnly, SameSite=Lax cookie and sends the browser on
    to ``/``, so the token leaves the address bar; the cookie alone then opens the page and
    the API."""

    async def scenario(client: TestClient[Any, Any]) -> None:
        r = await client.get(f"/?token={TOKEN}&x=1", allow_redirects=False)
        assert r.status == 303, await r.text()
        assert r.headers["Location"] == "/?x=1"
        cookie = r.cookies[f"polytile-token-{client.port}"]
        assert cookie.value == TOKEN and cookie["httponly"] and cookie["samesite"] == "Lax"
        assert cookie["path"] == "/"
        r = await client.get(f"/?token={TOKEN}", allow_redirects=False)
        assert r.headers["Location"] == "/"
        assert (await client.get("/")).status == 200  # the cookie jar sends it
        assert (await client.get("/api/records")).status == 200
        client.session.cookie_jar.clear()
        await error(await client.get("/api/records"), 403)
        client.session.cookie_jar.update_cookies({f"polytile-token-{client.port}": "forged"})
        await error(await client.get("/api/records"), 403)
        await error(await client.get(f"/?token={TOKEN}x", allow_redirects=False), 403)

    run([game_files["henning"]], scenario)


def test_another_origin_starts_nothing_even_with_the_token(
        game_files: dict[str, Path]) -> None:  # fmt: skip
    """#50: a request that changes something, sent by a page of another origin (another
    port of this machine included) that knows the token, is refused; the board's own page
    and clients that are no page (no ``Origin``) are served."""

    async def scenario(client: TestClient[Any, Any]) -> None:
        port = client.port
        at0 = face("henning").legal(face("henning").read(str(game_files["henning"]), 0)).moves[0]
        play = {"move": 0, "text": at0}
        analysis = {"tab": "t", "move": 1, "seconds": 1}
        others = ("http://evil.example", f"http://127.0.0.1:{port + 1}",
                  f"https://127.0.0.1:{port}", "null", f"http://localhost:{port}")
        for origin in others:
            headers = {**AUTH, "Origin": origin}
            for url, body in (("/api/records/0/play", play),
                              ("/api/records/0/analysis", analysis),
                              (f"/api/upload?name=x.json&token={TOKEN}", None)):  # fmt: skip
                r = await client.post(url, json=body, headers=headers)
                assert "another origin" in await error(r, 403), (origin, url)
            r = await client.delete("/api/analysis/nope", headers=headers)
            assert "another origin" in await error(r, 403), origin
        for site in ("cross-site", "same-site"):  # no Origin, but the browser says whence
            r = await client.post("/api/records/0/play", json=play,
                                  headers={**AUTH, "Sec-Fetch-Site": site})  # fmt: skip
            await error(r, 403)
        rows = (await (await client.get("/api/records", headers=AUTH)).json())["records"]
        assert len(rows) == 1  # nothing was played, uploaded or started
        assert not client.app[_ANALYSES_KEY].jobs  # type: ignore[index]
        # the page's own origin, and a script that sends no Origin, are served
        own = {**AUTH, "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
        r = await client.post("/api/records/0/play", json=play, headers=own)
        assert r.status == 200, await r.text()
        r = await client.post("/api/records/0/play", json=play, headers=AUTH)
        assert r.status == 200, await r.text()
        # reading is not refused by origin (the browser keeps another origin from reading)
        r = await client.get("/api/records", headers={**AUTH, "Origin": "http://evil.example"})
        assert r.status == 200

    run([game_files["henning"]], scenario)


def test_every_answer_carries_the_safety_headers(game_files: dict[str, Path]) -> None:
    """#50: ``nosniff`` and ``no-referrer`` on every answer, errors included; unknown
    routes answer JSON; the icon needs no token."""

    async def scenario(client: TestClient[Any, Any]) -> None:
        port = client.port
        answers = [
            (await client.get("/", headers=AUTH), 200),
            (await client.get("/board.js"), 200),
            (await client.get("/favicon.ico"), 200),
            (await client.get("/favicon.svg"), 200),
            (await client.get("/api/records", headers=AUTH), 200),
            (await client.get("/api/records"), 403),
            (await client.get("/api/records", headers={**AUTH, "Host": "evil.example"}), 403),
            (await client.get("/api/records/99", headers=AUTH), 404),
            (await client.get("/api/records/x", headers=AUTH), 400),
            (await client.get("/nope", headers=AUTH), 404),
            (await client.get("/nope"), 404),
            (await client.put("/api/records", headers=AUTH), 405),
            (await client.post("/api/records/0/play", json={}, headers={
                **AUTH, "Origin": f"http://127.0.0.1:{port + 1}"}), 403),
            (await client.get(f"/?token={TOKEN}", allow_redirects=False), 303),  # sets a cookie
        ]  # fmt: skip
        for r, status in answers:
            assert r.status == status, (r.url, await r.text())
            assert r.headers["X-Content-Type-Options"] == "nosniff", r.url
            assert r.headers["Referrer-Policy"] == "no-referrer", r.url
            if status >= 400:
                assert (await r.json())["error"], r.url
        assert "no such page" in await error(await client.get("/nope"), 404)
        put = await client.put("/api/records")
        assert "does not take PUT" in await error(put, 405)
        assert "GET" in put.headers["Allow"]
        icon = await client.get("/favicon.ico")
        assert icon.content_type == "image/svg+xml" and b"<svg" in await icon.read()

    run([game_files["henning"]], scenario)


@pytest.mark.parametrize("game", GAMES)
def test_position_comes_from_the_face(game_files: dict[str, Path], game: str) -> None:
    file = game_files[game]
    f = face(game)
    moves = f.record_moves(f.read(str(file)))
    at = len(moves) // 2

    async def scenario(client: TestClient[Any, Any]) -> None:
        r = await client.get("/api/records", headers=AUTH)
        (row,) = (await r.json())["records"]
        assert (row["game"], row["length"]) == (game, len(moves))
        query = f"?move={at}" if moves else ""
        r = await client.get(f"/api/records/0{query}", headers=AUTH)
        assert r.status == 200, await r.text()
        view = await r.json()
        doc = f.read(str(file), at if moves else None)
        assert view["svg"] == f.picture(doc, "svg", cell=24)
        assert view["score"] == json.loads(json.dumps(f.score_doc(doc)))
        assert view["moves"] == list(moves)
        assert view["at"] == at
        assert view["legal"]["moves"] == f.legal(doc).as_dict()["moves"]
        assert view["legal"]["to_move"] == f.legal(doc).to_move
        cells = f.move_cells(doc, cell=24)
        assert view["clickable"] == (cells is not None)
        assert [(p["name"], p["playable"], len(p["orientations"])) for p in view["pieces"]] == [
            (p.name, p.playable, 8) for p in f.move_pieces(doc)]  # fmt: skip
        r = await client.get(f"/api/records/0/cells{query}", headers=AUTH)
        assert (await r.json())["cells"] == (None if cells is None else cells.as_dict())
        r = await client.get("/api/records/0", headers=AUTH)  # no move: the end
        assert (await r.json())["at"] == len(moves)

    run([file], scenario)


def test_bad_records_and_moves(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        assert "no record 1" in await error(await client.get("/api/records/1", headers=AUTH), 404)
        assert "no move 31" in await error(
            await client.get("/api/records/0?move=31", headers=AUTH), 404)  # fmt: skip
        await error(await client.get("/api/records/0?move=-1", headers=AUTH), 400)
        await error(await client.get("/api/records/0?move=x", headers=AUTH), 400)
        await error(await client.get("/api/records/99999999999999", headers=AUTH), 400)
        await error(await client.get("/api/records/abc", headers=AUTH), 400)
        assert (await client.get("/api/nothing", headers=AUTH)).status == 404

    run([game_files["henning"]], scenario)


def test_no_path_reaches_a_file(game_files: dict[str, Path]) -> None:
    """Records are found by index: a path in any part of a request reads nothing."""

    async def scenario(client: TestClient[Any, Any]) -> None:
        for url in ("/../../../../etc/passwd", "/api/records/..%2F..%2Fetc%2Fpasswd",
                    "/api/records/0/..%2F..%2F..%2Fetc%2Fpasswd", "/static/../app.py",
                    "/board.js/../../app.py", "/%2e%2e/%2e%2e/etc/passwd",
                    f"/api/records/{game_files['henning']}"):  # fmt: skip
            r = await client.get(url, params={"token": TOKEN})
            assert r.status in (400, 403, 404), url
            assert "root:" not in await r.text()
        r = await client.post("/api/upload", params={"token": TOKEN, "name": "../../../etc/x.json"},
                              data=game_files["henning"].read_bytes())  # fmt: skip
        assert r.status == 200
        row = await r.json()
        assert row["title"] == "x.json"  # its own name, saved in the server's folder
        assert not Path("/etc/x.json").exists()

    run([game_files["henning"]], scenario)


def test_play_legal_illegal_and_variations(game_files: dict[str, Path]) -> None:
    file = game_files["henning"]
    f = face("henning")
    at5 = f.legal(f.read(str(file), 5)).moves[0]

    async def scenario(client: TestClient[Any, Any]) -> None:
        url = "/api/records/0/play"
        message = await error(await client.post(url, json={"move": 5, "text": "Q9@z9"},
                                                headers=AUTH), 400)  # fmt: skip
        assert message.startswith("Q9@z9: ")
        await error(await client.post(url, data="{not json", headers=AUTH), 400)
        await error(await client.post(url, json=["H1@a1"], headers=AUTH), 400)
        await error(await client.post(url, json={"move": 5}, headers=AUTH), 400)
        await error(await client.post(url, json={"move": "5", "text": at5}, headers=AUTH), 400)
        await error(await client.post(url, json={"move": 5, "text": " "}, headers=AUTH), 400)
        await error(await client.post(url, json={"move": 99, "text": at5}, headers=AUTH), 404)
        # a move mid-record starts a variation, in memory; the file is unchanged
        before = file.read_text()
        r = await client.post(url, json={"move": 5, "text": at5}, headers=AUTH)
        view = await r.json()
        assert (view["index"], view["at"], view["variation"]) == (1, 6, True)
        assert view["moves"][5] == at5 and len(view["moves"]) == 6
        assert file.read_text() == before
        # at a variation's end the move is added to it; earlier, it starts another
        nxt = view["legal"]["moves"][0]
        r = await client.post("/api/records/1/play", json={"move": 6, "text": nxt}, headers=AUTH)
        assert ((await r.json())["index"], (await r.json())["at"]) == (1, 7)
        r = await client.post("/api/records/1/play", json={"move": 6, "text": nxt}, headers=AUTH)
        assert (await r.json())["index"] == 2
        rows = (await (await client.get("/api/records", headers=AUTH)).json())["records"]
        assert [(row["length"], row["parent"]) for row in rows] == [(30, None), (7, 0), (7, 0)]
        # where each variation left the record (both at its move 5: the second branches
        # off the first, whose own moves start there)
        assert [row["left_at"] for row in rows] == [None, 5, 5]

    run([file], scenario)


def test_parts_of_a_move_made_at_once(game_files: dict[str, Path]) -> None:
    file = game_files["walkable"]
    f = face("walkable")
    moves = f.record_moves(f.read(str(file)))
    red, blue = (part.strip() for part in moves[3].split("|"))

    async def scenario(client: TestClient[Any, Any]) -> None:
        view = await (await client.get("/api/records/0?move=3", headers=AUTH)).json()
        assert view["at_once_players"] == ["red", "blue"]
        url = "/api/records/0/play"
        played = await client.post(url, json={"move": 3, "parts": {"red": red, "blue": blue}},
                                   headers=AUTH)  # fmt: skip
        assert (await played.json())["moves"][3] == moves[3]
        r = await client.post(url, json={"move": 3, "parts": {"red": red}}, headers=AUTH)
        assert "a round needs blue's part too" in await error(r, 400)
        r = await client.post(url, json={"move": 3, "parts": {}}, headers=AUTH)
        # #48: "red and blue's part"; no "too" when no part was given
        message = await error(r, 400)
        assert "a round needs red's and blue's parts" in message
        assert "too" not in message
        r = await client.post(url, json={"move": 3, "parts": {"red": 1}}, headers=AUTH)
        await error(r, 400)
        r = await client.post(url, json={"move": 3, "parts": ["x"]}, headers=AUTH)
        await error(r, 400)

    run([file], scenario)

    async def other(client: TestClient[Any, Any]) -> None:
        r = await client.post("/api/records/0/play", json={"parts": {"blue": "x"}},
                              headers=AUTH)  # fmt: skip
        assert "at once" in await error(r, 400)

    run([game_files["henning"]], other)


def test_preview_keeps_nothing(game_files: dict[str, Path]) -> None:
    file = game_files["gridblock"]
    f = face("gridblock")
    legal = f.legal(f.read(str(file), 10)).moves

    async def scenario(client: TestClient[Any, Any]) -> None:
        url = "/api/records/0/preview"
        r = await client.post(url, json={"move": 10, "text": legal[0]}, headers=AUTH)
        shown = await r.json()
        doc = f.read(str(file), 10)
        f.play_move(doc, legal[0])
        assert shown["svg"] == f.picture(doc, "svg", cell=24)
        message = await error(await client.post(url, json={"move": 10, "text": "Z9@z9"},
                                                 headers=AUTH), 400)  # fmt: skip
        assert message.startswith("Z9@z9: ")
        rows = (await (await client.get("/api/records", headers=AUTH)).json())["records"]
        assert len(rows) == 1

    run([file], scenario)


@pytest.mark.parametrize("game", ["henning", "blokus", "gridblock", "walkable"])
def test_download_reads_back_in_the_cli(game_files: dict[str, Path], game: str,
                                        tmp_path: Path) -> None:  # fmt: skip
    from click.testing import CliRunner

    from polytile.cli import cli

    file = game_files[game]
    f = face(game)
    moves = f.record_moves(f.read(str(file)))
    at = len(moves) // 2
    move = moves[at]  # the record's own move: a variation that is the record's start

    async def scenario(client: TestClient[Any, Any]) -> None:
        r = await client.post("/api/records/0/play", json={"move": at, "text": move},
                              headers=AUTH)  # fmt: skip
        assert r.status == 200, await r.text()
        r = await client.get("/api/records/1/download", headers=AUTH)
        assert r.status == 200
        name = r.headers["Content-Disposition"].split('filename="')[1].rstrip('"')
        assert name.endswith(file.suffix) and "/" not in name
        saved = tmp_path / name
        saved.write_bytes(await r.read())

    run([file], scenario)
    saved = next(tmp_path.iterdir())
    doc = f.read(str(saved))
    assert f.record_moves(doc) == moves[: at + 1]
    result = CliRunner().invoke(cli, ["validate", str(saved)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("game", ["henning", "gridblock", "walkable"])
def test_a_variation_on_a_position_downloads_as_a_position(
        game_files: dict[str, Path], game: str, tmp_path: Path) -> None:  # fmt: skip
    """Moves played on a position (a game loaded mid-game) download as the position they
    reach, which the CLI reads back; the server refused before ('loaded mid-game: it has no
    set-up to record'), and an analysis of such a variation failed the same way."""
    from importlib import import_module

    from click.testing import CliRunner

    from polytile.cli import cli

    f = face(game)
    record = f.read(str(game_files[game]), 8)
    files = import_module(f"polytile.puzzles.{game}.files")
    position = tmp_path / "position.json"
    position.write_text(files.dumps_position(record.state))
    move = f.record_moves(f.read(str(game_files[game])))[8]  # the record's next move
    saved = tmp_path / "saved.json"

    async def scenario(client: TestClient[Any, Any]) -> None:
        r = await client.post("/api/records/0/play", json={"move": 0, "text": move},
                              headers=AUTH)  # fmt: skip
        assert r.status == 200, await r.text()
        r = await client.get("/api/records/1/download", headers=AUTH)
        assert r.status == 200, await r.text()
        saved.write_bytes(await r.read())

    run([position], scenario)
    f.play_move(record, move)
    doc = f.read(str(saved))
    assert doc.kind == "position"
    assert f.score_doc(doc) == f.score_doc(record)
    result = CliRunner().invoke(cli, ["validate", str(saved)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("game", GAMES)
def test_the_board_downloads_as_a_picture(game_files: dict[str, Path], game: str) -> None:
    """#50: the position shown, as an SVG or PNG file, the face's own picture."""
    f = face(game)
    doc = f.read(str(game_files[game]), 2 if game != "cityblocks" else None)

    async def scenario(client: TestClient[Any, Any]) -> None:
        at = "2" if game != "cityblocks" else ""
        r = await client.get("/api/records/0/picture", params={"move": at, "kind": "svg"},
                             headers=AUTH)  # fmt: skip
        assert r.status == 200, await r.text()
        assert r.content_type == "image/svg+xml"
        assert "attachment" in r.headers["Content-Disposition"]
        assert (await r.text()) == f.picture(doc, "svg", cell=24)
        r = await client.get("/api/records/0/picture", params={"move": at, "kind": "png"},
                             headers=AUTH)  # fmt: skip
        assert r.status == 200 and r.content_type == "image/png"
        assert (await r.read()) == f.picture(doc, "png", cell=24)
        assert ".png" in r.headers["Content-Disposition"]
        r = await client.get("/api/records/0/picture", params={"kind": "gif"}, headers=AUTH)
        assert "svg or png" in await error(r, 400)
        await error(await client.get("/api/records/0/picture?move=999", headers=AUTH), 404)

    run([game_files[game]], scenario)


def test_uploads(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        up = {"token": TOKEN, "name": "mine.blksgf"}
        r = await client.post("/api/upload", params=up, data=game_files["blokus"].read_bytes())
        row = await r.json()
        assert (row["index"], row["game"], row["title"]) == (1, "blokus", "mine.blksgf")
        for data, words in ((b"", "empty"), (b"{not json", "not added"),
                            (b'{"format": "polytile/henning@1"}', "not added"),
                            (b"(;GM[Go]SZ[19];B[aa])", "not added"),
                            (b"\x00\xff" * 100, "not added")):  # fmt: skip
            r = await client.post("/api/upload", params={"token": TOKEN, "name": "x.json"},
                                  data=data)  # fmt: skip
            message = await error(r, 400)
            assert words in message
            assert "polytile-serve-" not in message  # the server's folder is not told
        big = b" " * (MAX_UPLOAD_BYTES + 1)
        r = await client.post("/api/upload", params={"token": TOKEN}, data=big)
        assert "larger than" in await error(r, 413)
        rows = (await (await client.get("/api/records", headers=AUTH)).json())["records"]
        assert len(rows) == 2

    run([game_files["henning"]], scenario)


def test_a_view_is_not_played_on(game_files: dict[str, Path], tmp_path: Path) -> None:
    """Playing on from a view would use hidden hands the file does not hold: refused."""
    from polytile.puzzles.henning.files import dumps_view  # a game's file, made for the test

    f = face("henning")
    view = tmp_path / "view.json"
    view.write_text(dumps_view(f.read(str(game_files["henning"]), 4).state, 0))

    async def scenario(client: TestClient[Any, Any]) -> None:
        shown = await (await client.get("/api/records/0", headers=AUTH)).json()
        assert (shown["kind"], shown["playable"]) == ("view", False)
        r = await client.post("/api/records/0/play", json={"text": "pass"}, headers=AUTH)
        assert "view" in await error(r, 400)

    run([view], scenario)


def test_analysis_refused_without_a_solver(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        url = "/api/records/0/analysis"
        body = {"tab": "t", "seconds": 5}
        assert "no exact endgame solver" in await error(
            await client.post(url, json=body, headers=AUTH), 400)  # fmt: skip
        view = await (await client.get("/api/records/0", headers=AUTH)).json()
        assert view["analysis"] == ["bounds"]  # its bounds, as 'polytile bounds' gives them

    run([game_files["cityblocks"]], scenario)


def test_bounds_refused_for_a_game_without_them(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        body = {"tab": "t", "seconds": 5, "mode": "bounds"}
        assert "has no bounds" in await error(
            await client.post("/api/records/0/analysis", json=body, headers=AUTH), 400)
        view = await (await client.get("/api/records/0", headers=AUTH)).json()
        assert "bounds" not in view["analysis"]

    run([game_files["gridblock"]], scenario)


def test_analysis_requests_are_checked(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        url = "/api/records/0/analysis"
        for body in ({"tab": "t", "seconds": 0}, {"tab": "t", "seconds": "5"},
                     {"tab": "", "seconds": 5}, {"tab": "t" * 65, "seconds": 5},
                     {"tab": "t", "move": 999}, {"tab": "t", "mode": "view"},
                     {"tab": "t", "mode": "guess"}):  # fmt: skip
            await error(await client.post(url, json=body, headers=AUTH), 400)
        await error(await client.get("/api/analysis/nope", headers=AUTH), 404)
        await error(await client.delete("/api/analysis/nope", headers=AUTH), 404)

    run([game_files["blokus"]], scenario)


def test_a_typed_move_is_kept_in_the_one_notation(game_files: dict[str, Path]) -> None:
    """#50: a Blokus move typed by its points alone is kept in the variation as the move
    list writes every move (colour, piece, points), not as typed."""
    f = face("blokus")
    listed = f.legal(f.read(str(game_files["blokus"]), 2)).moves[0]  # "blue V3 e10 e9 f9"
    typed = " ".join(listed.split()[2:])

    async def scenario(client: TestClient[Any, Any]) -> None:
        r = await client.post("/api/records/0/play", json={"move": 2, "text": typed},
                              headers=AUTH)  # fmt: skip
        view = await r.json()
        assert r.status == 200, view
        assert view["moves"][2] == listed

    run([game_files["blokus"]], scenario)


def test_the_engine_moves_and_says_why(game_files: dict[str, Path]) -> None:
    """A game against the engine (#49, #50): the engine's move is played as a typed one
    (checked, a variation mid-record) and the answer says what it rests on; games without
    an engine player, bad times and finished games are refused."""
    files = [game_files[g] for g in ("henning", "blokus", "walkable", "cityblocks")]

    async def scenario(client: TestClient[Any, Any]) -> None:
        for index in (0, 1):
            view = await (await client.get(f"/api/records/{index}?move=4", headers=AUTH)).json()
            assert view["engine"] is True
            r = await client.post(f"/api/records/{index}/engine",
                                  json={"move": 4, "seconds": 0.2}, headers=AUTH)  # fmt: skip
            assert r.status == 200, await r.text()
            after = await r.json()
            engine = after["engine"]
            assert after["at"] == 5 and after["variation"] and after["moves"][4] == engine["text"]
            assert engine["mover"] == view["legal"]["to_move"]
            assert engine["label"].startswith(("estimate", "exact")) and "seconds" in engine
        view = await (await client.get("/api/records/3", headers=AUTH)).json()
        assert view["engine"] is False
        r = await client.post("/api/records/3/engine", json={}, headers=AUTH)
        assert "no engine player" in await error(r, 400)
        url = "/api/records/0/engine"
        for body in ({"seconds": 0}, {"seconds": 61}, {"seconds": "2"}, {"seconds": True},
                     {"move": "3"}):  # fmt: skip
            await error(await client.post(url, json=body, headers=AUTH), 400)
        assert "over" in await error(await client.post(url, json={}, headers=AUTH), 400)
        await error(await client.post(url, json={"move": 999}, headers=AUTH), 404)
        r = await client.post(url, json={"move": 3}, headers={**AUTH, "Origin": "http://evil"})
        await error(r, 403)

    run(files, scenario)


def test_the_board_answers_while_the_engine_thinks(
    game_files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """#49: the engine thinks in a thread of its own. While it is held in its thinking, the
    board still shows positions and plays a person's move in another record; then the
    engine's move is played, in the position it was asked in."""
    thinking, go_on = threading.Event(), threading.Event()
    real = EngineTask.think

    def held(task: EngineTask) -> tuple[str, Any]:
        thinking.set()
        assert go_on.wait(120), "the board did not answer while the engine thought"
        return real(task)

    monkeypatch.setattr(EngineTask, "think", held)

    async def scenario(client: TestClient[Any, Any]) -> None:
        loop = asyncio.get_running_loop()
        asked = asyncio.ensure_future(client.post(
            "/api/records/0/engine", json={"move": 4, "seconds": 0.2}, headers=AUTH))  # fmt: skip
        assert await loop.run_in_executor(None, thinking.wait, 120)
        view = await (await client.get("/api/records/1?move=2", headers=AUTH)).json()
        assert view["at"] == 2
        mine = {"move": 2, "text": view["legal"]["moves"][0]}
        r = await client.post("/api/records/1/play", json=mine, headers=AUTH)
        assert r.status == 200, await r.text()
        go_on.set()
        r = await asked
        assert r.status == 200, await r.text()
        after = await r.json()
        assert after["at"] == 5 and after["moves"][4] == after["engine"]["text"]

    run([game_files["henning"], game_files["blokus"]], scenario)


def test_the_engine_plays_a_walkable_round(game_files: dict[str, Path], tmp_path: Path) -> None:
    """#50, Walkable Cities: "Engine moves" plays a whole round, both parts the engine's,
    checked by the rules and kept in a variation that downloads as a record the CLI reads;
    its value is red's."""
    f = face("walkable")

    async def scenario(client: TestClient[Any, Any]) -> None:
        view = await (await client.get("/api/records/0?move=4", headers=AUTH)).json()
        assert view["engine"] is True and view["at_once_players"] == ["red", "blue"]
        r = await client.post("/api/records/0/engine", json={"move": 4, "seconds": 0.2},
                              headers=AUTH)  # fmt: skip
        assert r.status == 200, await r.text()
        after = await r.json()
        engine = after["engine"]
        assert after["at"] == 5 and after["variation"]
        assert after["moves"][4] == engine["text"] == engine["played"]
        assert engine["mover"] == "red and blue" and engine["value_for"] == "red"
        assert engine["unseen"] == [] and engine["note"] == ""
        assert len(engine["text"].split(" | ")) == 2
        assert engine["label"].startswith(("exact", "estimate", "greedy")), engine["label"]
        r = await client.get(f"/api/records/{after['index']}/download", headers=AUTH)
        (tmp_path / "round.json").write_text(await r.text())
        moves = f.record_moves(f.read(str(tmp_path / "round.json")))
        assert len(moves) == 5 and moves[4] == engine["text"]

    run([game_files["walkable"]], scenario)


def test_the_engine_answers_a_walkable_part_unseen(
    game_files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """#50, Walkable Cities against the engine: the person gives red's part, the engine
    makes blue's from the position before the round (it is asked with that position and
    the player alone), and the round is played as the two. With its draws seeded and no
    time limit (so that the machine's speed does not matter), its part is the same
    whatever red entered."""
    from polytile.puzzles.walkable import engine

    f = face("walkable")
    file = game_files["walkable"]
    before = f.read(str(file), 4).state.state_key()
    asked: list[tuple[Any, int]] = []
    real = engine.engine_part

    def seeded(g: Any, player: int, seconds: float | None = None, **_: Any) -> Any:
        asked.append((g.state_key(), player))
        return real(g, player, None, rng=np.random.default_rng(7))

    monkeypatch.setattr(engine, "engine_part", seeded)
    legal = f.legal(f.read(str(file), 4)).moves
    reds = (legal[0], next(m for m in legal if m.split()[0] != legal[0].split()[0]))

    async def scenario(client: TestClient[Any, Any]) -> None:
        answers = []
        for red in reds:
            r = await client.post("/api/records/0/engine", headers=AUTH, json={
                "move": 4, "seconds": 0.2, "player": "blue", "parts": {"red": red}})  # fmt: skip
            assert r.status == 200, await r.text()
            after = await r.json()
            engine_said = after["engine"]
            assert engine_said["mover"] == engine_said["value_for"] == "blue"
            assert engine_said["unseen"] == ["red"] and engine_said["exact"] is False
            assert engine_said["note"] == ("chosen from the position before the round, "
                                           "without seeing red's part")  # fmt: skip
            assert after["at"] == 5
            assert after["moves"][4] == engine_said["played"] == f"{red} | {engine_said['text']}"
            answers.append(engine_said["text"])
        assert answers[0] == answers[1]

    run([file], scenario)
    assert asked == [(before, 1), (before, 1)]


def test_walkable_engine_requests_are_checked(game_files: dict[str, Path]) -> None:
    """What the engine's answer with one player's part refuses, each with a message: a
    game whose players take turns, an unknown player, the other part missing or the
    engine's own given, parts without a player, ill-typed fields; a person's illegal part
    is refused in words that leave the engine's part out (the person has not seen it)."""
    files = [game_files["walkable"], game_files["henning"]]
    url = "/api/records/0/engine"

    async def scenario(client: TestClient[Any, Any]) -> None:
        for body, said in (
            ({"player": "green", "parts": {"red": "T4 pass"}}, "no player 'green'"),
            ({"player": "blue"}, "give red's part"),
            ({"player": "blue", "parts": {"red": " "}}, "give red's part"),
            ({"player": "blue", "parts": {"red": "T4 pass", "blue": "L4 pass"}},
             "blue's part is the engine's"),
            ({"parts": {"red": "T4 pass"}}, '"parts" go with "player"'),
            ({"player": 1, "parts": {"red": "T4 pass"}}, '"player" must name'),
            ({"player": "blue", "parts": ["T4 pass"]}, '"parts" must map'),
            ({"player": "blue", "parts": {"red": 4}}, '"parts" must map'),
        ):  # fmt: skip
            assert said in await error(await client.post(url, json={"move": 4, **body},
                                                         headers=AUTH), 400), body  # fmt: skip
        wrong = "T4 1:a1,a2 2:a1,a2"
        r = await client.post(url, headers=AUTH, json={
            "move": 4, "seconds": 0.1, "player": "blue", "parts": {"red": wrong}})  # fmt: skip
        message = await error(r, 400)
        assert message.startswith(f"{wrong} | (the engine's part): "), message
        r = await client.post(url, headers=AUTH, json={"player": "blue",
                                                       "parts": {"red": "T4 pass"}})  # fmt: skip
        assert "over" in await error(r, 400)
        r = await client.post("/api/records/1/engine", json={"player": "red"}, headers=AUTH)
        assert "take turns" in await error(r, 400)
        r = await client.post(url, json={"move": 4}, headers={**AUTH, "Origin": "http://evil"})
        await error(r, 403)

    run(files, scenario)
