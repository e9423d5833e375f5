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
 * Test 6 helper: open with IOSTALL_AUTO (as the JVM does), use every call
 * once and print "backend=<name> total=<ns> why=<why>". run.sh runs it
 * without privilege and checks the fallback, the reason and the exit code.
 */
#include "testlib.h"

int main(void)
{
	struct iostall *st;
	char why[512];
	pid_t tid = gettid();
	int64_t ns;
	int err;

	st = iostall_open(IOSTALL_AUTO, why, sizeof(why));
	if (!st) {
		printf("backend=NULL why=%s\n", why);
		return 2;	/* AUTO must never return NULL */
	}
	err = iostall_register(st, tid);
	ns = iostall_thread_ns(st, tid);
	printf("backend=%s register=%d thread_ns=%lld total=%llu tracked=%d why=%s\n",
	       iostall_backend_name(st), err, (long long)ns,
	       (unsigned long long)iostall_total_ns(st), iostall_tracked(st), why);
	iostall_unregister(st, tid);
	iostall_close(st);
	return err ? 3 : 0;
}
