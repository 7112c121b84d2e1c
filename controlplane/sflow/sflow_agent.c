/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd's sFlow agent (sflow_agent.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "controlplane/sflow/sflow_agent.h"
#include "controlplane/sflow/sflow_flow.h"
#include "controlplane/snmp/if_counters.h"
#include "controlplane/snmp/if_mib.h"
#include "controlplane/ternd/log.h"
#include "dataplane/dp.h"
#include "dataplane/l2/sflow_sample.h"
#include "dataplane/node.h"

/* samples drained a tick at most: the workers' rings refill as the tick sends */
#define DRAIN_MAX (8 * DP_SFLOW_RING)
#define DRAIN_CHUNK 64

enum { IFTYPE_ETHERNET = 6, IFTYPE_L2VLAN = 135, IFTYPE_LAG = 161 };

struct slot_state {
	uint32_t own;			/* the interface's own rate; 0: none */
	uint32_t flow_seq, counter_seq;
	struct if_counters c;
};

static struct {
	uint32_t global;
	unsigned int polling_s;		/* 0: SFLOW_POLLING_S */
	struct slot_state *slots;	/* dp.max_ports of them, made with the first setting */
	struct sflow_collector coll[SFLOW_COLLECTORS_MAX];
	unsigned int nb_coll;
	struct sflow_addr agent;	/* family 0: none configured */
	struct sflow_addr source;	/* what datagrams carry when none is: the kernel's choice */
	bool source_known;
	int fd[2];			/* IPv4's and IPv6's sockets, + 1 (0: none yet) */
	uint32_t seq;
	uint64_t start_ms, next_counters_ms;
	struct sflow_stats st;
	struct sflow_datagram d;
	bool open;
	uint8_t buf[SFLOW_DATAGRAM_MAX];
} sf;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct slot_state *slots(void)
{
	if (sf.slots == NULL)
		sf.slots = calloc(dp.max_ports, sizeof(*sf.slots));
	return sf.slots;
}

int sflow_addr_parse(const char *text, struct sflow_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, text, a->bytes) == 1)
		a->family = 4;
	else if (inet_pton(AF_INET6, text, a->bytes) == 1)
		a->family = 6;
	else
		return -EINVAL;
	return 0;
}

void sflow_addr_text(const struct sflow_addr *a, char *buf, size_t len)
{
	if (a->family == 0 || inet_ntop(a->family == 6 ? AF_INET6 : AF_INET, a->bytes, buf,
					 (socklen_t)len) == NULL)
		snprintf(buf, len, "none");
}

static bool addr_eq(const struct sflow_addr *a, const struct sflow_addr *b)
{
	return a->family == b->family && memcmp(a->bytes, b->bytes, a->family == 6 ? 16 : 4) == 0;
}

uint32_t sflow_effective_rate(unsigned int slot)
{
	const struct dp_port *p = &dp.ports[slot];
	uint32_t own = sf.slots != NULL ? sf.slots[slot].own : 0;

	if (!dp_port_in_use(slot) || p->kind == DP_PORT_MEMBER)
		return 0;	/* a member's frames are its bond's */
	if (own != 0)
		return own;
	return p->kind == DP_PORT_ETH ? sf.global : 0;
}

static void rates_apply(void)
{
	unsigned int i;

	DP_FOREACH_IFACE(i)
		dp_sflow_rate_set(i, sflow_effective_rate(i));
}

void sflow_set_global_rate(uint32_t rate)
{
	if (sf.global == rate)
		return;
	sf.global = rate;
	rates_apply();
	TERN_LOG(main, NOTICE, "sFlow: sampling 1 in %u frames on every port and bond", rate);
}

uint32_t sflow_global_rate(void)
{
	return sf.global;
}

void sflow_set_polling(unsigned int seconds)
{
	sf.polling_s = seconds;
	sf.next_counters_ms = 0;	/* the next tick sends them, and counts from there */
}

unsigned int sflow_polling(void)
{
	return sf.polling_s ? sf.polling_s : SFLOW_POLLING_S;
}

void sflow_set_iface_rate(unsigned int slot, uint32_t rate)
{
	struct slot_state *s = slots();

	if (s == NULL || s[slot].own == rate)
		return;
	s[slot].own = rate;
	dp_sflow_rate_set(slot, sflow_effective_rate(slot));
	TERN_LOG(main, NOTICE, "%s: sFlow sampling 1 in %u frames", dp.ports[slot].name,
		 sflow_effective_rate(slot));
}

uint32_t sflow_iface_rate(unsigned int slot)
{
	return sf.slots != NULL ? sf.slots[slot].own : 0;
}

void sflow_iface_removed(unsigned int slot)
{
	if (sf.slots != NULL)
		memset(&sf.slots[slot], 0, sizeof(sf.slots[slot]));
}

int sflow_collector_add(const struct sflow_addr *a, uint16_t port)
{
	unsigned int i;

	for (i = 0; i < sf.nb_coll; i++)
		if (addr_eq(&sf.coll[i].addr, a) && sf.coll[i].port == port)
			return -EEXIST;
	if (sf.nb_coll == SFLOW_COLLECTORS_MAX)
		return -ENOSPC;
	sf.coll[sf.nb_coll++] = (struct sflow_collector){ .addr = *a, .port = port };
	sf.source_known = false;
	return 0;
}

int sflow_collector_del(const struct sflow_addr *a, uint16_t port)
{
	unsigned int i;

	for (i = 0; i < sf.nb_coll; i++)
		if (addr_eq(&sf.coll[i].addr, a) && sf.coll[i].port == port)
			break;
	if (i == sf.nb_coll)
		return -ENOENT;
	memmove(&sf.coll[i], &sf.coll[i + 1], (sf.nb_coll - i - 1) * sizeof(sf.coll[0]));
	sf.nb_coll--;
	sf.source_known = false;
	return 0;
}

unsigned int sflow_collectors(const struct sflow_collector **out)
{
	*out = sf.coll;
	return sf.nb_coll;
}

static void sockets_close(void)
{
	unsigned int f;

	for (f = 0; f < 2; f++)
		if (sf.fd[f] > 0)
			close(sf.fd[f] - 1);
	memset(sf.fd, 0, sizeof(sf.fd));
}

void sflow_set_agent_address(const struct sflow_addr *a)
{
	memset(&sf.agent, 0, sizeof(sf.agent));
	if (a != NULL)
		sf.agent = *a;
	sockets_close();	/* bound to the old address */
	sf.source_known = false;
}

bool sflow_agent_address(struct sflow_addr *out)
{
	*out = sf.agent;
	return sf.agent.family != 0;
}

void sflow_stats_get(struct sflow_stats *st)
{
	*st = sf.st;
}

static socklen_t sockaddr_of(const struct sflow_addr *a, uint16_t port,
			     struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == 6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		memcpy(&s6->sin6_addr, a->bytes, 16);
		return sizeof(*s6);
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_port = htons(port);
	memcpy(&s4->sin_addr, a->bytes, 4);
	return sizeof(*s4);
}

/* The socket of family (4 or 6), bound to the agent address when it is of that family. */
static int socket_of(uint8_t family)
{
	unsigned int f = family == 6;
	struct sockaddr_storage ss;
	int fd;

	if (sf.fd[f] > 0)
		return sf.fd[f] - 1;
	fd = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		TERN_LOG_RATELIMITED(main, ERR, "sFlow: cannot open a UDP socket: %s", strerror(errno));
		return -1;
	}
	if (sf.agent.family == family &&
	    bind(fd, (struct sockaddr *)&ss, sockaddr_of(&sf.agent, 0, &ss)) < 0) {
		int err = errno;
		char a[INET6_ADDRSTRLEN];

		sflow_addr_text(&sf.agent, a, sizeof(a));
		TERN_LOG_RATELIMITED(main, WARNING,
				     "sFlow: cannot send from agent address %s (%s); datagrams leave from the address the kernel picks",
				     a, strerror(err));
	}
	sf.fd[f] = fd + 1;
	return fd;
}

/* The address the kernel sends from to the first collector: the agent's when none is set. */
static void source_find(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	memset(&sf.source, 0, sizeof(sf.source));
	sf.source.family = 4;
	sf.source_known = true;
	if (sf.nb_coll == 0)
		return;
	fd = socket(sf.coll[0].addr.family == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	len = sockaddr_of(&sf.coll[0].addr, sf.coll[0].port, &ss);
	if (connect(fd, (struct sockaddr *)&ss, len) == 0) {
		len = sizeof(ss);
		if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0 && ss.ss_family == AF_INET6) {
			sf.source.family = 6;
			memcpy(sf.source.bytes, &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
		} else if (ss.ss_family == AF_INET) {
			memcpy(sf.source.bytes, &((struct sockaddr_in *)&ss)->sin_addr, 4);
		}
	} else {
		sf.source_known = false;	/* no route yet: try again at the next datagram */
	}
	close(fd);
}

static void datagram_send(void)
{
	struct sockaddr_storage ss;
	unsigned int i;

	if (!sf.open)
		return;
	sf.open = false;
	if (sf.d.samples == 0)
		return;
	sf.st.datagrams++;
	for (i = 0; i < sf.nb_coll; i++) {
		struct sflow_collector *c = &sf.coll[i];
		int fd = socket_of(c->addr.family);
		socklen_t len = sockaddr_of(&c->addr, c->port, &ss);

		if (fd >= 0 && sendto(fd, sf.d.buf, sf.d.len, 0, (struct sockaddr *)&ss, len) ==
		    (ssize_t)sf.d.len) {
			c->datagrams++;
			continue;
		}
		c->send_errors++;
		if (fd >= 0) {
			int err = errno;
			char a[INET6_ADDRSTRLEN];

			sflow_addr_text(&c->addr, a, sizeof(a));
			TERN_LOG_RATELIMITED(main, WARNING, "sFlow: cannot send to collector %s port %u: %s",
					     a, c->port, strerror(err));
		}
	}
}

static void datagram_begin(void)
{
	const struct sflow_addr *agent = &sf.agent;

	if (agent->family == 0) {
		if (!sf.source_known)
			source_find();
		agent = &sf.source;
	}
	sflow_datagram_begin(&sf.d, sf.buf, sizeof(sf.buf), agent, ++sf.seq,
			     (uint32_t)(now_ms() - sf.start_ms));
	sf.open = true;
}

/* Adds a sample with add (a flow's or a counters'), sending the datagram first when full. */
#define ADD_SAMPLE(add, sample)                                                      \
	do {                                                                             \
		if (!sf.open)                                                            \
			datagram_begin();                                                \
		if (add(&sf.d, (sample)) == -ENOSPC) {                                   \
			datagram_send();                                                 \
			datagram_begin();                                                \
			add(&sf.d, (sample));                                            \
		}                                                                        \
	} while (0)

static void flows_send(void)
{
	static struct dp_sflow_sample s[DRAIN_CHUNK];
	unsigned int n, i, total = 0;

	do {
		n = dp_sflow_drain(s, DRAIN_CHUNK);
		total += n;
		for (i = 0; i < n; i++) {
			struct dp_sflow_count counts;
			struct sflow_flow f;
			uint32_t rate = dp_sflow_rate[s[i].index];

			/* its interface gone, or sampling turned off, since the worker took it */
			if (rate == 0 || sf.nb_coll == 0 || slots() == NULL)
				continue;
			dp_sflow_count_get(s[i].index, &counts);
			sflow_flow_of(&s[i], rate, &counts, ++sf.slots[s[i].index].flow_seq, &f);
			ADD_SAMPLE(sflow_datagram_add_flow, &f);
			sf.st.flow_samples++;
		}
	} while (n == DRAIN_CHUNK && total < DRAIN_MAX);
}

static uint32_t iface_type(const struct dp_port *p)
{
	if (p->kind == DP_PORT_VLAN)
		return IFTYPE_L2VLAN;
	return p->is_bond ? IFTYPE_LAG : IFTYPE_ETHERNET;
}

static void counters_of(unsigned int slot, struct sflow_counters *c)
{
	struct slot_state *s = &sf.slots[slot];
	const struct dp_port *p = &dp.ports[slot];
	uint64_t raw[IFC_MAX];
	uint32_t mbps = 0;
	bool link;

	if_counters_read(slot, raw);
	if_counters_add(&s->c, raw);
	link = dp_port_link_up(&dp.ports[p->kind == DP_PORT_VLAN ? p->parent : slot], &mbps);
	memset(c, 0, sizeof(*c));
	c->sequence = ++s->counter_seq;
	c->ifindex = if_mib_ifindex(slot);
	c->type = iface_type(p);
	c->speed = (uint64_t)mbps * 1000000;
	c->admin_up = dp_port_map.up[slot] != 0;
	c->oper_up = c->admin_up && link;
	/* sFlow's packet counts are 32 bits: they wrap, as IF-MIB's ifInUcastPkts do */
	c->in_octets = s->c.total[IFC_IN_OCTETS];
	c->in_ucast = (uint32_t)s->c.in_ucast;
	c->in_mcast = (uint32_t)s->c.total[IFC_IN_MCAST];
	c->in_bcast = (uint32_t)s->c.total[IFC_IN_BCAST];
	c->in_discards = (uint32_t)s->c.total[IFC_IN_DISCARDS];
	c->in_errors = (uint32_t)s->c.total[IFC_IN_ERRORS];
	c->out_octets = s->c.total[IFC_OUT_OCTETS];
	c->out_ucast = (uint32_t)s->c.out_ucast;
	c->out_mcast = (uint32_t)s->c.total[IFC_OUT_MCAST];
	c->out_bcast = (uint32_t)s->c.total[IFC_OUT_BCAST];
	c->out_discards = (uint32_t)s->c.total[IFC_OUT_DISCARDS];
	c->out_errors = (uint32_t)s->c.total[IFC_OUT_ERRORS];
}

static void counters_send(void)
{
	struct sflow_counters c;
	unsigned int i;

	DP_FOREACH_IFACE(i) {
		if (dp_sflow_rate[i] == 0 || if_mib_ifindex(i) == 0)
			continue;
		counters_of(i, &c);
		ADD_SAMPLE(sflow_datagram_add_counters, &c);
		sf.st.counter_samples++;
	}
}

void sflow_agent_tick(void)
{
	uint64_t now;

	if (sf.start_ms == 0)
		sf.start_ms = now_ms() - 1;
	flows_send();
	now = now_ms();
	if (sf.nb_coll != 0 && sf.slots != NULL && now >= sf.next_counters_ms) {
		sf.next_counters_ms = now + sflow_polling() * 1000ull;
		sf.source_known = false;	/* the route to the first collector may have moved */
		counters_send();
	}
	datagram_send();
}

void sflow_agent_stop(void)
{
	sockets_close();
	free(sf.slots);
	sf.slots = NULL;
}
