// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test 8: the read the JVM makes inside every GC pause, iostall_total_ns(),
 * makes no system call whatever the backend and however many threads are
 * registered (delayacct used to do one netlink round trip per thread), and
 * the delayacct total still follows the stall of a registered I/O thread
 * that has not been unregistered (its background refresh). Last, the
 * kernel's delay counter jumps by the whole uptime for a thread whose first
 * I/O wait began while kernel.task_delayacct was 0 and ended after it was
 * switched on: the library must not count that jump.
 *
 * "No system call" is checked with a seccomp filter on the reading thread
 * that traps every system call into a SIGSYS handler that counts it.
 */
#include <signal.h>
#include <ucontext.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "io_worker.h"

#define NAME "8-pause-read"
#define NIDLE 500

static volatile int trapped, last_nr;
static int idle_pipe[2];

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	trapped++;
	last_nr = si->si_syscall;
#ifdef __x86_64__
	/* The call was skipped: make it fail cleanly instead of returning junk. */
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RAX] = -ENOSYS;
#else
	(void)uc;
#endif
}

struct reader {
	struct iostall *st;
	uint64_t total;
	int done, err;
};

/* Traps every system call of this thread but exit(2) and the handler's return. */
static void *reader(void *arg)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigreturn, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 5, .filter = f };
	struct reader *r = arg;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		r->err = errno;
		__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	r->total = iostall_total_ns(r->st);
	r->total = iostall_total_ns(r->st);
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	/* The raw exit(2): the kernel still clears the tid for pthread_join. */
	syscall(SYS_exit, 0);
	return NULL;
}

static void *idle(void *arg)
{
	char c;

	__atomic_store_n((pid_t *)arg, gettid(), __ATOMIC_RELEASE);
	(void)!read(idle_pipe[0], &c, 1);
	return NULL;
}

static void check_no_syscall(const char *bname, enum iostall_backend b, pid_t *tids)
{
	struct reader r = {};
	char why[256];
	pthread_t th;
	int fails = 0, t0;

	r.st = iostall_open(b, why, sizeof(why));
	if (!r.st) {
		report("FAIL", NAME, "%s: %s", bname, why);
		return;
	}
	for (int i = 0; i < NIDLE; i++)
		fails += iostall_register(r.st, tids[i]) != 0;
	usleep(200000);
	t0 = trapped;
	pthread_create(&th, NULL, reader, &r);
	while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (r.err)
		report("SKIP", NAME, "%s: cannot install seccomp filter: %s", bname, strerror(r.err));
	else
		report(trapped == t0 && !fails ? "PASS" : "FAIL", NAME,
		       "%s with %d registered threads: iostall_total_ns() made %d system calls (last nr %d), register failures %d",
		       bname, NIDLE, trapped - t0, trapped > t0 ? last_nr : -1, fails);
	pthread_join(th, NULL);
	iostall_close(r.st);
}

/*
 * A registered I/O thread, made while delay accounting is on, begins its
 * first I/O wait while it is off and ends it after it is on again: the
 * wait's start stamp is 0, and the kernel adds the whole uptime.
 */
static void toggle_check(void)
{
	struct io_job j = { .secs = 1.0, .nst = 1 };
	struct throttle thr;
	char why[256], file[256], st[512], path[64];
	uint64_t tot0, tot, lim;
	int in_d = 0;
	volatile int gate = 1;
	pthread_t th;
	int err;

	j.st[0] = iostall_open(IOSTALL_DELAYACCT, why, sizeof(why));
	if (!j.st[0]) {
		report("FAIL", NAME, "delayacct: %s", why);
		return;
	}
	err = make_uncached_file(file, sizeof(file), "pausetoggle", 64 << 20);
	if (!err)
		err = throttle_setup(&thr, file, 100, 0);
	if (err) {
		report("FAIL", NAME, "set-up: %s", strerror(-err));
		unlink(file);
		iostall_close(j.st[0]);
		return;
	}
	j.file = file;
	j.thr = &thr;
	j.gate = &gate;
	tot0 = iostall_total_ns(j.st[0]);
	pthread_create(&th, NULL, io_worker, &j);
	while (!j.tid)
		usleep(1000);
	usleep(50000);		/* registered, waiting at the gate */
	delayacct_set(0);
	gate = 0;
	usleep(5000);		/* its first read is waiting */
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", j.tid);
	if (!read_str(path, st, sizeof(st)) && strstr(st, ") D "))
		in_d = 1;
	delayacct_set(1);
	pthread_join(th, NULL);
	usleep(300000);
	tot = iostall_total_ns(j.st[0]);
	lim = 2 * j.wall_ns + 100000000ull;
	report(!j.err && j.stall[0] >= 0 && (uint64_t)j.stall[0] <= lim && tot - tot0 <= lim ?
	       "PASS" : "FAIL", NAME,
	       "delayacct switched off as a registered I/O thread began its reads and on 5 ms later (worker %sin D then): stall %.1f ms, total %.1f ms, both <= %.0f ms (2x its %.1f ms of reads + 100 ms)",
	       in_d ? "" : "not ", ms(j.stall[0]), ms(tot - tot0), ms(lim), ms(j.wall_ns));
	throttled_job_cleanup(&thr, file);
	iostall_close(j.st[0]);
}

int main(void)
{
	struct io_job j = { .secs = 1.0, .nst = 1 };
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };
	static pid_t tids[NIDLE];
	pthread_attr_t attr;
	pthread_t th;
	volatile int hold = 1;
	struct throttle thr;
	char why[256], file[256];
	uint64_t tot0, tot;
	int err;

	sigaction(SIGSYS, &sa, NULL);
	if (pipe(idle_pipe))
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (int i = 0; i < NIDLE; i++) {
		pthread_create(&th, &attr, idle, &tids[i]);
		while (!__atomic_load_n(&tids[i], __ATOMIC_ACQUIRE))
			usleep(100);
	}
	err = delayacct_set(1);
	if (err) {
		report("SKIP", NAME, "cannot enable kernel.task_delayacct: %s", strerror(-err));
		return test_exit();
	}
	check_no_syscall("bpf", IOSTALL_BPF, tids);
	check_no_syscall("delayacct", IOSTALL_DELAYACCT, tids);

	/* The delayacct total follows a registered thread without a call on it. */
	j.st[0] = iostall_open(IOSTALL_DELAYACCT, why, sizeof(why));
	if (!j.st[0]) {
		report("FAIL", NAME, "delayacct: %s", why);
		return test_exit();
	}
	err = make_uncached_file(file, sizeof(file), "pauseread", 64 << 20);
	if (!err)
		err = throttle_setup(&thr, file, 100, 0);
	if (err) {
		report("FAIL", NAME, "set-up: %s", strerror(-err));
		unlink(file);
		return test_exit();
	}
	j.file = file;
	j.thr = &thr;
	j.hold = &hold;
	tot0 = iostall_total_ns(j.st[0]);
	pthread_create(&th, NULL, io_worker, &j);
	while (!j.io_done && !j.err)
		usleep(1000);
	usleep(500000);		/* a few refresh periods */
	tot = iostall_total_ns(j.st[0]);
	hold = 0;
	pthread_join(th, NULL);
	/*
	 * The total must already hold what the thread's own counter says
	 * (read afterwards, with no I/O in between), and that must be real
	 * I/O time: at least half the time measured around the reads.
	 */
	report(!j.err && within(tot - tot0, j.stall[0], 0.02) &&
	       j.stall[0] >= (int64_t)j.blocked_ns / 2 ? "PASS" : "FAIL", NAME,
	       "delayacct total of a registered I/O thread, 0.5 s after its reads, before any per-thread call: %.1f ms, its own counter afterwards %.1f ms (±2%%), measured blocked %.1f ms (>= half), %ld reads [%s]",
	       ms(tot - tot0), ms(j.stall[0]), ms(j.blocked_ns), j.nreads, why);
	throttled_job_cleanup(&thr, file);
	iostall_close(j.st[0]);
	toggle_check();
	return test_exit();
}
