"""``polytile serve`` as a command: bad files exit 2, it prints its URL with the token, and
Ctrl-C stops it and its analyses with no process left behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner

from polytile.cli import cli


def test_a_file_of_no_game_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"format": "polytile/henning@1", "moves": 3}')
    result = CliRunner().invoke(cli, ["serve", str(bad), "--port", "0"])
    assert result.exit_code == 2
    assert "notes.json" in result.output
    other = tmp_path / "list.txt"
    other.write_text("hello\n")
    result = CliRunner().invoke(cli, ["serve", str(other)])
    assert result.exit_code == 2 and "not a record or position" in result.output
    result = CliRunner().invoke(cli, ["serve", str(tmp_path / "missing.json")])
    assert result.exit_code == 2


def test_a_port_in_use_exits_2(game_files: dict[str, Path]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", str(game_files["henning"]), "--port",
                                          str(port)])  # fmt: skip
    assert result.exit_code == 2
    assert "in use" in result.output and "--port" in result.output


def test_a_host_that_cannot_be_used_names_host(game_files: dict[str, Path]) -> None:
    """Not --port, as it did: a name that does not resolve is the host's fault."""
    result = CliRunner().invoke(cli, ["serve", str(game_files["henning"]), "--host",
                                      "999.1.1.1", "--port", "0"])  # fmt: skip
    assert result.exit_code == 2
    assert "Invalid value for --host" in result.output and "--port" not in result.output


def _below(pid: int) -> set[int]:
    """Every process below ``pid``, by ``ps``."""
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(frontier.pop())],
                             capture_output=True, text=True).stdout  # fmt: skip
        kids = {int(word) for word in out.split()} - found
        found |= kids
        frontier += kids
    return found


def _running(pid: int) -> bool:
    """True for a process that exists and is not a zombie."""
    out = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return bool(out.stdout.strip()) and not out.stdout.strip().startswith("Z")


@contextmanager
def _server(file: Path) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """``polytile serve FILE --port 0`` running: the process, its base URL and its token;
    killed at the end if still running."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    server = subprocess.Popen([sys.executable, "-m", "polytile", "serve", str(file), "--port",
                               "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env)  # fmt: skip
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and "/?token=" in url
        base, token = url.split("/?token=")
        yield server, base, token
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def _analyse(base: str, token: str, move: int, seconds: float) -> str:
    ask = urllib.request.Request(
        f"{base}/api/records/0/analysis?token={token}", method="POST",
        data=json.dumps({"move": move, "seconds": seconds, "tab": "t"}).encode(),
        headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(ask, timeout=30) as r:
        return str(json.load(r)["job"])


def _none_left(below: set[int]) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(map(_running, below)):
        time.sleep(0.2)
    left = [p for p in below if _running(p)]
    assert not left, f"processes left behind: {left}"


def test_serves_until_ctrl_c_and_leaves_no_process(game_files: dict[str, Path]) -> None:
    with _server(game_files["blokus"]) as (server, base, token):
        with urllib.request.urlopen(f"{base}/api/records?token={token}", timeout=30) as r:
            assert json.load(r)["records"][0]["game"] == "blokus"
        try:
            urllib.request.urlopen(f"{base}/api/records", timeout=30)
            raise AssertionError("answered without the token")
        except urllib.error.HTTPError as e:
            assert e.code == 403
        job = _analyse(base, token, 2, 120)  # a long analysis, running when Ctrl-C comes
        time.sleep(1.0)
        with urllib.request.urlopen(f"{base}/api/analysis/{job}?token={token}", timeout=30) as r:
            assert json.load(r)["state"] in ("running", "done")  # done: refused quickly
        below = _below(server.pid)
        assert below  # the fork server and the analysis
        server.send_signal(signal.SIGINT)
        assert server.wait(30) == 0
        assert "stopped" in (server.stderr.read() if server.stderr else "")
        _none_left(below)


def test_a_killed_server_leaves_no_analysis(game_files: dict[str, Path]) -> None:
    """Killed outright (no cleanup), the server's analyses end by themselves."""
    with _server(game_files["blokus"]) as (server, base, token):
        _analyse(base, token, 1, 300)
        time.sleep(1.0)
        below = _below(server.pid)
        server.kill()
        server.wait()
        _none_left(below)


def test_a_malformed_request_is_logged_in_one_line() -> None:
    """aiohttp logs a request it cannot parse (an empty Host header, say) with its parser's
    traceback; the server's terminal gets one line instead (the client its 400)."""
    import logging
    import sys

    from aiohttp.http_exceptions import BadHttpMessage

    from polytile.cli.serve import _one_line

    try:
        raise BadHttpMessage("Missing 'Host' header in request.")
    except BadHttpMessage:
        record = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1,
                                   "Error handling request from %s", ("127.0.0.1",),
                                   sys.exc_info())  # fmt: skip
    assert _one_line(record) and record.exc_info is None
    assert record.getMessage() == ("polytile serve: refused a malformed request: Missing 'Host' "
                                   "header in request.")  # fmt: skip
    other = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "other", (), None)
    assert _one_line(other) and other.getMessage() == "other"
