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

"""FlexHeap's Spark SQL workload: a generated star schema (TPC-DS-like shape: a sales fact,
item / customer / date / store dimensions) as Parquet, and scan- and shuffle-heavy queries,
some over cache()d intermediates so the heap's storage memory and the page cache compete.

  spark-submit sqlbench.py generate --data DIR --scale S [--seed N]
  spark-submit sqlbench.py run --data DIR --out result.json [--queries q1,q2,...] [--reps R]

'run' writes {"workload", "ok", "phases": [{"name", "start_epoch", "end_epoch", "duration_s",
"rows"}...], "total_s"} and prints FLEXHEAP-PHASE markers like the bench jar.
"""

import argparse
import json
import sys
import time
import traceback

from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F

FACT_ROWS_PER_SCALE = 10_000_000
ITEMS_PER_SCALE = 200_000
CUSTOMERS_PER_SCALE = 1_000_000
STORES = 400
DAYS = 5 * 365
CATEGORIES = ["Books", "Music", "Home", "Sports", "Jewelry", "Shoes", "Women", "Men", "Children", "Electronics"]
STATES = ["AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
          "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
          "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY"]


def pick(col, values):
    return F.element_at(F.array(*[F.lit(v) for v in values]), F.pmod(col, F.lit(len(values))).cast("int") + 1)


def generate(spark, data, scale, seed):
    n_fact = int(FACT_ROWS_PER_SCALE * scale)
    n_items = max(1000, int(ITEMS_PER_SCALE * scale))
    n_cust = max(1000, int(CUSTOMERS_PER_SCALE * scale))
    parts = max(4, int(16 * scale))
    item = (spark.range(n_items).withColumnRenamed("id", "i_item_sk")
            .withColumn("i_category", pick(F.xxhash64("i_item_sk", F.lit(seed)), CATEGORIES))
            .withColumn("i_brand", F.concat(F.lit("brand#"), (F.abs(F.xxhash64("i_item_sk", F.lit(seed + 1))) % 1000).cast("string")))
            .withColumn("i_class", F.concat(F.lit("class#"), (F.abs(F.xxhash64("i_item_sk", F.lit(seed + 2))) % 100).cast("string")))
            .withColumn("i_current_price", F.round(F.rand(seed) * 200 + 1, 2))
            .withColumn("i_item_desc", F.sha2(F.col("i_item_sk").cast("string"), 256)))
    customer = (spark.range(n_cust).withColumnRenamed("id", "c_customer_sk")
                .withColumn("c_state", pick(F.abs(F.xxhash64("c_customer_sk", F.lit(seed + 3))), STATES))
                .withColumn("c_birth_year", (F.abs(F.xxhash64("c_customer_sk", F.lit(seed + 4))) % 70 + 1935).cast("int"))
                .withColumn("c_segment", pick(F.abs(F.xxhash64("c_customer_sk", F.lit(seed + 5))), ["A", "B", "C", "D", "E"]))
                .withColumn("c_email", F.concat(F.sha1(F.col("c_customer_sk").cast("string")), F.lit("@example.org"))))
    date_dim = (spark.range(DAYS).withColumnRenamed("id", "d_date_sk")
                .withColumn("d_date", F.date_add(F.lit("2019-01-01").cast("date"), F.col("d_date_sk").cast("int")))
                .withColumn("d_year", F.year("d_date")).withColumn("d_moy", F.month("d_date"))
                .withColumn("d_dow", F.dayofweek("d_date")))
    store = (spark.range(STORES).withColumnRenamed("id", "s_store_sk")
             .withColumn("s_state", pick(F.col("s_store_sk"), STATES))
             .withColumn("s_floor_space", (F.abs(F.xxhash64("s_store_sk")) % 90000 + 10000).cast("int")))
    # Skewed keys like TPC-DS's: popular items and loyal customers (power of a uniform).
    sales = (spark.range(0, n_fact, 1, parts).withColumnRenamed("id", "ss_ticket")
             .withColumn("ss_sold_date_sk", (F.rand(seed + 10) * DAYS).cast("long"))
             .withColumn("ss_item_sk", (F.pow(F.rand(seed + 11), F.lit(3.0)) * n_items).cast("long"))
             .withColumn("ss_customer_sk", (F.pow(F.rand(seed + 12), F.lit(2.0)) * n_cust).cast("long"))
             .withColumn("ss_store_sk", (F.rand(seed + 13) * STORES).cast("long"))
             .withColumn("ss_quantity", (F.rand(seed + 14) * 20 + 1).cast("int"))
             .withColumn("ss_sales_price", F.round(F.rand(seed + 15) * 150 + 0.5, 2))
             .withColumn("ss_discount", F.round(F.rand(seed + 16) * 0.3, 3))
             .withColumn("ss_net_paid", F.round(F.col("ss_sales_price") * F.col("ss_quantity") * (1 - F.col("ss_discount")), 2)))
    for name, df in (("item", item), ("customer", customer), ("date_dim", date_dim), ("store", store),
                     ("store_sales", sales)):
        df.write.mode("overwrite").parquet(f"{data}/{name}")


def phase_recorder(phases):
    """record(name, fn): runs fn as one timed phase, announces its start and end
    on stderr in the FLEXHEAP-PHASE format the harness samples by, and appends
    its figures to phases."""
    def record(name, fn):
        start = time.time()
        print(f"FLEXHEAP-PHASE {name} start {int(start * 1000)}", file=sys.stderr, flush=True)
        res = fn()
        end = time.time()
        rows = res if isinstance(res, int) else len(res)
        print(f"FLEXHEAP-PHASE {name} end {int(end * 1000)} 1 {1 / max(end - start, 1e-9):.4f}",
              file=sys.stderr, flush=True)
        phases.append({"name": name, "start_epoch": start, "end_epoch": end, "duration_s": round(end - start, 3),
                       "rows": rows, "throughput_qps": round(1 / max(end - start, 1e-9), 5)})
    return record


def tables(spark, data):
    return {n: spark.read.parquet(f"{data}/{n}") for n in ("store_sales", "item", "customer", "date_dim", "store")}


def q_scan_agg(t):
    """Scan of the whole fact table: revenue per year and month."""
    return (t["store_sales"].join(t["date_dim"], F.col("ss_sold_date_sk") == F.col("d_date_sk"))
            .groupBy("d_year", "d_moy").agg(F.sum("ss_net_paid").alias("revenue"), F.count("*").alias("n"))
            .orderBy("d_year", "d_moy"))


def q_brand_rank(t):
    """Shuffle-heavy: three-way join, aggregation on (state, brand), top 5 brands per state."""
    agg = (t["store_sales"].join(t["item"], F.col("ss_item_sk") == F.col("i_item_sk"))
           .join(t["customer"], F.col("ss_customer_sk") == F.col("c_customer_sk"))
           .groupBy("c_state", "i_brand").agg(F.sum("ss_net_paid").alias("revenue")))
    w = Window.partitionBy("c_state").orderBy(F.desc("revenue"))
    return agg.withColumn("rk", F.rank().over(w)).where("rk <= 5")


def q_big_spenders(t):
    """Shuffle-heavy: per-customer spend vs. the average of the customer's state (TPC-DS q30-like)."""
    spend = (t["store_sales"].groupBy("ss_customer_sk").agg(F.sum("ss_net_paid").alias("spend"))
             .join(t["customer"], F.col("ss_customer_sk") == F.col("c_customer_sk")))
    avg = spend.groupBy("c_state").agg(F.avg("spend").alias("avg_spend"))
    return (spend.join(avg, "c_state").where(F.col("spend") > 1.5 * F.col("avg_spend"))
            .groupBy("c_state", "c_segment").count())


def q_yoy(t):
    """Year-over-year growth per category and store state: an aggregate joined with itself."""
    base = (t["store_sales"].join(t["date_dim"], F.col("ss_sold_date_sk") == F.col("d_date_sk"))
            .join(t["item"], F.col("ss_item_sk") == F.col("i_item_sk"))
            .join(t["store"], F.col("ss_store_sk") == F.col("s_store_sk"))
            .groupBy("i_category", "s_state", "d_year").agg(F.sum("ss_net_paid").alias("rev")))
    a, b = base.alias("a"), base.alias("b")
    return (a.join(b, (F.col("a.i_category") == F.col("b.i_category")) & (F.col("a.s_state") == F.col("b.s_state"))
                   & (F.col("a.d_year") + 1 == F.col("b.d_year")))
            .select("a.i_category", "a.s_state", "b.d_year", (F.col("b.rev") / F.col("a.rev") - 1).alias("growth")))


CACHED_QUERIES = ("cache-build", "cached-cat-month", "cached-segment", "cached-price-bands", "cached-repeat")


def run_cached(spark, t, record):
    """A cache()d intermediate (sales of four categories joined to item, customer and date),
    then several aggregations over it: storage memory on the heap vs. the page cache."""
    inter = (t["store_sales"].join(t["item"], F.col("ss_item_sk") == F.col("i_item_sk"))
             .where(F.col("i_category").isin("Books", "Music", "Home", "Electronics"))
             .join(t["customer"], F.col("ss_customer_sk") == F.col("c_customer_sk"))
             .join(t["date_dim"], F.col("ss_sold_date_sk") == F.col("d_date_sk"))
             .select("ss_net_paid", "ss_quantity", "i_category", "i_brand", "i_current_price", "c_state",
                     "c_segment", "c_birth_year", "d_year", "d_moy")
             .cache())
    record("cache-build", lambda: inter.count())
    record("cached-cat-month", lambda: inter.groupBy("i_category", "d_year", "d_moy").agg(F.sum("ss_net_paid")).collect())
    record("cached-segment", lambda: inter.groupBy("c_segment", "c_state").agg(
        F.avg("ss_net_paid"), F.countDistinct("i_brand")).collect())
    record("cached-price-bands", lambda: inter.withColumn("band", (F.col("i_current_price") / 20).cast("int"))
           .groupBy("band", "c_birth_year").agg(F.sum("ss_quantity")).collect())
    record("cached-repeat", lambda: inter.groupBy("i_brand").agg(F.sum("ss_net_paid").alias("r"))
           .orderBy(F.desc("r")).limit(100).collect())
    inter.unpersist()


QUERIES = {"scan-agg": q_scan_agg, "brand-rank": q_brand_rank, "big-spenders": q_big_spenders, "yoy": q_yoy}


def run(spark, data, out, names, reps):
    t = tables(spark, data)
    phases = []
    ok, error = True, None
    t_start = time.time()

    record = phase_recorder(phases)

    try:
        for rep in range(reps):
            sfx = f"#{rep + 1}" if reps > 1 else ""
            for n in names:
                if n == "cached":
                    run_cached(spark, t, lambda name, fn: record(name + sfx, fn))
                else:
                    record(n + sfx, lambda: QUERIES[n](t).collect())
    except Exception as e:  # the harness reports it as a failed run with this message
        ok, error = False, f"{type(e).__name__}: {e}"
        traceback.print_exc()
    result = {"workload": "spark-sql", "ok": ok, "error": error, "phases": phases,
              "total_s": round(time.time() - t_start, 3)}
    with open(out, "w") as f:
        json.dump(result, f, indent=2)
    return 0 if ok else 1


TPCDS_TABLES = ("call_center", "catalog_page", "catalog_returns", "catalog_sales", "customer", "customer_address",
                "customer_demographics", "date_dim", "household_demographics", "income_band", "inventory", "item",
                "promotion", "reason", "ship_mode", "store", "store_returns", "store_sales", "time_dim", "warehouse",
                "web_page", "web_returns", "web_sales", "web_site")


def run_tpcds(spark, data, out, names, reps, cache_tables, keep_going=False):
    """TPC-DS queries (DuckDB's texts, run by Spark SQL) over dsdgen Parquet; the tables in
    cache_tables are cache()d first (phase cache-<table>), so storage memory and page cache compete."""
    for t in TPCDS_TABLES:
        spark.read.parquet(f"{data}/{t}").createOrReplaceTempView(t)
    phases = []
    ok, error = True, None
    failed = []
    t_start = time.time()

    record = phase_recorder(phases)

    try:
        for t in cache_tables:
            spark.table(t).cache()
            record(f"cache-{t}", lambda: spark.table(t).count())
        for rep in range(reps):
            sfx = f"#{rep + 1}" if reps > 1 else ""
            for q in names:
                with open(f"{data}/queries/{q}.sql") as f:
                    text = f.read().strip().rstrip(";")
                try:
                    record(q + sfx, lambda: spark.sql(text).collect())
                except Exception as e:
                    if not keep_going:
                        raise
                    failed.append(q)
                    print(f"{q} failed: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
    except Exception as e:
        ok, error = False, f"{type(e).__name__}: {str(e)[:2000]}"
        traceback.print_exc()
    result = {"workload": "spark-tpcds", "ok": ok, "error": error, "phases": phases, "failed": failed,
              "total_s": round(time.time() - t_start, 3)}
    with open(out, "w") as f:
        json.dump(result, f, indent=2)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["generate", "run", "tpcds"])
    ap.add_argument("--data", required=True)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out")
    ap.add_argument("--queries", default="scan-agg,brand-rank,cached,big-spenders,yoy")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--cache", default="", help="tpcds: tables to cache() first, '+'-separated")
    ap.add_argument("--keep-going", action="store_true", help="tpcds: record failing queries and go on")
    args = ap.parse_args()
    spark = SparkSession.builder.appName(f"flexheap-sqlbench-{args.command}").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        if args.command == "generate":
            generate(spark, args.data, args.scale, args.seed)
            return 0
        names = [q.strip() for q in args.queries.split(",") if q.strip()]
        if args.command == "tpcds":
            if names == ["all"]:
                names = [f"q{i:02d}" for i in range(1, 100)]
            return run_tpcds(spark, args.data, args.out, names, args.reps,
                             [t for t in args.cache.split("+") if t], args.keep_going)
        unknown = [q for q in names if q != "cached" and q not in QUERIES]
        if unknown:
            print(f"unknown queries {unknown}; known: {', '.join(QUERIES)}, cached", file=sys.stderr)
            return 2
        return run(spark, args.data, args.out, names, args.reps)
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
