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

"""Relative path options are made absolute at parse time (each JVM runs in its own directory: a
relative -Xlog file path failed every run of `compare --out results/x`, and of `demo --out` until
it got the same type)."""

import os

import pytest

from flexheap_harness.cli import build_parser


@pytest.mark.parametrize("command", ["run", "compare", "sweep", "plot", "demo"])
def test_relative_out_becomes_absolute(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        args, _ = build_parser().parse_known_args([command, "--out", "results/x"])
    except SystemExit:
        pytest.skip(f"{command} needs other arguments")
    assert args.out.is_absolute() and args.out == tmp_path / "results" / "x"
    assert os.path.relpath(args.out, tmp_path) == os.path.join("results", "x")


@pytest.mark.parametrize("command,option", [(c, o) for c in ("run", "compare", "sweep")
                                            for o in ("--index", "--jar", "--data-dir")] + [("demo", "--index")])
def test_relative_input_paths_become_absolute(command, option, tmp_path, monkeypatch):
    # The bench runs in the run folder: a relative --index (demo's too) reached it as a path to nowhere.
    monkeypatch.chdir(tmp_path)
    args, _ = build_parser().parse_known_args([command, option, "data/x"])
    assert getattr(args, option[2:].replace("-", "_")) == tmp_path / "data" / "x"
