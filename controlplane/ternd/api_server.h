/* SPDX-License-Identifier: BSD-3-Clause */
/* The API socket: many clients at once, none able to stall the control thread. */
#ifndef TERN_API_SERVER_H
#define TERN_API_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "controlplane/shell/command.h"

#define API_MAX_CLIENTS 64
#define API_ROOT_SLOTS 4		/* of API_MAX_CLIENTS, kept for root */
#define API_REQUESTS_PER_TURN 16	/* pipelined requests handled before others get a turn */

/* [api] idle_timeout, request_timeout, reply_timeout */
struct api_limits {
	unsigned int idle_timeout_s;	/* a session with no request for this long ends; 0: never */
	unsigned int request_timeout_s;	/* a message begun must be whole within this */
	unsigned int reply_timeout_s;	/* queued replies must move within this */
	size_t reply_queue_max;		/* one client's unread replies; past this it is closed */
	size_t reply_queue_total;	/* all clients' unread replies together */
};

/* Listens on path with the given permissions (0660: root and group tern only). */
int api_server_start(const char *path, unsigned int mode, const struct api_limits *limits,
		     char *err, size_t errlen);
void api_server_stop(void);
/* Deadlines and the jobs' ends: the control thread's tick calls it. */
void api_server_tick(void);
unsigned int api_server_clients(void);

/* One connected session, for show users. */
struct api_user {
	uid_t uid;
	char user[32];
	bool privileged;
	bool self;		/* the session that asks */
	enum cmd_mode mode;
	uint64_t connected_s;
	uint64_t idle_s;	/* since its last request */
	bool job;		/* a ping, traceroute or capture runs for it */
	uint64_t requests;
	size_t tx_queued;	/* reply bytes not yet taken by the client */
};

/* Fills up to max sessions, oldest first; returns how many there are. */
unsigned int api_server_users(struct api_user *u, unsigned int max, const struct cmd_session *self);
/* Reply bytes queued for all clients together. */
size_t api_server_tx_queued(void);

#endif
