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
 * Pause-time cost of one stall read: what the JVM pays inside every GC pause
 * when it calls iostall_total_ns(). For each backend and each thread count,
 * N idle threads (blocked in read() on a pipe) are registered, then
 * iostall_total_ns() is called `reads` times from one thread, each call timed
 * on its own; the median, p99 and max are printed in µs. bg_cpu_% is the CPU
 * the library's own threads ("iostall-*", the delayacct refresher) used
 * meanwhile, in % of one core (clock-tick resolution: run enough reads).
 *   readcost [threads=10,2000] [reads=200] [backends=bpf,delayacct]
 * Needs root (bpf; delayacct also turns kernel.task_delayacct on for the run
 * and restores it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <unistd.h>
#include "iostall.h"

#define MAXN 16384

static int wake[2];	/* idle threads block reading this pipe */

struct idler {
	pid_t tid;
};

static void *idle(void *arg)
{
	struct idler *i = arg;
	char c;

	__atomic_store_n(&i->tid, gettid(), __ATOMIC_RELEASE);
	(void)!read(wake[0], &c, 1);
	return NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* CPU ns used so far by this process's threads named comm (the library's own). */
static uint64_t threads_cpu_ns(const char *comm)
{
	char path[300], buf[512], *p;
	unsigned long long ut, st, sum = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc/self/task");
	FILE *f;

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    !strncmp(strchr(buf, '(') + 1, comm, strlen(comm)) &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			   &ut, &st) == 2)
			sum += ut + st;
		fclose(f);
	}
	closedir(dir);
	return sum * (1000000000ull / sysconf(_SC_CLK_TCK));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int set_delayacct(int on)
{
	FILE *f = fopen("/proc/sys/kernel/task_delayacct", "r+");
	int old = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &old) != 1)
		old = -1;
	rewind(f);
	fprintf(f, "%d", on);
	fclose(f);
	return old;
}

static enum iostall_backend parse_backend(const char *s)
{
	if (!strcmp(s, "bpf"))
		return IOSTALL_BPF;
	if (!strcmp(s, "delayacct"))
		return IOSTALL_DELAYACCT;
	if (!strcmp(s, "none"))
		return IOSTALL_NONE;
	fprintf(stderr, "readcost: unknown backend %s\n", s);
	exit(2);
}

/* One table row: open, register n idle threads, time `reads` reads. */
static int row(const char *bname, int n, int reads, struct idler *idl)
{
	uint64_t *d, t0, sum = 0, bg0, bg1, w0, w1;
	struct iostall *st;
	char why[256];
	int failed = 0;

	st = iostall_open(parse_backend(bname), why, sizeof(why));
	if (!st) {
		printf("%-10s %6d   unavailable: %s\n", bname, n, why);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (iostall_register(st, idl[i].tid))
			failed++;
	/* Let a backend's first background refresh, if any, settle. */
	usleep(300000);
	d = calloc(reads, sizeof(*d));
	bg0 = threads_cpu_ns("iostall-");
	w0 = now_ns();
	for (int r = 0; r < reads; r++) {
		volatile uint64_t v;

		t0 = now_ns();
		v = iostall_total_ns(st);
		d[r] = now_ns() - t0;
		(void)v;
		sum += d[r];
		usleep(1000);	/* reads are GC pauses apart, not back to back */
	}
	bg1 = threads_cpu_ns("iostall-");
	w1 = now_ns();
	qsort(d, reads, sizeof(*d), cmp_u64);
	printf("%-10s %6d %10.2f %10.2f %10.2f %10.2f %12.2f   %s%s\n", bname, n,
	       d[reads / 2] / 1e3, d[reads * 99 / 100] / 1e3, d[reads - 1] / 1e3,
	       sum / 1e3 / reads, 100.0 * (bg1 - bg0) / (w1 - w0),
	       iostall_tracked(st) == n ? "" : "tracked != n! ",
	       failed ? "register failures!" : "");
	free(d);
	for (int i = 0; i < n; i++)
		iostall_unregister(st, idl[i].tid);
	iostall_close(st);
	return 0;
}

int main(int argc, char **argv)
{
	char tbuf[256] = "10,2000", bbuf[256] = "bpf,delayacct", *s, *save;
	int counts[16], nc = 0, reads = 200, maxn = 0, old_da;
	struct idler *idl;
	pthread_attr_t attr;
	pthread_t *th;

	if (argc > 1)
		snprintf(tbuf, sizeof(tbuf), "%s", argv[1]);
	if (argc > 2)
		reads = atoi(argv[2]);
	if (argc > 3)
		snprintf(bbuf, sizeof(bbuf), "%s", argv[3]);
	if (reads < 1)
		reads = 1;
	for (s = strtok_r(tbuf, ",", &save); s && nc < 16; s = strtok_r(NULL, ",", &save)) {
		counts[nc] = atoi(s);
		if (counts[nc] < 1 || counts[nc] > MAXN) {
			fprintf(stderr, "readcost: thread count %s out of range\n", s);
			return 2;
		}
		if (counts[nc] > maxn)
			maxn = counts[nc];
		nc++;
	}

	if (pipe(wake))
		return 1;
	idl = calloc(maxn, sizeof(*idl));
	th = calloc(maxn, sizeof(*th));
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (int i = 0; i < maxn; i++) {
		if (pthread_create(&th[i], &attr, idle, &idl[i])) {
			fprintf(stderr, "readcost: cannot create thread %d\n", i);
			return 1;
		}
	}
	for (int i = 0; i < maxn; i++)
		while (!__atomic_load_n(&idl[i].tid, __ATOMIC_ACQUIRE))
			usleep(100);

	old_da = set_delayacct(1);
	printf("iostall_total_ns() cost per call, %d calls 1 ms apart, registered idle threads:\n",
	       reads);
	printf("%-10s %6s %10s %10s %10s %10s %12s\n", "backend", "threads", "median_us",
	       "p99_us", "max_us", "mean_us", "bg_cpu_%");
	for (s = strtok_r(bbuf, ",", &save); s; s = strtok_r(NULL, ",", &save))
		for (int c = 0; c < nc; c++)
			row(s, counts[c], reads, idl);
	if (old_da >= 0)
		set_delayacct(old_da);

	for (int i = 0; i < maxn; i++)
		(void)!write(wake[1], "x", 1);
	for (int i = 0; i < maxn; i++)
		pthread_join(th[i], NULL);
	return 0;
}
