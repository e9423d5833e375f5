// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * delayacct backend: per-thread blkio delay from kernel delay accounting
 * (taskstats over netlink, else /proc/<tid>/stat field 42). Counters are
 * cumulative per thread, so each registered thread keeps a baseline taken at
 * registration and its last read value; an exited thread's last value moves
 * into `retired` so the total never decreases.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iostall_int.h"
#include "taskstats.h"

#define NBUCKETS 1024

struct da_thread {
	struct da_thread *next;
	pid_t tid;
	uint64_t base;	/* counter at registration */
	uint64_t last;	/* counter at last read */
};

struct da_priv {
	pthread_mutex_t lock;
	struct taskstats_conn ts;	/* fd < 0: use /proc */
	struct da_thread *bucket[NBUCKETS];
	int count;
	uint64_t retired;
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

/* Retire and free *pp, keeping its last known delay in the total. */
static void retire(struct da_priv *p, struct da_thread **pp)
{
	struct da_thread *t = *pp;

	p->retired += t->last - t->base;
	*pp = t->next;
	free(t);
	p->count--;
}

/*
 * Refresh one thread's last value. Returns 0, or -ESRCH after retiring a
 * thread that exited (or whose tid was reused: its counter went back).
 */
static int refresh(struct da_priv *p, struct da_thread **pp)
{
	struct da_thread *t = *pp;
	uint64_t now;

	if (read_counter(p, t->tid, &now) || now < t->last) {
		retire(p, pp);
		return -ESRCH;
	}
	t->last = now;
	return 0;
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

static uint64_t da_total_ns(struct iostall *st)
{
	struct da_priv *p = priv(st);
	struct da_thread **pp;
	uint64_t sum;
	int i;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < NBUCKETS; i++) {
		pp = &p->bucket[i];
		while (*pp) {
			if (refresh(p, pp) == 0)
				pp = &(*pp)->next;
		}
	}
	sum = p->retired;
	for (i = 0; i < NBUCKETS; i++) {
		struct da_thread *t;

		for (t = p->bucket[i]; t; t = t->next)
			sum += t->last - t->base;
	}
	pthread_mutex_unlock(&p->lock);
	return sum;
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

	for (i = 0; i < NBUCKETS; i++) {
		for (t = p->bucket[i]; t; t = next) {
			next = t->next;
			free(t);
		}
	}
	taskstats_close(&p->ts);
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

	err = taskstats_open(&p->ts);
	if (!err)
		err = taskstats_blkio_ns(&p->ts, gettid(), &ns);
	if (!err) {
		snprintf(why, len, "delayacct: taskstats netlink");
	} else {
		taskstats_close(&p->ts);
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
	st->priv = p;
	st->ops = &da_ops;
	return 0;
}
