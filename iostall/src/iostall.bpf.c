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
 * iostall BPF side: FlexHeap paper, Algorithm 1, on tp_btf/sched_switch.
 *
 * A registered thread that switches out in uninterruptible sleep gets a start
 * stamp; when it is switched back in, the elapsed time is added to its own
 * total and to a global running total. The global total lives in .bss, which
 * user space reads through mmap, so reading it costs no syscall and it never
 * decreases: time of unregistered or exited threads stays in it.
 * A JVM inside a pid namespace registers namespace tids; see current_key().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iostall_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_NOLOAD		0x0400

/*
 * Registered tids only; user space inserts, we update and delete on exit.
 * Keys are tids as the registering process sees them: host tids in the
 * initial pid namespace, else tids of the library's own pid namespace.
 * Not preallocated: the maps are charged to the JVM's memory cgroup, i.e.
 * to its page cache, and only user space inserts (never under the rq lock).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, IOSTALL_MAP_MAX);
	__type(key, __u32);
	__type(value, struct iostall_entry);
} tracked SEC(".maps");

/*
 * Registered threads switched out in D state, by host tid (a task's pid
 * field): the switch-in side knows only that, never the namespace tid.
 * Preallocated, as sched_switch inserts under the rq lock; sized for the
 * threads blocked at once, not for all registered ones: when it is full a
 * stall goes uncounted rather than allocate.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, IOSTALL_INFLIGHT_MAX);
	__type(key, __u32);
	__type(value, struct iostall_inflight);
} inflight SEC(".maps");

/*
 * The library's pid namespace, set before load. In the initial namespace a
 * registered tid is the task's pid field; elsewhere it is the tid in that
 * namespace, which bpf_get_ns_current_pid_tgid() gives for current (= prev
 * at sched_switch, = the exiting task at sched_process_exit). A task whose
 * own pid namespace is another one is never matched.
 */
const volatile bool init_pidns = true;
const volatile __u64 pidns_dev = 0;
const volatile __u64 pidns_ino = 0;

/* Stall ns of all tracked threads ever; read by user space via mmap. */
__u64 total_ns = 0;
/* Entries the exit hook removed (threads that exited still registered). */
__u64 exit_removed = 0;
/*
 * Registered tids per slot (tid & IOSTALL_FILTER_MASK), kept by user space
 * and the exit hook: a plain array read lets a D-state switch of an
 * untracked thread skip the hash lookup.
 */
__u32 maybe_tracked[IOSTALL_FILTER_MASK + 1] = {};
/*
 * inflight entries per host-tid slot, kept by the probe: every switch-in
 * reads one array slot and, almost always, stops there. Small (4 KiB), so
 * the slots that switching tasks hit stay in cache; a collision only costs
 * a hash lookup.
 */
__u32 pending[IOSTALL_PENDING_MASK + 1] = {};

/* Kernels before 5.14 call the state field "state" (a long). */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

/* tp_btf pointers are BTF typed: direct loads, no probe_read helpers. */
static __always_inline __u32 task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return t->__state;
	return ((struct task_struct___pre514 *)t)->state;
}

/* The registered-tid key of current (t == current); 0 if not in our namespace. */
static __always_inline __u32 current_key(struct task_struct *t)
{
	struct bpf_pidns_info ns;

	if (init_pidns)
		return t->pid;
	if (bpf_get_ns_current_pid_tgid(pidns_dev, pidns_ino, &ns, sizeof(ns)))
		return 0;
	return ns.pid;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(iostall_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct iostall_inflight *f, nf = {};
	struct iostall_entry *e;
	__u64 ts = 0, dt;
	__u32 state, key, tid;

	/*
	 * A preempted task is runnable whatever its state field says (it may
	 * be preempted on its way to sleep); the tracepoint treats it the same.
	 * Killable waits carry extra bits, so test the bit; TASK_IDLE-style
	 * (NOLOAD) waits are not I/O. Everything else returns after reading
	 * two task fields and one array slot.
	 */
	state = preempt ? 0 : task_state(prev);
	if ((state & TASK_UNINTERRUPTIBLE) && !(state & TASK_NOLOAD)) {
		key = current_key(prev);
		if (key && maybe_tracked[key & IOSTALL_FILTER_MASK] &&
		    bpf_map_lookup_elem(&tracked, &key)) {
			ts = bpf_ktime_get_ns();
			tid = prev->pid;
			f = bpf_map_lookup_elem(&inflight, &tid);
			if (f) {	/* a switch-in we did not see */
				f->start_ns = ts;
				f->key = key;
			} else {
				nf.start_ns = ts;
				nf.key = key;
				if (!bpf_map_update_elem(&inflight, &tid, &nf, BPF_NOEXIST))
					__sync_fetch_and_add(&pending[tid & IOSTALL_PENDING_MASK], 1);
			}
		}
	}

	tid = next->pid;
	if (!pending[tid & IOSTALL_PENDING_MASK])
		return 0;
	f = bpf_map_lookup_elem(&inflight, &tid);
	if (!f)
		return 0;
	if (!ts)
		ts = bpf_ktime_get_ns();
	dt = ts - f->start_ns;
	key = f->key;
	if (bpf_map_delete_elem(&inflight, &tid))
		return 0;
	__sync_fetch_and_add(&pending[tid & IOSTALL_PENDING_MASK], -1);
	/* Unregistered meanwhile: its time is dropped, as the API says. */
	e = bpf_map_lookup_elem(&tracked, &key);
	if (e) {
		__sync_fetch_and_add(&e->total_ns, dt);
		__sync_fetch_and_add(&total_ns, dt);
	}
	return 0;
}

/* Drop entries of threads that exit while still registered: no leak. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(iostall_exit, struct task_struct *p)
{
	__u32 key, tid = p->pid;

	if (pending[tid & IOSTALL_PENDING_MASK] &&
	    bpf_map_delete_elem(&inflight, &tid) == 0)
		__sync_fetch_and_add(&pending[tid & IOSTALL_PENDING_MASK], -1);
	key = current_key(p);
	if (!key || !maybe_tracked[key & IOSTALL_FILTER_MASK])
		return 0;
	if (bpf_map_delete_elem(&tracked, &key) == 0) {
		__sync_fetch_and_add(&maybe_tracked[key & IOSTALL_FILTER_MASK], -1);
		__sync_fetch_and_add(&exit_removed, 1);
	}
	return 0;
}
