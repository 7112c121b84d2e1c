/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel TAP interfaces on /dev/net/tun: one per port, named and addressed like it. */
#ifndef TERN_KNI_TAP_H
#define TERN_KNI_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

/*
 * A non-blocking TAP fd (no packet info header), with mac and mtu set and the interface up.
 * Without link_local the kernel gives it no IPv6 link-local address when it comes up, until
 * kni_tap_link_local_start: each link-local address costs the kernel a walk of every IPv6
 * route in the namespace and an insert among every other interface's fe80::/64 route, so
 * 4000 of them take seconds. A sub-interface gets its own with its first IPv6 address.
 */
int kni_tap_open(const char *name, const struct rte_ether_addr *mac, uint16_t mtu, bool persist,
		 bool link_local, char *err, size_t errlen);
/* Has the kernel make the up interface's link-local address now, in the namespace's default
 * mode (net.ipv6.conf.default.addr_gen_mode; nothing when that is none). */
int kni_tap_link_local_start(const char *name);
/* An interface's IPv6 link-local addresses, as the kernel holds them (tentative ones too). */
struct kni_link_locals {
	uint32_t ifindex;
	unsigned int n;
	uint8_t addr[8][16];
	uint8_t len[8];
};
/* The kernel makes no link-local address for it again; ll gets the ones it has, which the
 * caller deletes (kni holds no address of its own). */
int kni_tap_link_local_stop(const char *name, struct kni_link_locals *ll);
int kni_tap_set_carrier(int fd, bool on);
/*
 * Removing a kernel interface one at a time costs the kernel a grace period of its own
 * (some 20 ms here), closing a TAP's last fd included; the kernel removes a group of them in
 * one (rtnetlink's delete by IFLA_GROUP). kni_tap_retire takes the interface down and puts it
 * in the group of retired TAPs, KNI_TAP_RETIRED_GROUP; kni_tap_delete_retired removes the
 * group's interfaces from the kernel, after which closing their fds costs nothing.
 */
#define KNI_TAP_RETIRED_GROUP 0x7465726e	/* "tern" */
int kni_tap_retire(const char *name);
int kni_tap_delete_retired(void);
/* The kernel's view of the interface: administratively up, and its MTU. */
int kni_tap_get_state(const char *name, bool *up, uint16_t *mtu);

#endif
