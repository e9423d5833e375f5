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
 * Test 8: the psi backend, in a cgroup v2 of its own with the process
 * pinned to one CPU, follows one I/O-bound thread's measured blocking time
 * within ±25% (on one CPU the estimate is the cgroup's "some" time, which is
 * that thread's D-state time); and it opens with a reason or not at all.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/stat.h>
#include "io_worker.h"

#define NAME "8-psi-follows-stall"

/* The cgroup v2 mount point, from mountinfo. */
static int cg2_mount(char *dir, size_t len)
{
	char line[4096], mnt[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (sep && !strncmp(sep + 3, "cgroup2 ", 8) &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1) {
			snprintf(dir, len, "%s", mnt);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

/* Our cgroup v2 path relative to the mount ("/a/b"). */
static int cg2_own(char *path, size_t len)
{
	char buf[4096], *p;

	if (read_str("/proc/self/cgroup", buf, sizeof(buf)))
		return -ENOENT;
	for (p = strtok(buf, "\n"); p; p = strtok(NULL, "\n")) {
		if (!strncmp(p, "0::", 3)) {
			snprintf(path, len, "%s", p + 3);
			return 0;
		}
	}
	return -ENOENT;
}

int main(void)
{
	char mnt[2048], orig[2048], dir[2200], procs[2300], pid[32], why[256], file[256];
	struct io_job j = { .secs = 2.0, .nst = 1 };
	struct throttle thr;
	struct iostall *psi;
	uint64_t t0, t1;
	cpu_set_t one;
	double ratio;

	if (cg2_mount(mnt, sizeof(mnt)) || cg2_own(orig, sizeof(orig))) {
		report("SKIP", NAME, "no cgroup v2 hierarchy here");
		return test_exit();
	}
	snprintf(dir, sizeof(dir), "%s/iostall-test-psi-%d", mnt, (int)getpid());
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (mkdir(dir, 0755) || write_str(procs, pid)) {
		report("SKIP", NAME, "cannot make and enter a cgroup v2 under %s: %s", mnt, strerror(errno));
		rmdir(dir);
		return test_exit();
	}
	/* One CPU for every thread made from here on, the library's count too. */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
	sched_setaffinity(0, sizeof(one), &one);

	psi = iostall_open(IOSTALL_PSI, why, sizeof(why));
	if (!psi) {
		/* A kernel without PSI, or booted with psi=0: the reason must say so. */
		report(strstr(why, "psi: ") ? "SKIP" : "FAIL", NAME, "open: %s", why);
		goto out;
	}
	if (strcmp(iostall_backend_name(psi), "psi") || !strstr(why, "io.pressure") || !strstr(why, "1 CPUs")) {
		report("FAIL", NAME, "backend %s, reason '%s'", iostall_backend_name(psi), why);
		goto close;
	}
	j.st[0] = psi;
	t0 = iostall_total_ns(psi);
	if (run_throttled_job(&j, &thr, file, sizeof(file), "psi", NAME))
		goto close;
	usleep(100000);
	t1 = iostall_total_ns(psi);
	ratio = (double)(t1 - t0) / (double)j.blocked_ns;
	report(within(t1 - t0, j.blocked_ns, 0.25) && iostall_thread_ns(psi, gettid()) == -EOPNOTSUPP ?
	       "PASS" : "FAIL", NAME,
	       "psi total grew %.1f ms, the thread blocked %.1f ms in %ld reads, ratio=%.3f (±25%%), "
	       "per-thread: unsupported as documented [%s]",
	       ms(t1 - t0), ms(j.blocked_ns), j.nreads, ratio, why);
	throttled_job_cleanup(&thr, file);
close:
	iostall_close(psi);
out:
	{
		char back[2300];

		snprintf(back, sizeof(back), "%s%s/cgroup.procs", mnt, strcmp(orig, "/") ? orig : "");
		write_str(back, pid);
		rmdir(dir);
	}
	return test_exit();
}
