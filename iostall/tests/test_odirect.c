// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test 1: a thread doing O_DIRECT reads in a blkio-throttled cgroup accrues
 * bpf stall within ±20% of the time it measured itself blocked in read().
 */
#include "io_worker.h"

#define NAME "1-odirect-throttled"

int main(void)
{
	char why[256], file[256];
	struct io_job j = { .secs = 2.0, .nst = 1 };
	struct throttle thr;
	pthread_t th;
	double ratio;
	int err;

	j.st[0] = iostall_open(IOSTALL_BPF, why, sizeof(why));
	if (!j.st[0]) {
		report(strstr(why, "BTF") || strstr(why, "lacks") ? "SKIP" : "FAIL",
		       NAME, "bpf backend: %s", why);
		return test_exit();
	}
	err = make_uncached_file(file, sizeof(file), "odirect", 64 << 20);
	if (err) {
		report("FAIL", NAME, "cannot write test file: %s", strerror(-err));
		return test_exit();
	}
	err = throttle_setup(&thr, file, 100, 0);
	if (err) {
		report("FAIL", NAME, "cannot set up blkio throttling: %s", strerror(-err));
		goto out;
	}
	j.file = file;
	j.thr = &thr;
	pthread_create(&th, NULL, io_worker, &j);
	pthread_join(th, NULL);
	if (j.err) {
		report("FAIL", NAME, "%s: %s", j.errwhat, strerror(-j.err));
		goto out_thr;
	}
	ratio = (double)j.stall[0] / j.blocked_ns;
	report(within(j.stall[0], j.blocked_ns, 0.20) ? "PASS" : "FAIL", NAME,
	       "stall=%.1f ms, measured blocked=%.1f ms, ratio=%.3f (±20%%), %ld reads in %.0f ms, %s",
	       ms(j.stall[0]), ms(j.blocked_ns), ratio, j.nreads, ms(j.wall_ns), thr.what);
out_thr:
	throttle_cleanup(&thr);
out:
	unlink(file);
	iostall_close(j.st[0]);
	return test_exit();
}
