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
 * iostall_shim: an iostall library for FlexHeap's fault and stress tests, loaded
 * with -XX:FlexHeapIOStallLibrary=. IOSTALL_SHIM_MODE selects what it does:
 *
 *   wrap           forward every call to the real library (IOSTALL_SHIM_REAL) and,
 *                  at every iostall_total_ns() call (once per GC) and at exit, write counters to
 *                  IOSTALL_SHIM_STATS: registered, unregistered, failed, peak and
 *                  current tracked threads, the real library's map entries.
 *   open_fail      iostall_open() returns NULL, even for IOSTALL_AUTO (breaks the
 *                  API's promise: the JVM must not rely on it).
 *   register_fail  iostall_register() fails with -ENOSPC for every thread.
 *   bad_total      iostall_total_ns() jumps backwards and to huge values.
 *   wrong_version  iostall_api_version() returns 999.
 *
 * Built with -DSHIM_NO_TOTAL, iostall_total_ns is missing (an incomplete library).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iostall.h"

#define EXPORT __attribute__((visibility("default")))

enum mode { WRAP, OPEN_FAIL, REGISTER_FAIL, BAD_TOTAL, WRONG_VERSION };

struct iostall {
	struct iostall *real;
	int fake;
};

static enum mode mode = WRAP;
static void *real_lib;
static struct iostall *(*real_open)(enum iostall_backend, char *, size_t);
static const char *(*real_name)(const struct iostall *);
static enum iostall_backend (*real_backend)(const struct iostall *);
static int (*real_register)(struct iostall *, pid_t);
static int (*real_unregister)(struct iostall *, pid_t);
static uint64_t (*real_total)(struct iostall *);
static int (*real_tracked)(struct iostall *);
static int (*real_map_entries)(struct iostall *);

static atomic_long n_registered, n_unregistered, n_failed, n_tracked, n_peak, n_total_calls;
static struct iostall *the_handle;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

static void write_stats(void)
{
	const char *path = getenv("IOSTALL_SHIM_STATS");
	if (!path || mode != WRAP)
		return;
	pthread_mutex_lock(&stats_lock);
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (f) {
		int entries = -1, tracked = -1;
		if (the_handle && the_handle->real) {
			entries = real_map_entries(the_handle->real);
			tracked = real_tracked(the_handle->real);
		}
		fprintf(f, "registered=%ld unregistered=%ld failed=%ld tracked=%ld peak=%ld "
			"real_tracked=%d map_entries=%d total_calls=%ld\n",
			atomic_load(&n_registered), atomic_load(&n_unregistered), atomic_load(&n_failed),
			atomic_load(&n_tracked), atomic_load(&n_peak), tracked, entries,
			atomic_load(&n_total_calls));
		fclose(f);
		rename(tmp, path);
	}
	pthread_mutex_unlock(&stats_lock);
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *m = getenv("IOSTALL_SHIM_MODE");
	if (!m || !strcmp(m, "wrap"))
		mode = WRAP;
	else if (!strcmp(m, "open_fail"))
		mode = OPEN_FAIL;
	else if (!strcmp(m, "register_fail"))
		mode = REGISTER_FAIL;
	else if (!strcmp(m, "bad_total"))
		mode = BAD_TOTAL;
	else if (!strcmp(m, "wrong_version"))
		mode = WRONG_VERSION;
	if (mode == WRAP) {
		const char *path = getenv("IOSTALL_SHIM_REAL");
		real_lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
		if (real_lib) {
			real_open = dlsym(real_lib, "iostall_open");
			real_name = dlsym(real_lib, "iostall_backend_name");
			real_backend = dlsym(real_lib, "iostall_backend");
			real_register = dlsym(real_lib, "iostall_register");
			real_unregister = dlsym(real_lib, "iostall_unregister");
			real_total = dlsym(real_lib, "iostall_total_ns");
			real_tracked = dlsym(real_lib, "iostall_tracked");
			real_map_entries = dlsym(real_lib, "iostall_map_entries");
		}
	}
}

__attribute__((destructor)) static void shim_fini(void)
{
	write_stats();
}

EXPORT int iostall_api_version(void)
{
	return mode == WRONG_VERSION ? 999 : IOSTALL_API_VERSION;
}

EXPORT struct iostall *iostall_open(enum iostall_backend want, char *why, size_t why_len)
{
	if (mode == OPEN_FAIL) {
		if (why)
			snprintf(why, why_len, "shim: injected open failure");
		return NULL;
	}
	struct iostall *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	if (mode == WRAP) {
		if (!real_open) {
			if (why)
				snprintf(why, why_len, "shim: IOSTALL_SHIM_REAL not loadable");
			free(st);
			return NULL;
		}
		st->real = real_open(want, why, why_len);
		if (!st->real) {
			free(st);
			return NULL;
		}
	} else {
		st->fake = 1;
		if (why)
			snprintf(why, why_len, "shim: fake source (%s)", getenv("IOSTALL_SHIM_MODE"));
	}
	the_handle = st;
	return st;
}

EXPORT void iostall_close(struct iostall *st)
{
	free(st);
}

EXPORT const char *iostall_backend_name(const struct iostall *st)
{
	return st->real ? real_name(st->real) : "delayacct";
}

EXPORT enum iostall_backend iostall_backend(const struct iostall *st)
{
	return st->real ? real_backend(st->real) : IOSTALL_DELAYACCT;
}

EXPORT int iostall_register(struct iostall *st, pid_t tid)
{
	int rc = mode == REGISTER_FAIL ? -ENOSPC : st->real ? real_register(st->real, tid) : 0;
	if (rc != 0) {
		atomic_fetch_add(&n_failed, 1);
		return rc;
	}
	atomic_fetch_add(&n_registered, 1);
	long now = atomic_fetch_add(&n_tracked, 1) + 1;
	long peak = atomic_load(&n_peak);
	while (now > peak && !atomic_compare_exchange_weak(&n_peak, &peak, now))
		;
	return 0;
}

EXPORT int iostall_unregister(struct iostall *st, pid_t tid)
{
	int rc = st->real ? real_unregister(st->real, tid) : 0;
	if (rc == 0) {
		atomic_fetch_add(&n_unregistered, 1);
		atomic_fetch_sub(&n_tracked, 1);
	}
	return rc;
}

EXPORT int64_t iostall_thread_ns(struct iostall *st, pid_t tid)
{
	return 0;
}

#ifndef SHIM_NO_TOTAL
EXPORT uint64_t iostall_total_ns(struct iostall *st)
{
	long n = atomic_fetch_add(&n_total_calls, 1);
	if (mode == BAD_TOTAL) {
		/* backwards, then a jump of centuries, then back again */
		static const uint64_t seq[] = { 5000000000ull, 1000ull, UINT64_MAX - 7, 0ull, 123456789ull };
		return seq[n % 5];
	}
	uint64_t v = st->real ? real_total(st->real) : 0;
	if (mode == WRAP)
		write_stats();   /* once per GC pause */
	return v;
}
#endif

EXPORT int iostall_tracked(struct iostall *st)
{
	return (int)atomic_load(&n_tracked);
}

EXPORT int iostall_map_entries(struct iostall *st)
{
	return st->real ? real_map_entries(st->real) : 0;
}
