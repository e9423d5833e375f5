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

"""./flexheap's manners: help exits 0, an unknown command exits 2 and says so, the usage lists the
environment variables the scripts honour, and the harness's help needs no venv."""

import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# FLEXHEAP_* names in the scripts that are not an operator's to set.
INTERNAL = {
    "FLEXHEAP_ROOT",  # set by jdk/common.sh for the scripts that source it
    "FLEXHEAP_REVISION", "FLEXHEAP_BASE",  # fields of the FlexHeap JDK's release file
    "FLEXHEAP_SERVICE_RUN",  # the harness marks a service's processes with it
    "FLEXHEAP_TEST_MARK",  # a test's own process mark
    "FLEXHEAP_BENCH_FILE",  # the scratch file of the developers' jdk/test/decision-cost.sh
    "FLEXHEAP_TARBALL",  # a build argument of deploy/Dockerfile, not of a script
    "FLEXHEAP_FAILURES",  # the file ./flexheap test collects failing jtreg tests in
}


def flexheap(*args, tmp_path=None):
    env = dict(os.environ)
    if tmp_path is not None:  # a venv that does not exist (and must not be made)
        env["FLEXHEAP_VENV"] = str(tmp_path / "no-venv")
    return subprocess.run(["bash", str(REPO / "flexheap"), *args], env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("arg", ["--help", "-h", "help"])
def test_help_prints_the_usage_and_exits_0(arg):
    r = flexheap(arg)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("usage: ./flexheap COMMAND") and "Environment" in r.stdout


def test_an_unknown_command_says_so_and_exits_2():
    r = flexheap("frobnicate")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("flexheap: unknown command 'frobnicate'\nusage: ./flexheap COMMAND")


def test_the_usage_lists_every_environment_variable_the_scripts_honour():
    usage = flexheap("help").stdout
    listed = set(re.findall(r"^  (FLEXHEAP_[A-Z0-9_]+)=", usage, re.M))
    honoured: dict[str, str] = {}
    for top in ("jdk", "harness", "services", "iostall"):
        for path in sorted((REPO / top).rglob("*")):
            if path.suffix in (".sh", ".py") and path.is_file():
                for name in re.findall(r"\bFLEXHEAP_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(errors="replace")):
                    honoured.setdefault(name, str(path.relative_to(REPO)))
    missing = {n: f for n, f in honoured.items() if n not in listed and n not in INTERNAL}
    assert not missing, ("honoured by the scripts but not in ./flexheap help (add a line to usage() in ./flexheap, "
                         f"or to INTERNAL here if no operator sets it): {missing}")
    assert len(listed) == len(re.findall(r"^  FLEXHEAP_", usage, re.M))  # one line each


def test_harness_help_needs_no_venv(tmp_path):
    for args in (["harness", "--help"], ["harness", "-h"], ["demo", "--help"]):
        r = flexheap(*args, tmp_path=tmp_path)
        assert r.returncode == 0, r.stderr
        assert "usage: flexheap-bench" in r.stdout
    assert not (tmp_path / "no-venv").exists()
