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

"""A generated document corpus for the OpenSearch workload, as opensearch-benchmark's offline
NDJSON corpus (one JSON document per line).

Text follows a Zipf law over a synthetic vocabulary like bench/'s generator (common words
are very common, the tail is long), so term queries range from cheap to index-scanning and
phrases match at realistic rates. Deterministic for a given seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "fi", "gu", "he", "ja", "qu",
             "ri", "so", "tu", "wy", "ba", "ce", "di", "ex", "fo", "ga", "hi", "in", "jo", "ku"]
CATEGORIES = 64


def vocabulary(size: int, seed: int = 7) -> list[str]:
    """`size` distinct pronounceable words; the Zipf rank order is the list order."""
    rng = np.random.default_rng(seed)
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < size:
        n = int(rng.integers(1, 5))
        w = "".join(SYLLABLES[i] for i in rng.integers(0, len(SYLLABLES), n))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


@dataclass(frozen=True)
class CorpusSpec:
    docs: int
    seed: int = 42
    vocab: int = 50_000
    zipf_s: float = 1.07
    body_words: tuple[int, int] = (80, 320)


class Generator:
    def __init__(self, spec: CorpusSpec):
        self.spec = spec
        self.words = np.array(vocabulary(spec.vocab))
        ranks = np.arange(1, spec.vocab + 1, dtype=np.float64)
        p = ranks ** -spec.zipf_s
        self.cdf = np.cumsum(p / p.sum())
        self.rng = np.random.default_rng(spec.seed)

    def _text(self, n: int) -> str:
        idx = np.searchsorted(self.cdf, self.rng.random(n), side="right")
        return " ".join(self.words[np.minimum(idx, self.spec.vocab - 1)])

    def documents(self, start_id: int, count: int):
        rng = self.rng
        lo, hi = self.spec.body_words
        lengths = rng.integers(lo, hi + 1, count)
        cats = np.minimum(rng.zipf(1.3, count), CATEGORIES) - 1
        views = rng.lognormal(5.0, 2.0, count).astype(np.int64)
        ratings = np.round(rng.random(count) * 5, 2)
        base_ms = 1_600_000_000_000
        ts = base_ms + np.sort(rng.integers(0, 3 * 365 * 86_400_000, count))
        for i in range(count):
            yield {
                "id": start_id + i,
                "title": self._text(int(rng.integers(3, 12))),
                "body": self._text(int(lengths[i])),
                "category": f"cat-{int(cats[i]):02d}",
                "views": int(views[i]),
                "rating": float(ratings[i]),
                "timestamp": int(ts[i]),
            }


def write_ndjson(path: Path, spec: CorpusSpec, start_id: int = 0) -> tuple[int, int]:
    """Writes spec.docs documents to path (atomically); returns (documents, bytes)."""
    gen = Generator(spec)
    tmp = path.with_suffix(path.suffix + ".tmp")
    n = 0
    with open(tmp, "w") as f:
        for doc in gen.documents(start_id, spec.docs):
            f.write(json.dumps(doc, separators=(",", ":")))
            f.write("\n")
            n += 1
    tmp.rename(path)
    return n, path.stat().st_size


def query_terms(k: int, lo: int, hi: int, vocab: int = 50_000) -> list[str]:
    """k query terms from the Zipf ranks lo..hi: contiguous when the range holds no more than k,
    else spread log-uniformly, so common and rare terms are both drawn, as in a query log (on
    a large index a term of the head matches most documents and every query becomes a scan)."""
    if not 0 <= lo < hi <= vocab:
        raise ValueError(f"term ranks {lo}-{hi} outside the vocabulary 0-{vocab}")
    words = vocabulary(vocab)
    if hi - lo <= k:
        return words[lo:hi]
    ranks = np.unique(np.geomspace(max(lo, 1), hi - 1, 4 * k).astype(np.int64))
    pick = ranks[np.linspace(0, len(ranks) - 1, min(k, len(ranks))).astype(np.int64)]
    return [words[r] for r in np.unique(pick)]
