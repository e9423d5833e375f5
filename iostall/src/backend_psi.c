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
 * psi backend: the I/O pressure of the caller's own cgroup (cgroup v2
 * io.pressure), for a JVM that may neither load BPF (CAP_BPF) nor read
 * delay accounting (kernel.task_delayacct=0, the default since Linux 5.14).
 * Any process may read its own cgroup's pressure, also in a container.
 *
 * PSI gives wall time, not per-thread time: "some" is the time at least one
 * task of the cgroup waited for I/O, "full" the time all of its non-idle
 * tasks did. The total reported is an estimate of the CPU time the stalls
 * cost: during "full" every CPU the cgroup could use sat idle, during the
 * rest of "some" at least one thread's CPU did, so
 *
 *     stall = some + full * (cpus - 1),     cpus = the caller's affinity mask
 *
 * Both totals only grow, so the estimate does too. It counts every task of
 * the cgroup, not only registered threads (a container's other processes
 * too), and it is a lower bound where several threads stall at once on one
 * CPU's worth of "some". In the root cgroup it is refused: the root's
 * io.pressure is the whole machine's, and another process's stalls would
 * steer the heap.
 *
 * iostall_total_ns() reads the file (one pread, a few microseconds), so it
 * is not for a GC pause: the JVM samples it off the pause, as it does the
 * delayacct backend's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iostall_int.h"

struct psi_priv {
	int fd;			/* the cgroup's io.pressure */
	unsigned int cpus;	/* CPUs a "full" stall leaves idle */
	int registered;		/* threads registered (for leak checks only) */
	uint64_t last;		/* largest estimate returned: never go back */
};

static struct psi_priv *priv(struct iostall *st)
{
	return st->priv;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=123" -> 123 (us). */
static int parse_total(const char *text, const char *kind, uint64_t *us)
{
	const char *line = strstr(text, kind);
	const char *tot;

	if (!line || (line != text && line[-1] != '\n'))
		return -EINVAL;
	tot = strstr(line, "total=");
	if (!tot || memchr(line, '\n', (size_t)(tot - line)))
		return -EINVAL;
	return sscanf(tot + 6, "%" SCNu64, us) == 1 ? 0 : -EINVAL;
}

/* Both totals in us; -errno if the file cannot be read or parsed. */
static int read_pressure(int fd, uint64_t *some, uint64_t *full)
{
	char buf[256];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (parse_total(buf, "some ", some))
		return -EINVAL;
	/* io.pressure has had a "full" line since PSI began; absent, it is 0. */
	if (parse_total(buf, "full ", full))
		*full = 0;
	return 0;
}

static uint64_t estimate_ns(const struct psi_priv *p, uint64_t some_us, uint64_t full_us)
{
	uint64_t extra = p->cpus > 1 ? full_us * (p->cpus - 1) : 0;

	return (some_us + extra) * 1000ull;
}

static int psi_reg(struct iostall *st, pid_t tid)
{
	if (tid <= 0)
		return -EINVAL;
	__atomic_add_fetch(&priv(st)->registered, 1, __ATOMIC_RELAXED);
	return 0;
}

static int psi_unreg(struct iostall *st, pid_t tid)
{
	if (tid <= 0)
		return -EINVAL;
	__atomic_sub_fetch(&priv(st)->registered, 1, __ATOMIC_RELAXED);
	return 0;
}

static int64_t psi_thread_ns(struct iostall *st, pid_t tid)
{
	(void)st;
	(void)tid;
	return -EOPNOTSUPP;	/* the cgroup's pressure has no per-thread share */
}

static uint64_t psi_total_ns(struct iostall *st)
{
	struct psi_priv *p = priv(st);
	uint64_t some, full, est, last;

	last = __atomic_load_n(&p->last, __ATOMIC_RELAXED);
	if (read_pressure(p->fd, &some, &full))
		return last;
	est = estimate_ns(p, some, full);
	/* Concurrent callers: keep the largest, so the total never decreases. */
	while (est > last &&
	       !__atomic_compare_exchange_n(&p->last, &last, est, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return est > last ? est : last;
}

static int psi_tracked(struct iostall *st)
{
	return __atomic_load_n(&priv(st)->registered, __ATOMIC_RELAXED);
}

static int psi_no_entries(struct iostall *st)
{
	(void)st;
	return 0;
}

static void psi_close(struct iostall *st)
{
	struct psi_priv *p = priv(st);

	close(p->fd);
	free(p);
}

static const struct iostall_ops psi_ops = {
	.name = "psi",
	.id = IOSTALL_PSI,
	.reg = psi_reg,
	.unreg = psi_unreg,
	.thread_ns = psi_thread_ns,
	.total_ns = psi_total_ns,
	.tracked = psi_tracked,
	.map_entries = psi_no_entries,
	.close = psi_close,
};

/* The caller's cgroup v2 path ("0::/a/b" in /proc/self/cgroup). */
static int own_cgroup(char *path, size_t len)
{
	char line[4096];
	FILE *f;
	int err = -ENOENT;

	f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, len, "%s", line + 3);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

/* Mount point of the cgroup v2 hierarchy (mountinfo: "... - cgroup2 ..."). */
static int cgroup2_mount(char *dir, size_t len)
{
	char line[4096], mnt[4096];
	FILE *f;
	int err = -ENOENT;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8) != 0)
			continue;
		/* id parent major:minor root mount-point ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1) {
			snprintf(dir, len, "%s", mnt);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

int iostall_psi_open(struct iostall *st, char *why, size_t len)
{
	char cg[2048], mnt[2048], dir[4200], file[4352];
	struct psi_priv *p;
	cpu_set_t set;
	uint64_t some, full;
	int fd, err;

	err = own_cgroup(cg, sizeof(cg));
	if (err) {
		snprintf(why, len, "psi: not in a cgroup v2 hierarchy (/proc/self/cgroup: %s)",
			 err == -ENOENT ? "no 0:: line" : strerror(-err));
		return err;
	}
	err = cgroup2_mount(mnt, sizeof(mnt));
	if (err) {
		snprintf(why, len, "psi: no cgroup2 mount visible");
		return err;
	}
	snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(cg, "/") == 0 ? "" : cg);
	/*
	 * The root cgroup lacks cgroup.events (every other cgroup has it): its
	 * io.pressure is the machine's. A container's cgroup namespace shows its
	 * own cgroup as "/", but that one has cgroup.events and is ours.
	 */
	snprintf(file, sizeof(file), "%s/cgroup.events", dir);
	if (access(file, F_OK)) {
		snprintf(why, len, "psi: in the root cgroup, whose I/O pressure is the whole machine's");
		return -ENOENT;
	}
	snprintf(file, sizeof(file), "%s/io.pressure", dir);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "psi: %s: %s%s", file, strerror(-err),
			 err == -ENOENT ? " (kernel without PSI, or psi=0)" : "");
		return err;
	}
	err = read_pressure(fd, &some, &full);
	if (err) {
		/* A kernel with PSI compiled in but disabled (psi=0) fails the read. */
		snprintf(why, len, "psi: %s unreadable: %s", file, strerror(-err));
		close(fd);
		return err;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		close(fd);
		snprintf(why, len, "psi: out of memory");
		return -ENOMEM;
	}
	p->fd = fd;
	p->cpus = sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0 ?
		  (unsigned int)CPU_COUNT(&set) : 1;
	p->last = estimate_ns(p, some, full);
	snprintf(why, len, "psi: %s (the cgroup's I/O pressure: some + full x %u CPUs less one)",
		 file, p->cpus);
	st->priv = p;
	st->ops = &psi_ops;
	return 0;
}
