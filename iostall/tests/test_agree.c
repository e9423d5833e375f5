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
 * Test 5: bpf and delayacct, open at once on the same I/O-bound thread,
 * agree within ±25%. Turns kernel.task_delayacct on for the test and
 * restores the original value at exit.
 */
#include "io_worker.h"

#define NAME "5-backends-agree"

int main(void)
{
	char why[2][256], file[256];
	struct io_job j = { .secs = 2.0, .nst = 2 };
	struct throttle thr;
	double ratio;
	int err;

	err = delayacct_set(1);
	if (err) {
		report(err == -ENOENT ? "SKIP" : "FAIL", NAME,
		       "cannot enable kernel.task_delayacct: %s", strerror(-err));
		return test_exit();
	}
	j.st[0] = iostall_open(IOSTALL_BPF, why[0], sizeof(why[0]));
	j.st[1] = iostall_open(IOSTALL_DELAYACCT, why[1], sizeof(why[1]));
	if (!j.st[0] || !j.st[1]) {
		report("FAIL", NAME, "open: %s | %s", why[0], why[1]);
		return test_exit();
	}
	if (run_throttled_job(&j, &thr, file, sizeof(file), "agree", NAME))
		goto out;
	ratio = (double)j.stall[1] / j.stall[0];
	report(within(j.stall[1], j.stall[0], 0.25) ? "PASS" : "FAIL", NAME,
	       "bpf=%.1f ms, delayacct=%.1f ms, ratio=%.3f (±25%%), measured blocked=%.1f ms, %ld reads, %s [%s]",
	       ms(j.stall[0]), ms(j.stall[1]), ratio, ms(j.blocked_ns), j.nreads,
	       thr.what, why[1]);
	throttled_job_cleanup(&thr, file);
out:
	iostall_close(j.st[0]);
	iostall_close(j.st[1]);
	return test_exit();
}
