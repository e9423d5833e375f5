// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An empty program on the probe's tracepoint. bench/overhead attaches it
 * beside the real probe: its kernel bpf_stats run time is the measurement's
 * own floor (the stats clock reads), which the benchmark subtracts.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("tp_btf/sched_switch")
int BPF_PROG(iostall_floor, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	return 0;
}
