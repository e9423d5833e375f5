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
