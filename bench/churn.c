/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tern-bench churn: route changes at a steady rate, for a router that mirrors its kernel.
 *
 * Adds and removes prefixes of one length under a covering prefix, in turn (add p0, delete
 * p0, add p1, ...), through rtnetlink. Like FRR's zebra, it packs the changes due in each
 * millisecond into one sendmsg and asks for no acknowledgement: the kernel answers only an
 * error. `ip -batch` sends, and waits for, one request a change, and a churn driven that way
 * cost more CPU than the router under test spent mirroring it. Plain netlink headers, not
 * libmnl: the static tern-bench is built where no static libmnl exists.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "bench/args.h"
#include "bench/churn.h"

#define CHURN_BATCH_MAX 512	/* changes in one sendmsg, when the pacing falls behind */

struct churn_route_msg {
	struct nlmsghdr nh;
	struct rtmsg rt;
	struct rtattr dst_attr;
	uint32_t dst;
	struct rtattr gw_attr;
	uint32_t gw;
};

_Static_assert(sizeof(struct churn_route_msg) == NLMSG_LENGTH(sizeof(struct rtmsg)) +
	       2 * RTA_LENGTH(4) && sizeof(struct churn_route_msg) == CHURN_ROUTE_MSG_SIZE,
	       "a change is its netlink message, with no padding");

void churn_route_msg_build(void *buf, const struct churn_params *p, uint64_t n, uint32_t seq)
{
	struct churn_route_msg *m = buf;
	uint64_t slots = churn_slots(p);
	uint32_t k = (uint32_t)(n / 2 % slots);
	bool add = n % 2 == 0;

	memset(m, 0, sizeof(*m));
	m->nh.nlmsg_len = sizeof(*m);
	m->nh.nlmsg_type = add ? RTM_NEWROUTE : RTM_DELROUTE;
	m->nh.nlmsg_flags = NLM_F_REQUEST | (add ? NLM_F_CREATE | NLM_F_EXCL : 0);
	m->nh.nlmsg_seq = seq;
	m->rt.rtm_family = AF_INET;
	m->rt.rtm_dst_len = p->len;
	m->rt.rtm_table = RT_TABLE_MAIN;
	m->rt.rtm_protocol = RTPROT_STATIC;
	m->rt.rtm_scope = RT_SCOPE_UNIVERSE;
	m->rt.rtm_type = RTN_UNICAST;
	m->dst_attr.rta_len = RTA_LENGTH(4);
	m->dst_attr.rta_type = RTA_DST;
	m->dst = htonl(p->base + (k << (32 - p->len)));
	m->gw_attr.rta_len = RTA_LENGTH(4);
	m->gw_attr.rta_type = RTA_GATEWAY;
	m->gw = htonl(p->via);
}

uint64_t churn_slots(const struct churn_params *p)
{
	return 1ull << (p->len - p->base_len);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

/* Reads the kernel's answers so far (errors only: nothing asked for more). */
static void read_errors(int fd, struct churn_result *r)
{
	char buf[8192] __attribute__((aligned(4)));
	ssize_t len;

	while ((len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		size_t off = 0;

		while (off + sizeof(struct nlmsghdr) <= (size_t)len) {
			const struct nlmsghdr *nh = (const struct nlmsghdr *)(buf + off);
			const struct nlmsgerr *e = NLMSG_DATA(nh);

			if (nh->nlmsg_len < sizeof(*nh) || nh->nlmsg_len > (size_t)len - off)
				break;
			off += NLMSG_ALIGN(nh->nlmsg_len);
			if (nh->nlmsg_type != NLMSG_ERROR || nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)) ||
			    e->error == 0)
				continue;
			r->errors++;
			if (r->first_error == 0)
				r->first_error = -e->error;
		}
	}
}

int churn_run(const struct churn_params *p, struct churn_result *r)
{
	static struct churn_route_msg batch[CHURN_BATCH_MAX];
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timespec tick;
	double t0, c0;
	uint64_t n = 0;
	int fd, rcvbuf = 1 << 20;

	memset(r, 0, sizeof(*r));
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	t0 = now_s();
	c0 = cpu_s();
	clock_gettime(CLOCK_MONOTONIC, &tick);
	for (;;) {
		double t = now_s() - t0;
		uint64_t due = (uint64_t)((t < p->seconds ? t : p->seconds) * p->rate);
		unsigned int i = 0;

		for (; n < due && i < CHURN_BATCH_MAX; n++)
			churn_route_msg_build(&batch[i++], p, n, (uint32_t)n + 1);
		if (i > 0) {
			ssize_t len = sendto(fd, batch, i * sizeof(batch[0]), 0,
					     (struct sockaddr *)&kernel, sizeof(kernel));

			if (len < 0) {
				int rc = -errno;

				close(fd);
				return rc;
			}
			r->batches++;
		}
		read_errors(fd, r);
		if (t >= p->seconds && n >= due)
			break;
		if (n < due)
			continue;	/* behind: the next batch at once */
		tick.tv_nsec += 1000000;
		if (tick.tv_nsec >= 1000000000) {
			tick.tv_nsec -= 1000000000;
			tick.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &tick, NULL);
	}
	r->changes = n;
	r->seconds = now_s() - t0;
	r->cpu_s = cpu_s() - c0;
	usleep(20000);	/* the last errors */
	read_errors(fd, r);
	close(fd);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: tern-bench churn --via A.B.C.D [options]\n"
		"  --via A.B.C.D     the routes' gateway (on a connected network)\n"
		"  --within P/L      where the routes go (100.64.0.0/10)\n"
		"  --len L           their prefix length, longer than the covering prefix's (24)\n"
		"  --rate N          changes a second, adds and deletes together (10000)\n"
		"  --seconds S       how long (10)\n"
		"  --json            one JSON object instead of text\n");
	return 2;
}

int churn_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "via", required_argument, NULL, 'v' }, { "within", required_argument, NULL, 'w' },
		{ "len", required_argument, NULL, 'l' }, { "rate", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' }, { "json", no_argument, NULL, 'j' },
		{ 0 },
	};
	struct churn_params p = { .base = 0x64400000u, .base_len = 10, .len = 24, .rate = 10000,
				  .seconds = 10 };
	struct churn_result r;
	bool json = false, have_via = false;
	unsigned long n;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			if (arg_ipv4(optarg, &p.via) < 0)
				return fprintf(stderr, "tern-bench churn: --via '%s' is not an IPv4 address\n", optarg), 2;
			have_via = true;
			break;
		case 'w':
			if (arg_prefix(optarg, &p.base, &p.base_len) < 0)
				return fprintf(stderr, "tern-bench churn: --within '%s' is not a prefix A.B.C.D/L with no host bits\n", optarg), 2;
			break;
		case 'l':
			if (arg_count(optarg, 0, 32, &n) < 0)
				return fprintf(stderr, "tern-bench churn: --len '%s' is not a prefix length (0 to 32)\n", optarg), 2;
			p.len = (uint8_t)n;
			break;
		case 'r':
			if (arg_number(optarg, 1, 1e7, &p.rate) < 0)
				return fprintf(stderr, "tern-bench churn: --rate '%s' is not a rate from 1 to 10000000 a second\n", optarg), 2;
			break;
		case 's':
			if (arg_number(optarg, 0.001, 86400, &p.seconds) < 0)
				return fprintf(stderr, "tern-bench churn: --seconds '%s' is not a duration above 0, up to 86400\n", optarg), 2;
			break;
		case 'j':
			json = true;
			break;
		default:
			return usage();
		}
	}
	if (!have_via || optind != argc)
		return usage();
	if (p.len <= p.base_len || p.len - p.base_len > 24)
		return fprintf(stderr, "tern-bench churn: --len %u must be longer than the covering /%u, by 24 at most\n",
			       p.len, p.base_len), 2;
	rc = churn_run(&p, &r);
	if (rc < 0) {
		fprintf(stderr, "tern-bench churn: cannot talk to the kernel's routing: %s\n", strerror(-rc));
		return 1;
	}
	if (json)
		printf("{\"changes\": %lu, \"seconds\": %.3f, \"rate\": %.0f, \"batches\": %lu, "
		       "\"errors\": %lu, \"first_error\": \"%s\", \"cpu_percent\": %.1f}\n",
		       r.changes, r.seconds, r.changes / r.seconds, r.batches, r.errors,
		       r.first_error ? strerror(r.first_error) : "", 100 * r.cpu_s / r.seconds);
	else
		printf("%lu route changes in %.3f s (%.0f/s) in %lu messages; %lu refused%s%s; %.1f %% of a CPU\n",
		       r.changes, r.seconds, r.changes / r.seconds, r.batches, r.errors,
		       r.first_error ? ", first: " : "", r.first_error ? strerror(r.first_error) : "",
		       100 * r.cpu_s / r.seconds);
	return r.errors ? 1 : 0;
}
