#
# Copyright (c) 2026, FlexHeap contributors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.  The FlexHeap contributors
# designate this particular file as subject to the "Classpath" exception
# as provided by Oracle in the LICENSE file that accompanied this code.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
#

"""What every service workload shares: the workload name syntax, where fetched artifacts and
generated data live, process launch inside the run cgroup (optionally as an unprivileged
user), and orderly teardown."""

from __future__ import annotations

import os
import pwd
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..cgroups import RunCgroup
from ..jdk import Jdk, repo_root

if TYPE_CHECKING:
    import psutil  # the functions that use it import it themselves: the CLI's --help runs without the venv

SERVICE_USER = os.environ.get("FLEXHEAP_SERVICE_USER", "flexheap-svc")
FETCH_UNAVAILABLE = 3  # services/fetch.sh's exit code when a registry cannot be reached


class ServiceUnavailable(RuntimeError):
    """The service's artifact cannot be fetched (no registry): tests skip on this, nothing else."""


def cache_dir() -> Path:
    cache = Path(os.environ.get("FLEXHEAP_CACHE") or Path.home() / ".cache" / "flexheap")
    return Path(os.environ.get("FLEXHEAP_SERVICES") or cache / "services")


def fetch(what: str, log: Callable[[str], None]) -> Path:
    """services/fetch.sh WHAT -> the unpacked artifact / venv path. Idempotent and fast when cached."""
    script = repo_root() / "services" / "fetch.sh"
    proc = subprocess.run(["bash", str(script), what], capture_output=True, text=True)
    if proc.returncode != 0:
        msg = f"services/fetch.sh {what} failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}"
        if proc.returncode == FETCH_UNAVAILABLE:
            raise ServiceUnavailable(msg)
        raise RuntimeError(msg)
    for line in proc.stdout.splitlines():
        parts = line.split(" ", 1)
        if len(parts) == 2 and parts[0] == what:
            return Path(parts[1])
    raise RuntimeError(f"services/fetch.sh {what} printed no path: {proc.stdout!r}")


def parse_options(text: str, defaults: dict[str, Any]) -> dict[str, Any]:
    """'docs=20000,search_s=30' -> defaults updated, values converted to the default's type."""
    out = dict(defaults)
    for item in filter(None, (s.strip() for s in text.split(","))):
        if "=" not in item:
            raise ValueError(f"expected key=value, got {item!r}")
        k, v = (s.strip() for s in item.split("=", 1))
        if k not in defaults:
            raise ValueError(f"unknown option {k!r}; known: {', '.join(sorted(defaults))}")
        d = defaults[k]
        out[k] = type(d)(float(v)) if isinstance(d, (int, float)) and not isinstance(d, bool) else v
    return out


def is_service_workload(text: str | None) -> bool:
    return bool(text) and text.split(":", 1)[0] in ("opensearch", "spark")


def parse_workload(text: str) -> "Service":
    """'opensearch:small', 'opensearch:smoke,docs=5000', 'spark:small,scale=2' -> a Service."""
    kind, _, rest = text.partition(":")
    preset, _, opts = (rest or "").partition(",")
    if kind == "opensearch":
        from .opensearch import OpenSearch
        return OpenSearch(preset or "small", opts)
    if kind == "spark":
        from .spark import SparkSql
        return SparkSql(preset or "small", opts)
    raise ValueError(f"unknown service workload {text!r} (opensearch:<preset> or spark:<preset>)")


@dataclass
class Context:
    """One run of a service: where, with which JVM flags, inside which cgroup."""
    run_dir: Path
    jdk: Jdk
    jvm_flags: list[str]  # the policy's flags incl. -Xmx and -Xlog to run_dir/gc.log
    max_heap: int
    budget: int | None
    cgroup: RunCgroup | None
    log: Callable[[str], None]
    t0: float
    deadline: float | None = None  # epoch
    # Why the run must stop now (e.g. memory thrashing, thrash.py), polled with the deadline.
    watchdog: Callable[[], str | None] | None = None
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    files: list[Any] = field(default_factory=list)

    def check_deadline(self) -> None:
        if self.deadline and time.time() > self.deadline:
            raise TimeoutError("run timed out")
        reason = self.watchdog() if self.watchdog else None
        if reason:
            raise RuntimeError(reason)


class Service:
    kind = ""
    # Runs its JVM as an unprivileged user, which cannot load FlexHeap's eBPF stall probe
    # (the run turns on the kernel's delay accounting instead: stall_source.py).
    unprivileged = False

    def __init__(self, preset: str, opts: str) -> None:
        self.preset = preset
        self.opts = opts

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.preset}" + (f",{self.opts}" if self.opts else "")

    # Outside the measured run (idempotent, cached):
    def prepare(self, log: Callable[[str], None]) -> None:
        raise NotImplementedError

    def data_bytes(self) -> int:
        """Reference size for relative budgets ('0.1x'): the generated data on disk."""
        raise NotImplementedError

    def data_dir(self) -> Path:
        """A path on the device the service reads (throttled and measured)."""
        raise NotImplementedError

    def native_reserve(self) -> int:
        """Bytes of the budget the service needs besides its Java heap; a policy's maximum heap
        never takes them (policies.max_heap_bytes)."""
        return 0

    def min_heap(self) -> int:
        """The smallest maximum heap the service starts with (0: any)."""
        return 0

    def jdk_problem(self, jdk: str) -> str | None:
        """Why the service cannot start on a policy's JDK (policies.JDK_*), or None."""
        return None

    # Inside the run:
    def start(self, ctx: Context) -> None:
        raise NotImplementedError

    def main_pid(self, ctx: Context) -> int | None:
        """The service's main JVM (for hsperf heap sampling), once it runs."""
        raise NotImplementedError

    def wait_ready(self, ctx: Context) -> None:
        pass

    def drive(self, ctx: Context) -> dict[str, Any]:
        """Runs the workload; returns {'workload', 'ok', 'phases': [...], 'total_s', ...}."""
        raise NotImplementedError

    def stop(self, ctx: Context) -> None:
        for p in ctx.procs:
            terminate(p)


def ensure_user(name: str = SERVICE_USER) -> pwd.struct_passwd:
    """An unprivileged system user for services that refuse root (OpenSearch)."""
    try:
        return pwd.getpwnam(name)
    except KeyError:
        pass
    if os.geteuid() != 0:
        raise RuntimeError(f"user {name} does not exist and we are not root to create it")
    subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                    "--shell", "/usr/sbin/nologin", name], check=True, capture_output=True)
    return pwd.getpwnam(name)


def chown_tree(path: Path, user: pwd.struct_passwd) -> None:
    os.chown(path, user.pw_uid, user.pw_gid)
    for root, dirs, files in os.walk(path):
        for n in dirs + files:
            os.chown(os.path.join(root, n), user.pw_uid, user.pw_gid, follow_symlinks=False)


# Set in the environment of every process spawn() starts, to its run's directory: what a client
# leaves behind, even in a session of its own, still carries it (kill_by_environ).
RUN_MARK = "FLEXHEAP_SERVICE_RUN"


def spawn(ctx: Context, argv: list[str], name: str, env: dict[str, str] | None = None,
          cwd: Path | None = None, user: pwd.struct_passwd | None = None,
          in_cgroup: bool = True) -> subprocess.Popen[bytes]:
    """Starts a process with stdout/stderr in run_dir/<name>.out/.err, in its own session;
    between fork and exec it joins the run cgroup (as root) and then drops to `user`. Its
    environment carries RUN_MARK."""
    out = open(ctx.run_dir / f"{name}.out", "wb")
    err = open(ctx.run_dir / f"{name}.err", "wb")
    ctx.files += [out, err]
    cg = ctx.cgroup if in_cgroup else None

    def preexec() -> None:
        if cg is not None:
            cg.attach_current_process()
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

    env = dict(os.environ if env is None else env, **{RUN_MARK: str(ctx.run_dir)})
    p = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd or ctx.run_dir,
                         env=env, preexec_fn=preexec, start_new_session=True)
    ctx.procs.append(p)
    return p


def terminate(p: subprocess.Popen[bytes], grace_s: float = 30.0) -> None:
    """SIGTERM to the process group, then SIGKILL to whatever is left of the group once its
    leader has exited, or after grace_s: a member can ignore SIGTERM and outlive its leader.
    A daemon that left the group (setsid) is out of reach here: see kill_by_environ."""
    if p.poll() is None:
        _signal_group(p.pid, signal.SIGTERM)
        try:
            p.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
    _signal_group(p.pid, signal.SIGKILL)
    p.wait(timeout=10)


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:  # the group is empty
        pass


def kill_by_environ(key: str, value: str) -> list[int]:
    """SIGKILLs every process whose environment has key=value and returns their pids. This
    reaches what a client left behind after double-forking into a session of its own, which
    neither its process group nor its process tree still holds: opensearch-benchmark's actor
    system does that, and a client killed mid-run (a timeout, a thrashing abort) leaves it
    running, after which every later client exits 64 ("other OSB processes running")."""
    import psutil  # here, not at the top: the CLI's --help runs without the harness's venv
    killed = []
    for p in psutil.process_iter():
        try:
            if p.pid != os.getpid() and p.environ().get(key) == value:
                p.kill()
                killed.append(p.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return killed


def find_pid(candidates: list[int], needle: str) -> int | None:
    """The pid among candidates whose command line contains needle."""
    for pid in candidates:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if needle.encode() in f.read():
                    return pid
        except OSError:
            continue
    return None


def process_tree(pid: int) -> list[psutil.Process]:
    """pid and its descendants as they are now. psutil's handles are safe to signal later:
    kill() checks the process's start time, so a reused pid is never hit."""
    import psutil
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def descendants(pid: int) -> list[int]:
    """pid and its descendants (for runs without a cgroup)."""
    return [p.pid for p in process_tree(pid)]


def kill_processes(procs: list[psutil.Process]) -> None:
    import psutil
    for p in procs:
        try:
            p.kill()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass


def initial_heap(budget: int | None, max_heap: int) -> int:
    """The -Xms a service gets instead of its shipped -Xms = -Xmx: what the JVM would pick by
    default inside the budget cgroup (InitialRAMPercentage 1.5625%), at least 16 MiB."""
    base = budget if budget else max_heap
    return min(max_heap, max(16 << 20, int(base * 0.015625)))
