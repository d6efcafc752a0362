"""Count every tiling of the pentomino puzzles with polytile and its peers, in one run.

Every engine counts the same problems on the same machine in the same run, so the ratios
are comparable even when the absolute times are not:

* polytile, the whole command as a user runs it (``polytile count NAME --workers 1
  --json``, wall time of the subprocess, numba cache warm), once more with the cache
  cleared ("first call incl. JIT"), and ``--workers 2`` against ``--workers 1`` on
  counts that take over five seconds;
* the exact-cover peers from PyPI (xcover, exact-cover, miniexact, pyxcc, polyomino),
  installed into ``benchmarks/.venv-peers`` and run by that environment's Python through
  ``peer_worker.py``, each building the same 72-item problem (60 cells + 12 pieces, every
  placement of every orientation) with its own API and timed on the count alone;
* OR-tools CP-SAT enumerating all solutions (3x20, 4x15, and 6x10 under a time limit);
* ``c_bitboard.c``, a plain C bitboard search, compiled here with ``gcc -O2``.

Times are medians of ``--runs`` runs (one run once a run takes 30 s or more). The key
figure is polytile's whole-command time divided by the fastest peer's count time.

Usage::

    /work/venv/bin/python benchmarks/bench_count.py            # everything (~10 min)
    /work/venv/bin/python benchmarks/bench_count.py --quick    # 3x20 and 4x15 only
    /work/venv/bin/python benchmarks/bench_count.py --json     # also results/latest.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PEERS_VENV = HERE / ".venv-peers"
BUILD_DIR = HERE / ".build"
RESULTS = HERE / "results" / "latest.json"
WORKER = HERE / "peer_worker.py"
LONG_RUN = 30.0  # seconds: a run this long is not repeated
GOAL = 0.2  # polytile whole command / fastest peer count

#: The pieces, drawn in our own words: '#' is a cell.
SHAPES: dict[str, tuple[str, ...]] = {
    "F": (".##", "##.", ".#."),
    "I": ("#####",),
    "L": ("####", "#..."),
    "N": ("###.", "..##"),
    "P": ("###", "##."),
    "T": ("###", ".#.", ".#."),
    "U": ("#.#", "###"),
    "V": ("#..", "#..", "###"),
    "W": ("#..", "##.", ".##"),
    "X": (".#.", "###", ".#."),
    "Y": ("####", ".#.."),
    "Z": ("##.", ".#.", ".##"),
    "O4": ("##", "##"),
    "L4": ("###", "#.."),
    "I4": ("####",),
    "T4": ("###", ".#."),
    "Z4": ("##.", ".##"),
    "I2": ("##",),
}
PENTOMINOES = ("F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z")

#: (name shown, pip arguments, import name), installed in this order. polyomino pins
#: exact-cover==1.3.0, which cannot count; it only calls get_exact_cover, which 1.5 keeps,
#: so it goes in without dependencies and exact-cover>=1.5 beside it.
PEERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("xcover", ("xcover",), "xcover"),
    ("exact-cover", ("exact-cover>=1.5",), "exact_cover"),
    ("miniexact", ("miniexact",), "miniexact"),
    ("pyxcc", ("pyxcc",), "pyxcc"),
    (
        "polyomino",
        ("--no-deps", "polyomino", "pretty-poly==0.5.1", "pypng<0.0.21", "svgwrite<2"),
        "polyomino",
    ),
)
#: Peers whose count is a full count (polyomino's is not: it finds one solution).
COUNTING_PEERS = ("xcover", "xcover-zdd", "exact-cover", "miniexact", "pyxcc", "cp-sat")
#: The engines each installed peer runs as (xcover twice: dancing cells, and its ZDD mode
#: with the memo cache, which merges equal subproblems).
RUNS_AS = {"xcover": ("xcover", "xcover-zdd")}
#: Peers that visit every solution one at a time: left out of the repeated-shape puzzles,
#: where they would take minutes to count millions of tilings that xcover counts in one.
ONE_BY_ONE = ("exact-cover", "miniexact", "pyxcc", "polyomino")


@dataclass(frozen=True)
class Instance:
    """A tiling puzzle: a rows x cols board less ``holes``, and its known raw count."""

    name: str
    rows: int
    cols: int
    expect: int
    holes: tuple[tuple[int, int], ...] = ()
    extra: tuple[str, ...] = ()  # pieces beyond the 12 pentominoes
    puzzle_file: str | None = None  # a file in benchmarks/, else a catalogue name
    cpsat: bool = False
    #: For repeated shapes: (shape, copies) instead of the 12 pentominoes. With one shape
    #: the cells are the only items; with several, each copy is an item of its own, so a
    #: peer counts every tiling once per way of numbering the copies (``copies_factor``).
    repeated: tuple[tuple[str, int], ...] = ()
    goal: float = 0.5  # polytile whole command / fastest peer

    @property
    def copies_factor(self) -> int:
        """How many times a peer counts each tiling: the numberings of identical copies."""
        if len(self.repeated) < 2:
            return 1
        return math.prod(math.factorial(c) for _, c in self.repeated)

    @property
    def polytile_arg(self) -> str:
        """What ``polytile count`` is given: a catalogue name or a puzzle file path."""
        return str(HERE / self.puzzle_file) if self.puzzle_file else self.name


INSTANCES = (
    Instance("pentomino-3x20", 3, 20, 8, cpsat=True),
    Instance("pentomino-4x15", 4, 15, 1472, cpsat=True),
    Instance("pentomino-5x12", 5, 12, 4040),
    Instance("pentomino-6x10", 6, 10, 9356, cpsat=True, goal=0.2),
    Instance("pentomino-8x8-hole", 8, 8, 520, holes=((3, 3), (3, 4), (4, 3), (4, 4))),
    # repeated shapes (issue 46): the catalogue's names
    Instance("t-tetromino-8x20", 8, 20, 234_390, repeated=(("T4", 40),)),
    Instance("t-tetromino-8x24", 8, 24, 3_300_852, repeated=(("T4", 48),)),
    Instance("t-tetromino-12x16", 12, 16, 5_253_822, repeated=(("T4", 48),)),
    Instance("l-tetromino-4x20", 4, 20, 1_224_182, repeated=(("L4", 20),)),
    Instance("domino-8x8", 8, 8, 12_988_816, repeated=(("I2", 32),)),
    Instance("tetromino-pairs-5x8", 5, 8, 3106,
             repeated=(("I4", 2), ("O4", 2), ("T4", 2), ("L4", 2), ("Z4", 2))),
)
QUICK = ("pentomino-3x20", "pentomino-4x15")
#: Counts long enough for a second worker to pay. Their raw counts were confirmed once by
#: c_bitboard.c (48 s and 240 s: too long to repeat in every run).
PARALLEL = (
    Instance("scott-8x8", 8, 8, 129168, extra=("O4",), puzzle_file="scott-8x8.json"),
    Instance("pentomino-l4-8x8", 8, 8, 484864, extra=("L4",), puzzle_file="pentomino-l4-8x8.json"),
)


@dataclass
class Row:
    """One engine's result on one instance."""

    engine: str
    seconds: float | None
    count: int | None
    complete: bool = True
    runs: int = 1
    build: float | None = None
    note: str = ""
    counts_all: bool = True  # False for rows that do not count (first solution only)
    samples: list[float] = field(default_factory=list)
    search: float | None = None  # polytile's own "seconds": the count inside the command
    chose: str | None = None  # polytile's engine (auto's choice)

    @property
    def spread(self) -> str:
        """(max - min) / median of the runs, the noise to read the ratios against."""
        if len(self.samples) < 2 or not self.seconds:
            return "-"
        return f"{100 * (max(self.samples) - min(self.samples)) / self.seconds:.0f}%"


def log(message: str) -> None:
    """Progress goes to stderr; the tables go to stdout."""
    print(message, file=sys.stderr, flush=True)


# -- the problem ---------------------------------------------------------------------


def orientations(picture: tuple[str, ...]) -> list[tuple[tuple[int, int], ...]]:
    """Every distinct rotation and reflection of a piece, each moved to touch (0, 0)."""
    cells = [(r, c) for r, line in enumerate(picture) for c, ch in enumerate(line) if ch == "#"]
    seen: set[tuple[tuple[int, int], ...]] = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            r0 = min(r for r, _ in cells)
            c0 = min(c for _, c in cells)
            seen.add(tuple(sorted((r - r0, c - c0) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return sorted(seen)


def build_problem(inst: Instance) -> dict[str, Any]:
    """The exact-cover problem: cell items, then one item per piece; one option per placement.

    Raises
    ------
    ValueError
        If the pieces' area differs from the board's.
    """
    holes = set(inst.holes)
    cells = [(r, c) for r in range(inst.rows) for c in range(inst.cols) if (r, c) not in holes]
    index = {cell: i for i, cell in enumerate(cells)}
    if len(inst.repeated) == 1:  # one shape: the cells alone are the items
        pieces: tuple[str, ...] = ()
        copies = [(inst.repeated[0][0], None)] * inst.repeated[0][1]
    elif inst.repeated:  # each copy an item of its own
        pieces = tuple(f"{name}#{k}" for name, n in inst.repeated for k in range(n))
        copies = [(name, i) for i, name in enumerate(p.split("#")[0] for p in pieces)]
    else:
        pieces = (*PENTOMINOES, *inst.extra)
        copies = [(name, i) for i, name in enumerate(pieces)]
    options: list[list[int]] = []
    piece_of: list[int] = []
    area = 0
    shapes_done: set[str] = set()
    for p, (name, item) in enumerate(copies):
        shape = orientations(SHAPES[name])
        area += len(shape[0])
        if item is None and name in shapes_done:
            continue  # one shape, no piece items: its placements once
        shapes_done.add(name)
        for form in shape:
            for r in range(inst.rows):
                for c in range(inst.cols):
                    placed = [(r + dr, c + dc) for dr, dc in form]
                    if all(cell in index for cell in placed):
                        extra = [] if item is None else [len(cells) + item]
                        options.append([*sorted(index[x] for x in placed), *extra])
                        piece_of.append(p)
    if area != len(cells):
        raise ValueError(f"{inst.name}: pieces cover {area} cells, the board has {len(cells)}")
    return {
        "name": inst.name,
        "items": [f"r{r}c{c}" for r, c in cells] + list(pieces),
        "n_primary": len(cells) + len(pieces),
        "options": options,
        "piece_of": piece_of,
        "cells": cells,
        "rows": inst.rows,
        "cols": inst.cols,
        "holes": [list(h) for h in inst.holes],
        "expect": inst.expect * inst.copies_factor,
    }


def c_input(inst: Instance, problem: dict[str, Any]) -> str:
    """The C search's input: placements as 64-bit masks.

    Bits run along the short side first, so the first empty cell sweeps the long way,
    the order in which a first-empty-cell search meets its dead ends soonest.
    """
    short_rows = inst.rows <= inst.cols

    def bit(r: int, c: int) -> int:
        return c * inst.rows + r if short_rows else r * inst.cols + c

    cells = problem["cells"]
    board = sum(1 << bit(r, c) for r, c in cells)
    lines = [f"{len(problem['items']) - len(cells)} {board} {len(problem['options'])}"]
    for option, piece in zip(problem["options"], problem["piece_of"], strict=True):
        mask = sum(1 << bit(*cells[i]) for i in option if i < len(cells))
        lines.append(f"{piece} {mask}")
    return "\n".join(lines) + "\n"


# -- environments and builds ---------------------------------------------------------


def peers_python() -> Path:
    """The peers' interpreter inside ``benchmarks/.venv-peers``."""
    return PEERS_VENV / "bin" / "python"


def probe_peers() -> dict[str, str]:
    """Which peers import in the peers' venv: name -> version, or "" when missing."""
    code = (
        "import importlib, importlib.metadata as m, json, sys\n"
        "out = {}\n"
        "for name, mod in json.loads(sys.argv[1]):\n"
        "    try:\n"
        "        lib = importlib.import_module(mod)\n"
        "        if mod == 'exact_cover' and not hasattr(lib, 'get_solution_count'):\n"
        "            raise ImportError('exact-cover too old to count')\n"
        "        out[name] = m.version(name)\n"
        "    except Exception:\n"
        "        out[name] = ''\n"
        "print(json.dumps(out))\n"
    )
    names = json.dumps([(name, mod) for name, _, mod in PEERS])
    done = subprocess.run(
        [str(peers_python()), "-c", code, names], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return {name: "" for name, _, _ in PEERS}
    found: dict[str, str] = json.loads(done.stdout)
    return found


def ensure_peers() -> dict[str, str]:
    """Create the peers' venv if missing and pip-install the peers that do not import.

    Returns name -> version for the peers that import, name -> "not installed: why" for
    the others. Never touches polytile's own environment.
    """
    if not peers_python().exists():
        base = shutil.which("python3") or sys.executable
        log(f"creating {PEERS_VENV} with {base} -m venv")
        subprocess.run([base, "-m", "venv", str(PEERS_VENV)], check=True)
    status = probe_peers()
    pip = [str(peers_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    errors: dict[str, str] = {}
    for name, args, _ in PEERS:
        if status.get(name):
            continue
        log(f"pip install {' '.join(args)} (into {PEERS_VENV.name})")
        done = subprocess.run([*pip, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            lines = [x for x in done.stderr.splitlines() if x.startswith("ERROR")]
            errors[name] = (lines or done.stderr.splitlines() or ["pip failed"])[-1][:200]
    status = probe_peers()
    for name, _, _ in PEERS:
        if not status.get(name):
            status[name] = "not installed: " + errors.get(name, "installed but does not import")
    return status


def build_c() -> Path:
    """Compile ``c_bitboard.c`` with ``gcc -O2`` into ``benchmarks/.build/``."""
    BUILD_DIR.mkdir(exist_ok=True)
    exe = BUILD_DIR / "c_bitboard"
    source = HERE / "c_bitboard.c"
    if not exe.exists() or exe.stat().st_mtime < source.stat().st_mtime:
        cc = shutil.which("gcc") or "cc"
        subprocess.run([cc, "-O2", "-o", str(exe), str(source)], check=True)
    return exe


def polytile_command() -> list[str]:
    """The ``polytile`` console script beside this interpreter (``-m polytile`` failing that)."""
    script = Path(sys.executable).parent / "polytile"
    return [str(script)] if script.exists() else [sys.executable, "-m", "polytile"]


def polytile_revision() -> str:
    """The commit polytile runs from, "+ changes" when its work tree differs from it."""
    spec = importlib.util.find_spec("polytile")
    if spec is None or not spec.submodule_search_locations:
        return "?"
    where = Path(next(iter(spec.submodule_search_locations)))
    git = ["git", "-C", str(where.parent)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "not a git checkout"
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--", str(where)], capture_output=True, text=True
    )
    return head.stdout.strip() + (" + uncommitted changes" if dirty.stdout.strip() else "")


def clear_jit_cache() -> int:
    """Delete polytile's numba cache (``__pycache__/*.nbi``, ``*.nbc``); returns how many."""
    spec = importlib.util.find_spec("polytile")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("polytile is not installed in this interpreter")
    removed = 0
    for root in spec.submodule_search_locations:
        for pattern in ("*.nbi", "*.nbc"):
            for path in Path(root).rglob(f"__pycache__/{pattern}"):
                path.unlink()
                removed += 1
    return removed


# -- measuring -----------------------------------------------------------------------


def time_polytile(inst: Instance, runs: int, workers: int = 1, engine: str = "auto") -> Row:
    """Wall time of ``polytile count NAME --workers W --engine E --json`` as a
    subprocess."""
    cmd = [*polytile_command(), "count", inst.polytile_arg, "--workers", str(workers), "--json",
           "--engine", engine]  # fmt: skip
    samples: list[float] = []
    searches: list[float] = []
    out: dict[str, Any] = {}
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        samples.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
        out = json.loads(done.stdout)
        searches.append(float(out["seconds"]))
        if out["count"] != inst.expect:
            raise RuntimeError(f"polytile counted {out['count']} on {inst.name}")
        if samples[-1] >= LONG_RUN:
            break
    work = (f"{out.get('subproblems')} subproblems" if out.get("engine") == "search"
            else f"{out.get('peak_keys', 0):,} keys at the widest")  # fmt: skip
    return Row(
        f"polytile --workers {workers}",
        statistics.median(samples),
        int(out["count"]),
        runs=len(samples),
        note=f"{out.get('engine')} engine {statistics.median(searches):.2f} s, {work}",
        samples=samples,
        search=statistics.median(searches),
        chose=out.get("engine"),
    )


def run_worker(python: Path, engine: str, problem: dict[str, Any], runs: int, limit: float) -> Row:
    """Build and count ``problem`` with one peer engine in a subprocess of ``python``."""
    payload = {k: v for k, v in problem.items() if k not in ("piece_of", "cells")}
    payload.update(runs=runs, long_run=LONG_RUN, time_limit=limit)
    done = subprocess.run(
        [str(python), str(WORKER), engine],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Row(engine, None, None, complete=False, note=f"failed: {tail[:150]}")
    out = json.loads(done.stdout)
    counts = out["count_seconds"]
    complete = bool(out["complete"])
    counts_all = engine in COUNTING_PEERS
    return Row(
        f"{engine} {out['version']}",
        statistics.median(counts),
        int(out["count"]),
        complete=complete,
        runs=len(counts),
        build=statistics.median(out["build_seconds"]),
        note=out["note"],
        counts_all=counts_all,
        samples=counts,
    )


def time_peer_process(engine: str, problem: dict[str, Any], runs: int) -> Row:
    """Wall time of a whole peer process counting ``problem`` once (interpreter, imports,
    the peer's JIT cache, build, count): what a user's script costs, as polytile's whole
    command is what a user's command costs."""
    payload = {k: v for k, v in problem.items() if k not in ("piece_of", "cells")}
    payload.update(runs=1, long_run=LONG_RUN, time_limit=LONG_RUN)
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run([str(peers_python()), str(WORKER), engine],
                              input=json.dumps(payload), capture_output=True, text=True,
                              check=False)  # fmt: skip
        samples.append(time.perf_counter() - t0)
        if done.returncode != 0 or samples[-1] >= LONG_RUN:
            break
    out = json.loads(done.stdout) if done.returncode == 0 else {}
    return Row(f"{engine} (whole process)", statistics.median(samples), out.get("count"),
               complete=done.returncode == 0, runs=len(samples), counts_all=False,
               note="interpreter, imports, JIT cache, build and count", samples=samples)


def time_c(exe: Path, inst: Instance, problem: dict[str, Any], runs: int) -> Row:
    """The C search's own time (search only, like the peers' count time)."""
    text = c_input(inst, problem)
    samples: list[float] = []
    found = 0
    for _ in range(runs):
        done = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True)
        count, seconds, _nodes = done.stdout.split()
        found = int(count)
        samples.append(float(seconds))
        if found != inst.expect:
            raise RuntimeError(f"c_bitboard counted {found} on {inst.name}")
        if samples[-1] >= LONG_RUN:
            break
    return Row(
        "C bitboard (gcc -O2)",
        statistics.median(samples),
        found,
        runs=len(samples),
        note="reference, not a peer",
        samples=samples,
    )


# -- reporting -----------------------------------------------------------------------


def fmt_seconds(row: Row) -> str:
    """Seconds for the table; "> N s" for a count stopped by its time limit."""
    if row.seconds is None:
        return "-"
    text = f"{row.seconds:.3f}" if row.seconds < 10 else f"{row.seconds:.1f}"
    return text if row.complete or not row.counts_all else f"> {row.seconds:.0f}"


def instance_table(name: str, rows: list[Row], base: Row,
                   goal: float = GOAL) -> tuple[str, dict[str, Any]]:  # fmt: skip
    """The markdown table of one instance, and its key figure."""
    lines = [
        f"### {name}",
        "",
        "| engine | seconds | runs | spread | count | ratio to polytile | build s | note |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        ratio = "-"
        if row.seconds is not None and row.counts_all and base.seconds:
            # a count stopped by its time limit would have taken longer still
            bound = "" if row.complete else "> "
            ratio = f"{bound}{row.seconds / base.seconds:.2f}"
        count = "-" if row.count is None else f"{row.count:,}"
        if row.count is not None and not row.complete and row.counts_all:
            count += " (so far)"
        build = "-" if row.build is None else f"{row.build:.3f}"
        lines.append(
            f"| {row.engine} | {fmt_seconds(row)} | {row.runs} | {row.spread} | {count} | {ratio} "
            f"| {build} | {row.note} |"
        )
    peers = [
        r
        for r in rows
        if r.counts_all and r.complete and r.seconds and r.engine.split()[0] in COUNTING_PEERS
    ]
    key: dict[str, Any] = {"polytile_seconds": base.seconds}
    if peers and base.seconds:
        best = min(peers, key=lambda r: r.seconds or 0.0)
        figure = base.seconds / (best.seconds or 1.0)
        verdict = "met" if figure <= goal else "not met"
        lines += [
            "",
            f"Key figure: polytile whole command {base.seconds:.3f} s / fastest peer "
            f"({best.engine}) count {best.seconds:.3f} s = **{figure:.3f}** "
            f"(goal <= {goal}: {verdict})",
        ]
        key.update(fastest_peer=best.engine, peer_seconds=best.seconds, figure=figure,
                   goal=goal)  # fmt: skip
        whole = [r for r in rows if r.engine.endswith("(whole process)") and r.seconds]
        if whole and whole[0].seconds:
            process_figure = base.seconds / whole[0].seconds
            lines.append(f"Against the peer's whole process ({whole[0].seconds:.3f} s, as the "
                         f"issue measured it): **{process_figure:.3f}**")  # fmt: skip
            key.update(peer_process_seconds=whole[0].seconds, process_figure=process_figure)
        engines = {r.engine.split()[-1]: r.seconds for r in rows
                   if r.engine.startswith("polytile --engine") and r.seconds}  # fmt: skip
        if base.chose and len(engines) == 2:
            faster = min(engines, key=lambda e: engines[e] or 0.0)
            lines.append(f"auto chose the {base.chose} engine; the faster was {faster} "
                         f"(search {engines['search']:.3f} s, frontier "
                         f"{engines['frontier']:.3f} s)")  # fmt: skip
            key.update(chose=base.chose, faster=faster)
        if base.search:
            search_figure = base.search / (best.seconds or 1.0)
            lines.append(
                f"(polytile's search alone, {base.search:.3f} s, would give {search_figure:.3f}; "
                f"the rest, {base.seconds - base.search:.2f} s, is start-up, imports and checks)"
            )
            key.update(search_seconds=base.search, search_figure=search_figure)
    return "\n".join(lines), key


def row_json(row: Row) -> dict[str, Any]:
    """A result row as plain JSON."""
    return {
        "engine": row.engine,
        "seconds": row.seconds,
        "samples": row.samples,
        "count": row.count,
        "complete": row.complete,
        "counts_all": row.counts_all,
        "build_seconds": row.build,
        "note": row.note,
        "search_seconds": row.search,
    }


# -- the run -------------------------------------------------------------------------


def bench_instance(
    inst: Instance,
    args: argparse.Namespace,
    peers: dict[str, str],
    c_exe: Path | None,
    cold: bool,
) -> tuple[list[Row], Row]:
    """Every engine on one instance; returns the rows and polytile's warm row."""
    problem = build_problem(inst)
    log(f"{inst.name}: {len(problem['options'])} options x {len(problem['items'])} items")
    rows: list[Row] = []
    base = time_polytile(inst, args.runs)
    base.engine = "polytile (whole command, warm)"
    rows.append(base)
    for engine in ("search", "frontier"):  # did auto choose the faster?
        row = time_polytile(inst, args.runs, engine=engine)
        row.engine = f"polytile --engine {engine}"
        row.counts_all = False  # not a peer: shown beside the choice, never ranked
        rows.append(row)
    if cold:
        removed = clear_jit_cache()
        row = time_polytile(inst, 1)
        row.engine = "polytile (first call incl. JIT)"
        row.note += f"; {removed} cache files cleared first"
        row.counts_all = False
        rows.append(row)
    for name, _, _ in PEERS:
        if peers.get(name, "").startswith("not installed"):
            continue
        if inst.repeated and name in ONE_BY_ONE:
            continue
        for engine in RUNS_AS.get(name, (name,)):
            log(f"  {engine}")
            rows.append(run_worker(peers_python(), engine, problem, args.runs, args.cpsat_limit))
    if inst.cpsat:
        log("  cp-sat")
        limit = args.cpsat_limit
        rows.append(run_worker(Path(sys.executable), "cp-sat", problem, args.runs, limit))
    counted = [r for r in rows if r.counts_all and r.complete and r.seconds
               and r.engine.split()[0] in COUNTING_PEERS and r.engine.split()[0] != "cp-sat"]
    if counted:  # the fastest peer once more, as a whole process
        best = min(counted, key=lambda r: r.seconds or 0.0).engine.split()[0]
        log(f"  {best} as a whole process")
        rows.append(time_peer_process(best, problem, args.runs))
    if c_exe is not None and not inst.repeated:
        rows.append(time_c(c_exe, inst, problem, args.runs))
    return rows, base


def bench_workers(args: argparse.Namespace) -> tuple[str, list[Any]]:
    """``--workers 2`` against ``--workers 1`` on the longer counts."""
    lines = [
        "### polytile --workers 2 vs --workers 1 (whole command)",
        "",
        "| puzzle | count | workers 1 s | workers 2 s | speedup | search s (1 / 2) |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    data: list[Any] = []
    for inst in PARALLEL:
        log(f"{inst.name}: workers 1 and 2")
        one = time_polytile(inst, args.runs, workers=1)
        two = time_polytile(inst, args.runs, workers=2)
        speedup = (one.seconds or 0.0) / (two.seconds or 1.0)
        searches = f"{one.search:.2f} / {two.search:.2f}"
        lines.append(
            f"| {inst.name} | {inst.expect:,} | {one.seconds:.2f} | {two.seconds:.2f} "
            f"| {speedup:.2f}x | {searches} |"
        )
        data.append(
            {
                "instance": inst.name,
                "workers_1": row_json(one),
                "workers_2": row_json(two),
                "speedup": speedup,
            }
        )
    return "\n".join(lines), data


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        description="Count pentomino tilings with polytile and its peers, side by side."
    )
    parser.add_argument("--quick", action="store_true", help="only 3x20 and 4x15, no workers")
    parser.add_argument("--json", action="store_true", help=f"also write {RESULTS}")
    parser.add_argument("--runs", type=int, default=3, help="runs per median [default: 3]")
    parser.add_argument(
        "--cpsat-limit", type=float, default=60.0, help="CP-SAT time limit, s [default: 60]"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one markdown table per instance."""
    args = parse_args(argv)
    started = time.time()
    load0 = os.getloadavg()
    peers = ensure_peers()
    try:
        c_exe: Path | None = build_c()
    except (OSError, subprocess.CalledProcessError) as exc:
        log(f"C reference not built: {exc}")
        c_exe = None
    selected = [i for i in INSTANCES if not args.quick or i.name in QUICK]
    cold_name = "pentomino-6x10" if not args.quick else selected[-1].name

    log("warming polytile's JIT cache (untimed run)")
    time_polytile(INSTANCES[0], 1)

    sections: list[str] = []
    results: dict[str, Any] = {"instances": {}, "peers": peers}
    for inst in selected:
        rows, base = bench_instance(inst, args, peers, c_exe, cold=inst.name == cold_name)
        table, key = instance_table(inst.name, rows, base, inst.goal)
        sections.append(table)
        results["instances"][inst.name] = {"rows": [row_json(r) for r in rows], "key": key}
    if not args.quick:
        table, data = bench_workers(args)
        sections.append(table)
        results["workers"] = data

    load1 = os.getloadavg()
    header = [
        f"## bench_count: {time.strftime('%Y-%m-%d %H:%M')}, {platform.node()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}",
        "",
        f"load average {load0[0]:.2f} at start, {load1[0]:.2f} at end; "
        f"{time.time() - started:.0f} s in all; medians of up to {args.runs} runs.",
        "",
        f"polytile {polytile_revision()} ({' '.join(polytile_command())}).",
        "",
        "Peers: "
        + ", ".join(f"{name} {version or '?'}" for name, version in sorted(peers.items())),
    ]
    print("\n".join(header) + "\n\n" + "\n\n".join(sections))
    if args.json:
        RESULTS.parent.mkdir(exist_ok=True)
        results.update(
            date=time.strftime("%Y-%m-%dT%H:%M:%S"),
            machine=platform.node(),
            cores=os.cpu_count(),
            load=[load0, load1],
            polytile=polytile_revision(),
            quick=args.quick,
            runs=args.runs,
        )
        RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        log(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
