/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel TAP interfaces on /dev/net/tun: one per port, named and addressed like it. */
#ifndef TERN_KNI_TAP_H
#define TERN_KNI_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

/* A non-blocking TAP fd (no packet info header), with mac and mtu set and the interface up. */
int kni_tap_open(const char *name, const struct rte_ether_addr *mac, uint16_t mtu, bool persist, char *err,
		 size_t errlen);
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
