/* Routes, addresses and neighbours -> nexthops and FIB entries, applied in batches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_hash.h>
#include <rte_jhash.h>

#include "controlplane/log.h"
#include "controlplane/rib.h"
#include "dataplane/dp.h"
#include "dataplane/fib.h"
#include "dataplane/nexthop.h"

#define RIB_MAX_ADDRS 1024
#define RIB_MAX_NEIGHS 65536
#define RIB_BATCH 65536

struct route_key {
	uint32_t prefix;
	uint32_t len;
};

struct nh_obj {
	struct rib_nh_spec spec;
	uint32_t refcnt;
	bool used;
};

static struct rte_hash *routes;
static unsigned int proto_count[RIB_PROTO_MAX];
static struct nh_obj *nhs;
static uint32_t nh_high;		/* ids in use are below this */
static struct rib_addr addrs[RIB_MAX_ADDRS];
static unsigned int nb_addrs;
static struct rib_neigh *neighs;
static unsigned int nb_neighs;
static struct dp_fib_op *pending;
static unsigned int nb_pending;
static uint32_t *released;		/* nexthops to clear once the FIB no longer names them */
static unsigned int nb_released;

static inline uint32_t mask(uint8_t len)
{
	return len ? ~0u << (32 - len) : 0;
}

static inline void *route_val(enum rib_proto proto, uint32_t nh)
{
	return (void *)(uintptr_t)(((uint64_t)proto << 32) | nh);
}

int rib_init(unsigned int max_routes)
{
	struct rte_hash_parameters prm = {
		.name = "tern_rib",
		.entries = max_routes,
		.key_len = sizeof(struct route_key),
		.hash_func = rte_jhash,
		.socket_id = SOCKET_ID_ANY,
	};

	routes = rte_hash_create(&prm);
	nhs = calloc(DP_NH_MAX, sizeof(*nhs));
	neighs = calloc(RIB_MAX_NEIGHS, sizeof(*neighs));
	pending = calloc(RIB_BATCH, sizeof(*pending));
	released = calloc(RIB_BATCH, sizeof(*released));
	if (routes == NULL || nhs == NULL || neighs == NULL || pending == NULL || released == NULL)
		return -ENOMEM;
	nh_high = 1;	/* id 0 is "no route" */
	return 0;
}

void rib_fini(void)
{
	rte_hash_free(routes);
	free(nhs);
	free(neighs);
	free(pending);
	free(released);
	routes = NULL;
	nhs = NULL;
	neighs = NULL;
	pending = NULL;
	released = NULL;
	nb_addrs = nb_neighs = nb_pending = nb_released = 0;
	memset(proto_count, 0, sizeof(proto_count));
}

static const struct rib_neigh *neigh_find(uint16_t port, uint32_t ip)
{
	unsigned int i;

	for (i = 0; i < nb_neighs; i++)
		if (neighs[i].ip == ip && neighs[i].port == port)
			return &neighs[i];
	return NULL;
}

/* Derives the dataplane's entry from the spec and the neighbour table, and publishes it. */
static int nh_publish(uint32_t id)
{
	const struct rib_nh_spec *s = &nhs[id].spec;
	struct dp_nexthop nh = { .port = s->port };
	const struct rib_neigh *n;

	switch (s->type) {
	case RIB_NH_GATEWAY:
		nh.gw = rte_cpu_to_be_32(s->gw);
		n = neigh_find(s->port, s->gw);
		nh.kind = n ? DP_NH_FORWARD : DP_NH_UNRESOLVED;
		if (n) {
			nh.eth.dst_addr = n->mac;
			nh.eth.src_addr = dp.ports[s->port].mac;
		}
		nh.mtu = dp.ports[s->port].mtu;
		break;
	case RIB_NH_CONNECTED: nh.kind = DP_NH_UNRESOLVED; break;
	case RIB_NH_LOCAL: nh.kind = DP_NH_LOCAL; break;
	case RIB_NH_BLACKHOLE: nh.kind = DP_NH_BLACKHOLE; break;
	case RIB_NH_UNREACHABLE: nh.kind = DP_NH_UNREACHABLE; break;
	case RIB_NH_PROHIBIT: nh.kind = DP_NH_PROHIBIT; break;
	}
	return dp_nh_set(id, &nh, NULL);
}

static bool spec_equal(const struct rib_nh_spec *a, const struct rib_nh_spec *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == RIB_NH_GATEWAY)
		return a->port == b->port && a->gw == b->gw;
	if (a->type == RIB_NH_CONNECTED)
		return a->port == b->port;
	return true;
}

static int nh_get(const struct rib_nh_spec *spec, uint32_t *id)
{
	uint32_t i, free_id = 0;
	int rc;

	for (i = 1; i < nh_high; i++) {
		if (nhs[i].used && spec_equal(&nhs[i].spec, spec)) {
			nhs[i].refcnt++;
			*id = i;
			return 0;
		}
		if (!nhs[i].used && free_id == 0)
			free_id = i;
	}
	if (free_id == 0) {
		if (nh_high == DP_NH_MAX)
			return -ENOSPC;
		free_id = nh_high++;
	}
	nhs[free_id] = (struct nh_obj){ .spec = *spec, .refcnt = 1, .used = true };
	rc = nh_publish(free_id);
	if (rc < 0) {
		nhs[free_id].used = false;
		return rc;
	}
	*id = free_id;
	return 0;
}

static int queue_op(uint32_t prefix, uint8_t len, bool del, uint32_t nh)
{
	if (nb_pending == RIB_BATCH || nb_released == RIB_BATCH) {
		int rc = rib_commit();

		if (rc < 0)
			return rc;
	}
	pending[nb_pending++] = (struct dp_fib_op){ .prefix = prefix, .depth = len, .del = del,
						    .nh = nh };
	return 0;
}

static void nh_put(uint32_t id)
{
	if (--nhs[id].refcnt == 0)
		released[nb_released++] = id;
}

int rib_commit(void)
{
	unsigned int i;
	int rc = dp_fib_apply(pending, nb_pending);

	nb_pending = 0;
	/* The FIB no longer names these: free their slots for reuse. */
	for (i = 0; i < nb_released; i++) {
		uint32_t id = released[i];

		if (nhs[id].used && nhs[id].refcnt == 0) {
			dp_nh_clear(id);
			nhs[id].used = false;
		}
	}
	nb_released = 0;
	if (rc < 0)
		TERN_LOG(rib, ERR, "FIB update failed: %s", strerror(-rc));
	return rc;
}

int rib_route_add(uint32_t prefix, uint8_t len, enum rib_proto proto, const struct rib_nh_spec *nh)
{
	struct route_key key = { prefix & mask(len), len };
	void *old;
	uint32_t id;
	int rc;

	if (len > 32 || proto >= RIB_PROTO_MAX)
		return -EINVAL;
	if (rte_hash_lookup_data(routes, &key, &old) >= 0) {
		enum rib_proto old_proto = (uintptr_t)old >> 32;

		/* an adjacency never hides a route someone configured */
		if (proto == RIB_PROTO_NEIGHBOR && old_proto != RIB_PROTO_NEIGHBOR)
			return -EEXIST;
	} else {
		old = NULL;
	}
	rc = nh_get(nh, &id);
	if (rc < 0)
		return rc;
	rc = rte_hash_add_key_data(routes, &key, route_val(proto, id));
	if (rc < 0) {
		nh_put(id);
		return rc;
	}
	if (old != NULL) {
		proto_count[(uintptr_t)old >> 32]--;
		nh_put((uint32_t)(uintptr_t)old);
	}
	proto_count[proto]++;
	return queue_op(key.prefix, len, false, id);
}

int rib_route_del(uint32_t prefix, uint8_t len, enum rib_proto proto)
{
	struct route_key key = { prefix & mask(len), len };
	void *old;

	if (len > 32)
		return -EINVAL;
	if (rte_hash_lookup_data(routes, &key, &old) < 0)
		return -ENOENT;
	if ((enum rib_proto)((uintptr_t)old >> 32) != proto)
		return -ENOENT;
	rte_hash_del_key(routes, &key);
	proto_count[proto]--;
	nh_put((uint32_t)(uintptr_t)old);
	return queue_op(key.prefix, len, true, 0);
}

static void fill_info(const struct route_key *k, void *val, struct rib_route_info *out)
{
	out->prefix = k->prefix;
	out->len = k->len;
	out->proto = (uintptr_t)val >> 32;
	out->nh_id = (uint32_t)(uintptr_t)val;
	out->nh = nhs[out->nh_id].spec;
}

int rib_route_get(uint32_t prefix, uint8_t len, struct rib_route_info *out)
{
	struct route_key key = { prefix & mask(len), len };
	void *val;

	if (len > 32 || rte_hash_lookup_data(routes, &key, &val) < 0)
		return -ENOENT;
	fill_info(&key, val, out);
	return 0;
}

int rib_route_lookup(uint32_t ip, struct rib_route_info *out)
{
	int len;

	for (len = 32; len >= 0; len--)
		if (rib_route_get(ip, len, out) == 0)
			return 0;
	return -ENETUNREACH;
}

static int route_cmp(const void *a, const void *b)
{
	const struct rib_route_info *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return (int)x->len - (int)y->len;
}

int rib_routes_sorted(struct rib_route_info **out, unsigned int *n)
{
	unsigned int cap = rte_hash_count(routes), i = 0;
	const void *key;
	void *val;
	uint32_t iter = 0;
	struct rib_route_info *r = calloc(cap ? cap : 1, sizeof(*r));

	if (r == NULL)
		return -ENOMEM;
	while (i < cap && rte_hash_iterate(routes, &key, &val, &iter) >= 0)
		fill_info(key, val, &r[i++]);
	qsort(r, i, sizeof(*r), route_cmp);
	*out = r;
	*n = i;
	return 0;
}

unsigned int rib_route_count(enum rib_proto proto)
{
	return proto < RIB_PROTO_MAX ? proto_count[proto] : 0;
}

int rib_addr_add(uint16_t port, uint32_t ip, uint8_t len)
{
	struct rib_nh_spec local = { .type = RIB_NH_LOCAL };
	struct rib_nh_spec conn = { .type = RIB_NH_CONNECTED, .port = port };
	unsigned int i;
	int rc;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip)
			return -EEXIST;
	if (nb_addrs == RIB_MAX_ADDRS)
		return -ENOSPC;
	rc = rib_route_add(ip, 32, RIB_PROTO_LOCAL, &local);
	if (rc == 0 && len < 32)
		rc = rib_route_add(ip, len, RIB_PROTO_CONNECTED, &conn);
	if (rc < 0)
		return rc;
	addrs[nb_addrs++] = (struct rib_addr){ .port = port, .ip = ip, .len = len };
	return 0;
}

int rib_addr_del(uint16_t port, uint32_t ip, uint8_t len)
{
	unsigned int i;

	for (i = 0; i < nb_addrs; i++)
		if (addrs[i].ip == ip && addrs[i].port == port && addrs[i].len == len)
			break;
	if (i == nb_addrs)
		return -ENOENT;
	addrs[i] = addrs[--nb_addrs];
	rib_route_del(ip, 32, RIB_PROTO_LOCAL);
	if (len < 32)
		rib_route_del(ip, len, RIB_PROTO_CONNECTED);
	return 0;
}

int rib_connected_port(uint32_t ip)
{
	int best = -ENETUNREACH, best_len = -1;
	unsigned int i;

	for (i = 0; i < nb_addrs; i++) {
		if (((ip ^ addrs[i].ip) & mask(addrs[i].len)) == 0 && addrs[i].len > best_len) {
			best = addrs[i].port;
			best_len = addrs[i].len;
		}
	}
	return best;
}

/* Republishes every gateway nexthop that goes through (port, ip), or all of port's when ip is 0. */
static int nh_refresh(uint16_t port, uint32_t ip)
{
	uint32_t i;
	int rc = 0;

	for (i = 1; i < nh_high; i++) {
		const struct rib_nh_spec *s = &nhs[i].spec;

		if (!nhs[i].used || s->port != port ||
		    (s->type != RIB_NH_GATEWAY && s->type != RIB_NH_CONNECTED))
			continue;
		if (ip == 0 || (s->type == RIB_NH_GATEWAY && s->gw == ip))
			rc |= nh_publish(i);
	}
	return rc;
}

int rib_neigh_set(uint16_t port, uint32_t ip, const struct rte_ether_addr *mac, bool is_static)
{
	struct rib_nh_spec adj = { .type = RIB_NH_GATEWAY, .port = port, .gw = ip };
	struct rib_neigh *n = (struct rib_neigh *)neigh_find(port, ip);
	int rc;

	if (n == NULL) {
		if (nb_neighs == RIB_MAX_NEIGHS)
			return -ENOSPC;
		n = &neighs[nb_neighs++];
	}
	*n = (struct rib_neigh){ .port = port, .ip = ip, .mac = *mac, .is_static = is_static };
	rc = nh_refresh(port, ip);
	if (rc < 0)
		return rc;
	rc = rib_route_add(ip, 32, RIB_PROTO_NEIGHBOR, &adj);
	return rc == -EEXIST ? 0 : rc;
}

int rib_neigh_del(uint16_t port, uint32_t ip)
{
	struct rib_neigh *n = (struct rib_neigh *)neigh_find(port, ip);

	if (n == NULL)
		return -ENOENT;
	*n = neighs[--nb_neighs];
	rib_route_del(ip, 32, RIB_PROTO_NEIGHBOR);
	return nh_refresh(port, ip);
}

int rib_port_changed(uint16_t port)
{
	return nh_refresh(port, 0);
}

unsigned int rib_addrs(const struct rib_addr **out)
{
	*out = addrs;
	return nb_addrs;
}

unsigned int rib_neighs(const struct rib_neigh **out)
{
	*out = neighs;
	return nb_neighs;
}

const char *rib_proto_name(enum rib_proto p)
{
	static const char *const names[RIB_PROTO_MAX] = {
		[RIB_PROTO_CONNECTED] = "connected", [RIB_PROTO_LOCAL] = "local",
		[RIB_PROTO_STATIC] = "static", [RIB_PROTO_NEIGHBOR] = "neighbor",
	};
	return p < RIB_PROTO_MAX ? names[p] : "?";
}

void rib_nh_describe(const struct rib_nh_spec *nh, char *buf, size_t len)
{
	uint32_t g = nh->gw;

	switch (nh->type) {
	case RIB_NH_GATEWAY:
		snprintf(buf, len, "via %u.%u.%u.%u dev %s", g >> 24, (g >> 16) & 255,
			 (g >> 8) & 255, g & 255, dp.ports[nh->port].name);
		return;
	case RIB_NH_CONNECTED:
		snprintf(buf, len, "dev %s", dp.ports[nh->port].name);
		return;
	case RIB_NH_LOCAL: snprintf(buf, len, "local"); return;
	case RIB_NH_BLACKHOLE: snprintf(buf, len, "blackhole"); return;
	case RIB_NH_UNREACHABLE: snprintf(buf, len, "unreachable"); return;
	case RIB_NH_PROHIBIT: snprintf(buf, len, "prohibit"); return;
	}
	snprintf(buf, len, "?");
}
