/* SPDX-License-Identifier: BSD-3-Clause */
/* TAP creation and state through ioctls: TUNSETIFF, SIOCSIFHWADDR, SIOCSIFMTU, TUNSETCARRIER;
 * their removal in groups through rtnetlink. */
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "kni/tap.h"

static int ifreq_ioctl(unsigned long req, struct ifreq *ifr)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = 0;

	if (s < 0)
		return -errno;
	if (ioctl(s, req, ifr) < 0)
		rc = -errno;
	close(s);
	return rc;
}

/* Sends one rtnetlink request and waits for its acknowledgement. */
static int rtnl_request(struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	int rc = 0;
	ssize_t n;

	if (nl == NULL)
		return -errno;
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	/* each step sets errno when it fails; the acknowledgement's error is the request's */
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0 ||
	    (n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) < 0 ||
	    mnl_cb_run(buf, n, 1, mnl_socket_get_portid(nl), NULL, NULL) < 0)
		rc = -errno;
	mnl_socket_close(nl);
	return rc;
}

static struct nlmsghdr *link_msg(char *buf, uint16_t type)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = type;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	return nlh;
}

/* Sets the interface's IPv6 address generation mode (IN6_ADDR_GEN_MODE_*), which the kernel
 * reads when the interface comes up: it only stores it. */
static int addr_gen_mode_set(const char *name, uint8_t mode)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = link_msg(buf, RTM_NEWLINK);
	struct nlattr *spec, *inet6;

	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	spec = mnl_attr_nest_start(nlh, IFLA_AF_SPEC);
	inet6 = mnl_attr_nest_start(nlh, AF_INET6);
	mnl_attr_put_u8(nlh, IFLA_INET6_ADDR_GEN_MODE, mode);
	mnl_attr_nest_end(nlh, inet6);
	mnl_attr_nest_end(nlh, spec);
	return rtnl_request(nlh);
}

int kni_tap_open(const char *name, const struct rte_ether_addr *mac, uint16_t mtu, bool persist,
		 bool link_local, char *err, size_t errlen)
{
	struct ifreq ifr;
	int fd, rc;

	if (strlen(name) >= IFNAMSIZ) {
		snprintf(err, errlen, "TAP name '%s' is longer than %d characters", name, IFNAMSIZ - 1);
		return -ENAMETOOLONG;
	}
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open /dev/net/tun for TAP %s: %s", name, strerror(errno));
		return rc;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create TAP %s: %s%s", name, strerror(errno),
			 errno == EBUSY ? " (an interface of that name already exists)" : "");
		close(fd);
		return rc;
	}
	/*
	 * Persistent: the interface stays when ternd exits, with its addresses and the
	 * kernel's routes through it, and TUNSETIFF takes it over at the next start.
	 * Otherwise it goes with the last descriptor (and a persistent one left by an
	 * earlier configuration is made ordinary again).
	 */
	if (ioctl(fd, TUNSETPERSIST, persist ? 1 : 0) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot make TAP %s %spersistent: %s", name, persist ? "" : "non-",
			 strerror(errno));
		close(fd);
		return rc;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	/* a MAC change flushes the interface's neighbours: a persistent TAP keeps its own when equal */
	if (ifreq_ioctl(SIOCGIFHWADDR, &ifr) == 0 &&
	    memcmp(ifr.ifr_hwaddr.sa_data, mac->addr_bytes, RTE_ETHER_ADDR_LEN) == 0)
		goto mtu;
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	memcpy(ifr.ifr_hwaddr.sa_data, mac->addr_bytes, RTE_ETHER_ADDR_LEN);
	if ((rc = ifreq_ioctl(SIOCSIFHWADDR, &ifr)) < 0) {
		snprintf(err, errlen, "cannot set the MAC of TAP %s: %s", name, strerror(-rc));
		goto fail;
	}
mtu:
	ifr.ifr_mtu = mtu;
	if ((rc = ifreq_ioctl(SIOCSIFMTU, &ifr)) < 0) {
		snprintf(err, errlen, "cannot set MTU %u on TAP %s: %s", mtu, name, strerror(-rc));
		goto fail;
	}
	/* before it comes up: the kernel makes the link-local address (and its routes) at up */
	if (!link_local && (rc = addr_gen_mode_set(name, IN6_ADDR_GEN_MODE_NONE)) < 0 &&
	    rc != -EAFNOSUPPORT) {	/* a kernel without IPv6 makes none anyway */
		snprintf(err, errlen, "cannot defer the IPv6 link-local address of TAP %s: %s", name,
			 strerror(-rc));
		goto fail;
	}
	if ((rc = ifreq_ioctl(SIOCGIFFLAGS, &ifr)) == 0) {
		ifr.ifr_flags |= IFF_UP;
		rc = ifreq_ioctl(SIOCSIFFLAGS, &ifr);
	}
	if (rc < 0) {
		snprintf(err, errlen, "cannot bring TAP %s up: %s", name, strerror(-rc));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return rc;
}

int kni_tap_set_carrier(int fd, bool on)
{
	int v = on;

	return ioctl(fd, TUNSETCARRIER, &v) < 0 ? -errno : 0;
}

int kni_tap_retire(const char *name)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = link_msg(buf, RTM_NEWLINK);
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	ifi->ifi_change = IFF_UP;	/* down: the kernel routes nothing more through it */
	ifi->ifi_flags = 0;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_GROUP, KNI_TAP_RETIRED_GROUP);
	return rtnl_request(nlh);
}

int kni_tap_delete_retired(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = link_msg(buf, RTM_DELLINK);

	mnl_attr_put_u32(nlh, IFLA_GROUP, KNI_TAP_RETIRED_GROUP);
	return rtnl_request(nlh);
}

int kni_tap_link_local_start(const char *name)
{
	char path[96], mode[8] = "0\n";
	ssize_t n;
	int fd, rc = 0;

	/* the namespace's default mode (EUI-64, stable-privacy, random), as a new interface gets */
	fd = open("/proc/sys/net/ipv6/conf/default/addr_gen_mode", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, mode, sizeof(mode) - 1);
		mode[n > 0 ? n : 0] = '\0';
		close(fd);
		if (n <= 0 || mode[0] == '1')	/* none there too: the administrator's choice */
			return n <= 0 ? -EIO : 0;
	}
	/* the sysctl, not rtnetlink: a change of mode there makes the address on an up interface */
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/addr_gen_mode", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, mode, strlen(mode)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int link_local_collect(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	struct kni_link_locals *ll = data;
	struct nlattr *attr;

	if (nlh->nlmsg_type != RTM_NEWADDR || ifa->ifa_family != AF_INET6 ||
	    ifa->ifa_index != ll->ifindex || ifa->ifa_scope != RT_SCOPE_LINK)
		return MNL_CB_OK;
	mnl_attr_for_each(attr, nlh, sizeof(*ifa))
		if (mnl_attr_get_type(attr) == IFA_ADDRESS && mnl_attr_get_payload_len(attr) == 16 &&
		    ll->n < RTE_DIM(ll->len)) {
			memcpy(ll->addr[ll->n], mnl_attr_get_payload(attr), 16);
			ll->len[ll->n++] = ifa->ifa_prefixlen;
		}
	return MNL_CB_OK;
}

/* The interface's IPv6 link-local addresses, tentative ones included, from the kernel. */
static int link_locals_read(struct kni_link_locals *ll)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	struct ifaddrmsg *ifa;
	unsigned int portid;
	ssize_t n;
	int rc = MNL_CB_OK;

	if (nl == NULL)
		return -errno;
	nlh->nlmsg_type = RTM_GETADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = 1;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET6;
	ifa->ifa_index = ll->ifindex;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		rc = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	while (rc == MNL_CB_OK) {	/* until the dump's NLMSG_DONE, or an error */
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			rc = -errno;
			break;
		}
		rc = mnl_cb_run(buf, n, 1, portid, link_local_collect, ll);
		if (rc < 0)
			rc = -errno;
	}
out:
	mnl_socket_close(nl);
	return rc < 0 ? rc : 0;
}

int kni_tap_link_local_stop(const char *name, struct kni_link_locals *ll)
{
	int rc;

	memset(ll, 0, sizeof(*ll));
	ll->ifindex = if_nametoindex(name);
	if (ll->ifindex == 0)
		return -errno;
	if ((rc = addr_gen_mode_set(name, IN6_ADDR_GEN_MODE_NONE)) < 0)
		return rc;
	return link_locals_read(ll);
}

int kni_tap_get_state(const char *name, bool *up, uint16_t *mtu)
{
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	if ((rc = ifreq_ioctl(SIOCGIFFLAGS, &ifr)) < 0)
		return rc;
	*up = ifr.ifr_flags & IFF_UP;
	if ((rc = ifreq_ioctl(SIOCGIFMTU, &ifr)) < 0)
		return rc;
	*mtu = ifr.ifr_mtu;
	return 0;
}
