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

enum { WAITING = 1, SEEN = 2 };	/* values of a slot's unplaced mark */

static struct route_key *list;
static unsigned int nb_list, list_max, nb_unplaced;

int rib_unplaced_init(unsigned int max_routes)
{
	list_max = max_routes ? max_routes : 1;
	/* untouched pages cost nothing: only as many as routes refused are ever written */
	list = malloc((size_t)list_max * sizeof(*list));
	nb_list = nb_unplaced = 0;
	return list ? 0 : -ENOMEM;
}

void rib_unplaced_fini(void)
{
	free(list);
	list = NULL;
	nb_list = nb_unplaced = 0;
}

unsigned int rib_unplaced_count(void)
{
	return nb_unplaced;
}

void rib_unplaced_forget(void)
{
	nb_unplaced--;
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
		pos = route_table_find(&list[i]);
		if (pos < 0 || *route_unplaced_at(pos) != WAITING)
			continue;	/* gone, placed, or seen already */
		*route_unplaced_at(pos) = SEEN;
		list[kept++] = list[i];
		if (each)
			each(&list[i], pos, arg);
	}
	nb_list = kept;
	for (i = 0; i < kept; i++) {
		uint32_t *mark = route_unplaced_at(route_table_find(&list[i]));

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

void rib_unplaced_mark(const struct dp_fib_op *ops, unsigned int n)
{
	unsigned int i, marked = 0;
	int32_t pos;

	for (i = 0; i < n; i++) {
		struct route_key k = { ops[i].prefix & rib_mask(ops[i].depth), ops[i].depth };

		if (!ops[i].refused || ops[i].del)
			continue;
		/* the refused change may be one of several on the prefix in this batch: what
		 * counts is whether the FIB ended up holding the prefix */
		pos = route_table_find(&k);
		if (pos < 0 || *route_unplaced_at(pos) || dp_fib_route(k.prefix, k.len, NULL))
			continue;
		if (push(&k) < 0)
			continue;
		*route_unplaced_at(pos) = WAITING;
		nb_unplaced++;
		marked++;
	}
	if (marked)
		TERN_LOG_RATELIMITED(rib, WARNING, "%u route(s) not installed: the FIB has no room for "
				     "them (%u wait, offered again as room comes back; show ip route "
				     "summary)", marked, nb_unplaced);
}

struct offer {
	unsigned int room, offered;
	rib_queue_fn queue;
};

static void offer_one(const struct route_key *k, int32_t pos, void *arg)
{
	struct offer *o = arg;

	if (o->offered < o->room && dp_fib_fits(k->prefix, k->len)) {
		o->queue(k->prefix, k->len, false, route_rec_at(pos)->nh);
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
	uint32_t nh;

	(void)arg;
	if (dp_fib_route(k->prefix, k->len, &nh) && nh == route_rec_at(pos)->nh) {
		*route_unplaced_at(pos) = 0;	/* dropped from the list by the next walk */
		nb_unplaced--;
	}
}

void rib_unplaced_settle(void)
{
	walk(settle_one, NULL);
}
