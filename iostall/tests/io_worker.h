/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A thread doing random 4 KiB O_DIRECT reads inside a throttled cgroup,
 * timing each read() itself: the ground truth the probes are held against.
 */
#ifndef IOSTALL_IO_WORKER_H
#define IOSTALL_IO_WORKER_H

#include <pthread.h>
#include "testlib.h"

#define IO_BLK 4096

struct io_job {
	const char *file;
	struct throttle *thr;
	double secs;
	struct iostall *st[2];
	int nst;
	/* If set: after the reads, set io_done and wait while *hold, still registered. */
	volatile int *hold;
	volatile int io_done;
	volatile pid_t tid;	/* the worker's tid, once it runs */
	volatile int *gate;	/* if set: registered, wait while *gate, then read */
	/* results */
	uint64_t blocked_ns;	/* sum of clock_gettime around each read() */
	uint64_t wall_ns;
	long nreads;
	int64_t stall[2];	/* iostall_thread_ns per instance */
	int err;
	const char *errwhat;
};

static void *io_worker(void *arg)
{
	struct io_job *j = arg;
	pid_t tid = gettid();
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ tid, t0, t1, start;
	off_t blocks;
	struct stat sb;
	void *buf;
	int fd, i;

	j->tid = tid;
	/* Set-up outside the measured window: cgroup moves may sleep in D. */
	if (posix_memalign(&buf, IO_BLK, IO_BLK)) {
		j->err = -ENOMEM;
		j->errwhat = "alloc";
		return NULL;
	}
	fd = open(j->file, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb)) {
		j->err = -errno;
		j->errwhat = "open O_DIRECT";
		free(buf);
		return NULL;
	}
	blocks = sb.st_size / IO_BLK;
	if (j->thr && (j->err = throttle_enter(j->thr, tid))) {
		j->errwhat = "cgroup enter";
		goto out;
	}
	for (i = 0; i < j->nst; i++) {
		j->err = iostall_register(j->st[i], tid);
		if (j->err) {
			j->errwhat = "register";
			goto out_leave;
		}
	}
	while (j->gate && __atomic_load_n(j->gate, __ATOMIC_ACQUIRE))
		usleep(1000);
	start = now_ns();
	do {
		off_t off = (off_t)(rnd(&seed) % blocks) * IO_BLK;

		t0 = now_ns();
		if (pread(fd, buf, IO_BLK, off) != IO_BLK) {
			j->err = -errno;
			j->errwhat = "pread";
			break;
		}
		t1 = now_ns();
		j->blocked_ns += t1 - t0;
		j->nreads++;
	} while (t1 - start < (uint64_t)(j->secs * 1e9));
	j->wall_ns = now_ns() - start;
	if (j->hold) {
		__atomic_store_n(&j->io_done, 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(j->hold, __ATOMIC_ACQUIRE))
			usleep(1000);
	}
	for (i = 0; i < j->nst; i++) {
		j->stall[i] = iostall_thread_ns(j->st[i], tid);
		iostall_unregister(j->st[i], tid);
	}
out_leave:
	if (j->thr)
		throttle_leave(j->thr, tid);
out:
	close(fd);
	free(buf);
	return NULL;
}

/*
 * The run the throttled tests share: a fresh uncached 64 MiB file, blkio
 * throttling to 100 IOPS, one io_worker thread on it. On failure it reports
 * under name, removes what it made and returns non-zero; on success the
 * caller reports its result and then calls throttled_job_cleanup().
 */
static inline void throttled_job_cleanup(struct throttle *thr, const char *file)
{
	throttle_cleanup(thr);
	unlink(file);
}

static inline int run_throttled_job(struct io_job *j, struct throttle *thr, char *file,
				    size_t flen, const char *tag, const char *name)
{
	pthread_t th;
	int err;

	err = make_uncached_file(file, flen, tag, 64 << 20);
	if (err) {
		report("FAIL", name, "cannot write test file: %s", strerror(-err));
		return err;
	}
	err = throttle_setup(thr, file, 100, 0);
	if (err) {
		report("FAIL", name, "cannot set up blkio throttling: %s", strerror(-err));
		unlink(file);
		return err;
	}
	j->file = file;
	j->thr = thr;
	pthread_create(&th, NULL, io_worker, j);
	pthread_join(th, NULL);
	if (j->err) {
		report("FAIL", name, "%s: %s", j->errwhat, strerror(-j->err));
		throttled_job_cleanup(thr, file);
		return j->err;
	}
	return 0;
}

#endif /* IOSTALL_IO_WORKER_H */
