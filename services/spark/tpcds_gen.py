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

"""TPC-DS data and queries from the duckdb-extension-tpcds wheel (PyPI), offline:

  python tpcds_gen.py --sf 1 --out DIR

writes DIR/<table>/part-0.parquet for the 24 TPC-DS tables (dsdgen at scale factor SF) and
DIR/queries/qNN.sql for the 99 queries. The extension is loaded from the wheel's own file;
DuckDB's extension autoinstall (a download from a non-registry host) is switched off.
"""

import argparse
import glob
import os
import shutil
import sys
import time

import duckdb
import duckdb_extension_tpcds


def extension_path():
    found = glob.glob(os.path.join(os.path.dirname(duckdb_extension_tpcds.__file__), "extensions", "*",
                                   "tpcds.duckdb_extension"))
    if not found:
        sys.exit("tpcds.duckdb_extension not found in the duckdb-extension-tpcds wheel")
    return found[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sf", type=float, required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    db = os.path.join(args.out, ".dsdgen.duckdb")
    if os.path.exists(db):
        os.remove(db)
    t = time.time()
    con = duckdb.connect(db, config={"allow_unsigned_extensions": "true", "autoinstall_known_extensions": "false",
                                     "autoload_known_extensions": "false", "threads": "2",
                                     "memory_limit": "2GB"})
    con.execute(f"LOAD '{extension_path()}'")
    con.execute(f"CALL dsdgen(sf={args.sf})")
    tables = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables "
                                        "WHERE table_schema = 'main' ORDER BY 1").fetchall()]
    for name in tables:
        d = os.path.join(args.out, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        con.execute(f"COPY {name} TO '{d}/part-0.parquet' (FORMAT parquet, COMPRESSION snappy)")
    qdir = os.path.join(args.out, "queries")
    os.makedirs(qdir, exist_ok=True)
    for nr, text in con.execute("SELECT query_nr, query FROM tpcds_queries()").fetchall():
        with open(os.path.join(qdir, f"q{nr:02d}.sql"), "w") as f:
            f.write(text)
    con.close()
    os.remove(db)
    print(f"tpcds sf={args.sf}: {len(tables)} tables in {time.time() - t:.0f}s")


if __name__ == "__main__":
    main()
