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

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers shared by the iostall tests: clocks, a blkio-throttled cgroup for
 * one thread (cgroup v1 blkio, else v2 io.max), an uncached test file,
 * the delay-accounting sysctl, and the one-line PASS/FAIL/SKIP report.
 * Header-only so every test is one self-contained program.
 */
#ifndef IOSTALL_TESTLIB_H
#define IOSTALL_TESTLIB_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "iostall.h"

#define EXIT_SKIP 77

static int t_failed, t_skipped, t_passed;

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline double ms(uint64_t ns)
{
	return ns / 1e6;
}

/* One line per check: "PASS name: details". */
static inline void report(const char *verdict, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s: ", verdict, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!strcmp(verdict, "PASS"))
		t_passed++;
	else if (!strcmp(verdict, "FAIL"))
		t_failed++;
	else
		t_skipped++;
}

/* Threads that exit registered are dropped asynchronously: wait up to
 * timeout_ns until the library tracks tr0 threads in me0 map entries again.
 * *tr and *me get the last values read; returns whether they are back. */
static inline int wait_registry_back(struct iostall *st, int tr0, int me0, uint64_t timeout_ns,
				     int *tr, int *me)
{
	uint64_t deadline = now_ns() + timeout_ns;

	for (;;) {
		*tr = iostall_tracked(st);
		*me = iostall_map_entries(st);
		if ((*tr == tr0 && *me == me0) || now_ns() >= deadline)
			return *tr == tr0 && *me == me0;
		usleep(10000);
	}
}

static inline int test_exit(void)
{
	if (t_failed)
		return 1;
	return t_passed ? 0 : EXIT_SKIP;
}

static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static inline int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* ---- kernel.task_delayacct, restored at exit ---- */

static int da_orig = -1;

static inline void delayacct_restore(void)
{
	if (da_orig >= 0)
		write_str("/proc/sys/kernel/task_delayacct", da_orig ? "1" : "0");
}

/* Set the sysctl; remembers the first original value. 0 or -errno. */
static inline int delayacct_set(int on)
{
	char buf[8];
	int err;

	err = read_str("/proc/sys/kernel/task_delayacct", buf, sizeof(buf));
	if (err)
		return err;
	if (da_orig < 0) {
		da_orig = buf[0] == '1';
		atexit(delayacct_restore);
	}
	return write_str("/proc/sys/kernel/task_delayacct", on ? "1" : "0");
}

/* ---- a throttled cgroup for one thread ---- */

struct throttle {
	char dir[256];
	char root_tasks[256];	/* where the tid goes back to */
	int v2;
	char what[160];		/* human-readable description */
};

/* Whole-disk major:minor of the device holding path (throttling needs it). */
static inline int disk_of(const char *path, unsigned int *maj, unsigned int *min)
{
	char sys[128], buf[64];
	struct stat st;

	if (stat(path, &st))
		return -errno;
	*maj = major(st.st_dev);
	*min = minor(st.st_dev);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/partition", *maj, *min);
	if (access(sys, F_OK) == 0) {
		/* A partition: its parent directory is the disk. */
		snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/../dev", *maj, *min);
		if (read_str(sys, buf, sizeof(buf)) ||
		    sscanf(buf, "%u:%u", maj, min) != 2)
			return -ENODEV;
	}
	return 0;
}

/* Child cgroup limiting reads on the file's disk to iops (and bps if set). */
static inline int throttle_setup(struct throttle *t, const char *file, unsigned int iops,
			  unsigned long long bps)
{
	const char *v1 = "/sys/fs/cgroup/blkio";
	const char *v2 = "/sys/fs/cgroup/unified";
	unsigned int maj, min;
	char path[320], val[128];
	int err;

	memset(t, 0, sizeof(*t));
	err = disk_of(file, &maj, &min);
	if (err)
		return err;
	if (access("/sys/fs/cgroup/blkio/blkio.throttle.read_iops_device", F_OK) == 0) {
		snprintf(t->dir, sizeof(t->dir), "%s/iostall-test-%d", v1, getpid());
		snprintf(t->root_tasks, sizeof(t->root_tasks), "%s/tasks", v1);
		if (mkdir(t->dir, 0755) && errno != EEXIST)
			return -errno;
		snprintf(path, sizeof(path), "%s/blkio.throttle.read_iops_device", t->dir);
		snprintf(val, sizeof(val), "%u:%u %u", maj, min, iops);
		err = write_str(path, val);
		if (!err && bps) {
			snprintf(path, sizeof(path), "%s/blkio.throttle.read_bps_device", t->dir);
			snprintf(val, sizeof(val), "%u:%u %llu", maj, min, bps);
			err = write_str(path, val);
		}
		snprintf(t->what, sizeof(t->what), "v1 blkio %u:%u riops=%u%s", maj,
			 min, iops, bps ? " +rbps" : "");
	} else {
		/* v2: io controller must be enabled in the parent; threads need
		 * a threaded cgroup, so this path moves whole processes only. */
		t->v2 = 1;
		snprintf(t->dir, sizeof(t->dir), "%s/iostall-test-%d", v2, getpid());
		snprintf(t->root_tasks, sizeof(t->root_tasks), "%s/cgroup.procs", v2);
		write_str("/sys/fs/cgroup/unified/cgroup.subtree_control", "+io");
		if (mkdir(t->dir, 0755) && errno != EEXIST)
			return -errno;
		snprintf(path, sizeof(path), "%s/io.max", t->dir);
		snprintf(val, sizeof(val), "%u:%u riops=%u", maj, min, iops);
		err = write_str(path, val);
		snprintf(t->what, sizeof(t->what), "v2 io.max %u:%u riops=%u", maj, min, iops);
	}
	if (err)
		rmdir(t->dir);
	return err;
}

/* Move a thread in (v1 'tasks' takes a tid) or back out. */
static inline int throttle_enter(struct throttle *t, pid_t tid)
{
	char path[300], val[32];

	snprintf(path, sizeof(path), "%s/%s", t->dir, t->v2 ? "cgroup.procs" : "tasks");
	snprintf(val, sizeof(val), "%d", t->v2 ? getpid() : tid);
	return write_str(path, val);
}

static inline int throttle_leave(struct throttle *t, pid_t tid)
{
	char val[32];

	snprintf(val, sizeof(val), "%d", t->v2 ? getpid() : tid);
	return write_str(t->root_tasks, val);
}

static inline void throttle_cleanup(struct throttle *t)
{
	if (t->dir[0])
		rmdir(t->dir);
}

/* ---- test files on a real disk (not tmpfs) ---- */

static inline const char *test_dir(void)
{
	const char *d = getenv("IOSTALL_TEST_DIR");

	return d && *d ? d : "/var/tmp";
}

/* Write size bytes of non-zero data, fsync, drop it from the page cache. */
static inline int make_uncached_file(char *path, size_t plen, const char *tag, size_t size)
{
	size_t chunk = 1 << 20, done;
	char *buf;
	int fd;

	snprintf(path, plen, "%s/iostall-%s.%d", test_dir(), tag, getpid());
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	buf = malloc(chunk);
	for (size_t i = 0; i < chunk; i++)
		buf[i] = (char)(i * 131 + 7) | 1;
	for (done = 0; done < size; done += chunk) {
		if (write(fd, buf, chunk) != (ssize_t)chunk) {
			free(buf);
			close(fd);
			return -EIO;
		}
	}
	free(buf);
	fsync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return 0;
}

/* Cheap xorshift so tests need no seeding. */
static inline uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Within ±tol of want (tol as a fraction). */
static inline int within(double got, double want, double tol)
{
	return want > 0 && got >= want * (1 - tol) && got <= want * (1 + tol);
}

#endif /* IOSTALL_TESTLIB_H */
