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
 * Overhead of the bpf probe on a context-switch-heavy program: two threads
 * pinned to one CPU ping-pong a byte over pipes (2 switches per round trip).
 * Modes, interleaved over several rounds, median reported:
 *   off        no program on sched_switch
 *   empty      only an empty program on sched_switch (bench/floor.bpf.c):
 *              the kernel's cost of running any tp_btf program
 *   untracked  iostall open, 8 idle threads registered, ping-pong not
 *   tracked    iostall open, ping-pong threads + 8 idle threads registered
 * Each mode gives round trips/s and the two threads' own CPU time per
 * context switch (CLOCK_THREAD_CPUTIME_ID): the CPU figure is robust to
 * other load on the machine, the throughput is not.
 * Then, with kernel.bpf_stats_enabled=1 for a moment, the kernel's run time
 * of the probe and of the empty program per invocation (= per context
 * switch), both attached at once; their difference is the probe's own cost
 * without the stats clock reads.
 * Under load, prefer many short rounds: the minimum CPU per switch is the
 * figure least touched by other tasks on the CPU.
 *   overhead [--json FILE] [seconds_per_run=1] [rounds=7] [cpu=last, -1: unpinned]
 * --json also writes the figures and the printed table to FILE, a result
 * that `flexheap harness report --add overhead FILE` renders.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "iostall.h"
#include "floor.skel.h"

#define NIDLE 8

static int cpu;
static double secs = 1.0;
static FILE *json;	/* --json: the figures, as they are printed */
static char *table;	/* everything printed to stdout, for the JSON */
static size_t table_len;
static FILE *out;	/* stdout, and table when --json */

struct pingpong {
	int ab[2], ba[2];
	struct iostall *st;	/* register both threads if set */
	long trips;
	uint64_t pong_cpu_ns;	/* pong thread's own CPU time */
};

struct result {
	double trips_s;		/* round trips per second */
	double cpu_ns_switch;	/* both threads' CPU ns per context switch */
};

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(void)
{
	cpu_set_t set;

	if (cpu < 0)
		return;	/* unpinned: the threads may run on different CPUs */
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *pong(void *arg)
{
	struct pingpong *p = arg;
	uint64_t c0;
	char c;

	pin();
	c0 = cpu_ns();
	if (p->st)
		iostall_register(p->st, gettid());
	while (read(p->ab[0], &c, 1) == 1 && c)
		(void)!write(p->ba[1], &c, 1);
	p->pong_cpu_ns = cpu_ns() - c0;
	if (p->st)
		iostall_unregister(p->st, gettid());
	return NULL;
}

/* One run: throughput and CPU time per switch. */
static struct result run(struct iostall *st)
{
	struct pingpong p = { .st = st };
	struct result r;
	uint64_t c0, ping_cpu;
	pthread_t t;
	double t0, el;
	char c = 1;

	if (pipe(p.ab) || pipe(p.ba))
		exit(1);
	pthread_create(&t, NULL, pong, &p);
	pin();
	if (st)
		iostall_register(st, gettid());
	t0 = now_s();
	c0 = cpu_ns();
	do {
		for (int i = 0; i < 1000; i++) {
			(void)!write(p.ab[1], &c, 1);
			(void)!read(p.ba[0], &c, 1);
		}
		p.trips += 1000;
	} while ((el = now_s() - t0) < secs);
	ping_cpu = cpu_ns() - c0;
	c = 0;
	(void)!write(p.ab[1], &c, 1);
	pthread_join(t, NULL);
	if (st)
		iostall_unregister(st, gettid());
	close(p.ab[0]); close(p.ab[1]); close(p.ba[0]); close(p.ba[1]);
	r.trips_s = p.trips / el;
	r.cpu_ns_switch = (double)(ping_cpu + p.pong_cpu_ns) / (2.0 * p.trips);
	return r;
}

static void *idle(void *arg)
{
	__atomic_store_n((pid_t *)arg, gettid(), __ATOMIC_RELEASE);
	pause();
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Kernel-measured run count and time of the programs called name. */
static int prog_stats(const char *name, unsigned long long *cnt, unsigned long long *ns)
{
	__u32 id = 0;

	*cnt = *ns = 0;
	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    !strcmp(info.name, name)) {
			*cnt += info.run_cnt;
			*ns += info.run_time_ns;
		}
		close(fd);
	}
	return *cnt ? 0 : -ENOENT;
}

static int sysctl_rw(const char *path, int val)
{
	char buf[16] = "";
	FILE *f = fopen(path, "r");
	int old = -1;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			old = atoi(buf);
		fclose(f);
	}
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%d", val);
		fclose(f);
	}
	return old;
}

/* Prints to stdout and, with --json, to the table kept for the JSON. */
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (out) {
		va_start(ap, fmt);
		vfprintf(out, fmt, ap);
		va_end(ap);
	}
}

/* A JSON string: the table text has newlines, never other controls. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

/* Median throughput; median and minimum CPU per switch (load only adds). */
static void print_mode(const char *name, double *trips, double *cpu, int rounds,
		       double off_trips, double off_cpu, double off_min)
{
	double t = median(trips, rounds), c = median(cpu, rounds), m = cpu[0];

	if (json)
		fprintf(json, "%s\"%s\": {\"trips_per_s\": %.0f, \"cpu_ns_per_switch\": %.2f, \"min_cpu_ns_per_switch\": %.2f}",
			off_trips == 0 ? "" : ", ", name, t, c, m);
	if (off_trips == 0) {
		say("  %-10s %9.0f trips/s           %7.1f cpu ns/switch              min %7.1f\n",
		       name, t, c, m);
		return;
	}
	say("  %-10s %9.0f trips/s %+6.2f%%   %7.1f cpu ns/switch %+6.1f ns %+6.2f%%   min %7.1f %+6.1f ns %+6.2f%%\n",
	       name, t, 100 * (t / off_trips - 1), c, c - off_cpu,
	       100 * (c / off_cpu - 1), m, m - off_min, 100 * (m / off_min - 1));
}

static struct iostall *open_with_idlers(pid_t *idle_tid)
{
	char why[256];
	struct iostall *st = iostall_open(IOSTALL_BPF, why, sizeof(why));

	if (!st) {
		fprintf(stderr, "overhead: %s\n", why);
		exit(1);
	}
	for (int i = 0; i < NIDLE; i++)
		iostall_register(st, idle_tid[i]);
	return st;
}

int main(int argc, char **argv)
{
	int rounds = 7, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double t_off[64], t_emp[64], t_untr[64], t_tr[64];
	double c_off[64], c_emp[64], c_untr[64], c_tr[64];
	unsigned long long pc0, pn0, pc1, pn1, fc0, fn0, fc1, fn1;
	struct iostall_floor *floor;
	struct iostall *st;
	struct result r;
	pthread_t idlers[NIDLE];
	pid_t idle_tid[NIDLE] = {};
	int old, nstats = 0;

	if (argc > 2 && !strcmp(argv[1], "--json")) {
		json = fopen(argv[2], "w");
		if (!json) {
			fprintf(stderr, "overhead: cannot write %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		out = open_memstream(&table, &table_len);
		if (!out) {
			fprintf(stderr, "overhead: cannot keep the table for the JSON: %s\n", strerror(errno));
			return 1;
		}
		argc -= 2, argv += 2;
	}
	if (argc > 1)
		secs = atof(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (rounds > 64)
		rounds = 64;
	if (rounds < 1)
		rounds = 1;
	cpu = argc > 3 ? atoi(argv[3]) : ncpu - 1;
	if (json)
		fprintf(json, "{\"workload\": \"iostall-overhead\", \"seconds_per_run\": %g, \"rounds\": %d, \"cpu\": %d, \"modes\": {",
			secs, rounds, cpu);

	for (int i = 0; i < NIDLE; i++) {
		pthread_create(&idlers[i], NULL, idle, &idle_tid[i]);
		while (!__atomic_load_n(&idle_tid[i], __ATOMIC_ACQUIRE))
			sched_yield();
	}
	floor = iostall_floor__open_and_load();
	if (!floor) {
		fprintf(stderr, "overhead: cannot load the empty program\n");
		return 1;
	}
	/* Programs stay attached while open, so each mode opens and closes. */
	for (int i = 0; i < rounds; i++) {
		r = run(NULL);
		t_off[i] = r.trips_s, c_off[i] = r.cpu_ns_switch;
		if (iostall_floor__attach(floor))
			return 1;
		r = run(NULL);
		t_emp[i] = r.trips_s, c_emp[i] = r.cpu_ns_switch;
		iostall_floor__detach(floor);
		st = open_with_idlers(idle_tid);
		r = run(NULL);
		t_untr[i] = r.trips_s, c_untr[i] = r.cpu_ns_switch;
		r = run(st);
		t_tr[i] = r.trips_s, c_tr[i] = r.cpu_ns_switch;
		iostall_close(st);
		fprintf(stderr, "round %d: trips/s off %.0f empty %.0f untracked %.0f tracked %.0f; cpu ns/switch %.1f %.1f %.1f %.1f\n",
			i, t_off[i], t_emp[i], t_untr[i], t_tr[i], c_off[i], c_emp[i],
			c_untr[i], c_tr[i]);
	}
	if (cpu >= 0)
		say("ping-pong on cpu %d, %d rounds x %.2f s, medians (2 context switches per round trip):\n",
		    cpu, rounds, secs);
	else
		say("ping-pong unpinned, %d rounds x %.2f s, medians (2 context switches per round trip):\n",
		    rounds, secs);
	print_mode("off", t_off, c_off, rounds, 0, 0, 0);
	{
		/* median() sorts, so c_off[0] is the minimum afterwards. */
		double mt = median(t_off, rounds), mc = median(c_off, rounds);

		print_mode("empty", t_emp, c_emp, rounds, mt, mc, c_off[0]);
		print_mode("untracked", t_untr, c_untr, rounds, mt, mc, c_off[0]);
		print_mode("tracked", t_tr, c_tr, rounds, mt, mc, c_off[0]);
	}
	if (json)
		fprintf(json, "}, \"bpf_stats\": {");

	old = sysctl_rw("/proc/sys/kernel/bpf_stats_enabled", 1);
	if (old >= 0) {
		st = open_with_idlers(idle_tid);
		iostall_floor__attach(floor);
		for (int tracked = 0; tracked < 2; tracked++) {
			prog_stats("iostall_switch", &pc0, &pn0);
			prog_stats("iostall_floor", &fc0, &fn0);
			run(tracked ? st : NULL);
			prog_stats("iostall_switch", &pc1, &pn1);
			prog_stats("iostall_floor", &fc1, &fn1);
			if (pc1 > pc0 && fc1 > fc0) {
				double p = (double)(pn1 - pn0) / (pc1 - pc0);
				double f = (double)(fn1 - fn0) / (fc1 - fc0);

				say("  kernel bpf_stats, ping-pong %-9s: probe %.1f ns, empty program %.1f ns, probe's own cost %.1f ns per context switch (%llu switches)\n",
				    tracked ? "tracked" : "untracked", p, f, p - f,
				    pc1 - pc0);
				if (json)
					fprintf(json, "%s\"%s\": {\"probe_ns\": %.2f, \"empty_program_ns\": %.2f, \"probe_own_ns\": %.2f, \"switches\": %llu}",
						nstats++ ? ", " : "", tracked ? "tracked" : "untracked",
						p, f, p - f, pc1 - pc0);
			}
		}
		sysctl_rw("/proc/sys/kernel/bpf_stats_enabled", old);
		iostall_floor__detach(floor);
		iostall_close(st);
	}
	iostall_floor__destroy(floor);
	if (json) {
		fclose(out);
		fprintf(json, "}, \"table\": ");
		json_string(json, table);
		fprintf(json, "}\n");
		free(table);
		if (fclose(json)) {
			fprintf(stderr, "overhead: cannot write the JSON: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}
