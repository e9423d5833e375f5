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
 * Test 2: a thread spinning on CPU and a thread sleeping in nanosleep accrue
 * ~0 (< 2% of the test duration), while an I/O thread registered at the same
 * time does accrue (so the probe is live, not merely silent).
 */
#include "io_worker.h"

#define NAME "2-cpu-and-sleep-quiet"
#define SECS 1.5

struct quiet {
	struct iostall *st;
	int sleeper;
	int64_t stall;
	long loops;
};

static void *quiet_worker(void *arg)
{
	struct quiet *q = arg;
	struct timespec ms1 = { 0, 1000000 };
	pid_t tid = gettid();
	uint64_t start;
	volatile uint64_t x = 0;

	iostall_register(q->st, tid);
	start = now_ns();
	while (now_ns() - start < (uint64_t)(SECS * 1e9)) {
		if (q->sleeper) {
			nanosleep(&ms1, NULL);
		} else {
			for (int i = 0; i < 10000; i++)
				x += i;
		}
		q->loops++;
	}
	q->stall = iostall_thread_ns(q->st, tid);
	iostall_unregister(q->st, tid);
	return NULL;
}

int main(void)
{
	struct quiet spin = {}, sleep = {};
	struct io_job j = { .secs = SECS, .nst = 1 };
	char why[256], file[256];
	struct throttle thr;
	pthread_t t[3];
	double lim = SECS * 1e9 * 0.02;
	int err;

	j.st[0] = iostall_open(IOSTALL_BPF, why, sizeof(why));
	if (!j.st[0]) {
		report("FAIL", NAME, "bpf backend: %s", why);
		return test_exit();
	}
	err = make_uncached_file(file, sizeof(file), "quiet", 16 << 20);
	if (!err)
		err = throttle_setup(&thr, file, 100, 0);
	if (err) {
		report("FAIL", NAME, "set-up: %s", strerror(-err));
		goto out;
	}
	spin.st = sleep.st = j.st[0];
	sleep.sleeper = 1;
	j.file = file;
	j.thr = &thr;
	pthread_create(&t[0], NULL, quiet_worker, &spin);
	pthread_create(&t[1], NULL, quiet_worker, &sleep);
	pthread_create(&t[2], NULL, io_worker, &j);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	throttle_cleanup(&thr);

	report(spin.stall >= 0 && spin.stall < lim ? "PASS" : "FAIL", NAME,
	       "spinner stall=%.3f ms (< %.0f ms = 2%% of %.1f s)", ms(spin.stall),
	       ms(lim), SECS);
	report(sleep.stall >= 0 && sleep.stall < lim ? "PASS" : "FAIL", NAME,
	       "sleeper stall=%.3f ms (< %.0f ms) over %ld nanosleeps", ms(sleep.stall),
	       ms(lim), sleep.loops);
	report(!j.err && within(j.stall[0], j.blocked_ns, 0.20) ? "PASS" : "FAIL",
	       NAME, "concurrent I/O thread (control) stall=%.1f ms vs measured blocked=%.1f ms%s%s",
	       ms(j.stall[0]), ms(j.blocked_ns), j.err ? ", error in " : "",
	       j.err ? j.errwhat : "");
out:
	unlink(file);
	iostall_close(j.st[0]);
	return test_exit();
}
