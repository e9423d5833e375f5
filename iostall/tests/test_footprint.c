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
 * Test 9: the probe's kernel memory. BPF maps are charged to the memory
 * cgroup of the JVM that loads them, so every byte they take is a byte of
 * the budget's page cache. With a handful of registered threads the maps
 * must stay under 1.25 MiB (16384 preallocated entries in each hash took
 * ~3 MiB). The kernel's own figure is the "memlock" line of each map fd's
 * fdinfo, which reports what a map really holds since Linux 6.4.
 */
#include <dirent.h>
#include <sys/utsname.h>
#include "testlib.h"

#define NAME "9-probe-footprint"
#define LIMIT (1280ull << 10)

/* Sum of memlock over this process's BPF map fds; -errno on failure. */
static long long maps_memlock(int *nmaps)
{
	char path[300], line[256];
	struct dirent *d;
	long long sum = 0;
	DIR *dir;

	*nmaps = 0;
	dir = opendir("/proc/self/fdinfo");
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		long long memlock = -1;
		int is_map = 0;
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "map_type:", 9))
				is_map = 1;
			sscanf(line, "memlock: %lld", &memlock);
		}
		fclose(f);
		if (is_map && memlock > 0) {
			sum += memlock;
			(*nmaps)++;
		}
	}
	closedir(dir);
	return sum;
}

static int kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

int main(void)
{
	struct iostall *st;
	char why[256];
	long long bytes;
	int nmaps, err;

	if (!kernel_at_least(6, 4)) {
		report("SKIP", NAME, "kernel before 6.4 reports a map's maximum, not its use");
		return test_exit();
	}
	st = iostall_open(IOSTALL_BPF, why, sizeof(why));
	if (!st) {
		report("FAIL", NAME, "bpf backend: %s", why);
		return test_exit();
	}
	err = iostall_register(st, gettid());
	bytes = maps_memlock(&nmaps);
	if (err || bytes < 0 || nmaps == 0)
		report("FAIL", NAME, "register=%d, memlock=%lld over %d maps", err, bytes, nmaps);
	else
		report(bytes < (long long)LIMIT ? "PASS" : "FAIL", NAME,
		       "%d maps hold %.0f KiB (< %.0f KiB)", nmaps, bytes / 1024.0,
		       LIMIT / 1024.0);
	iostall_close(st);
	return test_exit();
}
