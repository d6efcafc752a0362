"""Progress on long work: a bar on a terminal, a plain line now and then in a log or pipe."""

from __future__ import annotations

from types import SimpleNamespace

from polytile.cli import progress


def test_a_log_gets_a_line_every_few_seconds(monkeypatch, capsys):
    clock = iter([0.0, 1.0, 6.0, 7.0, 12.5])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    note = SimpleNamespace(done=0, total=10, seconds=0.0)
    with progress.progress_bar("solving", True, lambda p: f"{p.done} of {p.total} states") as up:
        assert up is not None  # captured stderr is not a terminal
        for done in (1, 2, 3, 4):
            note.done = done
            up(note)
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["solving: 2 of 10 states (6 s)", "solving: 4 of 10 states (12 s)"]


def test_no_progress_when_not_asked(capsys):
    with progress.progress_bar("solving", False) as up:
        assert up is None
    assert capsys.readouterr().err == ""


def test_a_search_says_its_positions(monkeypatch, capsys):
    monkeypatch.setattr(progress, "LOG_EVERY", 0.0)
    with progress.search_progress("exact search", True) as report:
        report(12_000, 2.0)
    err = capsys.readouterr().err
    assert err.startswith("exact search: 12,000 positions, 6,000/s (")
