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
 * Minimal taskstats client over generic netlink (TASKSTATS_CMD_GET for one
 * tid), plus the /proc stat fallback. No libnl: the messages are tiny.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include "taskstats.h"

#define MSG_BUF 8192

struct nl_req {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char attrs[64];
};

static void add_attr(struct nl_req *r, uint16_t type, const void *data,
		     uint16_t len)
{
	struct nlattr *na = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->n.nlmsg_len));

	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	memcpy((char *)na + NLA_HDRLEN, data, len);
	r->n.nlmsg_len = NLMSG_ALIGN(r->n.nlmsg_len) + NLA_ALIGN(na->nla_len);
}

/* Send one request and receive its reply into buf; returns length or -errno. */
static int transact(struct taskstats_conn *c, uint16_t type, uint8_t cmd,
		    uint16_t attr, const void *data, uint16_t dlen,
		    char *buf, size_t blen)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nl_req req = {};
	struct nlmsghdr *h;
	ssize_t n;

	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.n.nlmsg_type = type;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = ++c->seq;
	req.n.nlmsg_pid = 0;
	req.g.cmd = cmd;
	req.g.version = 1;
	add_attr(&req, attr, data, dlen);

	if (sendto(c->fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	for (;;) {
		n = recv(c->fd, buf, blen, 0);
		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		h = (struct nlmsghdr *)buf;
		if (!NLMSG_OK(h, (size_t)n))
			return -EBADMSG;
		if (h->nlmsg_seq != c->seq)
			continue;	/* stale reply of a timed-out request */
		if (h->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = NLMSG_DATA(h);

			return e->error ? e->error : -ENODATA;
		}
		return (int)n;
	}
}

/* Find attribute type among attrs in [p, p+len); NULL if absent. */
static struct nlattr *find_attr(char *p, int len, uint16_t type)
{
	struct nlattr *na;

	while (len >= NLA_HDRLEN) {
		na = (struct nlattr *)p;
		if (na->nla_len < NLA_HDRLEN || na->nla_len > len)
			return NULL;
		if ((na->nla_type & NLA_TYPE_MASK) == type)
			return na;
		len -= NLA_ALIGN(na->nla_len);
		p += NLA_ALIGN(na->nla_len);
	}
	return NULL;
}

static int genl_payload(char *buf, int n, char **p, int *len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;

	if (h->nlmsg_len > (unsigned int)n ||
	    h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -EBADMSG;
	*p = (char *)NLMSG_DATA(h) + GENL_HDRLEN;
	*len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	return 0;
}

int taskstats_open(struct taskstats_conn *c)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };
	char buf[MSG_BUF], *p;
	struct nlattr *na;
	int n, len, err;

	c->seq = 0;
	c->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->fd < 0)
		return -errno;
	/* Never hang the caller if the kernel does not answer. */
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(c->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		goto fail;
	}
	n = transact(c, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		     TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME), buf,
		     sizeof(buf));
	if (n < 0) {
		err = n;
		goto fail;
	}
	err = genl_payload(buf, n, &p, &len);
	if (err)
		goto fail;
	na = find_attr(p, len, CTRL_ATTR_FAMILY_ID);
	if (!na) {
		err = -ENOENT;
		goto fail;
	}
	memcpy(&c->family, (char *)na + NLA_HDRLEN, sizeof(c->family));
	return 0;
fail:
	close(c->fd);
	c->fd = -1;
	return err;
}

void taskstats_close(struct taskstats_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int taskstats_blkio_ns(struct taskstats_conn *c, pid_t tid, uint64_t *ns)
{
	struct taskstats ts;
	char buf[MSG_BUF], *p;
	struct nlattr *agg, *st;
	uint32_t pid = tid;
	int n, len, err;

	n = transact(c, c->family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID,
		     &pid, sizeof(pid), buf, sizeof(buf));
	if (n < 0)
		return n;
	err = genl_payload(buf, n, &p, &len);
	if (err)
		return err;
	agg = find_attr(p, len, TASKSTATS_TYPE_AGGR_PID);
	if (!agg)
		return -EBADMSG;
	st = find_attr((char *)agg + NLA_HDRLEN, agg->nla_len - NLA_HDRLEN,
		       TASKSTATS_TYPE_STATS);
	if (!st)
		return -EBADMSG;
	/* The struct only grows at its end; blkio_delay_total is old. */
	memset(&ts, 0, sizeof(ts));
	len = st->nla_len - NLA_HDRLEN;
	memcpy(&ts, (char *)st + NLA_HDRLEN,
	       len < (int)sizeof(ts) ? (size_t)len : sizeof(ts));
	*ns = ts.blkio_delay_total;
	return 0;
}

int procstat_blkio_ns(pid_t tid, uint64_t *ns)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks;
	static long hz;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = '\0';
	/* comm may hold spaces and parens: fields restart after the last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -EBADMSG;
	p++;
	/* p is before field 3; skip to field 42. */
	for (i = 3; i <= 42; i++) {
		while (*p == ' ')
			p++;
		if (i == 42)
			break;
		while (*p && *p != ' ')
			p++;
	}
	if (sscanf(p, "%llu", &ticks) != 1)
		return -EBADMSG;
	if (!hz)
		hz = sysconf(_SC_CLK_TCK);
	*ns = ticks * (1000000000ULL / (unsigned long long)hz);
	return 0;
}
