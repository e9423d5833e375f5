// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test 5: bpf and delayacct, open at once on the same I/O-bound thread,
 * agree within ±25%. Turns kernel.task_delayacct on for the test and
 * restores the original value at exit.
 */
#include "io_worker.h"

#define NAME "5-backends-agree"

int main(void)
{
	char why[2][256], file[256];
	struct io_job j = { .secs = 2.0, .nst = 2 };
	struct throttle thr;
	pthread_t th;
	double ratio;
	int err;

	err = delayacct_set(1);
	if (err) {
		report(err == -ENOENT ? "SKIP" : "FAIL", NAME,
		       "cannot enable kernel.task_delayacct: %s", strerror(-err));
		return test_exit();
	}
	j.st[0] = iostall_open(IOSTALL_BPF, why[0], sizeof(why[0]));
	j.st[1] = iostall_open(IOSTALL_DELAYACCT, why[1], sizeof(why[1]));
	if (!j.st[0] || !j.st[1]) {
		report("FAIL", NAME, "open: %s | %s", why[0], why[1]);
		return test_exit();
	}
	err = make_uncached_file(file, sizeof(file), "agree", 64 << 20);
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
	ratio = (double)j.stall[1] / j.stall[0];
	report(within(j.stall[1], j.stall[0], 0.25) ? "PASS" : "FAIL", NAME,
	       "bpf=%.1f ms, delayacct=%.1f ms, ratio=%.3f (±25%%), measured blocked=%.1f ms, %ld reads, %s [%s]",
	       ms(j.stall[0]), ms(j.stall[1]), ratio, ms(j.blocked_ns), j.nreads,
	       thr.what, why[1]);
out_thr:
	throttle_cleanup(&thr);
out:
	unlink(file);
	iostall_close(j.st[0]);
	iostall_close(j.st[1]);
	return test_exit();
}
