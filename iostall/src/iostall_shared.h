/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Types shared by the BPF program and the library. */
#ifndef IOSTALL_SHARED_H
#define IOSTALL_SHARED_H

/* Must equal IOSTALL_MAX_THREADS in include/iostall.h (checked in C). */
#define IOSTALL_MAP_MAX 16384

/* Slots of the maybe_tracked filter, minus one (a power of two). */
#define IOSTALL_FILTER_MASK 0xffff

struct iostall_entry {
	__u64 total_ns;	/* D-state ns accrued since registration */
};

/* A registered thread switched out in D state, keyed by its host tid. */
struct iostall_inflight {
	__u64 start_ns;	/* switch-out stamp */
	__u32 key;	/* its key in the tracked map (registered tid) */
	__u32 pad;
};

#endif /* IOSTALL_SHARED_H */
