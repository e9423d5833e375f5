/*
 * Copyright (c) 2026, FlexHeap contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  The FlexHeap contributors
 * designate this particular file as subject to the "Classpath" exception
 * as provided by Oracle in the LICENSE file that accompanied this code.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 */

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test 1: a thread doing O_DIRECT reads in a blkio-throttled cgroup accrues
 * bpf stall within ±20% of the time it measured itself blocked in read().
 */
#include "io_worker.h"

#define NAME "1-odirect-throttled"

int main(void)
{
	char why[256], file[256];
	struct io_job j = { .secs = 2.0, .nst = 1 };
	struct throttle thr;
	double ratio;

	j.st[0] = iostall_open(IOSTALL_BPF, why, sizeof(why));
	if (!j.st[0]) {
		report(strstr(why, "BTF") || strstr(why, "lacks") ? "SKIP" : "FAIL",
		       NAME, "bpf backend: %s", why);
		return test_exit();
	}
	if (run_throttled_job(&j, &thr, file, sizeof(file), "odirect", NAME))
		goto out;
	ratio = (double)j.stall[0] / j.blocked_ns;
	report(within(j.stall[0], j.blocked_ns, 0.20) ? "PASS" : "FAIL", NAME,
	       "stall=%.1f ms, measured blocked=%.1f ms, ratio=%.3f (±20%%), %ld reads in %.0f ms, %s",
	       ms(j.stall[0]), ms(j.blocked_ns), ratio, j.nreads, ms(j.wall_ns), thr.what);
	throttled_job_cleanup(&thr, file);
out:
	iostall_close(j.st[0]);
	return test_exit();
}
