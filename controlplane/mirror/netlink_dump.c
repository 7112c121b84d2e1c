/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Dumps of one kernel table on a socket of their own.
 *
 * A route dump costs the kernel about as much as it costs us: the kernel
 * builds its messages inside our recvmsg (about 1.1 s for a million routes
 * here), and parsing them into the RIB and the FIB takes about as long again.
 * netlink_dump_ahead splits the two when ternd starts, before its workers
 * own their lcores: a reader on an idle lcore receives the dump into a ring
 * of buffers while the control thread parses what has arrived, in order.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_ring.h>

#include "controlplane/mirror/netlink.h"

#define DUMP_BUF (1u << 20)	/* the plain dump's buffer */
#define AHEAD_BUF (64u << 10)	/* a dump's messages come at most 32 KiB at a time */
#define AHEAD_BUFS 32		/* a power of two: the rings hold one fewer */

struct mnl_socket *netlink_dump_request(uint16_t type, uint8_t family, unsigned int *seq,
				       unsigned int *portid, int *rc)
{
	struct mnl_socket *s = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	char req[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct rtgenmsg *g;

	if (s == NULL || mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		*rc = -errno;
		if (s)
			mnl_socket_close(s);
		return NULL;
	}
	*seq = time(NULL);
	*portid = mnl_socket_get_portid(s);
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = *seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = family;
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0) {
		*rc = -errno;
		mnl_socket_close(s);
		return NULL;
	}
	*rc = 0;
	return s;
}

int netlink_dump(uint16_t type, uint8_t family, int (*cb)(const struct nlmsghdr *, void *),
		 void *data)
{
	unsigned int seq, portid;
	struct mnl_socket *s;
	char *buf;
	int rc, n;

	s = netlink_dump_request(type, family, &seq, &portid, &rc);
	if (s == NULL)
		return rc;
	buf = malloc(DUMP_BUF);
	if (buf == NULL) {
		mnl_socket_close(s);
		return -ENOMEM;
	}
	while ((n = mnl_socket_recvfrom(s, buf, DUMP_BUF)) > 0) {
		rc = mnl_cb_run(buf, n, seq, portid, cb, data);
		if (rc <= MNL_CB_STOP)
			break;
	}
	rc = n < 0 || rc < 0 ? -errno : 0;
	mnl_socket_close(s);
	free(buf);
	return rc;
}

struct ahead_buf {
	/* first, and aligned: netlink messages are read where they lie */
	char data[AHEAD_BUF] __attribute__((aligned(8)));
	int len;		/* bytes received; <= 0: the reader stopped (-errno, or 0 at EOF) */
	bool last;		/* the reader sends nothing after this one */
};

struct ahead {
	struct mnl_socket *s;
	struct rte_ring *full, *empty;
};

bool netlink_dump_ends(const char *data, int len)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
		if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR)
			return true;
	return false;
}

static int ahead_reader(void *arg)
{
	struct ahead *a = arg;
	struct ahead_buf *b;

	do {
		while (rte_ring_sc_dequeue(a->empty, (void **)&b) != 0)
			rte_pause();
		b->len = mnl_socket_recvfrom(a->s, b->data, sizeof(b->data));
		if (b->len < 0)
			b->len = -errno;
		b->last = b->len <= 0 || netlink_dump_ends(b->data, b->len);
		rte_ring_sp_enqueue(a->full, b);
	} while (!b->last);
	return 0;
}

int netlink_dump_ahead(uint16_t type, uint8_t family,
		       int (*cb)(const struct nlmsghdr *, void *), void *data, unsigned int lcore)
{
	struct ahead_buf *bufs = NULL, *b;
	struct ahead a = { 0 };
	unsigned int seq, portid, i;
	int rc = 0, cb_rc = MNL_CB_OK;
	bool done = false;

	if (lcore >= RTE_MAX_LCORE || !rte_lcore_is_enabled(lcore) ||
	    lcore == rte_get_main_lcore() || rte_eal_get_lcore_state(lcore) != WAIT)
		return netlink_dump(type, family, cb, data);
	a.full = rte_ring_create("tern_dump_full", AHEAD_BUFS, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	a.empty = rte_ring_create("tern_dump_empty", AHEAD_BUFS, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	bufs = malloc(sizeof(*bufs) * (AHEAD_BUFS - 1));
	if (a.full == NULL || a.empty == NULL || bufs == NULL) {
		rc = 1;		/* no room to read ahead: the plain dump */
		goto out;
	}
	for (i = 0; i < AHEAD_BUFS - 1; i++)
		rte_ring_sp_enqueue(a.empty, &bufs[i]);
	a.s = netlink_dump_request(type, family, &seq, &portid, &rc);
	if (a.s == NULL)
		goto out;
	if (rte_eal_remote_launch(ahead_reader, &a, lcore) != 0) {
		rc = 1;
		goto out;
	}
	/* Every buffer is taken back, whatever happens, until the reader's last. */
	while (!done) {
		while (rte_ring_sc_dequeue(a.full, (void **)&b) != 0)
			rte_pause();
		done = b->last;
		if (b->len <= 0) {
			if (rc == 0)
				rc = b->len < 0 ? b->len : -EPIPE;	/* closed before the end */
		} else if (cb_rc > MNL_CB_STOP) {
			cb_rc = mnl_cb_run(b->data, b->len, seq, portid, cb, data);
			if (cb_rc == MNL_CB_ERROR && rc == 0)
				rc = errno ? -errno : -EPROTO;
		}
		rte_ring_sp_enqueue(a.empty, b);
	}
	rte_eal_wait_lcore(lcore);
out:
	if (a.s)
		mnl_socket_close(a.s);
	rte_ring_free(a.full);
	rte_ring_free(a.empty);
	free(bufs);
	return rc == 1 ? netlink_dump(type, family, cb, data) : rc;
}
