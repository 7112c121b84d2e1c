/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Routes the FIB refused. The FIB refuses a new route when it has no room:
 * every route it was made for is taken, or, for a route longer than /24 in a
 * /24 that has none yet, every second-level group. The RIB keeps such a
 * route (the kernel has it, and the operator must see it), marks its slot
 * unplaced, counts it, and keeps its key in a list; after each commit that
 * leaves room in the FIB, the routes of the list that fit are offered again
 * in one more batch, and those the FIB now holds are unmarked. While a prefix
 * is unplaced the FIB holds no route there, so its traffic follows the
 * covering route, and the changes of its route in the RIB are not sent to
 * the FIB one by one: the next offer carries the route it then has.
 *
 * The list may hold keys whose slot is gone or no longer unplaced (a route
 * withdrawn while it waited) and a key twice (withdrawn, back, refused
 * again); each walk drops both, and a full list is walked before it grows,
 * so it never holds more than the RIB's routes.
 */
#include <errno.h>
#include <stdlib.h>

#include "controlplane/mirror/rib_priv.h"
#include "controlplane/mirror/rib_table.h"
#include "controlplane/ternd/log.h"
#include "dataplane/fib/fib.h"
#include "dataplane/fib/fib6.h"

enum { WAITING = 1, SEEN = 2 };	/* values of a slot's unplaced mark */

static struct route_key *list;
static unsigned int nb_list, list_max;
static unsigned int nb_unplaced[2];	/* IPv4's, IPv6's */

static inline unsigned int fam(uint8_t family)
{
	return family == AF_INET6;
}

/* max_routes: of both families; a list made before is given up (nothing is listed yet when
 * the IPv6 table joins at start). */
int rib_unplaced_init(unsigned int max_routes)
{
	free(list);
	list_max = max_routes ? max_routes : 1;
	/* untouched pages cost nothing: only as many as routes refused are ever written */
	list = malloc((size_t)list_max * sizeof(*list));
	nb_list = 0;
	nb_unplaced[0] = nb_unplaced[1] = 0;
	return list ? 0 : -ENOMEM;
}

void rib_unplaced_fini(void)
{
	free(list);
	list = NULL;
	nb_list = 0;
	nb_unplaced[0] = nb_unplaced[1] = 0;
}

unsigned int rib_unplaced_count(uint8_t family)
{
	return family == AF_UNSPEC ? nb_unplaced[0] + nb_unplaced[1] : nb_unplaced[fam(family)];
}

void rib_unplaced_forget(uint8_t family)
{
	nb_unplaced[fam(family)]--;
}

/* Whether the FIB of k's family holds k's prefix, and its next hop in *nh (nh may be NULL). */
static bool fib_holds(const struct route_key *k, uint32_t *nh)
{
	if (k->family == AF_INET6)
		return dp_fib6_route(k->prefix6, k->len, nh);
	return dp_fib_route(k->prefix, k->len, nh);
}

static bool fib_fits(const struct route_key *k)
{
	if (k->family == AF_INET6)
		return dp_fib6_fits(k->prefix6, k->len);
	return dp_fib_fits(k->prefix, k->len);
}

/*
 * Walks the list: drops the keys no longer waiting and the second of a key
 * listed twice; calls each(key, pos) on the others, in order. Returns how
 * many are left.
 */
static unsigned int walk(void (*each)(const struct route_key *, int32_t, void *), void *arg)
{
	unsigned int i, kept = 0;
	int32_t pos;

	for (i = 0; i < nb_list; i++) {
		const struct route_table *t = route_table_of(list[i].family);

		pos = route_table_find(&list[i]);
		if (pos < 0 || *route_unplaced_at(t, pos) != WAITING)
			continue;	/* gone, placed, or seen already */
		*route_unplaced_at(t, pos) = SEEN;
		list[kept++] = list[i];
		if (each)
			each(&list[i], pos, arg);
	}
	nb_list = kept;
	for (i = 0; i < kept; i++) {
		const struct route_table *t = route_table_of(list[i].family);
		uint32_t *mark = route_unplaced_at(t, route_table_find(&list[i]));

		if (*mark == SEEN)	/* not placed by each() */
			*mark = WAITING;
	}
	return kept;
}

static int push(const struct route_key *k)
{
	if (nb_list == list_max && walk(NULL, NULL) == list_max)
		return -ENOSPC;	/* never: the list then holds every route once */
	list[nb_list++] = *k;
	return 0;
}

/* A refused change's prefix marked unplaced, unless the FIB holds it after all; true if it
 * was marked. */
static bool mark_one(const struct route_key *k)
{
	const struct route_table *t = route_table_of(k->family);
	int32_t pos;

	/* the refused change may be one of several on the prefix in this batch: what counts is
	 * whether the FIB ended up holding the prefix */
	pos = route_table_find(k);
	if (pos < 0 || *route_unplaced_at(t, pos) || fib_holds(k, NULL))
		return false;
	if (push(k) < 0)
		return false;
	*route_unplaced_at(t, pos) = WAITING;
	nb_unplaced[fam(k->family)]++;
	return true;
}

static void log_marked(unsigned int marked, uint8_t family)
{
	if (marked)
		TERN_LOG_RATELIMITED(rib, WARNING, "%u %s route(s) not installed: the FIB has no "
				     "room for them (%u wait, offered again as room comes back; "
				     "show %s route summary)", marked,
				     family == AF_INET6 ? "IPv6" : "IPv4", nb_unplaced[fam(family)],
				     family == AF_INET6 ? "ipv6" : "ip");
}

void rib_unplaced_mark(const struct dp_fib_op *ops, unsigned int n)
{
	unsigned int i, marked = 0;

	for (i = 0; i < n; i++) {
		struct route_key k = { .family = AF_INET, .len = ops[i].depth,
				       .prefix = ops[i].prefix & rib_mask(ops[i].depth) };

		if (ops[i].refused && !ops[i].del)
			marked += mark_one(&k);
	}
	log_marked(marked, AF_INET);
}

void rib_unplaced_mark6(const struct dp_fib6_op *ops, unsigned int n)
{
	unsigned int i, marked = 0;

	for (i = 0; i < n; i++) {
		struct route_key k = { .family = AF_INET6, .len = ops[i].depth };

		if (!ops[i].refused || ops[i].del || ops[i].depth > 128)
			continue;
		rib_mask6(ops[i].prefix, ops[i].depth, k.prefix6);
		marked += mark_one(&k);
	}
	log_marked(marked, AF_INET6);
}

struct offer {
	unsigned int room, offered;
	rib_queue_fn queue;
};

static void offer_one(const struct route_key *k, int32_t pos, void *arg)
{
	struct offer *o = arg;

	if (o->offered < o->room && fib_fits(k)) {
		o->queue(k, false, route_rec_at(route_table_of(k->family), pos)->nh);
		o->offered++;
	}
}

unsigned int rib_unplaced_offer(unsigned int room, rib_queue_fn queue)
{
	struct offer o = { .room = room, .queue = queue };

	if (nb_list > 0)
		walk(offer_one, &o);
	return o.offered;
}

static void settle_one(const struct route_key *k, int32_t pos, void *arg)
{
	const struct route_table *t = route_table_of(k->family);
	uint32_t nh;

	(void)arg;
	if (fib_holds(k, &nh) && nh == route_rec_at(t, pos)->nh) {
		*route_unplaced_at(t, pos) = 0;	/* dropped from the list by the next walk */
		nb_unplaced[fam(k->family)]--;
	}
}

void rib_unplaced_settle(void)
{
	walk(settle_one, NULL);
}
