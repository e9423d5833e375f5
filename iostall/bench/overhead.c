// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Overhead of the bpf probe on a context-switch-heavy program: two threads
 * pinned to one CPU ping-pong a byte over pipes (2 switches per round trip).
 * Modes, interleaved over several rounds, median reported:
 *   off        no iostall instance
 *   untracked  instance open, 8 idle threads registered, ping-pong not
 *   tracked    instance open, ping-pong threads + 8 idle threads registered
 * Then, with kernel.bpf_stats_enabled=1 for a moment, the probe's own run
 * time per invocation (= per context switch) from the kernel's BPF stats.
 *   overhead [seconds_per_run=1] [rounds=7] [cpu=last]
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "iostall.h"

#define NIDLE 8

static int cpu;
static double secs = 1.0;

struct pingpong {
	int ab[2], ba[2];
	struct iostall *st;	/* register both threads if set */
	volatile int stop;
	long trips;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *pong(void *arg)
{
	struct pingpong *p = arg;
	char c;

	pin();
	if (p->st)
		iostall_register(p->st, gettid());
	while (read(p->ab[0], &c, 1) == 1 && c)
		write(p->ba[1], &c, 1);
	if (p->st)
		iostall_unregister(p->st, gettid());
	return NULL;
}

/* Round trips per second for one run. */
static double run(struct iostall *st)
{
	struct pingpong p = { .st = st };
	pthread_t t;
	double t0, el;
	char c = 1;

	pipe(p.ab);
	pipe(p.ba);
	pthread_create(&t, NULL, pong, &p);
	pin();
	if (st)
		iostall_register(st, gettid());
	t0 = now_s();
	do {
		for (int i = 0; i < 1000; i++) {
			write(p.ab[1], &c, 1);
			read(p.ba[0], &c, 1);
		}
		p.trips += 1000;
	} while ((el = now_s() - t0) < secs);
	c = 0;
	write(p.ab[1], &c, 1);
	pthread_join(t, NULL);
	if (st)
		iostall_unregister(st, gettid());
	close(p.ab[0]); close(p.ab[1]); close(p.ba[0]); close(p.ba[1]);
	return p.trips / el;
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

/* Kernel-measured run time of our sched_switch program, ns per call. */
static int probe_stats(unsigned long long *cnt, unsigned long long *ns)
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
		    !strcmp(info.name, "iostall_switch")) {
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

int main(int argc, char **argv)
{
	int rounds = 7, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double off[32], untr[32], tr[32], m_off, m_untr, m_tr;
	unsigned long long c0, n0, c1, n1;
	struct iostall *st;
	pthread_t idlers[NIDLE];
	pid_t idle_tid[NIDLE] = {};
	char why[256];
	int old;

	if (argc > 1)
		secs = atof(argv[1]);
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (rounds > 32)
		rounds = 32;
	cpu = argc > 3 ? atoi(argv[3]) : ncpu - 1;

	st = iostall_open(IOSTALL_BPF, why, sizeof(why));
	if (!st) {
		fprintf(stderr, "overhead: %s\n", why);
		return 1;
	}
	for (int i = 0; i < NIDLE; i++) {
		pthread_create(&idlers[i], NULL, idle, &idle_tid[i]);
		while (!__atomic_load_n(&idle_tid[i], __ATOMIC_ACQUIRE))
			sched_yield();
		iostall_register(st, idle_tid[i]);
	}
	/*
	 * The probe is attached for the whole process lifetime once opened,
	 * so "off" closes and reopens it: rounds interleave the three modes.
	 */
	for (int r = 0; r < rounds; r++) {
		untr[r] = run(NULL);
		tr[r] = run(st);
		iostall_close(st);
		off[r] = run(NULL);
		st = iostall_open(IOSTALL_BPF, why, sizeof(why));
		for (int i = 0; i < NIDLE; i++)
			iostall_register(st, idle_tid[i]);
		fprintf(stderr, "round %d: off %.0f untracked %.0f tracked %.0f trips/s\n",
			r, off[r], untr[r], tr[r]);
	}
	m_off = median(off, rounds);
	m_untr = median(untr, rounds);
	m_tr = median(tr, rounds);
	printf("ping-pong on cpu %d, %d rounds x %.1f s, median round trips/s (2 switches each):\n",
	       cpu, rounds, secs);
	printf("  off        %10.0f\n", m_off);
	printf("  untracked  %10.0f  %+.2f%%  (%+.0f ns/switch)\n", m_untr,
	       100 * (m_untr / m_off - 1), (1 / m_untr - 1 / m_off) * 1e9 / 2);
	printf("  tracked    %10.0f  %+.2f%%  (%+.0f ns/switch)\n", m_tr,
	       100 * (m_tr / m_off - 1), (1 / m_tr - 1 / m_off) * 1e9 / 2);

	old = sysctl_rw("/proc/sys/kernel/bpf_stats_enabled", 1);
	if (old >= 0) {
		for (int tracked = 0; tracked < 2; tracked++) {
			probe_stats(&c0, &n0);
			run(tracked ? st : NULL);
			probe_stats(&c1, &n1);
			if (c1 > c0)
				printf("  probe run time (kernel bpf_stats), ping-pong %s: %.1f ns per context switch over %llu switches\n",
				       tracked ? "tracked" : "untracked",
				       (double)(n1 - n0) / (c1 - c0), c1 - c0);
		}
		sysctl_rw("/proc/sys/kernel/bpf_stats_enabled", old);
	}
	iostall_close(st);
	return 0;
}
