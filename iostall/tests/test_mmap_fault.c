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
 * Test 3: a thread touching pages of an mmap'd, uncached file (MADV_RANDOM,
 * so each touch is one major fault, throttled) accrues stall > 0 and close
 * to the time it measured around the touches (band 0.7..1.2).
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "testlib.h"

#define NAME "3-mmap-faults"
#define FILE_SIZE (64UL << 20)
#define SECS 2.0

struct fault_job {
	struct iostall *st;
	struct throttle *thr;
	const char *file;
	uint64_t touch_ns;
	long touches, majflt, cached_before;
	int64_t stall;
	int err;
	const char *errwhat;
};

static void *fault_worker(void *arg)
{
	struct fault_job *j = arg;
	long pg = sysconf(_SC_PAGESIZE), npages = FILE_SIZE / pg;
	uint64_t seed = 88172645463325252ull, start, t0, t1;
	unsigned char *vec, *map;
	volatile unsigned char sink = 0;
	struct rusage ru0, ru1;
	pid_t tid = gettid();
	int fd;

	fd = open(j->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		j->err = -errno;
		j->errwhat = "open";
		return NULL;
	}
	map = mmap(NULL, FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		j->err = -errno;
		j->errwhat = "mmap";
		return NULL;
	}
	madvise(map, FILE_SIZE, MADV_RANDOM);
	/* Ground truth that the file is really not cached. */
	vec = malloc(npages);
	mincore(map, FILE_SIZE, vec);
	for (long i = 0; i < npages; i++)
		j->cached_before += vec[i] & 1;
	free(vec);

	if ((j->err = throttle_enter(j->thr, tid))) {
		j->errwhat = "cgroup enter";
		goto out;
	}
	iostall_register(j->st, tid);
	getrusage(RUSAGE_THREAD, &ru0);
	start = now_ns();
	do {
		/* Random pages: 211 of 16384, so nearly all distinct. */
		long p = rnd(&seed) % npages;

		t0 = now_ns();
		sink += map[p * pg];
		t1 = now_ns();
		j->touch_ns += t1 - t0;
		j->touches++;
	} while (t1 - start < (uint64_t)(SECS * 1e9));
	getrusage(RUSAGE_THREAD, &ru1);
	j->stall = iostall_thread_ns(j->st, tid);
	iostall_unregister(j->st, tid);
	j->majflt = ru1.ru_majflt - ru0.ru_majflt;
	throttle_leave(j->thr, tid);
out:
	munmap(map, FILE_SIZE);
	return NULL;
}

int main(void)
{
	struct fault_job j = {};
	char why[256], file[256];
	struct throttle thr;
	pthread_t th;
	double ratio;
	int err;

	j.st = iostall_open(IOSTALL_BPF, why, sizeof(why));
	if (!j.st) {
		report("FAIL", NAME, "bpf backend: %s", why);
		return test_exit();
	}
	err = make_uncached_file(file, sizeof(file), "mmap", FILE_SIZE);
	if (!err)
		err = throttle_setup(&thr, file, 100, 0);
	if (err) {
		report("FAIL", NAME, "set-up: %s", strerror(-err));
		goto out;
	}
	j.file = file;
	j.thr = &thr;
	pthread_create(&th, NULL, fault_worker, &j);
	pthread_join(th, NULL);
	throttle_cleanup(&thr);
	if (j.err) {
		report("FAIL", NAME, "%s: %s", j.errwhat, strerror(-j.err));
		goto out;
	}
	ratio = (double)j.stall / j.touch_ns;
	report(j.stall > 0 && ratio >= 0.7 && ratio <= 1.2 ? "PASS" : "FAIL", NAME,
	       "stall=%.1f ms, measured in touches=%.1f ms, ratio=%.3f (0.7..1.2), %ld touches, %ld major faults, %ld pages cached before, %s",
	       ms(j.stall), ms(j.touch_ns), ratio, j.touches, j.majflt,
	       j.cached_before, thr.what);
out:
	unlink(file);
	iostall_close(j.st);
	return test_exit();
}
