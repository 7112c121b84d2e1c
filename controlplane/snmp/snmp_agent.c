/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/agent/agent_callbacks.h>
#include <net-snmp/library/large_fd_set.h>

#include "controlplane/snmp/if_mib.h"
#include "controlplane/snmp/ip_mib.h"
#include "controlplane/snmp/snmp_agent.h"
#include "controlplane/ternd/event_loop.h"
#include "controlplane/ternd/log.h"

#define AGENT_NAME "ternd"
/* net-snmp's sockets: the AgentX session's, and its callback pipe */
#define FDS_MAX 8

static struct snmp_fd {
	struct ev_handler h;
	bool used;
} fds[FDS_MAX];
static bool running, connected;
static char master[108];

/* Puts net-snmp's sockets in the epoll set as they are now: a socket it closed is gone from
 * the set (the kernel drops it), and one it opened since is added. With recheck (the tick),
 * also one it closed and opened again under the same number, which the kernel forgot. */
static void fds_sync(bool recheck);

static void on_readable(struct ev_handler *h, uint32_t events)
{
	netsnmp_large_fd_set set;

	(void)events;
	netsnmp_large_fd_set_init(&set, h->fd + 1);
	NETSNMP_LARGE_FD_SET(h->fd, &set);
	snmp_read2(&set);
	netsnmp_large_fd_set_cleanup(&set);
	netsnmp_check_outstanding_agent_requests();
	fds_sync(false);
}

static struct snmp_fd *fd_find(int fd)
{
	unsigned int i;

	for (i = 0; i < FDS_MAX; i++)
		if (fds[i].used && fds[i].h.fd == fd)
			return &fds[i];
	return NULL;
}

static void fds_sync(bool recheck)
{
	netsnmp_large_fd_set set;
	struct timeval tv = { 0, 0 };
	int n = 0, block = 1, fd;
	unsigned int i;

	netsnmp_large_fd_set_init(&set, FD_SETSIZE);
	snmp_select_info2(&n, &set, &tv, &block);
	for (i = 0; i < FDS_MAX; i++) {
		fd = fds[i].h.fd;
		if (fds[i].used && !(fd < n && NETSNMP_LARGE_FD_ISSET(fd, &set))) {
			ev_del(&fds[i].h);
			fds[i].used = false;
		}
	}
	for (fd = 0; fd < n; fd++) {
		struct snmp_fd *s;

		if (!NETSNMP_LARGE_FD_ISSET(fd, &set))
			continue;
		s = fd_find(fd);
		if (s != NULL) {
			if (recheck && ev_mod(&s->h, EPOLLIN) == -ENOENT && ev_add(&s->h, EPOLLIN) < 0)
				s->used = false;
			continue;
		}
		for (i = 0; i < FDS_MAX && fds[i].used; i++)
			;
		if (i == FDS_MAX) {
			TERN_LOG_RATELIMITED(main, WARNING, "snmp: net-snmp has more than %d sockets open; the rest are not served", FDS_MAX);
			break;
		}
		fds[i].h = (struct ev_handler){ .fd = fd, .cb = on_readable };
		if (ev_add(&fds[i].h, EPOLLIN) == 0)
			fds[i].used = true;
	}
	netsnmp_large_fd_set_cleanup(&set);
}

/* net-snmp's log lines, in ternd's log: its errors and warnings as warnings (a few in ten
 * seconds), the rest for debugging. */
static int on_log(int major, int minor, void *server_arg, void *client_arg)
{
	const struct snmp_log_message *m = server_arg;
	size_t len = strlen(m->msg);

	(void)major, (void)minor, (void)client_arg;
	while (len > 0 && m->msg[len - 1] == '\n')
		len--;
	if (m->priority <= LOG_WARNING)
		TERN_LOG_RATELIMITED(main, WARNING, "snmp: net-snmp: %.*s", (int)len, m->msg);
	else
		TERN_LOG(main, DEBUG, "snmp: net-snmp: %.*s", (int)len, m->msg);
	return 0;
}

static int on_connect(int major, int minor, void *server_arg, void *client_arg)
{
	(void)major, (void)minor, (void)server_arg, (void)client_arg;
	if (!connected)
		TERN_LOG(main, NOTICE, "snmp: connected to the AgentX master at %s", master);
	connected = true;
	return 0;
}

static int on_disconnect(int major, int minor, void *server_arg, void *client_arg)
{
	(void)major, (void)minor, (void)server_arg, (void)client_arg;
	if (connected)
		TERN_LOG(main, WARNING, "snmp: lost the AgentX master at %s; connecting again every %d s",
			 master, SNMP_AGENT_PING_S);
	connected = false;
	return 0;
}

/* Every session net-snmp makes in ternd (the AgentX session, and the callback sessions inside
 * the library) waits at most SNMP_AGENT_WAIT_MS for an answer, once. */
static int on_session_init(int major, int minor, void *server_arg, void *client_arg)
{
	netsnmp_session *s = server_arg;

	(void)major, (void)minor, (void)client_arg;
	if (s != NULL) {
		s->timeout = SNMP_AGENT_WAIT_MS * 1000L;
		s->retries = 0;
	}
	return 0;
}

int snmp_agent_start(const char *socket, char *err, size_t errlen)
{
	int rc;

	if (running)
		return 0;
	snprintf(master, sizeof(master), "%s", socket);
	/* no configuration, state or MIB files of net-snmp's (ternd names its objects by number),
	 * no SIGALRM: ternd's loop runs the alarms */
	setenv("MIBS", "", 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_PERSIST_STATE, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_ALARM_DONT_USE_SIG, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_NO_CONNECTION_WARNINGS, 1);
	netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_X_SOCKET, master);
	snmp_disable_log();
	snmp_enable_calllog();
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING, on_log, NULL);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_SESSION_INIT, on_session_init,
			       NULL);
	snmp_register_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_START, on_connect,
			       NULL);
	snmp_register_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_STOP, on_disconnect,
			       NULL);
	if (init_agent(AGENT_NAME) != 0) {
		snprintf(err, errlen, "cannot start the SNMP subagent: net-snmp's agent library failed to initialise");
		return -EIO;
	}
	/* after init_agent, which sets net-snmp's own (15 s) */
	netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL,
			   SNMP_AGENT_PING_S);
	rc = if_mib_init();
	if (rc == 0)
		rc = ip_mib_init();
	if (rc < 0) {
		snprintf(err, errlen, "cannot register IF-MIB's and IP-MIB's tables with net-snmp: %s",
			 strerror(-rc));
		snmp_shutdown(AGENT_NAME);
		return rc;
	}
	init_snmp(AGENT_NAME);	/* connects, or sets the alarm that will */
	running = true;
	if (!connected)
		TERN_LOG(main, NOTICE, "snmp: no AgentX master at %s yet; connecting every %d s until there is",
			 master, SNMP_AGENT_PING_S);
	fds_sync(true);
	return 0;
}

void snmp_agent_tick(void)
{
	if (!running)
		return;
	snmp_timeout();
	run_alarms();
	netsnmp_check_outstanding_agent_requests();
	if_mib_tick(connected);
	fds_sync(true);
}

bool snmp_agent_connected(void)
{
	return connected;
}

/*
 * For ternd's exit only. net-snmp is left as it is: its subagent's shutdown (snmp_shutdown)
 * takes a callback off the very list it is called from, which costs a 100 ms wait on the
 * list's lock and a failed assertion in 5.9, and unregistering the tables waits on the
 * master. The exit closes the AgentX socket, and the master drops the subagent's
 * registrations when it sees it close.
 */
void snmp_agent_stop(void)
{
	unsigned int i;

	if (!running)
		return;
	for (i = 0; i < FDS_MAX; i++)
		if (fds[i].used) {
			ev_del(&fds[i].h);
			fds[i].used = false;
		}
	running = false;
}
