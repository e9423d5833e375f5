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
 * Test 4: 10,000 short-lived threads register themselves, do a little work
 * and unregister (or exit still registered): the tracked count and backend
 * entries return to baseline, for bpf (exit hook) and delayacct (cleanup by
 * its refresh thread).
 */
#include <pthread.h>
#include "testlib.h"

#define NAME "4-thread-churn"
#define NTHREADS 10000
#define BATCH 16

struct churn {
	struct iostall *st;
	int unregister;
	int reg_fail, unreg_fail;
};

static void *churn_worker(void *arg)
{
	struct churn *c = arg;
	pid_t tid = gettid();
	volatile int x = 0;

	if (iostall_register(c->st, tid))
		__atomic_add_fetch(&c->reg_fail, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 1000; i++)
		x += i;
	if (c->unregister && iostall_unregister(c->st, tid))
		__atomic_add_fetch(&c->unreg_fail, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void churn(struct churn *c)
{
	pthread_attr_t attr;
	pthread_t t[BATCH];

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (int done = 0; done < NTHREADS; done += BATCH) {
		for (int i = 0; i < BATCH; i++)
			pthread_create(&t[i], &attr, churn_worker, c);
		for (int i = 0; i < BATCH; i++)
			pthread_join(t[i], NULL);
	}
	pthread_attr_destroy(&attr);
}

/*
 * Run one variant and wait for exit cleanup to land. The delayacct refresher
 * sleeps at least 50x its last round's CPU time, and a round over thousands
 * of exited threads can cost 100 ms of CPU on a busy machine: allow two such
 * sleeps (CI saw 1,418 entries still there after a fixed 2 s wait).
 */
#define CLEANUP_WAIT_NS 15000000000ull

static void variant(struct iostall *st, const char *label, int unregister)
{
	struct churn c = { .st = st, .unregister = unregister };
	int tr0, me0, tr, me;
	uint64_t tot0, tot;
	uint64_t t0, t1;

	tr0 = iostall_tracked(st);
	me0 = iostall_map_entries(st);
	tot0 = iostall_total_ns(st);
	t0 = now_ns();
	churn(&c);
	t1 = now_ns();
	wait_registry_back(st, tr0, me0, CLEANUP_WAIT_NS, &tr, &me);
	tot = iostall_total_ns(st);

	report(tr == tr0 && me == me0 && !c.reg_fail && !c.unreg_fail && tot >= tot0 ?
	       "PASS" : "FAIL", NAME,
	       "%s %s: %d threads in %.0f ms, cleanup in %.0f ms, tracked %d->%d, entries %d->%d, register failures %d, unregister failures %d, total monotonic %s",
	       label, unregister ? "register/unregister" : "exit without unregister",
	       NTHREADS, ms(t1 - t0), ms(now_ns() - t1), tr0, tr, me0, me, c.reg_fail,
	       c.unreg_fail, tot >= tot0 ? "yes" : "NO");
}

int main(void)
{
	struct iostall *st;
	char why[256];
	pid_t self = gettid();

	st = iostall_open(IOSTALL_BPF, why, sizeof(why));
	if (!st) {
		report("FAIL", NAME, "bpf backend: %s", why);
	} else {
		/* A long-lived registered thread must survive the churn. */
		iostall_register(st, self);
		variant(st, "bpf", 1);
		variant(st, "bpf", 0);
		if (iostall_thread_ns(st, self) < 0)
			report("FAIL", NAME, "bpf: long-lived thread lost its entry");
		iostall_close(st);
	}

	if (delayacct_set(1)) {
		report("SKIP", NAME, "delayacct: cannot enable kernel.task_delayacct");
		return test_exit();
	}
	st = iostall_open(IOSTALL_DELAYACCT, why, sizeof(why));
	if (!st) {
		report("FAIL", NAME, "delayacct backend: %s", why);
		return test_exit();
	}
	iostall_register(st, self);
	variant(st, "delayacct", 1);
	variant(st, "delayacct", 0);
	iostall_close(st);
	return test_exit();
}
