/* SPDX-License-Identifier: BSD-3-Clause */
/* No memif control channel's descriptor closes while EAL's interrupt thread still watches it. */
#ifndef TERN_MEMIF_CHANNEL_GUARD_H
#define TERN_MEMIF_CHANNEL_GUARD_H

#include "dataplane/workarounds/dpdk_version.h"

#include <stdbool.h>
#include <stdint.h>

#include <sys/socket.h>
#include <sys/types.h>

#include <rte_interrupts.h>

#include "dataplane/workarounds/memif_channel_check.h"

/* The memif PMD's calls into EAL's interrupt sources: ternd-static's PMD calls them by
 * name (Makefile, MEMIF_GUARDED); ternd's reaches them through interpose_intr.c. Each does
 * what EAL's function of the same name does, and notes which descriptors stay watched. */
int memif_pmd_intr_callback_register(const struct rte_intr_handle *h, rte_intr_callback_fn cb,
				     void *arg);
int memif_pmd_intr_callback_unregister(const struct rte_intr_handle *h, rte_intr_callback_fn cb,
				       void *arg);
int memif_pmd_intr_callback_unregister_pending(const struct rte_intr_handle *h,
					       rte_intr_callback_fn cb, void *arg,
					       rte_intr_unregister_callback_fn ucb);

/* For close(fd), from interpose_close.c: true when the guard took the close over (fd was
 * still watched for the memif PMD; it is closed once EAL has let go of it), with *rc the
 * close's result; false when fd is none of the guard's and is to be closed as usual. */
bool memif_channel_guard_close(int fd, int *rc);

/* For recvmsg(), from interpose_recvmsg.c, once it received n bytes on fd: a message on a
 * watched connection is checked (memif_channel_check.c); a refused one reaches the PMD as a
 * type it disconnects on. File descriptors that came with a message that takes none, past
 * the first, or with a refused message, are closed and taken out of mh. */
void memif_channel_guard_received(int fd, struct msghdr *mh, ssize_t n);

/* Closes the files (regions', rings' eventfds) the PMD took from peers whose connections
 * have ended and never closed: the number closed. Run on the thread that stops ports
 * (ternd's control thread), never inside the PMD's disconnect. */
unsigned int memif_channel_guard_sweep(void);

/* Called on the receiving thread for each refused message, to say so (ternd logs it). */
typedef void (*memif_msg_refusal_report_fn)(enum memif_msg_refusal why);
void memif_channel_guard_on_refusal(memif_msg_refusal_report_fn fn);

enum memif_channel_event {
	MEMIF_CHANNEL_OPENED,	/* a peer's connection accepted and watched */
	MEMIF_CHANNEL_CLOSED,	/* a watched connection closed, whatever the reason */
	MEMIF_CHANNEL_ABANDONED, /* closed by the PMD while still watched: the guard unwatched it */
	MEMIF_CHANNEL_REFUSED,	/* a message refused: a region or ring the PMD cannot hold */
	MEMIF_CHANNEL_FILES_RECLAIMED, /* peers' files the PMD left open, closed by the sweep */
	MEMIF_CHANNEL_EVENTS,
};

/* How many times each event happened since start. */
uint64_t memif_channel_count(enum memif_channel_event ev);

/* Descriptors watched for the memif PMD now (listening sockets and connections). */
unsigned int memif_channel_watched(void);

#endif
