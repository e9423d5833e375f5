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
 * iostall-top: per-thread I/O stall of one process, like top.
 *   iostall-top [-b bpf|delayacct|auto] [-i interval_s] [-n count] PID
 * Registers every thread of PID (rescanning /proc/PID/task each interval),
 * prints stall ms per second per thread, sorted, and the total.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iostall.h"

struct thr {
	pid_t tid;
	int64_t last;	/* thread_ns at previous sample */
	double rate;	/* ms of stall per second, this interval */
	char comm[32];
	int seen;
};

static struct thr *thr;
static int nthr, cap;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void read_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(path, "r");
	if (!f || !fgets(buf, len, f))
		snprintf(buf, len, "?");
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

static struct thr *find(pid_t tid)
{
	for (int i = 0; i < nthr; i++)
		if (thr[i].tid == tid)
			return &thr[i];
	return NULL;
}

/* Register threads not seen before; 0, or -ESRCH when PID is gone. */
static int scan(struct iostall *st, pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -ESRCH;
	while ((d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);
		struct thr *t;

		if (tid <= 0 || find(tid))
			continue;
		if (iostall_register(st, tid))
			continue;
		if (nthr == cap) {
			cap = cap ? 2 * cap : 64;
			thr = realloc(thr, cap * sizeof(*thr));
			if (!thr)
				exit(1);
		}
		t = &thr[nthr++];
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		read_comm(pid, tid, t->comm, sizeof(t->comm));
	}
	closedir(dir);
	return 0;
}

static int by_rate(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	if (x->rate != y->rate)
		return x->rate < y->rate ? 1 : -1;
	return x->tid - y->tid;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: iostall-top [-b bpf|delayacct|auto] [-i interval_s] [-n count] PID\n");
	exit(2);
}

int main(int argc, char **argv)
{
	enum iostall_backend want = IOSTALL_AUTO;
	double interval = 1.0;
	long count = -1, iter = 0;
	uint64_t total_prev;
	struct iostall *st;
	char why[512];
	pid_t pid;
	int opt;

	while ((opt = getopt(argc, argv, "b:i:n:h")) != -1) {
		switch (opt) {
		case 'b':
			if (!strcmp(optarg, "bpf"))
				want = IOSTALL_BPF;
			else if (!strcmp(optarg, "delayacct"))
				want = IOSTALL_DELAYACCT;
			else if (!strcmp(optarg, "auto"))
				want = IOSTALL_AUTO;
			else
				usage();
			break;
		case 'i':
			interval = atof(optarg);
			if (interval <= 0)
				usage();
			break;
		case 'n':
			count = atol(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	pid = atoi(argv[optind]);
	if (pid <= 0)
		usage();

	st = iostall_open(want, why, sizeof(why));
	if (!st) {
		fprintf(stderr, "iostall-top: %s\n", why);
		return 1;
	}
	fprintf(stderr, "iostall-top: backend %s (%s)\n", iostall_backend_name(st), why);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (scan(st, pid)) {
		fprintf(stderr, "iostall-top: no process %d\n", pid);
		iostall_close(st);
		return 1;
	}
	total_prev = iostall_total_ns(st);
	while (!stop && (count < 0 || iter < count)) {
		struct timespec ts = { (time_t)interval,
				       (long)((interval - (time_t)interval) * 1e9) };
		uint64_t total;
		int live = 0;

		nanosleep(&ts, NULL);
		if (stop)
			break;
		for (int i = 0; i < nthr; i++) {
			int64_t ns = iostall_thread_ns(st, thr[i].tid);

			if (ns < 0) {	/* thread exited: drop it */
				iostall_unregister(st, thr[i].tid);
				thr[i--] = thr[--nthr];
				continue;
			}
			thr[i].rate = (ns - thr[i].last) / 1e6 / interval;
			thr[i].last = ns;
		}
		total = iostall_total_ns(st);
		qsort(thr, nthr, sizeof(*thr), by_rate);
		printf("%8s  %-16s %12s\n", "TID", "COMM", "STALL ms/s");
		for (int i = 0; i < nthr; i++) {
			if (thr[i].rate > 0 || i < 10) {
				printf("%8d  %-16s %12.1f\n", thr[i].tid, thr[i].comm,
				       thr[i].rate);
				live++;
			}
		}
		printf("%8s  %-16s %12.1f  (%d threads)\n\n", "total", "",
		       (total - total_prev) / 1e6 / interval, nthr);
		fflush(stdout);
		total_prev = total;
		iter++;
		if (scan(st, pid))
			break;	/* the process exited */
	}
	iostall_close(st);
	free(thr);
	return 0;
}
