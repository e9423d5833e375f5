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
 * iostall: backend choice and the exported API. The backends live in
 * backend_bpf.c, backend_delayacct.c and backend_psi.c.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iostall_int.h"

_Static_assert(IOSTALL_MAX_THREADS == 16384, "keep IOSTALL_MAP_MAX in sync");

static int none_reg(struct iostall *st, pid_t tid)
{
	(void)st;
	return tid > 0 ? 0 : -EINVAL;
}

static int64_t none_thread_ns(struct iostall *st, pid_t tid)
{
	(void)st;
	return tid > 0 ? 0 : -EINVAL;
}

static uint64_t none_total_ns(struct iostall *st)
{
	(void)st;
	return 0;
}

static int none_zero(struct iostall *st)
{
	(void)st;
	return 0;
}

static void none_close(struct iostall *st)
{
	(void)st;
}

/* Reports zero: lets the caller run unchanged when no source is usable. */
static const struct iostall_ops none_ops = {
	.name = "none",
	.id = IOSTALL_NONE,
	.reg = none_reg,
	.unreg = none_reg,
	.thread_ns = none_thread_ns,
	.total_ns = none_total_ns,
	.tracked = none_zero,
	.map_entries = none_zero,
	.close = none_close,
};

int iostall_debug(void)
{
	const char *v = getenv("IOSTALL_DEBUG");

	return v && *v && strcmp(v, "0") != 0;
}

int iostall_tid_alive(pid_t tid)
{
	/*
	 * Looks the tid up in the caller's pid namespace, whichever /proc is
	 * mounted, and needs no permission. A thread's pid is unhashed only
	 * after its sched_process_exit hook ran.
	 */
	return sched_getscheduler(tid) >= 0 || errno != ESRCH;
}

int iostall_proc_is_ours(void)
{
	char buf[32];
	ssize_t n;

	/* /proc/self names us by the pid of the namespace /proc belongs to. */
	n = readlink("/proc/self", buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return atoi(buf) == getpid();
}

/* Append "; " + part to why, keeping it one line and NUL terminated. */
static void why_append(char *why, size_t len, const char *part)
{
	size_t n;

	if (!why || !len)
		return;
	n = strlen(why);
	snprintf(why + n, len - n, "%s%s", n ? "; " : "", part);
}

IOSTALL_EXPORT
struct iostall *iostall_open(enum iostall_backend want, char *why, size_t why_len)
{
	char bpf_why[160] = "", da_why[160] = "", psi_why[200] = "";
	struct iostall *st;
	int err;

	if (why && why_len)
		why[0] = '\0';
	st = calloc(1, sizeof(*st));
	if (!st) {
		why_append(why, why_len, "out of memory");
		return NULL;
	}

	switch (want) {
	case IOSTALL_BPF:
		err = iostall_bpf_open(st, bpf_why, sizeof(bpf_why));
		why_append(why, why_len, bpf_why);
		break;
	case IOSTALL_DELAYACCT:
		err = iostall_delayacct_open(st, da_why, sizeof(da_why));
		why_append(why, why_len, da_why);
		break;
	case IOSTALL_PSI:
		err = iostall_psi_open(st, psi_why, sizeof(psi_why));
		why_append(why, why_len, psi_why);
		break;
	case IOSTALL_NONE:
		st->ops = &none_ops;
		why_append(why, why_len, "none: requested");
		err = 0;
		break;
	case IOSTALL_AUTO:
		err = iostall_bpf_open(st, bpf_why, sizeof(bpf_why));
		if (!err) {
			why_append(why, why_len, bpf_why);
			break;
		}
		err = iostall_delayacct_open(st, da_why, sizeof(da_why));
		if (!err) {
			/* Say what is in use first, then why bpf was rejected. */
			why_append(why, why_len, da_why);
			why_append(why, why_len, bpf_why);
			break;
		}
		/* Per-thread sources first: the cgroup's pressure is an estimate. */
		err = iostall_psi_open(st, psi_why, sizeof(psi_why));
		if (!err) {
			why_append(why, why_len, psi_why);
			why_append(why, why_len, bpf_why);
			why_append(why, why_len, da_why);
			break;
		}
		st->ops = &none_ops;
		why_append(why, why_len, "none: no usable source");
		why_append(why, why_len, bpf_why);
		why_append(why, why_len, da_why);
		why_append(why, why_len, psi_why);
		err = 0;
		break;
	default:
		why_append(why, why_len, "unknown backend");
		err = -EINVAL;
	}

	if (err) {
		free(st);
		return NULL;
	}
	return st;
}

IOSTALL_EXPORT
void iostall_close(struct iostall *st)
{
	if (!st)
		return;
	st->ops->close(st);
	free(st);
}

IOSTALL_EXPORT
const char *iostall_backend_name(const struct iostall *st)
{
	return st ? st->ops->name : "none";
}

IOSTALL_EXPORT
enum iostall_backend iostall_backend(const struct iostall *st)
{
	return st ? st->ops->id : IOSTALL_NONE;
}

IOSTALL_EXPORT
int iostall_register(struct iostall *st, pid_t tid)
{
	if (!st)
		return -EINVAL;
	if (tid <= 0)
		return -EINVAL;
	return st->ops->reg(st, tid);
}

IOSTALL_EXPORT
int iostall_unregister(struct iostall *st, pid_t tid)
{
	if (!st)
		return -EINVAL;
	if (tid <= 0)
		return -EINVAL;
	return st->ops->unreg(st, tid);
}

IOSTALL_EXPORT
int64_t iostall_thread_ns(struct iostall *st, pid_t tid)
{
	if (!st)
		return -EINVAL;
	if (tid <= 0)
		return -EINVAL;
	return st->ops->thread_ns(st, tid);
}

IOSTALL_EXPORT
uint64_t iostall_total_ns(struct iostall *st)
{
	return st ? st->ops->total_ns(st) : 0;
}

IOSTALL_EXPORT
int iostall_tracked(struct iostall *st)
{
	return st ? st->ops->tracked(st) : 0;
}

IOSTALL_EXPORT
int iostall_map_entries(struct iostall *st)
{
	return st ? st->ops->map_entries(st) : 0;
}

IOSTALL_EXPORT
int iostall_api_version(void)
{
	return IOSTALL_API_VERSION;
}
