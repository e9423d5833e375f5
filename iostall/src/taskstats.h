/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Per-thread block-I/O delay from kernel delay accounting. */
#ifndef IOSTALL_TASKSTATS_H
#define IOSTALL_TASKSTATS_H

#include <stdint.h>
#include <sys/types.h>

struct taskstats_conn {
	int fd;		/* generic netlink socket, or -1 */
	uint16_t family;
	uint32_t seq;
};

/* Resolve the TASKSTATS family; 0 or -errno (-EPERM without CAP_NET_ADMIN). */
int taskstats_open(struct taskstats_conn *c);
void taskstats_close(struct taskstats_conn *c);

/* blkio_delay_total (ns) of one thread via netlink; 0 or -errno. */
int taskstats_blkio_ns(struct taskstats_conn *c, pid_t tid, uint64_t *ns);

/* Same from /proc/<tid>/stat field 42 (clock ticks); 0 or -errno. */
int procstat_blkio_ns(pid_t tid, uint64_t *ns);

#endif /* IOSTALL_TASKSTATS_H */
