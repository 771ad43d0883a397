"""Usable CPUs: the affinity mask capped by the cgroup CPU quota (v1 and v2).

The cgroup cases build the files the kernel shows (``/proc/self/cgroup``,
``/proc/self/mountinfo``, the controller files) in a temporary directory
and point the reader at it; the last test reads this machine's own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scrapy_bte.crawl.settings import default_workers
from scrapy_bte.pool.cpus import affinity_cpus, cgroup_cpu_quota, usable_cpus


def fake_proc(tmp_path: Path, cgroup: str, mounts: list[str]) -> Path:
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "cgroup").write_text(cgroup)
    (proc / "mountinfo").write_text("".join(line + "\n" for line in mounts))
    return proc


def v2_mount(point: Path, root: str = "/") -> str:
    return f"35 24 0:30 {root} {point} rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate"


def v1_mount(point: Path, controllers: str = "cpu,cpuacct", root: str = "/") -> str:
    return f"40 31 0:35 {root} {point} rw,nosuid,nodev,noexec,relatime shared:19 - cgroup cgroup rw,{controllers}"


def write(directory: Path, **files: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name.replace("_", ".", 1)).write_text(text + "\n")


def test_v2_container_quota(tmp_path: Path) -> None:
    mount = tmp_path / "sys" / "fs" / "cgroup"
    write(mount, cpu_max="150000 100000")
    proc = fake_proc(tmp_path, "0::/\n", [v2_mount(mount)])
    assert cgroup_cpu_quota(proc) == 1.5
    assert usable_cpus(proc) == 1  # rounded down: two workers would be throttled


def test_v2_tightest_ancestor_counts(tmp_path: Path) -> None:
    mount = tmp_path / "cgroup"
    write(mount / "machine.slice", cpu_max="400000 100000")
    write(mount / "machine.slice" / "crawl.scope", cpu_max="max 100000")
    write(mount / "machine.slice" / "crawl.scope" / "job", cpu_max="max 100000")
    proc = fake_proc(tmp_path, "0::/machine.slice/crawl.scope/job\n", [v2_mount(mount)])
    assert cgroup_cpu_quota(proc) == 4.0
    assert usable_cpus(proc) == min(affinity_cpus(), 4)


def test_v2_without_limit(tmp_path: Path) -> None:
    mount = tmp_path / "cgroup"
    write(mount, cpu_max="max 100000")
    proc = fake_proc(tmp_path, "0::/\n", [v2_mount(mount)])
    assert cgroup_cpu_quota(proc) is None
    assert usable_cpus(proc) == affinity_cpus()


def test_v1_cfs_quota_in_a_container(tmp_path: Path) -> None:
    # The host's path of the cgroup is not visible inside the container:
    # the mount point is the container's own cgroup.
    mount = tmp_path / "sys" / "fs" / "cgroup" / "cpu,cpuacct"
    write(mount, cpu_cfs_quota_us="200000", cpu_cfs_period_us="100000")
    cgroup = "12:memory:/docker/4f1c\n3:cpu,cpuacct:/docker/4f1c\n0::/\n"
    proc = fake_proc(tmp_path, cgroup, [v1_mount(mount, root="/docker/4f1c")])
    assert cgroup_cpu_quota(proc) == 2.0
    # Older runtimes mount the hierarchy's root there but still name the host path.
    proc.joinpath("mountinfo").write_text(v1_mount(mount) + "\n")
    assert cgroup_cpu_quota(proc) == 2.0


def test_v1_unlimited_and_hybrid_layout(tmp_path: Path) -> None:
    cpu = tmp_path / "cgroup" / "cpu"
    unified = tmp_path / "cgroup" / "unified"
    write(cpu, cpu_cfs_quota_us="-1", cpu_cfs_period_us="100000")
    write(unified)  # cgroup2 mounted for other controllers: no cpu.max
    proc = fake_proc(tmp_path, "1:cpu:/\n0::/\n", [v1_mount(cpu, "cpu"), v2_mount(unified)])
    assert cgroup_cpu_quota(proc) is None


def test_mount_point_with_escaped_space(tmp_path: Path) -> None:
    mount = tmp_path / "my cgroup"
    write(mount, cpu_max="50000 100000")
    proc = fake_proc(tmp_path, "0::/\n", [v2_mount(Path(str(mount).replace(" ", "\\040")))])
    assert cgroup_cpu_quota(proc) == 0.5
    assert usable_cpus(proc) == 1  # never fewer than one


def test_unreadable_or_missing_files(tmp_path: Path) -> None:
    assert cgroup_cpu_quota(tmp_path / "nowhere") is None
    mount = tmp_path / "cgroup"
    write(mount, cpu_max="garbage")
    proc = fake_proc(tmp_path, "0::/\n", [v2_mount(mount)])
    assert cgroup_cpu_quota(proc) is None


@pytest.mark.skipif(not Path("/proc/self/cgroup").exists(), reason="no cgroups here (not Linux)")
def test_this_machine() -> None:
    cpus = usable_cpus()
    assert 1 <= cpus <= affinity_cpus() <= (os.cpu_count() or 1)
    quota = cgroup_cpu_quota()
    if quota is not None:
        assert cpus <= max(1, int(quota))
    assert default_workers() == cpus  # niced workers: one per CPU
    assert default_workers(nice=0) == max(1, cpus - 1)  # the crawl's priority: one CPU left to the reactor
    assert default_workers(concurrent_requests=1) == 1
