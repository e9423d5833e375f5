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

"""Spark SQL (the pyspark wheel's Spark) with `spark-submit --master local[2]`.

The data is a generated star schema in Parquet (services/spark/sqlbench.py generate; not
TPC-DS: see the README's "Real services"), made once per scale outside any run. Per run the
driver JVM (the only JVM in local mode) starts inside the run cgroup; the heap policy goes
into Spark's own configuration: -Xmx as spark.driver.memory (Spark refuses -Xmx in java
options), every other flag in spark.driver.extraJavaOptions. spark.memory.* stay at defaults.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

from ..jdk import find_jdk, repo_root
from ..sizes import parse_size
from .base import Context, Service, cache_dir, descendants, fetch, find_pid, parse_options, spawn, terminate
from .run import phase_record

# Queries whose DuckDB text Spark SQL 4.3 cannot parse (date arithmetic / syntax): left out.
TPCDS_SPARK_PARSE_ERRORS = ("q16", "q32", "q50", "q62", "q92", "q94", "q95", "q99")
TPCDS_STORE = ("q03", "q07", "q19", "q27", "q34", "q42", "q43", "q46", "q52", "q53", "q55", "q59", "q63", "q65",
               "q68", "q73", "q79", "q89", "q96", "q98")
# What a local-mode run holds besides the driver's Java heap: the driver's native memory and the
# Python driver's (~440 MiB of anonymous memory next to a 768 MiB heap at TPC-DS sf 1), plus room
# for the jars' and Python's file pages, which Spark re-reads all the time (less, and every 90%
# policy thrashed or was OOM-killed at 1.5 GiB). Per workload: native_reserve=<size>.
NATIVE_RESERVE = "640m"
SPARK_MIN_HEAP = 450 << 20
PRESETS: dict[str, dict[str, Any]] = {
    "smoke": dict(scale=0.02, reps=1, seed=42, queries="scan-agg,cached,brand-rank"),
    "small": dict(scale=1.0, reps=1, seed=42, queries="scan-agg,brand-rank,cached,big-spenders,yoy"),
    "medium": dict(scale=4.0, reps=1, seed=42, queries="scan-agg,brand-rank,cached,big-spenders,yoy"),
    # TPC-DS (dsdgen + query texts from the duckdb-extension-tpcds wheel): store_sales cache()d,
    # then the store-channel queries; tpcds-all: every query Spark parses (91 of 99).
    "tpcds": dict(sf=1.0, reps=1, cache="store_sales", queries=",".join(TPCDS_STORE)),
    # The paper's regime, run with --budget 0.1x (sf 42: 13.4 GiB of Parquet, so 1.3 GiB): the
    # facts are never cached; the customer and item dimensions the queries join are, and that
    # storage memory competes with the page cache for store_sales' columns.
    "tpcds-10x": dict(sf=42.0, reps=1, cache="customer+customer_address+customer_demographics+item",
                      queries="q03,q07,q19,q42,q52,q55,q68,q98"),
    "tpcds-all": dict(sf=1.0, reps=1, cache="store_sales+catalog_sales+web_sales",
                      queries=",".join(q for q in (f"q{i:02d}" for i in range(1, 100)) if q not in TPCDS_SPARK_PARSE_ERRORS)),
}
MAIN_CLASS = "org.apache.spark.deploy.SparkSubmit"


def job_script() -> Path:
    return repo_root() / "services" / "spark" / "sqlbench.py"


def split_heap_flags(flags: list[str]) -> tuple[str | None, list[str]]:
    """(-Xmx value for spark.driver.memory, the other flags for extraJavaOptions)."""
    xmx, rest = None, []
    for f in flags:
        if f.startswith("-Xmx"):
            xmx = f[4:]
        else:
            rest.append(f)
    return xmx, rest


def submit_argv(venv: Path, conf: dict[str, str], app_args: list[str]) -> list[str]:
    argv = [str(venv / "bin" / "spark-submit"), "--master", "local[2]"]
    for k, v in conf.items():
        argv += ["--conf", f"{k}={v}"]
    return argv + [str(job_script()), *app_args]


def base_conf(local_dir: Path) -> dict[str, str]:
    return {
        "spark.ui.enabled": "false",
        "spark.local.dir": str(local_dir),
        "spark.sql.adaptive.enabled": "true",
        "spark.driver.maxResultSize": "0",
    }


class SparkSql(Service):
    kind = "spark"

    def __init__(self, preset: str, opts: str) -> None:
        super().__init__(preset, opts)
        if preset not in PRESETS:
            raise ValueError(f"unknown spark preset {preset!r}; choose from {', '.join(PRESETS)}")
        self.params = parse_options(opts, {"native_reserve": NATIVE_RESERVE} | PRESETS[preset])
        p = self.params
        p["queries"] = str(p["queries"]).replace("+", ",")  # in workload names: queries=q03+q07
        self.tpcds = "sf" in p
        if self.tpcds:
            bad = [q for q in p["queries"].split(",") if q in TPCDS_SPARK_PARSE_ERRORS]
            if bad:
                raise ValueError(f"Spark cannot parse the TPC-DS texts of {', '.join(bad)}")
            self.data_root = cache_dir() / "data" / f"spark-tpcds-sf{p['sf']:g}"
        else:
            self.data_root = cache_dir() / "data" / f"spark-{p['scale']:g}-{p['seed']}"
        self.native_reserve()  # a bad size fails here, before any run
        self.venv: Path | None = None
        self.job: Any = None

    def _env(self, java_home: Path) -> dict[str, str]:
        assert self.venv is not None
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_", "PYSPARK_"))}
        env.update(JAVA_HOME=str(java_home), PYSPARK_PYTHON=str(self.venv / "bin" / "python"),
                   PYSPARK_DRIVER_PYTHON=str(self.venv / "bin" / "python"), SPARK_LOCAL_IP="127.0.0.1",
                   PATH=f"{self.venv / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}")
        return env

    def prepare(self, log: Callable[[str], None]) -> None:
        self.venv = fetch("spark", log)
        done = self.data_root / "_flexheap_done"
        if done.exists():
            return
        if self.tpcds:
            duck = fetch("tpcds", log)
            log(f"  generating TPC-DS at scale factor {self.params['sf']:g} in {self.data_root} (DuckDB dsdgen)")
            t = time.time()
            proc = subprocess.run([str(duck / "bin" / "python"), str(job_script().parent / "tpcds_gen.py"),
                                   "--sf", str(self.params["sf"]), "--out", str(self.data_root)],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError(f"TPC-DS generation failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
            done.write_text(json.dumps({"generate_s": round(time.time() - t, 1), "sf": self.params["sf"]}))
            return
        jdk, _ = find_jdk(None)
        if jdk is None:
            raise RuntimeError("no JDK to generate the Spark data with")
        self.data_root.mkdir(parents=True, exist_ok=True)
        log(f"  generating Spark star schema at scale {self.params['scale']:g} in {self.data_root}")
        t = time.time()
        local = self.data_root / ".tmp"
        local.mkdir(exist_ok=True)
        conf = base_conf(local) | {"spark.driver.memory": "3g"}
        argv = submit_argv(self.venv, conf, ["generate", "--data", str(self.data_root),
                                             "--scale", str(self.params["scale"]), "--seed", str(self.params["seed"])])
        proc = subprocess.run(argv, env=self._env(jdk.home), capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Spark data generation failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        done.write_text(json.dumps({"generate_s": round(time.time() - t, 1), "scale": self.params["scale"]}))

    def data_bytes(self) -> int:
        return sum(f.stat().st_size for f in self.data_root.rglob("*.parquet"))

    def data_dir(self) -> Path:
        return self.data_root

    def native_reserve(self) -> int:
        return parse_size(str(self.params["native_reserve"]), "native_reserve")

    def min_heap(self) -> int:
        # Spark refuses a driver whose maximum heap is below 1.5 x its 300 MiB reserved memory
        # (INVALID_DRIVER_MEMORY.SYSTEM_MEMORY).
        return SPARK_MIN_HEAP

    def start(self, ctx: Context) -> None:
        xmx, rest = split_heap_flags(ctx.jvm_flags)
        local = ctx.run_dir / "spark-local"
        local.mkdir(exist_ok=True)
        conf = base_conf(local)
        if xmx:
            conf["spark.driver.memory"] = xmx
        conf["spark.driver.extraJavaOptions"] = " ".join(shlex.quote(f) for f in rest)
        self.result_path = ctx.run_dir / "sqlbench.json"
        app = ["run", "--data", str(self.data_root), "--out", str(self.result_path),
               "--queries", self.params["queries"], "--reps", str(self.params["reps"])]
        if self.tpcds:
            app[0] = "tpcds"
            app += ["--cache", self.params["cache"]]
        argv = submit_argv(self.venv, conf, app)
        (ctx.run_dir / "spark-submit.argv").write_text(shlex.join(argv) + "\n")
        ctx.log(f"    spark-submit local[2], spark.driver.memory={xmx}, extraJavaOptions: {' '.join(rest)}")
        self.job = spawn(ctx, argv, "spark", env=self._env(ctx.jdk.home))

    def main_pid(self, ctx: Context) -> int | None:
        if self.job is None:
            return None
        pids = ctx.cgroup.pids() if ctx.cgroup else descendants(self.job.pid)
        return find_pid(pids, MAIN_CLASS)

    def drive(self, ctx: Context) -> dict[str, Any]:
        while self.job.poll() is None:
            ctx.check_deadline()
            time.sleep(0.5)
        try:
            res = json.loads(self.result_path.read_text())
        except (OSError, ValueError):
            return {"workload": self.name, "ok": False, "phases": [],
                    "error": f"spark-submit exited {self.job.returncode} without a result (see spark.err)"}
        phases = []
        for p in res.get("phases", []):
            rec = phase_record(p["name"], ctx.t0, p["start_epoch"], p["end_epoch"])
            rec.update(rows=p.get("rows"), throughput_qps=p.get("throughput_qps"), unit="queries/s")
            phases.append(rec)
        ok = bool(res.get("ok")) and self.job.returncode == 0
        return {"workload": self.name, "ok": ok,
                "error": res.get("error") or (None if ok else f"spark-submit exited {self.job.returncode}"),
                "phases": phases, "total_s": res.get("total_s"), "params": self.params,
                "data_bytes": self.data_bytes()}

    def stop(self, ctx: Context) -> None:
        if self.job is not None:
            terminate(self.job, 30)
