"""Fuzz ``scrapy_bte.extract()``: anything but ExtractionError is a crash.

    python benchmarks/fuzz.py -max_total_time=60            # atheris (libFuzzer), 60 s
    python benchmarks/fuzz.py -max_total_time=60 --engine mutate   # no atheris needed
    python benchmarks/fuzz.py --crashes DIR --corpus DIR -timeout=10 -max_len=65536

The input is bytes: its first byte picks the method (bte, density, hybrid)
and how the body is handed over (no header, a Content-Type with a good,
bogus or UTF-16 charset, an ``encoding`` argument, or as ``str`` decoded
with lone surrogates kept); the rest is the body
(``scrapy_bte.testing.torture.decode_fuzz_input``). A crash is any exception
other than :class:`~scrapy_bte.errors.ExtractionError`, a result breaking the
output contract (``scrapy_bte.testing.torture.check_result``: valid Unicode, no
NUL, consistent fields), a second extraction that differs (checked on every
8th input), or an input running longer than ``-timeout`` seconds.

Crashes do not stop the run: each distinct one (exception type and
innermost scrapy_bte frame) is saved once to ``--crashes`` (default
``fuzz-crashes/``) as ``crash-<sha1>`` with a ``.txt`` traceback. When fixing
it, copy the input to ``scrapy_bte/testing/torture_pages/regressions/NAME.bin``: the torture
tests replay it the same way. The run prints the
executions, the time and the crashes, and exits 1 when there were any.

Engines: ``atheris`` (coverage-guided libFuzzer, ``pip install atheris``;
libFuzzer flags such as ``-max_total_time``, ``-timeout``, ``-max_len``,
``-seed`` pass through) and ``mutate`` (a seeded random mutator over the
same seeds, with the same flags ``-max_total_time``, ``-timeout`` and
``-seed``). Both start from ``scrapy_bte.testing.torture.seed_inputs()`` plus ``--corpus``
(``--no-seeds``: from ``--corpus`` only).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

# Tokens that help a mutator reach the tokeniser's corners.
DICTIONARY = (
    b"<script>",
    b"</script>",
    b"<style>",
    b"</style",
    b"<!--",
    b"-->",
    b"--!>",
    b"<!-->",
    b"<![CDATA[",
    b"]]>",
    b"<?xml ",
    b"?>",
    b"<!DOCTYPE html>",
    b"<title>",
    b"</title>",
    b"<meta charset=",
    b'<meta content="',
    b"<a href=",
    b"</a>",
    b"<p>",
    b"</p>",
    b"<div ",
    b"</div>",
    b"<br/>",
    b"<table><tr><td>",
    b"<svg:svg>",
    b"<o:p>",
    b"<noframes>",
    b"<frameset>",
    b"<textarea>",
    b"&amp;",
    b"&#x",
    b"&#0;",
    b"&nbsp;",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\xfe\xff",
    b"%PDF-",
    b"\x1f\x8b",
    b"charset=utf-16",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\x00",
    b"\xe0\xb8\x81",
    b"\xe6\x97\xa5",
    b"\xd8\xa7",
    b"\xf0\x9f\x8d\x9e",
    b"\xc4\xb0",
)

_STATE: dict[str, Any] = {"execs": 0, "crash_dir": Path("fuzz-crashes"), "seen": set()}


def _signature(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "scrapy_bte" in f.filename] or frames[-1:]
    where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
    return f"{type(exc).__name__} at {where}"


def _record(data: bytes, exc: BaseException) -> None:
    sig = _signature(exc)
    if sig in _STATE["seen"]:
        return
    _STATE["seen"].add(sig)
    crash_dir: Path = _STATE["crash_dir"]
    crash_dir.mkdir(parents=True, exist_ok=True)
    name = "crash-" + hashlib.sha1(data).hexdigest()
    (crash_dir / name).write_bytes(data)
    (crash_dir / f"{name}.txt").write_text(sig + "\n\n" + "".join(traceback.format_exception(exc)))
    with open(crash_dir / "crashes.jsonl", "a") as log:
        log.write(json.dumps({"signature": sig, "file": name}) + "\n")
    print(f"\nCRASH {sig} -> {crash_dir / name}", file=sys.stderr, flush=True)


def test_one_input(data: bytes) -> None:
    """The fuzz target: extract once (twice on every 8th input) and check the contract."""
    from scrapy_bte import extract
    from scrapy_bte.errors import ExtractionError
    from scrapy_bte.testing import torture as torture_cases

    _STATE["execs"] += 1
    method, html, options = torture_cases.decode_fuzz_input(data)
    try:
        try:
            result = extract(html, method=method, **options)
        except ExtractionError:
            return
        torture_cases.check_result(result)
        if _STATE["execs"] % 8 == 0:
            again = extract(html, method=method, **options)
            assert again.to_dict() == result.to_dict(), "second extraction differs"
    except Exception as exc:  # noqa: BLE001 - every other exception is a finding
        _record(data, exc)


def _write_seeds(directory: Path) -> None:
    from scrapy_bte.testing import torture as torture_cases

    for k, (name, raw) in enumerate(torture_cases.seed_inputs()):
        (directory / f"seed-{name}").write_bytes(bytes([k % 256]) + raw)


# ---------------------------------------------------------------- engines


def run_atheris(libfuzzer_args: list[str], corpus: list[Path], seeded: bool, workdir: Path) -> None:
    """Worker process: libFuzzer over the seeds; never returns."""
    import atheris

    with atheris.instrument_imports(include=["scrapy_bte", "w3lib"]):
        import scrapy_bte.api
        import scrapy_bte.testing.torture  # noqa: F401

    seeds, work = workdir / "seeds", workdir / "corpus"  # new inputs land in work, seeds stay clean
    seeds.mkdir()
    work.mkdir()
    if seeded:
        _write_seeds(seeds)
    dictionary = workdir / "html.dict"
    dictionary.write_text("".join('"' + "".join(f"\\x{b:02x}" for b in token) + '"\n' for token in DICTIONARY))
    argv = [
        sys.argv[0],
        f"-dict={dictionary}",
        "-print_final_stats=1",
        *libfuzzer_args,
        str(work),
        str(seeds),
        *map(str, corpus),
    ]
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


def _mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(7)
        pos = rng.randint(0, len(buf))
        if op == 0 and buf:  # flip a bit
            k = rng.randrange(len(buf))
            buf[k] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert a dictionary token
            buf[pos:pos] = rng.choice(DICTIONARY)
        elif op == 2 and buf:  # delete a range
            del buf[pos : pos + rng.randint(1, 64)]
        elif op == 3:  # splice a chunk of another seed
            other = rng.choice(pool)
            start = rng.randint(0, len(other))
            buf[pos:pos] = other[start : start + rng.randint(1, 512)]
        elif op == 4 and buf:  # duplicate a chunk many times (depth, size)
            chunk = bytes(buf[pos : pos + rng.randint(1, 32)])
            buf[pos:pos] = chunk * rng.randint(2, 2000)
        elif op == 5:  # random bytes
            buf[pos:pos] = rng.randbytes(rng.randint(1, 16))
        elif buf:  # truncate
            del buf[pos:]
    return bytes(buf[: 1 << 20])


def run_mutate(max_total_time: float, timeout: float, seed: int, corpus: list[Path], seeded: bool) -> int:
    """In-process seeded mutation fuzzing; returns the number of executions."""
    from scrapy_bte.testing import torture as torture_cases

    pool = [bytes([k % 256]) + raw for k, (_, raw) in enumerate(torture_cases.seed_inputs())] if seeded else []
    pool += [p.read_bytes() for d in corpus for p in sorted(d.glob("*")) if p.is_file()]
    if not pool:
        raise SystemExit("no seeds: give --corpus DIR with --no-seeds")
    rng = random.Random(seed)

    def on_alarm(signum: int, frame: Any) -> None:
        raise TimeoutError(f"input ran longer than {timeout} s")

    signal.signal(signal.SIGALRM, on_alarm)
    deadline = time.monotonic() + max_total_time
    for data in pool:  # every seed once, then mutants
        signal.setitimer(signal.ITIMER_REAL, timeout)
        test_one_input(data)
        signal.setitimer(signal.ITIMER_REAL, 0)
    while time.monotonic() < deadline:
        data = _mutate(rng, rng.choice(pool), pool)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            test_one_input(data)
        except TimeoutError as exc:  # raised outside extract's own try
            _record(data, exc)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if rng.random() < 0.05:
            pool.append(data)
    return _STATE["execs"]


# ---------------------------------------------------------------- driver


def _flag(args: list[str], name: str, default: float) -> float:
    for arg in args:
        if arg.startswith(f"-{name}="):
            return float(arg.split("=", 1)[1])
    return default


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("atheris", "mutate"), default="atheris")
    parser.add_argument("--crashes", type=Path, default=Path("fuzz-crashes"), help="where crash inputs go")
    parser.add_argument("--corpus", type=Path, action="append", default=[], help="extra seed directory")
    parser.add_argument("--no-seeds", action="store_true", help="start from --corpus only, not the torture corpus")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)  # its scratch directory
    args, flags = parser.parse_known_args(argv)
    _STATE["crash_dir"] = args.crashes.resolve()
    if args.worker:
        run_atheris(flags, args.corpus, not args.no_seeds, args.worker)
        return 0

    flags = [f for f in flags if f.startswith("-")]
    if not any(f.startswith("-max_total_time=") for f in flags):
        flags.append("-max_total_time=60")
    for default in ("-timeout=10", "-max_len=65536", "-rss_limit_mb=4096"):
        if not any(f.startswith(default.split("=")[0] + "=") for f in flags):
            flags.append(default)
    args.crashes.mkdir(parents=True, exist_ok=True)
    log_path = args.crashes / "crashes.jsonl"
    before = set(log_path.read_text().splitlines()) if log_path.exists() else set()
    started = time.monotonic()

    if args.engine == "mutate":
        execs = run_mutate(
            _flag(flags, "max_total_time", 60),
            _flag(flags, "timeout", 10),
            int(_flag(flags, "seed", 0)),
            args.corpus,
            not args.no_seeds,
        )
        hangs: list[str] = []
    else:
        with tempfile.TemporaryDirectory(prefix="fuzz-") as scratch:
            command = [
                sys.executable,
                str(Path(__file__).resolve()),
                f"--worker={scratch}",
                f"--crashes={args.crashes}",
                *(["--no-seeds"] if args.no_seeds else []),
                *(f"--corpus={c}" for c in args.corpus),
                f"-artifact_prefix={args.crashes.resolve()}/",
                *flags,
            ]
            done = subprocess.run(
                command,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                env={**os.environ, "PYTHONHASHSEED": "0"},
            )
        output = done.stdout
        (args.crashes / "libfuzzer.log").write_text(output)
        counts = re.findall(r"stat::number_of_executed_units:\s*(\d+)", output) or re.findall(r"^#(\d+)", output, re.M)
        execs = int(counts[-1]) if counts else 0
        hangs = re.findall(r"^(?:==\d+== )?ERROR: libFuzzer: (.*)$", output, re.M)
        if done.returncode not in (0, 1) and not hangs:
            hangs = [f"fuzzer exited with status {done.returncode} (see {args.crashes / 'libfuzzer.log'})"]
    elapsed = time.monotonic() - started

    after = log_path.read_text().splitlines() if log_path.exists() else []
    new = [json.loads(line) for line in after if line not in before]
    print(f"engine {args.engine}: {execs:,} executions in {elapsed:.0f} s ({execs / max(elapsed, 1e-9):,.0f}/s)")
    print(f"crashes: {len(new) + len(hangs)} distinct")
    for crash in new:
        print(f"  {crash['signature']}: {args.crashes / crash['file']}")
    for hang in hangs:
        print(f"  libFuzzer: {hang}")
    return 1 if new or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
