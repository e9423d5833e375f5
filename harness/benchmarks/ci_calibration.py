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

"""How often each confidence interval calls two policies different (a benchmark that prints
numbers, not a test). Two policies run in interleaved repetitions: each run has its own
noise, and each repetition a drift both share (on this machine the demo's every policy ran
10-20% faster in rep 3 than in rep 1). With the same true time a 95% interval should call
them different in about 5% of the simulated comparisons (false alarms); with a real
difference (--effect, default 7% faster) as often as possible (detections).

    $(bash harness/setup.sh)/bin/python harness/benchmarks/ci_calibration.py [--sims 400]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from scipy import stats as sps
from tabulate import tabulate

from flexheap_harness.stats import NO_DIFFERENCE, paired_ratio_ci, verdict


def _ratio_of_medians(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.median(a, axis=axis) / np.median(b, axis=axis)


def _bootstrap(a: np.ndarray, b: np.ndarray, paired: bool, rng: np.random.Generator) -> tuple[float, float]:
    res = sps.bootstrap((a, b), _ratio_of_medians, vectorized=True, paired=paired, method="percentile",
                        n_resamples=2000, random_state=rng)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sims", type=int, default=400, help="simulated comparisons per row (default 400)")
    ap.add_argument("--effect", type=float, default=0.93, help="true ratio of the detection table (default 0.93)")
    ap.add_argument("--noise", type=float, default=0.05, help="per-run noise, sd of the log (default 0.05)")
    args = ap.parse_args()
    for effect, title in ((1.0, "false alarms: identical policies called different (should be ~5%)"),
                          (args.effect, f"detections: a policy at x{args.effect:g} of the other called different")):
        print(f"{title}; {args.sims} comparisons per row, 95% intervals, per-run noise {args.noise:.0%}:")
        print(_table(effect, args.sims, args.noise), end="\n\n")


def _table(effect: float, sims: int, noise: float) -> str:
    rng = np.random.default_rng(20260101)
    rows = []
    headers: list[str] = []
    for reps in (3, 5, 8):
        for drift in (0.0, 0.10):
            wrong = {"bootstrap, unpaired": 0, "bootstrap, paired": 0, "paired t (the harness)": 0}
            for _ in range(sims):
                shared = np.exp(rng.normal(0.0, drift, reps))
                a = effect * shared * np.exp(rng.normal(0.0, noise, reps))
                b = shared * np.exp(rng.normal(0.0, noise, reps))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    cis = {"bootstrap, unpaired": _bootstrap(a, b, False, rng),
                           "bootstrap, paired": _bootstrap(a, b, True, rng),
                           "paired t (the harness)": paired_ratio_ci(list(zip(a, b)))[1]}
                for k, ci in cis.items():
                    wrong[k] += verdict(ci) != NO_DIFFERENCE
            rows.append([reps, f"{drift:.0%}"] + [f"{100 * w / sims:.1f}%" for w in wrong.values()])
            headers = ["reps", "drift per rep"] + list(wrong)
    return tabulate(rows, headers=headers, disable_numparse=True)


if __name__ == "__main__":
    main()
