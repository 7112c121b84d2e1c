/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel's route table read while ternd is still starting.
 *
 * A restart stops forwarding until the new ternd has its FIB, and with a million routes the
 * kernel's dump is most of that: the kernel builds the messages inside our receive calls,
 * about 0.75 s of them here. EAL's memory and the ports take another 0.2 s before the mirror
 * may apply a route (it needs the TAPs' interface indexes). So ternd subscribes to the
 * kernel's changes and asks for the route dump first thing, and a thread of its own
 * receives the dump into memory while EAL and the ports start; when the mirror starts, it
 * applies what has come, in order, and waits for the rest. The subscription came first, so
 * whatever changes after the dump's snapshot arrives as an event, as it would otherwise.
 *
 * Threads: the reader writes chunks and their lengths under the lock; the control thread
 * reads what the lock says is there. Nothing here outlives netlink_prefetch_apply().
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "controlplane/mirror/netlink.h"

#define CHUNK (1u << 20)	/* receives of at most RECV bytes, back to back */
#define RECV (64u << 10)	/* a dump's messages come at most 32 KiB at a time */

struct chunk {
	struct chunk *next;
	size_t len;		/* bytes received, whole messages */
	bool sealed;		/* no more bytes will come in this chunk */
	char data[CHUNK] __attribute__((aligned(8)));
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t more;
	pthread_t reader;
	bool started, done;	/* done: the reader stopped (the dump's end, or rc) */
	int rc;
	struct mnl_socket *dump, *events;
	unsigned int seq, portid;
	struct chunk *head, *tail;
} pf = { .lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER };

static void *reader(void *arg)
{
	struct chunk *c = NULL;
	bool end = false;
	int n, rc = 0;

	while (!end) {
		if (c == NULL || CHUNK - c->len < RECV) {
			struct chunk *fresh = malloc(sizeof(*fresh));

			if (fresh == NULL) {
				rc = -ENOMEM;
				break;
			}
			fresh->next = NULL;
			fresh->len = 0;
			fresh->sealed = false;
			pthread_mutex_lock(&pf.lock);
			if (c != NULL)
				c->sealed = true;
			if (pf.tail != NULL)
				pf.tail->next = fresh;
			else
				pf.head = fresh;
			pf.tail = fresh;
			pthread_mutex_unlock(&pf.lock);
			c = fresh;
		}
		n = mnl_socket_recvfrom(pf.dump, c->data + c->len, RECV);
		if (n <= 0) {
			rc = n < 0 ? -errno : -EPIPE;	/* closed before the end */
			break;
		}
		end = netlink_dump_ends(c->data + c->len, n);
		pthread_mutex_lock(&pf.lock);
		c->len += n;
		pthread_cond_signal(&pf.more);
		pthread_mutex_unlock(&pf.lock);
	}
	pthread_mutex_lock(&pf.lock);
	if (c != NULL)
		c->sealed = true;
	pf.rc = rc;
	pf.done = true;
	pthread_cond_signal(&pf.more);
	pthread_mutex_unlock(&pf.lock);
	return arg;
}

int netlink_prefetch_start(unsigned int rcvbuf)
{
	int rc;

	rc = netlink_events_open(rcvbuf, &pf.events);
	if (rc < 0)
		return rc;
	pf.dump = netlink_dump_request(RTM_GETROUTE, AF_INET, &pf.seq, &pf.portid, &rc);
	if (pf.dump == NULL)
		goto fail;
	rc = -pthread_create(&pf.reader, NULL, reader, NULL);
	if (rc < 0)
		goto fail;
	pthread_setname_np(pf.reader, "tern-dump");
	pf.started = true;
	return 0;
fail:
	if (pf.dump != NULL)
		mnl_socket_close(pf.dump);
	mnl_socket_close(pf.events);
	pf.dump = pf.events = NULL;
	return rc;
}

struct mnl_socket *netlink_prefetch_events(void)
{
	struct mnl_socket *s = pf.events;

	pf.events = NULL;
	return s;
}

bool netlink_prefetch_started(void)
{
	return pf.started;
}

/* The next bytes to apply: [*at, *end) of the head chunk, waiting for them (a head chunk
 * applied whole is freed, and *at starts again in the next); NULL when the dump has nothing
 * more (its end, or the reader's error). */
static struct chunk *next_bytes(size_t *at, size_t *end)
{
	struct chunk *c;

	pthread_mutex_lock(&pf.lock);
	for (;;) {
		c = pf.head;
		if (c != NULL && c->len > *at)
			break;
		if (c != NULL && c->sealed && c->next != NULL) {
			pf.head = c->next;
			free(c);
			*at = 0;
			continue;
		}
		if (pf.done) {
			c = NULL;
			break;
		}
		pthread_cond_wait(&pf.more, &pf.lock);
	}
	if (c != NULL)
		*end = c->len;
	pthread_mutex_unlock(&pf.lock);
	return c;
}

int netlink_prefetch_apply(int (*cb)(const struct nlmsghdr *, void *), void *data)
{
	int rc = 0, cb_rc = MNL_CB_OK;
	struct chunk *c, *next;
	size_t at = 0, end;

	if (!pf.started)
		return -ENOENT;
	while (cb_rc > MNL_CB_STOP && (c = next_bytes(&at, &end)) != NULL) {
		cb_rc = mnl_cb_run(c->data + at, end - at, pf.seq, pf.portid, cb, data);
		if (cb_rc == MNL_CB_ERROR)
			rc = errno ? -errno : -EPROTO;
		at = end;
	}
	pthread_join(pf.reader, NULL);
	if (rc == 0)
		rc = pf.rc;
	for (c = pf.head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	pf.head = pf.tail = NULL;
	mnl_socket_close(pf.dump);
	pf.dump = NULL;
	pf.started = false;
	return rc;
}
