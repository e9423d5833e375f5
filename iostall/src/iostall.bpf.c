// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * iostall BPF side: FlexHeap paper, Algorithm 1, on tp_btf/sched_switch.
 *
 * A registered thread that switches out in uninterruptible sleep gets a start
 * stamp; when it is switched back in, the elapsed time is added to its own
 * total and to a global running total. The global total lives in .bss, which
 * user space reads through mmap, so reading it costs no syscall and it never
 * decreases: time of unregistered or exited threads stays in it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iostall_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_NOLOAD		0x0400

/* Registered tids only; user space inserts, we update and delete on exit. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, IOSTALL_MAP_MAX);
	__type(key, __u32);
	__type(value, struct iostall_entry);
} tracked SEC(".maps");

/* Stall ns of all tracked threads ever; read by user space via mmap. */
__u64 total_ns = 0;
/* Entries the exit hook removed (threads that exited still registered). */
__u64 exit_removed = 0;
/*
 * Registered tids per slot (tid & IOSTALL_FILTER_MASK), kept by user space
 * and the exit hook: a plain array read lets the common case, a switch of
 * untracked threads, skip both hash lookups.
 */
__u32 maybe_tracked[IOSTALL_FILTER_MASK + 1] = {};
/*
 * Start stamps outstanding per slot, kept by the probe: a tracked thread that
 * slept in S state (futex, pipe, nanosleep) is switched in with no lookup.
 * A stamp dropped by unregister leaves its slot >0: that slot only loses the
 * shortcut.
 */
__u32 pending[IOSTALL_FILTER_MASK + 1] = {};

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

SEC("tp_btf/sched_switch")
int BPF_PROG(iostall_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct iostall_entry *e;
	__u64 ts = 0;
	__u32 state, tid;

	/*
	 * A preempted task is runnable whatever its state field says (it may
	 * be preempted on its way to sleep); the tracepoint treats it the same.
	 * Killable waits carry extra bits, so test the bit; TASK_IDLE-style
	 * (NOLOAD) waits are not I/O.
	 */
	state = preempt ? 0 : task_state(prev);
	tid = prev->pid;
	if ((state & TASK_UNINTERRUPTIBLE) && !(state & TASK_NOLOAD) &&
	    maybe_tracked[tid & IOSTALL_FILTER_MASK]) {
		e = bpf_map_lookup_elem(&tracked, &tid);
		if (e) {
			ts = bpf_ktime_get_ns();
			if (!e->start_ns)
				__sync_fetch_and_add(&pending[tid & IOSTALL_FILTER_MASK], 1);
			e->start_ns = ts;
		}
	}

	tid = next->pid;
	if (!pending[tid & IOSTALL_FILTER_MASK])
		return 0;
	e = bpf_map_lookup_elem(&tracked, &tid);
	if (e && e->start_ns) {
		__u64 dt;

		if (!ts)
			ts = bpf_ktime_get_ns();
		dt = ts - e->start_ns;
		e->start_ns = 0;
		__sync_fetch_and_add(&pending[tid & IOSTALL_FILTER_MASK], -1);
		e->total_ns += dt;
		__sync_fetch_and_add(&total_ns, dt);
	}
	return 0;
}

/* Drop entries of threads that exit while still registered: no leak. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(iostall_exit, struct task_struct *p)
{
	__u32 tid = p->pid;

	if (!maybe_tracked[tid & IOSTALL_FILTER_MASK])
		return 0;
	if (bpf_map_delete_elem(&tracked, &tid) == 0) {
		__sync_fetch_and_add(&maybe_tracked[tid & IOSTALL_FILTER_MASK], -1);
		__sync_fetch_and_add(&exit_removed, 1);
	}
	return 0;
}
