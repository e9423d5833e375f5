// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * delayacct backend: per-thread blkio delay from kernel delay accounting
 * (taskstats over netlink, else /proc/<tid>/stat field 42). Counters are
 * cumulative per thread, so each registered thread keeps a baseline taken at
 * registration and its last read value. The running total only ever grows
 * by what a refresh saw a counter gain, so when an exited thread is dropped
 * its time stays in it.
 *
 * Reading N threads costs N netlink round trips, so the reads happen off the
 * caller's path: a background thread refreshes every registered thread each
 * period (IOSTALL_DELAYACCT_REFRESH_MS, default 100 ms, stretched so that its
 * rounds use at most ~2% of one CPU) and adds what changed to a running
 * total. iostall_total_ns() is one atomic load: O(1) inside a GC pause, at
 * the price of being up to one period old.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iostall_int.h"
#include "taskstats.h"

#define NBUCKETS 1024
#define REFRESH_MS_DEFAULT 100
#define REFRESH_MAX_SHARE 50	/* sleep >= 50 x the round's CPU time */

struct da_thread {
	struct da_thread *next;
	pid_t tid;
	uint64_t base;	/* counter at registration, plus dropped jumps */
	uint64_t last;	/* counter at last read */
	uint64_t seen;	/* CLOCK_MONOTONIC ns of the last read */
};

struct da_priv {
	pthread_mutex_t lock;		/* everything below but total */
	struct taskstats_conn ts;	/* fd < 0: use /proc */
	struct da_thread *bucket[NBUCKETS];
	int count;
	/* sum over threads ever registered of (last - base): read without the lock */
	uint64_t total;
	/* the refresher */
	pthread_t thread;
	int started;
	int stop;
	pthread_cond_t cv;		/* CLOCK_MONOTONIC: stop wakes it */
	unsigned int period_ms;
	uint64_t rounds;		/* completed refresh rounds */
};

static struct da_priv *priv(struct iostall *st)
{
	return st->priv;
}

static int read_counter(struct da_priv *p, pid_t tid, uint64_t *ns)
{
	int err;

	if (p->ts.fd >= 0) {
		err = taskstats_blkio_ns(&p->ts, tid, ns);
		/* Socket trouble (not a dead tid): use /proc from now on. */
		if (err && err != -ESRCH && err != -ENOENT) {
			taskstats_close(&p->ts);
			return procstat_blkio_ns(tid, ns);
		}
		return err;
	}
	return procstat_blkio_ns(tid, ns);
}

static struct da_thread **find(struct da_priv *p, pid_t tid)
{
	struct da_thread **pp = &p->bucket[(unsigned int)tid % NBUCKETS];

	while (*pp && (*pp)->tid != tid)
		pp = &(*pp)->next;
	return pp;
}

/* Drop *pp; its last known delay is already in the total. */
static void retire(struct da_priv *p, struct da_thread **pp)
{
	struct da_thread *t = *pp;

	*pp = t->next;
	free(t);
	p->count--;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* A counter may gain at most this much more than the time that passed. */
#define JUMP_SLACK_NS 10000000ull

/*
 * Refresh one thread's last value. Returns 0, or -ESRCH after retiring a
 * thread that exited (or whose tid was reused: its counter went back).
 */
static int refresh(struct da_priv *p, struct da_thread **pp)
{
	struct da_thread *t = *pp;
	uint64_t now, at = mono_ns();

	if (read_counter(p, t->tid, &now) || now < t->last) {
		retire(p, pp);
		return -ESRCH;
	}
	/*
	 * One thread cannot wait longer than the time that passed. The kernel
	 * adds its whole uptime to a thread that was in an I/O wait when
	 * kernel.task_delayacct went from 0 to 1 (the wait's start stamp is
	 * 0): drop such a jump (into base) instead of counting it.
	 */
	if (now - t->last > 2 * (at - t->seen) + JUMP_SLACK_NS)
		t->base += now - t->last;
	else if (now > t->last)
		__atomic_add_fetch(&p->total, now - t->last, __ATOMIC_RELAXED);
	t->last = now;
	t->seen = at;
	return 0;
}

/* One pass over all registered threads, one bucket per lock hold. */
static void refresh_all(struct da_priv *p)
{
	struct da_thread **pp;

	for (int i = 0; i < NBUCKETS; i++) {
		pthread_mutex_lock(&p->lock);
		pp = &p->bucket[i];
		while (*pp) {
			if (refresh(p, pp) == 0)
				pp = &(*pp)->next;
		}
		pthread_mutex_unlock(&p->lock);
	}
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *refresher(void *arg)
{
	struct da_priv *p = arg;
	struct timespec until;
	uint64_t t0, c0, cpu, sleep_ns;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		pthread_mutex_unlock(&p->lock);
		c0 = thread_cpu_ns();
		refresh_all(p);
		cpu = thread_cpu_ns() - c0;
		/*
		 * Stretch by the round's own CPU time (netlink work is ours), not
		 * its wall time: on a busy machine the wall time grows with the
		 * run queue, and exited threads would wait long for cleanup.
		 */
		sleep_ns = (uint64_t)p->period_ms * 1000000ull;
		if (sleep_ns < cpu * REFRESH_MAX_SHARE)
			sleep_ns = cpu * REFRESH_MAX_SHARE;
		t0 = mono_ns() + sleep_ns;
		until.tv_sec = t0 / 1000000000ull;
		until.tv_nsec = t0 % 1000000000ull;
		pthread_mutex_lock(&p->lock);
		p->rounds++;
		while (!p->stop &&
		       pthread_cond_timedwait(&p->cv, &p->lock, &until) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Start the refresher with every signal blocked: the host's signals are not ours. */
static int start_refresher(struct da_priv *p)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&p->thread, NULL, refresher, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	pthread_setname_np(p->thread, "iostall-da");
	p->started = 1;
	return 0;
}

static void stop_refresher(struct da_priv *p)
{
	if (!p->started)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->started = 0;
}

static int da_reg(struct iostall *st, pid_t tid)
{
	struct da_priv *p = priv(st);
	struct da_thread **pp, *t;
	uint64_t now;
	int err;

	pthread_mutex_lock(&p->lock);
	pp = find(p, tid);
	if (*pp) {
		err = -EEXIST;
		goto out;
	}
	if (p->count >= IOSTALL_MAX_THREADS) {
		err = -ENOSPC;
		goto out;
	}
	err = read_counter(p, tid, &now);
	if (err)
		goto out;
	t = calloc(1, sizeof(*t));
	if (!t) {
		err = -ENOMEM;
		goto out;
	}
	t->tid = tid;
	t->base = t->last = now;
	t->seen = mono_ns();
	*pp = t;
	p->count++;
out:
	pthread_mutex_unlock(&p->lock);
	return err;
}

static int da_unreg(struct iostall *st, pid_t tid)
{
	struct da_priv *p = priv(st);
	struct da_thread **pp;
	int err = 0;

	pthread_mutex_lock(&p->lock);
	pp = find(p, tid);
	if (!*pp)
		err = -ENOENT;
	else if (refresh(p, pp) == 0)
		retire(p, pp);
	pthread_mutex_unlock(&p->lock);
	return err;
}

static int64_t da_thread_ns(struct iostall *st, pid_t tid)
{
	struct da_priv *p = priv(st);
	struct da_thread **pp;
	int64_t ret;

	pthread_mutex_lock(&p->lock);
	pp = find(p, tid);
	if (!*pp)
		ret = -ENOENT;
	else if (refresh(p, pp))
		ret = -ESRCH;
	else
		ret = (int64_t)((*pp)->last - (*pp)->base);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* As of the last refresh: no syscall, no lock (the caller is in a GC pause). */
static uint64_t da_total_ns(struct iostall *st)
{
	return __atomic_load_n(&priv(st)->total, __ATOMIC_RELAXED);
}

static int da_count(struct iostall *st)
{
	struct da_priv *p = priv(st);
	int n;

	pthread_mutex_lock(&p->lock);
	n = p->count;
	pthread_mutex_unlock(&p->lock);
	return n;
}

static void da_close(struct iostall *st)
{
	struct da_priv *p = priv(st);
	struct da_thread *t, *next;
	int i;

	stop_refresher(p);
	for (i = 0; i < NBUCKETS; i++) {
		for (t = p->bucket[i]; t; t = next) {
			next = t->next;
			free(t);
		}
	}
	taskstats_close(&p->ts);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

static const struct iostall_ops da_ops = {
	.name = "delayacct",
	.id = IOSTALL_DELAYACCT,
	.reg = da_reg,
	.unreg = da_unreg,
	.thread_ns = da_thread_ns,
	.total_ns = da_total_ns,
	.tracked = da_count,
	.map_entries = da_count,
	.close = da_close,
};

/* 1 on, 0 off, -errno if the sysctl is missing (no CONFIG_TASK_DELAY_ACCT). */
static int delayacct_enabled(void)
{
	char c = 0;
	int fd;

	fd = open("/proc/sys/kernel/task_delayacct", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1';
}

int iostall_delayacct_open(struct iostall *st, char *why, size_t len)
{
	struct da_priv *p;
	pthread_condattr_t ca;
	const char *env;
	uint64_t ns;
	int on, err;

	on = delayacct_enabled();
	if (on < 0) {
		snprintf(why, len, "delayacct: kernel without delay accounting (%s)",
			 strerror(-on));
		return on;
	}
	if (!on) {
		snprintf(why, len,
			 "delayacct: kernel.task_delayacct=0 (enable with sysctl kernel.task_delayacct=1)");
		return -ENODEV;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(why, len, "delayacct: out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cv, &ca);
	pthread_condattr_destroy(&ca);
	env = getenv("IOSTALL_DELAYACCT_REFRESH_MS");
	p->period_ms = env && atoi(env) > 0 ? (unsigned int)atoi(env) : REFRESH_MS_DEFAULT;

	err = taskstats_open(&p->ts);
	if (!err)
		err = taskstats_blkio_ns(&p->ts, gettid(), &ns);
	if (!err) {
		snprintf(why, len, "delayacct: taskstats netlink, refreshed every %u ms",
			 p->period_ms);
	} else {
		taskstats_close(&p->ts);
		if (!iostall_proc_is_ours()) {
			snprintf(why, len, "delayacct: no taskstats (%s) and /proc is not this pid namespace's",
				 strerror(-err));
			da_close(&(struct iostall){ .priv = p });
			return -EACCES;
		}
		if (procstat_blkio_ns(gettid(), &ns)) {
			snprintf(why, len, "delayacct: neither taskstats (%s) nor /proc stat readable",
				 strerror(-err));
			da_close(&(struct iostall){ .priv = p });
			return -EACCES;
		}
		snprintf(why, len,
			 "delayacct: /proc stat, clock-tick resolution (taskstats: %s%s)",
			 strerror(-err), err == -EPERM ? ", needs CAP_NET_ADMIN" : "");
	}
	err = start_refresher(p);
	if (err) {
		snprintf(why, len, "delayacct: cannot start the refresh thread: %s",
			 strerror(-err));
		da_close(&(struct iostall){ .priv = p });
		return err;
	}
	st->priv = p;
	st->ops = &da_ops;
	return 0;
}
