"""WorkerPool with real worker processes: timeouts, crashes, bounds, shutdown.

The worker target is ``pool_targets.slow_or_crash``, whose behaviour is chosen
by the page body; timeouts in here are generous upper bounds, not speed claims.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from scrapy_bte.errors import ConfigError, ExtractionError
from scrapy_bte.pool import (
    Lifecycle,
    PoolClosed,
    PoolFull,
    WorkerCrashed,
    WorkerOutOfMemory,
    WorkerPool,
    WorkerTimeout,
)
from scrapy_bte.result import Extraction

try:
    from . import pool_targets  # tests/ became a package
except ImportError:
    import pool_targets  # pytest put tests/ itself on sys.path

WAIT = 20  # upper bound for any single future in this file
TARGET = pool_targets.slow_or_crash


def make_pool(workers: int = 2, **kw) -> WorkerPool:
    kw.setdefault("timeout", 10.0)
    kw.setdefault("max_pending", 16)
    kw.setdefault("target", TARGET)
    return WorkerPool(workers, **kw)


@pytest.fixture
def pool():
    p = make_pool()
    yield p
    p.close(wait=False)


def worker_pid(result: Extraction) -> int:
    return int(result.paragraphs[1].removeprefix("pid="))


def alive(pid: int) -> bool:
    """True for a live process; a zombie is dead for our purposes."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


def wait_until(predicate, timeout: float = WAIT) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.mark.parametrize("start_method", ["forkserver", "spawn"])
def test_result_round_trips(start_method):
    with make_pool(1, start_method=start_method) as p:
        result = p.submit("héllo wörld".encode("latin-1"), encoding="latin-1", url="http://x/").result(WAIT)
    assert isinstance(result, Extraction)
    assert (result.text, result.title, result.method, result.words) == ("héllo wörld", "http://x/", "echo", 2)
    assert worker_pid(result) != os.getpid()
    assert p.stats()["completed"] == 1


def test_timeout_replaces_only_that_worker():
    with make_pool(2, timeout=2.0) as p:
        # Warm both workers up so each job below lands on its own worker.
        warm = [p.submit(b"sleep:0.3"), p.submit(b"sleep:0.3")]
        before = {worker_pid(f.result(WAIT)) for f in warm}
        assert len(before) == 2
        hung = p.submit(b"sleep:60")
        wait_until(hung.running)
        time.sleep(1.0)
        # Spans the kill of the hung worker at ~2 s, finishes within its own 2 s.
        neighbour = p.submit(b"sleep:1.5")
        with pytest.raises(WorkerTimeout, match="exceeded 2s"):
            hung.result(WAIT)
        survivor = worker_pid(neighbour.result(WAIT))
        assert survivor in before
        (killed,) = before - {survivor}
        assert wait_until(lambda: not alive(killed))
        after = p.submit(b"next").result(WAIT)
        assert after.text == "next" and worker_pid(after) != killed
        assert wait_until(lambda: p.stats()["restarts"] == 1)
        assert wait_until(lambda: killed not in p.pids and len(p.pids) == 2)
        stats = p.stats()
        assert (stats["timeouts"], stats["crashes"], stats["completed"]) == (1, 0, 4)


def test_workers_run_at_the_lower_priority_asked_for():
    """Workers yield the CPU to the process that feeds them: their niceness is the parent's plus ``nice``."""
    parent = os.nice(0)
    with make_pool(1, nice=5) as p:
        assert int(p.submit(b"nice").result(WAIT).text) == min(19, parent + 5)
    with make_pool(1) as p:
        assert int(p.submit(b"nice").result(WAIT).text) == parent
    for bad in (-1, 20, True, "5"):
        with pytest.raises(ConfigError, match="nice"):
            make_pool(1, nice=bad)


def test_memory_cap_fails_only_the_page_over_it():
    cap = 384 * 2**20
    with make_pool(2, max_memory=cap) as p:
        # The cap is the worker's own limit, and numeric libraries run one thread.
        threads = [os.environ.get(name, "1") for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")]
        assert p.submit(b"limits").result(WAIT).text.split() == [str(cap), *threads]
        neighbour = p.submit(b"sleep:3.0")
        wait_until(neighbour.running)
        under = worker_pid(p.submit(b"alloc:64").result(WAIT))
        hog = p.submit(b"alloc:1024", url="http://huge/")
        with pytest.raises(WorkerOutOfMemory, match=r"http://huge/.*memory cap") as info:
            hog.result(WAIT)
        assert isinstance(info.value, ExtractionError)
        assert neighbour.result(WAIT).text == "sleep:3.0"
        assert wait_until(lambda: under not in p.pids and len(p.pids) == 2)
        again = p.submit(b"alloc:64").result(WAIT)
        assert again.text == "alloc:64" and worker_pid(again) != under
        stats = p.stats()
        assert (stats["memory_errors"], stats["crashes"], stats["errors"], stats["restarts"]) == (1, 0, 0, 1)


def test_without_a_cap_a_worker_takes_what_it_needs():
    with make_pool(1) as p:
        assert p.submit(b"alloc:512").result(WAIT).text == "alloc:512"
        assert p.stats()["memory_errors"] == 0


@pytest.mark.parametrize(("body", "why"), [(b"exit:3", "exit code 3"), (b"segv", "SIGSEGV")])
def test_crash_fails_only_its_own_job(pool, body, why):
    neighbour = pool.submit(b"sleep:0.6")
    wait_until(neighbour.running)
    doomed = pool.submit(body, url="http://hostile/")
    with pytest.raises(WorkerCrashed, match=why) as info:
        doomed.result(WAIT)
    assert isinstance(info.value, ExtractionError)
    assert "http://hostile/" in str(info.value)
    assert neighbour.result(WAIT).text == "sleep:0.6"
    assert [f.result(WAIT).text for f in [pool.submit(b"a"), pool.submit(b"b"), pool.submit(b"c")]] == ["a", "b", "c"]
    stats = pool.stats()
    assert (stats["crashes"], stats["restarts"], stats["errors"]) == (1, 1, 0)


def test_target_exception_is_an_error_result(pool):
    result = pool.submit(b"raise", url="http://x/").result(WAIT)
    assert result.empty and result.error == "ValueError: hostile page http://x/"
    assert pool.submit(b"fine").result(WAIT).text == "fine"
    assert pool.stats()["errors"] == 1 and pool.stats()["restarts"] == 0


def test_target_breaking_its_contract_is_an_error_result():
    with make_pool(1, target=f"{pool_targets.__name__}:returns_garbage") as p:
        assert p.submit(b"x").result(WAIT).error == "TypeError: worker target returned int, expected dict"


def test_unimportable_target_fails_futures_not_forever():
    p = make_pool(1, target=f"{pool_targets.__name__}:no_such_function")
    with pytest.raises(ConfigError, match="no_such_function"):
        p.submit(b"x").result(WAIT)
    assert wait_until(lambda: p.closed)
    with pytest.raises(ConfigError):
        p.submit(b"x")
    p.close()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start_method": "fork"},
        {"target": "no_colon"},
        {"timeout": 0},
        {"max_pending": 0},
        {"target": lambda *a: {}},
        {"max_memory": 2**20},
        {"max_memory": "1G"},
    ],
)
def test_bad_configuration_is_rejected_up_front(kwargs):
    with pytest.raises(ConfigError):
        make_pool(1, **kwargs)


def test_worker_seconds_count_the_time_in_a_worker_not_in_the_queue():
    with make_pool(1, timeout=1.0) as p:
        p.submit(b"warm").result(WAIT)  # the worker is up: no start-up time below
        queued_at = time.monotonic()
        first, second, hung = p.submit(b"sleep:0.4"), p.submit(b"sleep:0.4"), p.submit(b"sleep:60")
        assert second.result(WAIT).text == "sleep:0.4"
        waited = time.monotonic() - queued_at
        with pytest.raises(WorkerTimeout):
            hung.result(WAIT)
    # The second page waited 0.4 s for the one worker, then ran 0.4 s in it.
    assert waited >= 0.8
    assert 0.4 <= first.worker_seconds < 0.7 and 0.4 <= second.worker_seconds < 0.7
    assert 1.0 <= hung.worker_seconds < 2.0  # until its worker was killed
    with make_pool(1) as p:
        busy = p.submit(b"sleep:0.5")
        assert wait_until(busy.running)
        never_ran = p.submit(b"queued")
        p.close(wait=False)
        with pytest.raises(PoolClosed):
            never_ran.result(WAIT)
        assert never_ran.worker_seconds is None
        with pytest.raises(PoolClosed):
            busy.result(WAIT)
        assert busy.worker_seconds is not None and busy.worker_seconds < 0.5


def test_pending_work_is_bounded():
    with make_pool(1, max_pending=2) as p:
        first, second = p.submit(b"sleep:0.5"), p.submit(b"sleep:0.5")
        assert wait_until(first.running)
        assert (p.pending, p.capacity) == (2, 0)
        with pytest.raises(PoolFull):
            p.submit(b"one too many")
        room = p.wait_for_capacity()
        assert not room.done()
        assert second.cancel()  # still queued: its slot is free at once
        assert room.done() and p.capacity == 1
        third = p.submit(b"third")
        with pytest.raises(PoolFull):
            p.submit(b"one too many")
        assert not first.cancel()  # running jobs end by result, timeout or crash
        p.wait_for_capacity().result(WAIT)
        assert first.result(0).text == "sleep:0.5"
        assert third.result(WAIT).text == "third"
        assert p.wait_for_capacity().done() and p.pending == 0
        assert p.stats()["completed"] == 2


def test_a_freed_slot_wakes_one_waiter_oldest_first_and_every_waiter_gets_through():
    with make_pool(1, max_pending=1) as p:
        running = p.submit(b"sleep:0.3")
        rooms = [p.wait_for_capacity() for _ in range(5)]
        assert not any(room.done() for room in rooms)
        assert rooms[0].cancel()  # a caller that gave up is skipped, not woken
        assert running.result(WAIT).text == "sleep:0.3"
        assert wait_until(rooms[1].done)
        time.sleep(0.05)
        assert [room.done() for room in rooms[2:]] == [False, False, False]  # one slot, one waiter woken
        # Each woken waiter takes the slot; its job's end wakes the next one, in order.
        order = []
        for i, room in enumerate(rooms[1:], 1):
            room.result(WAIT)
            assert [r.done() for r in rooms[i + 1 :]] == [False] * (len(rooms) - i - 1)
            order.append(p.submit(f"job{i}".encode()).result(WAIT).text)
        assert order == ["job1", "job2", "job3", "job4"]
        assert p.pending == 0 and p.wait_for_capacity().done()


def test_close_wakes_every_waiter():
    p = make_pool(1, max_pending=1)
    try:
        p.submit(b"sleep:0.3")
        rooms = [p.wait_for_capacity() for _ in range(3)]
        p.close(wait=False)
        assert all(room.done() for room in rooms)
        with pytest.raises(PoolClosed):
            p.submit(b"after close")
    finally:
        p.close(wait=False)


def test_close_waits_or_fails_pending_and_leaves_no_children():
    p = make_pool(2)
    queued = [p.submit(b"sleep:0.2") for _ in range(3)]
    pids = p.pids
    p.close()  # wait=True: queued work still finishes
    assert [f.result(0).text for f in queued] == ["sleep:0.2"] * 3
    assert_gone(pids)
    p.close()  # idempotent
    with pytest.raises(PoolClosed):
        p.submit(b"x")

    p = make_pool(2)
    hung = p.submit(b"sleep:60")
    wait_until(hung.running)
    pids = p.pids
    p.close(wait=False)
    with pytest.raises(PoolClosed):
        hung.result(0)
    assert_gone(pids)


def test_lifecycle_is_one_state_and_a_drain_can_be_escalated():
    """open -> draining (close waits for a hung job) -> aborting (close(wait=False)) -> stopped."""
    p = make_pool(1)
    assert p.state is Lifecycle.OPEN and not p.closed
    hung = p.submit(b"sleep:60")
    queued = p.submit(b"sleep:0")
    wait_until(hung.running)
    closer = threading.Thread(target=p.close)  # wait=True: blocked by the hung job
    closer.start()
    assert wait_until(lambda: p.state is Lifecycle.DRAINING) and p.closed
    with pytest.raises(PoolClosed):
        p.submit(b"x")
    assert not hung.done() and not queued.done()
    p.close(wait=False)
    closer.join(WAIT)
    assert not closer.is_alive() and p.state is Lifecycle.STOPPED
    for fut in (hung, queued):
        with pytest.raises(PoolClosed):
            fut.result(0)


def assert_gone(pids: list[int]) -> None:
    assert len(pids) == 2
    assert not {c.pid for c in multiprocessing.active_children()} & set(pids)
    assert wait_until(lambda: not any(alive(pid) for pid in pids))


ORPHAN_SCRIPT = textwrap.dedent(
    """
    import json, signal, sys, time
    import pool_targets
    from scrapy_bte.pool import WorkerPool
    # As run from a terminal: a runner that starts the tests in the background has SIGINT
    # ignored, and an ignored signal is inherited, so Python would not raise KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    pool = WorkerPool(2, timeout=None, max_pending=4, target=pool_targets.slow_or_crash)
    hung = pool.submit(b"sleep:60")
    while not hung.running():
        time.sleep(0.01)
    print(json.dumps(pool.pids), flush=True)
    time.sleep(60)
    """
)


@pytest.mark.parametrize("how", ["ctrl-c", "sigkill"])
def test_parent_death_leaves_no_orphans(how):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(pool_targets.__file__).parent), *sys.path]))
    proc = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        pids = json.loads(proc.stdout.readline())
        family = descendants(proc.pid)
        assert set(pids) <= family and len(family) >= 3  # + the fork server
        if how == "ctrl-c":  # what a terminal does: SIGINT to the whole group
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.kill()
        proc.wait(WAIT)
        assert wait_until(lambda: not any(alive(pid) for pid in family)), [p for p in family if alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_stock_process_pool_breaks_and_cannot_cancel():
    """Why WorkerPool exists: ProcessPoolExecutor loses everything to one crash."""
    ctx = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(2, mp_context=ctx) as ex:
        # Both workers up first, so the crash lands on the idle one.
        warm = [ex.submit(pool_targets.ppe_task, b"sleep:0.3") for _ in "ab"]
        assert all(f.result(WAIT) for f in warm)
        innocent = ex.submit(pool_targets.ppe_task, b"sleep:5")
        assert wait_until(innocent.running)
        time.sleep(0.3)  # let a worker take it
        crash = ex.submit(pool_targets.ppe_task, b"exit:3")
        for fut in (crash, innocent):
            with pytest.raises(BrokenProcessPool):
                fut.result(WAIT)
        with pytest.raises(BrokenProcessPool):
            ex.submit(pool_targets.ppe_task, b"later")
    with ProcessPoolExecutor(1, mp_context=ctx) as ex:
        slow = ex.submit(pool_targets.ppe_task, b"sleep:0.5")
        assert wait_until(slow.running)
        assert slow.cancel() is False  # no way to stop a hostile page
        assert slow.result(WAIT)["text"] == "sleep:0.5"


def test_real_extraction_matches_direct_call():
    pytest.importorskip("scrapy_bte.api", reason="scrapy_bte.extract is not written yet")
    from scrapy_bte import extract

    html = (
        "<html><head><title>Pool test</title></head><body><nav>Home | About</nav>"
        "<article><p>" + "The pool runs the same extraction as a direct call. " * 8 + "</p>"
        "<p>" + "Worker processes receive bytes and headers, never trees. " * 6 + "</p></article>"
        "<footer>(c) 2024</footer></body></html>"
    ).encode()
    with WorkerPool(1, timeout=30.0, max_pending=2) as p:
        via_pool = p.submit(html, content_type="text/html; charset=utf-8", url="http://x/").result(60)
    direct = extract(html, content_type="text/html; charset=utf-8", url="http://x/")  # the URL is page-type evidence
    assert via_pool == direct


@pytest.fixture
def dying():
    """``dying(how, count)``: a target whose first ``count`` workers die while starting
    (:mod:`pool_startup_targets`); its counter files are removed after the test."""
    import tempfile
    import uuid

    tokens: list[str] = []

    def make(how: str, count: int) -> str:
        tokens.append(uuid.uuid4().hex)
        return f"{pool_targets.__name__.replace('pool_targets', 'pool_startup_targets')}:{how}_{count}_{tokens[-1]}"

    yield make
    for token in tokens:
        Path(tempfile.gettempdir(), f"bte-startup-{token}").unlink(missing_ok=True)


def test_workers_killed_while_starting_do_not_end_the_pool(dying):
    """Three workers killed (SIGKILL) before they were ready closed the pool for good: every later
    page failed with "workers keep dying at startup". The fifth worker starts, and serves."""
    with make_pool(1, target=dying("kill", 4)) as p:
        assert p.submit(b"a").result(WAIT).text == "a"
        assert p.submit(b"b").result(WAIT).text == "b"


@pytest.mark.parametrize(("how", "why"), [("exit", "exit code 3"), ("kill", "SIGKILL")])
def test_workers_that_never_start_still_end_the_pool(dying, how: str, why: str):
    """The crash-loop guard stays: a target that cannot start (3 in a row), or workers killed
    every time (20 in a row), fail the pages instead of spinning for ever."""
    p = make_pool(1, target=dying(how, 1000))
    try:
        with pytest.raises(WorkerCrashed, match=f"keep dying at startup.*{why}"):
            p.submit(b"x").result(WAIT * 3)
    finally:
        p.close(wait=False)
