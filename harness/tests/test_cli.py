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

"""CLI wiring: help, '--' program split, sweep grids."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flexheap_harness.cli import build_parser, main, sweep_sizes
from flexheap_harness.integrity import UsageError


@pytest.mark.parametrize("cmd", [[], ["run"], ["compare"], ["sweep"], ["plot"], ["report"], ["demo"]])
def test_help(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        main(cmd + ["--help"])
    assert e.value.code == 0
    assert "usage: flexheap-bench" in capsys.readouterr().out


HEAVY = ("numpy", "scipy", "matplotlib", "rich", "tabulate", "psutil")  # the venv's packages (pyproject.toml)


def _bare_python(*args):
    """This Python without its site-packages (-S) and with only the harness package on the path:
    a python3 before harness/setup.sh made the venv."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
           "HOME": os.environ.get("HOME", "/")}
    return subprocess.run([sys.executable, "-S", *args], env=env, capture_output=True, text=True, timeout=120)


def test_the_bare_python_lacks_the_venvs_packages():
    # What makes the test below mean something: a top-level import of any of these fails it.
    for module in HEAVY:
        assert _bare_python("-c", f"import {module}").returncode != 0, f"{module} is importable without the venv"


@pytest.mark.parametrize("cmd", [[], ["run"], ["compare"], ["sweep"], ["demo"], ["report"]])
def test_help_works_before_the_venv_exists(cmd):
    r = _bare_python("-m", "flexheap_harness", *cmd, "--help")
    assert r.returncode == 0, r.stderr
    assert "usage: flexheap-bench" in r.stdout


def test_the_cli_module_loads_none_of_them_even_where_they_are_installed():
    r = subprocess.run([sys.executable, "-c", "import sys, flexheap_harness.cli; "
                        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "", r.stdout + r.stderr


def test_compare_defaults():
    a = build_parser().parse_args(["compare", "--budget", "0.5x", "--index", "/x"])
    assert a.policies == "g1-90,g1-50,vg1,flexheap" and a.baseline == "g1-90" and a.reps == 3


def test_demo_defaults_are_parameters():
    a = build_parser().parse_args(["demo", "--budget", "0.6x", "--scale", "0.1", "--reps", "2",
                                   "--device", "sata", "--policies", "g1-90,flexheap"])
    assert (a.budget, a.scale, a.reps, a.device, a.policies) == ("0.6x", 0.1, 2, "sata", "g1-90,flexheap")


def test_sweep_grid_from_fractions_and_sizes():
    ns = argparse.Namespace(sizes=None, fractions="0.25,0.5")
    assert sweep_sizes(ns, 1 << 30) == ["static:256m", "static:512m"]
    ns = argparse.Namespace(sizes="256m, 1g", fractions=None)
    assert sweep_sizes(ns, None) == ["static:256m", "static:1g"]


def test_a_service_sweep_stops_its_caps_at_the_native_reserve(capsys):
    ns = argparse.Namespace(sizes=None, fractions="0.3,0.5,0.7,0.9", workload="spark:tpcds")
    # 0.7 and 0.9 of 1.5 GiB would take Spark's 640m: both become 896m, swept once
    assert sweep_sizes(ns, 1536 << 20) == ["static:460m", "static:768m", "static:896m"]
    assert "--fractions 0.7: cap 896.0M, not 1.0G" in capsys.readouterr().err
    ns.workload = "spark:tpcds,native_reserve=1536m"
    with pytest.raises(UsageError, match="leaves no heap"):
        sweep_sizes(ns, 1536 << 20)
    with pytest.raises(UsageError, match="leaves a 384.0M heap; it needs at least 450.0M"):
        sweep_sizes(argparse.Namespace(sizes=None, fractions="0.5", workload="spark:smoke"), 1 << 30)
    assert sweep_sizes(argparse.Namespace(sizes=None, fractions="0.5", workload="spark:smoke"), 1090 << 20)
    ns.workload = "spark:tpcds,native_reserve=600MB"
    with pytest.raises(UsageError, match="native_reserve"):
        sweep_sizes(ns, 1536 << 20)


def test_bad_policy_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["run", "--policy", "zgc", "--", "-version"])
    assert e.value.code == 2
    assert "unknown policy" in capsys.readouterr().err


def test_plot_rejects_non_run_folder(tmp_path, capsys):
    assert main(["plot", str(tmp_path)]) == 2
    assert "no summary.json" in capsys.readouterr().err
