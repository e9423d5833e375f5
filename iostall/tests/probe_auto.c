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
