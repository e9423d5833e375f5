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

"""One measurement at a time: a second measuring command is refused while one holds the machine."""

import os
import subprocess
import sys

import pytest

from flexheap_harness.cli import main
from flexheap_harness.machine_lock import Busy, lock_path, measuring

HOLD = ("import sys\n"
        "from flexheap_harness.machine_lock import measuring\n"
        "with measuring(['holder-of-the-machine']):\n"
        "    print('held', flush=True); sys.stdin.read()\n")


@pytest.fixture
def held_elsewhere():
    """Another process holds the machine until the test ends."""
    p = subprocess.Popen([sys.executable, "-c", HOLD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "held"
    yield p
    p.communicate(timeout=30)


def test_a_second_measuring_command_is_refused_and_names_the_holder(held_elsewhere, capsys):
    assert main(["run", "--policy", "g1-90", "--unbudgeted", "--", "-version"]) == 2
    err = capsys.readouterr().err
    assert "another harness run is measuring" in err
    assert f"pid {held_elsewhere.pid}: holder-of-the-machine" in err


@pytest.mark.parametrize("command", [["report", "--check"], ["plot", "/nonexistent"]])
def test_reading_commands_do_not_need_the_machine(held_elsewhere, command, capsys):
    main(command)
    assert "another harness run" not in capsys.readouterr().err


def test_the_lock_is_released_after_the_block_and_held_inside_it():
    with measuring(["first"]):
        with pytest.raises(Busy):  # a second open file is a second holder, even in one process
            with measuring(["second"]):
                pass
        assert "first" in lock_path().read_text()
    with measuring(["third"]):
        assert "third" in lock_path().read_text()


def test_an_unopenable_lock_warns_and_runs(tmp_path, capsys):
    ran = False
    with measuring(["x"], tmp_path / "no" / "such" / "dir" / "lock"):
        ran = True
    assert ran and "cannot open the harness lock" in capsys.readouterr().err


def test_another_users_lock_file_still_locks(tmp_path, monkeypatch):
    import flexheap_harness.machine_lock as ml
    path = tmp_path / "theirs.lock"
    path.write_text("pid 1: theirs\n")
    real_open = os.open

    def no_write(p, flags, *mode):  # as for a non-root user and root's 0644 file
        if flags & os.O_RDWR:
            raise PermissionError(13, "Permission denied")
        return real_open(p, flags, *mode)
    monkeypatch.setattr(ml.os, "open", no_write)
    with measuring(["mine"], path):
        monkeypatch.setattr(ml.os, "open", real_open)
        with pytest.raises(Busy, match="pid 1: theirs"):
            with measuring(["second"], path):
                pass
