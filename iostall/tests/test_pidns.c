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
 * Test 7: the bpf backend inside a PID namespace (a JVM in a container
 * registers namespace-local tids).
 *
 * On the host, a decoy thread with host tid H does throttled O_DIRECT reads
 * the whole time. The test then re-runs itself under
 * `unshare --pid --fork --mount-proc`, where it
 *   - makes a "twin" thread whose namespace tid is also H (ns_last_pid), which
 *     registers itself and only sleeps: its stall must stay below 2% of the
 *     run although host tid H is blocked most of the time;
 *   - runs an I/O worker (namespace tid K, a number some host task also has)
 *     doing throttled reads: its stall must match the time it measured in
 *     pread() within ±20% (bpf; delayacct, also open, within 0.5-2x), and
 *     the twin is registered with delayacct too;
 *   - lets 100 registered threads exit without unregistering: the exit hook
 *     must find their entries by namespace tid (nothing left in the map);
 *   - checks that IOSTALL_AUTO still picks bpf there, and that a tid of a
 *     nested pid namespace (which the probe would never match) is refused
 *     with -EXDEV.
 * The host reports the decoy's own blocked time as the positive control.
 */
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include "io_worker.h"

#define NAME "7-pid-namespace"
#define SECS 1.5

/* ---- host side: the decoy ---- */

struct decoy {
	const char *file;
	struct throttle *thr;
	pid_t tid;
	volatile int stop;
	uint64_t blocked_ns, wall_ns;
	long nreads;
	int err;
};

static void *decoy_worker(void *arg)
{
	struct decoy *d = arg;
	uint64_t seed = 0x51ed2701ull, t0, t1, start;
	struct stat sb;
	void *buf;
	int fd;

	if (posix_memalign(&buf, IO_BLK, IO_BLK))
		goto fail;
	fd = open(d->file, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) || throttle_enter(d->thr, gettid()))
		goto fail;
	start = now_ns();
	__atomic_store_n(&d->tid, gettid(), __ATOMIC_RELEASE);
	while (!d->stop) {
		off_t off = (off_t)(rnd(&seed) % (sb.st_size / IO_BLK)) * IO_BLK;

		t0 = now_ns();
		if (pread(fd, buf, IO_BLK, off) != IO_BLK)
			break;
		t1 = now_ns();
		d->blocked_ns += t1 - t0;
		d->nreads++;
	}
	d->wall_ns = now_ns() - start;
	throttle_leave(d->thr, gettid());
	close(fd);
	free(buf);
	return NULL;
fail:
	d->err = errno ? errno : EIO;
	__atomic_store_n(&d->tid, -1, __ATOMIC_RELEASE);
	return NULL;
}

static int host(const char *self)
{
	struct decoy d = {};
	struct throttle thr;
	char file[256], hs[32];
	pthread_t th;
	pid_t pid;
	int status, err;

	if (access("/proc/self/ns/pid", F_OK)) {
		report("SKIP", NAME, "no pid namespaces in this kernel");
		return test_exit();
	}
	err = make_uncached_file(file, sizeof(file), "pidns-decoy", 64 << 20);
	if (!err)
		err = throttle_setup(&thr, file, 100, 0);
	if (err) {
		report("FAIL", NAME, "decoy set-up: %s", strerror(-err));
		unlink(file);
		return test_exit();
	}
	d.file = file;
	d.thr = &thr;
	pthread_create(&th, NULL, decoy_worker, &d);
	while (!__atomic_load_n(&d.tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (d.tid < 0) {
		report("FAIL", NAME, "decoy: %s", strerror(d.err));
		goto out;
	}

	snprintf(hs, sizeof(hs), "%d", d.tid);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execlp("unshare", "unshare", "--pid", "--fork", "--mount-proc", self,
		       "--inner", hs, (char *)NULL);
		printf("FAIL %s: cannot run unshare: %s\n", NAME, strerror(errno));
		_exit(1);
	}
	waitpid(pid, &status, 0);
	d.stop = 1;
	pthread_join(th, NULL);
	if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != EXIT_SKIP))
		report("FAIL", NAME, "namespace side exited with status 0x%x", status);
	/* Positive control: host tid H really was in D state most of the time. */
	report(d.blocked_ns > d.wall_ns / 2 ? "PASS" : "FAIL", NAME,
	       "host decoy tid %d blocked %.1f ms of %.1f ms (%ld reads, %s): the twin must not get this",
	       d.tid, ms(d.blocked_ns), ms(d.wall_ns), d.nreads, thr.what);
	/* The namespace side's verdicts count in run.sh; its status as well. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
		t_failed++;
out:
	throttle_cleanup(&thr);
	unlink(file);
	return test_exit();
}

/* ---- namespace side ---- */

struct twin {
	struct iostall *st, *st2;	/* bpf, delayacct (may be NULL) */
	pid_t tid;
	int reg, reg2;
	int64_t stall, stall2;
	uint64_t wall_ns;
};

static void *twin_worker(void *arg)
{
	struct twin *t = arg;
	struct timespec ms1 = { 0, 1000000 };
	uint64_t start;

	t->tid = gettid();
	t->reg = iostall_register(t->st, t->tid);
	if (t->st2)
		t->reg2 = iostall_register(t->st2, t->tid);
	start = now_ns();
	while (now_ns() - start < (uint64_t)(SECS * 1e9))
		nanosleep(&ms1, NULL);
	t->wall_ns = now_ns() - start;
	t->stall = iostall_thread_ns(t->st, t->tid);
	iostall_unregister(t->st, t->tid);
	if (t->st2) {
		t->stall2 = iostall_thread_ns(t->st2, t->tid);
		iostall_unregister(t->st2, t->tid);
	}
	return NULL;
}

/* A process in a pid namespace nested in ours; its pid as we see it, or -errno. */
static pid_t nested_child(void)
{
	int fds[2];
	pid_t pid, gc = 0;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWPID) == 0) {
			gc = fork();
			if (gc == 0) {
				pause();
				_exit(0);
			}
		}
		(void)!write(fds[1], &gc, sizeof(gc));
		pause();
		_exit(0);
	}
	if (pid < 0 || read(fds[0], &gc, sizeof(gc)) != sizeof(gc) || gc <= 0)
		gc = -ENOSYS;
	close(fds[0]);
	close(fds[1]);
	return gc;
}

static void *register_and_exit(void *arg)
{
	if (iostall_register(arg, gettid()))
		return (void *)1;
	return NULL;
}

/* Registered threads that exit still registered leave nothing behind. */
static void exit_cleanup(struct iostall *st)
{
	int tr0 = iostall_tracked(st), me0 = iostall_map_entries(st), fails = 0;
	pthread_t t;
	void *ret;
	int tr, me;

	for (int i = 0; i < 100; i++) {
		pthread_create(&t, NULL, register_and_exit, st);
		pthread_join(t, &ret);
		fails += ret != NULL;
	}
	wait_registry_back(st, tr0, me0, 1000000000ull, &tr, &me);
	report(tr == tr0 && me == me0 && !fails ? "PASS" : "FAIL", NAME,
	       "100 threads exit still registered: tracked %d->%d, map entries %d->%d, register failures %d",
	       tr0, tr, me0, me, fails);
}

static int inner(pid_t host_tid)
{
	struct io_job j = { .secs = SECS, .nst = 2 };
	struct twin tw = {};
	struct iostall *st;
	struct throttle thr;
	char why[256], dwhy[256] = "", file[256], last[32];
	pthread_t th[2];
	double lim = SECS * 1e9 * 0.02;
	pid_t nested;
	int err;

	if (getpid() != 1) {
		report("FAIL", NAME, "not pid 1 of a new pid namespace (pid %d)", getpid());
		return test_exit();
	}
	st = iostall_open(IOSTALL_AUTO, why, sizeof(why));
	report(iostall_backend(st) == IOSTALL_BPF ? "PASS" : "FAIL", NAME,
	       "auto in a pid namespace picks %s: %s", iostall_backend_name(st), why);
	if (iostall_backend(st) != IOSTALL_BPF) {
		iostall_close(st);
		return test_exit();
	}
	nested = nested_child();
	if (nested < 0) {
		report("FAIL", NAME, "cannot make a nested pid namespace: %s", strerror(-nested));
	} else {
		err = iostall_register(st, nested);
		report(err == -EXDEV ? "PASS" : "FAIL", NAME,
		       "register of pid %d of a nested pid namespace: %d (want -EXDEV = %d)",
		       nested, err, -EXDEV);
		if (!err)
			iostall_unregister(st, nested);
	}
	/* pid 1 exiting takes every process of this namespace with it. */
	exit_cleanup(st);
	/* delayacct resolves tids in the caller's namespace too (taskstats). */
	err = delayacct_set(1);
	j.st[1] = err ? NULL : iostall_open(IOSTALL_DELAYACCT, dwhy, sizeof(dwhy));
	if (!j.st[1]) {
		report("FAIL", NAME, "delayacct in a pid namespace: %s",
		       err ? strerror(-err) : dwhy);
		j.nst = 1;
	}
	err = make_uncached_file(file, sizeof(file), "pidns", 64 << 20);
	if (!err)
		err = throttle_setup(&thr, file, 100, 0);
	if (err) {
		report("FAIL", NAME, "set-up: %s", strerror(-err));
		unlink(file);
		iostall_close(st);
		return test_exit();
	}
	/* The next thread created in this namespace gets tid host_tid. */
	snprintf(last, sizeof(last), "%d", host_tid - 1);
	err = write_str("/proc/sys/kernel/ns_last_pid", last);
	tw.st = st;
	tw.st2 = j.nst == 2 ? j.st[1] : NULL;
	pthread_create(&th[0], NULL, twin_worker, &tw);
	j.st[0] = st;
	j.file = file;
	j.thr = &thr;
	pthread_create(&th[1], NULL, io_worker, &j);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);

	if (tw.tid != host_tid)
		report("FAIL", NAME, "twin got namespace tid %d, not %d (ns_last_pid: %s)",
		       tw.tid, host_tid, err ? strerror(-err) : "ok");
	else
		report(!tw.reg && tw.stall >= 0 && tw.stall < lim ? "PASS" : "FAIL", NAME,
		       "sleeping twin with namespace tid %d = the decoy's host tid: stall %.3f ms (< %.0f ms = 2%% of %.1f s), register %d",
		       tw.tid, ms(tw.stall), ms(lim), SECS, tw.reg);
	if (tw.tid == host_tid && tw.st2)
		report(!tw.reg2 && tw.stall2 >= 0 && tw.stall2 < lim ? "PASS" : "FAIL", NAME,
		       "delayacct, same twin: stall %.3f ms (< %.0f ms), register %d",
		       ms(tw.stall2), ms(lim), tw.reg2);
	report(!j.err && within(j.stall[0], j.blocked_ns, 0.20) ? "PASS" : "FAIL", NAME,
	       "I/O thread with namespace tid %d: stall %.1f ms vs measured blocked %.1f ms (±20%%), %ld reads%s%s",
	       tw.tid + 1, ms(j.stall[0]), ms(j.blocked_ns), j.nreads,
	       j.err ? ", error in " : "", j.err ? j.errwhat : "");
	/*
	 * Only wrong threads are at stake here (a wrong one reads ~0): under
	 * heavy load delayacct has read up to 1.3x the blocked time here.
	 */
	if (j.nst == 2)
		report(!j.err && j.stall[1] >= (int64_t)j.blocked_ns / 2 &&
		       j.stall[1] <= 2 * (int64_t)j.blocked_ns ?
		       "PASS" : "FAIL", NAME,
		       "delayacct, same I/O thread: stall %.1f ms vs measured blocked %.1f ms (0.5-2x) [%s]",
		       ms(j.stall[1]), ms(j.blocked_ns), dwhy);
	throttle_cleanup(&thr);
	unlink(file);
	iostall_close(st);
	iostall_close(j.st[1]);
	return test_exit();
}

int main(int argc, char **argv)
{
	char self[512];
	ssize_t n;

	if (argc == 3 && !strcmp(argv[1], "--inner"))
		return inner(atoi(argv[2]));
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		report("FAIL", NAME, "cannot find own executable");
		return test_exit();
	}
	self[n] = '\0';
	return host(self);
}
