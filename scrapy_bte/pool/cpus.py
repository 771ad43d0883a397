"""How many CPUs this process may really use.

``os.cpu_count()`` counts the machine; the affinity mask (``taskset``,
``docker --cpuset-cpus``) can narrow that, and a cgroup CPU quota
(``docker --cpus``, Kubernetes ``resources.limits.cpu``, systemd
``CPUQuota=``) caps the CPU *time* the process group gets whatever the
mask says. ``os.process_cpu_count()`` (Python 3.13+) reads only the mask,
so a container limited to 2 CPUs on a 64-core host would start 63 workers
that the kernel then throttles. The quota is read from cgroup v2
(``cpu.max``) or v1 (``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``), in the
process's own cgroup and every ancestor up to the mount point: the
tightest one counts.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from pathlib import Path

_OCTAL_ESCAPE = re.compile(r"\\([0-7]{3})")


def affinity_cpus() -> int:
    """CPUs in the affinity mask (all CPUs where there is no mask)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def usable_cpus(proc: str | os.PathLike[str] = "/proc/self") -> int:
    """The affinity mask's CPUs, capped by the cgroup quota rounded down (at least 1).

    Rounded down because a worker per started CPU would ask for more CPU
    time than the quota grants, and the kernel throttles the whole group.
    """
    cpus = affinity_cpus()
    quota = cgroup_cpu_quota(proc)
    if quota is not None:
        cpus = min(cpus, max(1, math.floor(quota)))
    return max(1, cpus)


def cgroup_cpu_quota(proc: str | os.PathLike[str] = "/proc/self") -> float | None:
    """CPUs' worth of time the process's cgroups allow, or None without a limit (or off Linux)."""
    proc = Path(proc)
    try:
        memberships = (proc / "cgroup").read_text().splitlines()
        mounts = (proc / "mountinfo").read_text().splitlines()
    except OSError:
        return None
    v2_path, v1_path = None, None
    for line in memberships:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hierarchy, controllers, path = parts
        if hierarchy == "0" and controllers == "":
            v2_path = path
        elif "cpu" in controllers.split(","):
            v1_path = path
    limits: list[float] = []
    for mount_root, mount_point, fstype, options in _cgroup_mounts(mounts):
        if fstype == "cgroup2" and v2_path is not None:
            limits += _walk(mount_point, mount_root, v2_path, _read_cpu_max)
        elif fstype == "cgroup" and v1_path is not None and "cpu" in options:
            limits += _walk(mount_point, mount_root, v1_path, _read_cfs_quota)
    return min(limits) if limits else None


def _cgroup_mounts(lines: list[str]) -> list[tuple[str, Path, str, set[str]]]:
    """(root within the hierarchy, mount point, fs type, super options) of cgroup mounts."""
    found = []
    for line in lines:
        before, sep, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if not sep or len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        found.append((_unescape(fields[3]), Path(_unescape(fields[4])), tail[0], set(tail[2].split(","))))
    return found


def _unescape(field: str) -> str:
    """mountinfo writes spaces and the like as octal escapes (``\\040``)."""
    return _OCTAL_ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), field)


def _walk(mount_point: Path, mount_root: str, cgroup_path: str, read: Callable[[Path], float | None]) -> list[float]:
    """Limits found in the process's cgroup directory and its ancestors under *mount_point*.

    In a container the hierarchy is usually mounted at the container's own
    cgroup (``mount_root``), or /proc/self/cgroup names a path the mount
    does not show: then the mount point itself is the process's cgroup.
    """
    relative = cgroup_path
    if mount_root != "/" and (relative == mount_root or relative.startswith(mount_root.rstrip("/") + "/")):
        relative = relative[len(mount_root) :]
    directory = mount_point / relative.lstrip("/")
    if not directory.is_dir():
        directory = mount_point
    limits = []
    while True:
        value = read(directory)
        if value is not None:
            limits.append(value)
        if directory == mount_point or mount_point not in directory.parents:
            return limits
        directory = directory.parent


def _read_cpu_max(directory: Path) -> float | None:
    """cgroup v2: ``cpu.max`` holds "<quota> <period>" in microseconds, or "max <period>"."""
    try:
        quota, period = (directory / "cpu.max").read_text().split()[:2]
        return int(quota) / int(period) if quota != "max" and int(period) > 0 else None
    except (OSError, ValueError):
        return None


def _read_cfs_quota(directory: Path) -> float | None:
    """cgroup v1: ``cpu.cfs_quota_us`` is -1 without a limit."""
    try:
        quota = int((directory / "cpu.cfs_quota_us").read_text())
        period = int((directory / "cpu.cfs_period_us").read_text())
        return quota / period if quota > 0 and period > 0 else None
    except (OSError, ValueError):
        return None
