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

"""Parameter source for the FlexHeap workload's searches: each request draws its term(s)
from the terms file the harness wrote beside the corpus (mid-frequency words of the corpus's
Zipf vocabulary, and adjacent pairs of them for phrases), so requests vary like real traffic
and no cache answers them."""

import json
import random


class QuerySource:
    def __init__(self, workload, params, **kwargs):
        self._kind = params["query-kind"]
        with open(params["terms-file"]) as f:
            terms = json.load(f)
        self._terms = terms["terms"]
        self._phrases = terms["phrases"]
        self._index = params.get("index", "fh-docs")
        self._rng = random.Random(params.get("seed", 1))

    def partition(self, partition_index, total_partitions):
        self._rng = random.Random(1000 + partition_index)
        return self

    def _body(self):
        term = self._rng.choice(self._terms)
        if self._kind == "term":
            return {"query": {"term": {"body": term}}, "size": 10}
        if self._kind == "phrase":
            return {"query": {"match_phrase": {"body": self._rng.choice(self._phrases)}}, "size": 10}
        if self._kind == "topk":
            return {"query": {"match": {"body": term}}, "sort": [{"views": "desc"}], "size": 100}
        if self._kind == "agg":
            return {
                "query": {"match": {"body": term}},
                "size": 0,
                "aggs": {
                    "by_category": {"terms": {"field": "category", "size": 20},
                                    "aggs": {"views": {"avg": {"field": "views"}}}},
                    "per_month": {"date_histogram": {"field": "timestamp", "calendar_interval": "month"}},
                },
            }
        raise ValueError(f"unknown query-kind {self._kind}")

    def params(self):
        return {"index": self._index, "body": self._body(), "cache": False,
                "request-params": {"request_cache": "false"}}


def _fix_progress_of_tasks_completed_by_another():
    """opensearch-benchmark 2.4.0 records a task ended by 'completed-by' with progress 1.0
    instead of (1.0, '%'), and its worker then crashes on progress[1] ('float' object is not
    subscriptable), at random in the ingest-search phase. Samples get the tuple form here;
    nothing else of the benchmark changes."""
    try:
        from osbenchmark.worker_coordinator import worker_coordinator as wc
    except ImportError:
        return
    original = wc.Sample.__init__
    if getattr(original, "flexheap_fixed", False):
        return

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if isinstance(self.task_progress, (int, float)):
            self.task_progress = (float(self.task_progress), "%")

    init.flexheap_fixed = True
    wc.Sample.__init__ = init


def register(registry):
    _fix_progress_of_tasks_completed_by_another()
    registry.register_param_source("fh-query", QuerySource)
