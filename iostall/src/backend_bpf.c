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
 * bpf backend: loads the embedded CO-RE program (iostall.bpf.c, via the
 * bpftool skeleton) and keeps the tracked-tid map in step with
 * register/unregister. Totals are read from the program's mmap'd .bss.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "iostall_int.h"
#include "iostall_shared.h"
#include "iostall.skel.h"

/* The initial pid namespace's inode number (PROC_PID_INIT_INO). */
#define PIDNS_INIT_INO 0xEFFFFFFCU

struct bpf_priv {
	struct iostall_bpf *skel;
	int map_fd;
	long registered;	/* successful registers minus unregisters */
	struct stat pidns;	/* our pid namespace (st_dev, st_ino) */
	int init_pidns;		/* 1: registered tids are host tids */
	int proc_ours;		/* /proc/<tid> names our tids */
};

static int quiet_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int debug_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	fprintf(stderr, "iostall: ");
	return vfprintf(stderr, fmt, ap);
}

static struct bpf_priv *priv(struct iostall *st)
{
	return st->priv;
}

/* The probe's tid filter lives in mmap'd .bss; the exit hook also updates it. */
static void slot_add(struct bpf_priv *p, pid_t tid, int d)
{
	__atomic_add_fetch(&p->skel->bss->maybe_tracked[tid & IOSTALL_FILTER_MASK],
			   (__u32)d, __ATOMIC_RELAXED);
}

static int bpf_reg(struct iostall *st, pid_t tid)
{
	struct bpf_priv *p = priv(st);
	struct iostall_entry e = {};
	__u32 key = tid;
	int err;

	/*
	 * Outside the initial pid namespace the probe matches tasks whose own
	 * pid namespace is ours; a tid of a nested namespace would never count.
	 */
	if (!p->init_pidns && p->proc_ours) {
		char path[64];
		struct stat sb;

		snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)tid);
		if (stat(path, &sb) == 0 &&
		    (sb.st_ino != p->pidns.st_ino || sb.st_dev != p->pidns.st_dev))
			return -EXDEV;
	}
	/* Filter slot first, so the probe sees the entry once it exists. */
	slot_add(p, tid, 1);
	if (bpf_map_update_elem(p->map_fd, &key, &e, BPF_NOEXIST)) {
		err = errno;
		slot_add(p, tid, -1);
		return err == E2BIG ? -ENOSPC : -err;
	}
	/*
	 * A tid that already exited would never be cleaned by the exit hook;
	 * its /proc entry goes away only after the hook ran, so check now.
	 */
	if (!iostall_tid_alive(tid)) {
		/* Unless the exit hook got there first (it fixes the slot). */
		if (bpf_map_delete_elem(p->map_fd, &key) == 0)
			slot_add(p, tid, -1);
		return -ESRCH;
	}
	__atomic_add_fetch(&p->registered, 1, __ATOMIC_RELAXED);
	return 0;
}

static int bpf_unreg(struct iostall *st, pid_t tid)
{
	struct bpf_priv *p = priv(st);
	__u32 key = tid;

	/*
	 * The entry's time is already in the global total (.bss), so it is
	 * simply dropped; deletion wins against the exit hook or not at all.
	 */
	if (bpf_map_delete_elem(p->map_fd, &key))
		return -errno;
	slot_add(p, tid, -1);
	__atomic_sub_fetch(&p->registered, 1, __ATOMIC_RELAXED);
	return 0;
}

static int64_t bpf_thread_ns(struct iostall *st, pid_t tid)
{
	struct iostall_entry e;
	__u32 key = tid;

	if (bpf_map_lookup_elem(priv(st)->map_fd, &key, &e))
		return -errno;
	return (int64_t)e.total_ns;
}

static uint64_t bpf_total_ns(struct iostall *st)
{
	return __atomic_load_n(&priv(st)->skel->bss->total_ns, __ATOMIC_RELAXED);
}

static int bpf_tracked(struct iostall *st)
{
	struct bpf_priv *p = priv(st);
	long n;

	n = __atomic_load_n(&p->registered, __ATOMIC_RELAXED) -
	    (long)__atomic_load_n(&p->skel->bss->exit_removed, __ATOMIC_RELAXED);
	return n < 0 ? 0 : (int)n;
}

static int bpf_map_entries(struct iostall *st)
{
	__u32 key, next;
	int n = 0, fd = priv(st)->map_fd;
	void *prev = NULL;

	/* Bounded: a concurrent delete can restart the walk. */
	while (n < 2 * IOSTALL_MAX_THREADS &&
	       bpf_map_get_next_key(fd, prev, &next) == 0) {
		key = next;
		prev = &key;
		n++;
	}
	return n;
}

static void bpf_close(struct iostall *st)
{
	struct bpf_priv *p = priv(st);

	iostall_bpf__destroy(p->skel);
	free(p);
}

static const struct iostall_ops bpf_ops = {
	.name = "bpf",
	.id = IOSTALL_BPF,
	.reg = bpf_reg,
	.unreg = bpf_unreg,
	.thread_ns = bpf_thread_ns,
	.total_ns = bpf_total_ns,
	.tracked = bpf_tracked,
	.map_entries = bpf_map_entries,
	.close = bpf_close,
};

static void explain(char *why, size_t len, const char *stage, int err)
{
	const char *what;

	switch (err) {
	case EPERM:
	case EACCES:
		what = "permission denied (needs CAP_BPF+CAP_PERFMON or root)";
		break;
	case ENOSYS:
		what = "bpf() syscall not available";
		break;
	case ENOENT:
	case ESRCH:
		what = "kernel lacks tp_btf/sched_switch or BTF";
		break;
	default:
		what = strerror(err);
	}
	snprintf(why, len, "bpf: %s failed: %s", stage, what);
}

int iostall_bpf_open(struct iostall *st, char *why, size_t len)
{
	struct iostall_bpf *skel;
	struct stat ns = {};
	struct bpf_priv *p;
	int err, init_ns;

	/* libbpf prints to stderr by default; the JVM's stderr is not ours. */
	libbpf_set_print(iostall_debug() ? debug_print : quiet_print);

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len, "bpf: no kernel BTF (/sys/kernel/btf/vmlinux)");
		return -ENOENT;
	}
	/*
	 * Registered tids are tids of our pid namespace. Without pid
	 * namespaces in the kernel there is only the initial one.
	 */
	if (stat("/proc/self/ns/pid", &ns) == 0) {
		init_ns = ns.st_ino == PIDNS_INIT_INO;
	} else if (errno == ENOENT) {
		init_ns = 1;
	} else {
		err = errno;
		snprintf(why, len, "bpf: cannot tell the pid namespace (/proc/self/ns/pid: %s)",
			 strerror(err));
		return -err;
	}
	skel = iostall_bpf__open();
	if (!skel) {
		err = errno;
		explain(why, len, "open", err);
		return -err;
	}
	skel->rodata->init_pidns = init_ns;
	skel->rodata->pidns_dev = ns.st_dev;
	skel->rodata->pidns_ino = ns.st_ino;
	err = iostall_bpf__load(skel);
	if (err) {
		explain(why, len, "load", -err);
		goto fail;
	}
	err = iostall_bpf__attach(skel);
	if (err) {
		explain(why, len, "attach", -err);
		goto fail;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		err = -ENOMEM;
		snprintf(why, len, "bpf: out of memory");
		goto fail;
	}
	p->skel = skel;
	p->map_fd = bpf_map__fd(skel->maps.tracked);
	p->pidns = ns;
	p->init_pidns = init_ns;
	p->proc_ours = iostall_proc_is_ours();
	st->priv = p;
	st->ops = &bpf_ops;
	if (init_ns)
		snprintf(why, len, "bpf: loaded tp_btf/sched_switch");
	else
		snprintf(why, len, "bpf: loaded tp_btf/sched_switch, pid namespace %lu",
			 (unsigned long)ns.st_ino);
	return 0;
fail:
	iostall_bpf__destroy(skel);
	return err < 0 ? err : -err;
}
