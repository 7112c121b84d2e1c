/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd.conf parsing: a good file loads whole; each mistake gets its one precise sentence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "controlplane/ternd/config.h"
#include "controlplane/ternd/eal_args.h"

static const char *const good =
	"# two memif ports, one worker\n"
	"[eal]\n"
	"args = --no-huge -m 512\n"
	"[port dp0]\n"
	"dev = net_memif0,role=server,socket=/run/tern/m0.sock\n"
	"mtu = 9000\n"
	"mac = 02:00:00:00:00:01\n"
	"[port dp1]\n"
	"dev = net_memif1,role=server\n"
	"rxq = 2\n"
	"[worker 1]\n"
	"rx = dp0:0 dp1:0 dp1:1\n"
	"[api]\n"
	"socket = /tmp/t.sock\n"
	"[fib]\n"
	"routes = 65536\n"
	"[netlink]\n"
	"tables = 100, 7 default\n";

static struct tern_config cfg;
static char err[512];

static int load(const char *text)
{
	char path[] = "/tmp/tern-test-config-XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err[0] = '\0';
	rc = tern_config_load(path, &cfg, err, sizeof(err));
	unlink(path);
	return rc;
}

/* Replaces the first occurrence of from in the good file with to, and loads it. */
static int load_with(const char *from, const char *to)
{
	char text[2048];
	const char *at = strstr(good, from);

	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	return load(text);
}

static void assert_error(const char *from, const char *to, const char *expect)
{
	assert_true(load_with(from, to) < 0);
	if (strstr(err, expect) == NULL)
		fail_msg("error '%s' does not say '%s'", err, expect);
	assert_null(strchr(err, '\n'));
}

static void test_config_good_file_loads(void **state)
{
	assert_int_equal(load(good), 0);
	assert_int_equal(cfg.nb_ports, 2);
	assert_string_equal(cfg.ports[0].name, "dp0");
	assert_string_equal(cfg.ports[0].dev, "net_memif0,role=server,socket=/run/tern/m0.sock");
	assert_false(cfg.ports[0].is_pci);
	assert_int_equal(cfg.ports[0].mtu, 9000);
	assert_true(cfg.ports[0].has_mac);
	assert_int_equal(cfg.ports[0].mac[5], 1);
	assert_int_equal(cfg.ports[1].rxq, 2);
	assert_int_equal(cfg.ports[1].txq, 1);	/* one per worker: the kernel's frames go through worker 0 */
	assert_int_equal(cfg.nb_workers, 1);
	assert_int_equal(cfg.workers[0].lcore, 1);
	assert_int_equal(cfg.workers[0].nb_rx, 3);
	assert_int_equal(cfg.workers[0].rx[2].port, 1);
	assert_int_equal(cfg.workers[0].rx[2].queue, 1);
	assert_int_equal(cfg.workers[0].rx_burst, 0);	/* absent: the dataplane's default */
	assert_int_equal(load_with("rx = dp0:0", "rx_burst = 32\nrx = dp0:0"), 0);
	assert_int_equal(cfg.workers[0].rx_burst, 32);
	assert_int_equal(load_with("rx = dp0:0", "rx_burst = 256\nrx = dp0:0"), 0);
	assert_int_equal(cfg.workers[0].rx_burst, 256);
	assert_string_equal(cfg.api_socket, "/tmp/t.sock");
	assert_int_equal(cfg.fib_routes, 65536);
	assert_int_equal(cfg.max_neighbours, 65536);	/* the default */
	assert_int_equal(cfg.nb_tables, 3);
	assert_int_equal(cfg.tables[0], 100);
	assert_int_equal(cfg.tables[1], 7);
	assert_int_equal(cfg.tables[2], 253);
	assert_int_equal(cfg.exception_idle_ms, 1);	/* the default: punts wait at most 1 ms */
	assert_int_equal(load_with("[netlink]", "[exception]\nidle_sleep_max_ms = 8\n[netlink]"), 0);
	assert_int_equal(cfg.exception_idle_ms, 8);
	assert_int_equal(cfg.netlink_batch_us, 1000);	/* the default: batches 1 ms apart */
	assert_int_equal(load_with("tables = 100, 7 default", "batch_interval_us = 0"), 0);
	assert_int_equal(cfg.netlink_batch_us, 0);
	assert_int_equal(load_with("[netlink]", "[neighbours]\nmax = 1048576\n[netlink]"), 0);
	assert_int_equal(cfg.max_neighbours, 1048576);
	assert_false(cfg.memif_accept_unsealed);
	assert_int_equal(load_with("[netlink]", "[memif]\npeer_memory = any\n[netlink]"), 0);
	assert_true(cfg.memif_accept_unsealed);
}

/* [control-plane]: each class's policer, and the management ports with the metrics port. */
static void test_config_control_plane(void **state)
{
	(void)state;
	assert_int_equal(load(good), 0);
	assert_int_equal(cfg.copp_rate[0], 20000);	/* routing, by default: a full table over BGP */
	assert_int_equal(cfg.copp_burst[0], 5000);
	assert_int_equal(cfg.copp_rate[1], 2000);	/* neighbour */
	assert_int_equal(cfg.ports[0].punt_rate, 10000);	/* other: the port's */
	assert_int_equal(cfg.nb_mgmt_ports, 2);
	assert_int_equal(cfg.mgmt_ports[0], 22);
	assert_int_equal(cfg.mgmt_ports[1], 161);
	assert_int_equal(load_with("[netlink]", "[control-plane]\nrouting_rate = 500\nicmp_burst = 7\n"
				   "management_ports = 830, 2222\n[metrics]\nlisten = 9101\n[netlink]"), 0);
	assert_int_equal(cfg.copp_rate[0], 500);
	assert_int_equal(cfg.copp_burst[3], 7);	/* icmp */
	assert_int_equal(cfg.nb_mgmt_ports, 3);
	assert_int_equal(cfg.mgmt_ports[0], 830);
	assert_int_equal(cfg.mgmt_ports[1], 2222);
	assert_int_equal(cfg.mgmt_ports[2], 9101);	/* the metrics endpoint's */

	assert_error("[netlink]", "[control-plane]\nrouting_rate = 0\n[netlink]",
		     "[control-plane] routing_rate = '0': expected an integer from 1 to 10000000");
	assert_error("[netlink]", "[control-plane]\nmanagement_ports = 22 ssh\n[netlink]",
		     "[control-plane] management_ports = '22 ssh': 'ssh' is not a port (1 to 65535)");
	assert_error("[netlink]", "[control-plane]\nmanagement_ports = 22 70000\n[netlink]",
		     "[control-plane] management_ports = '22 70000': '70000' is not a port (1 to 65535)");
	assert_error("[netlink]", "[control-plane]\nmanagement_ports = 22 161 22\n[netlink]",
		     "[control-plane] management_ports = '22 161 22': port 22 is listed twice");
	assert_error("[netlink]", "[control-plane]\nmanagement_ports = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n[netlink]",
		     "at most 15 ports");
	assert_error("[netlink]", "[control-plane]\npolice_everything = yes\n[netlink]",
		     "police_everything");
}

/* A bond over dp1 and a third port: workers poll the bond; its members are only its own. */
#define BOND "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmembers = dp1 dp2\n[worker 1]\nrx = dp0:0 bond0:0"

static void test_config_bonds(void **state)
{
	(void)state;
	assert_int_equal(load_with("rxq = 2\n[worker 1]\nrx = dp0:0 dp1:0 dp1:1",
				   BOND "\n[bond bond1]\nmembers = dp0\n"), -EINVAL);
	assert_non_null(strstr(err, "[worker 1] rx: port dp0 is a member of bond bond1; workers poll the bond (bond1:0), never its members"));
	assert_int_equal(load_with("rxq = 2\n[worker 1]\nrx = dp0:0 dp1:0 dp1:1",
				   "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmembers = dp1 dp2\nmode = active-backup\nxmit_hash = l34\nlacp_rate = fast\nmtu = 1400\n[worker 1]\nrx = dp0:0 bond0:0"), 0);
	assert_int_equal(cfg.nb_ports, 4);
	assert_true(cfg.ports[3].is_bond);
	assert_int_equal(cfg.ports[3].bond_mode, TERN_BOND_ACTIVE_BACKUP);
	assert_int_equal(cfg.ports[3].xmit_hash, TERN_BOND_HASH_L34);
	assert_int_equal(cfg.ports[3].lacp_rate, 1);
	assert_int_equal(cfg.ports[3].mtu, 1400);
	assert_int_equal(cfg.ports[3].nb_members, 2);
	assert_int_equal(cfg.ports[1].member_of, 4);
	assert_int_equal(cfg.ports[2].member_of, 4);
	assert_string_equal(cfg.ports[3].tap, "bond0");
}

static void test_config_bond_errors(void **state)
{
	const char *from = "rxq = 2\n[worker 1]\nrx = dp0:0 dp1:0 dp1:1";

	(void)state;
	assert_error(from, BOND "\n[bond bond1]\nmembers = dp2\n",
		     "[bond bond1] members: port dp2 is already a member of bond bond0");
	assert_error(from, "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmembers = dp1 dp2\n[worker 1]\nrx = dp0:0 dp1:0",
		     "[worker 1] rx: port dp1 is a member of bond bond0; workers poll the bond (bond0:0), never its members");
	assert_error(from, "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmembers = dp1 dp2\nmode = lacp\n[worker 1]\nrx = dp0:0 bond0:0",
		     "[bond bond0] mode = 'lacp': expected 802.3ad|active-backup or balance-xor");
	assert_error(from, "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmembers = dp1 dp9\n[worker 1]\nrx = dp0:0 bond0:0",
		     "[bond bond0] members: 'dp9' is not a port; define it in a [port dp9] section");
	assert_error(from, "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmembers = dp1 dp2\ndev = net_bonding0\n[worker 1]\nrx = dp0:0 bond0:0",
		     "[bond bond0] unknown key 'dev'");
	assert_error(from, "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmode = 802.3ad\n[worker 1]\nrx = dp0:0 dp1:0 dp2:0",
		     "[bond bond0] members: missing");
	assert_error(from, "[port dp2]\ndev = net_memif2,role=server\n[bond bond0]\nmembers = dp1 dp2\nlacp_rate = quick\n[worker 1]\nrx = dp0:0 bond0:0",
		     "[bond bond0] lacp_rate = 'quick': expected slow or fast");
}

static void test_config_errors_name_section_key_and_expectation(void **state)
{
	assert_error("mtu = 9000", "mtu = 20", "[port dp0] mtu = '20': expected an integer from 68 to 9216");
	assert_error("rxq = 2", "rxq = two", "[port dp1] rxq = 'two': expected an integer from 1 to 16");
	assert_error("mac = 02:00:00:00:00:01", "mac = 01:00:00:00:00:01", "[port dp0] mac = '01:00:00:00:00:01': expected a unicast MAC");
	assert_error("rx = dp0:0 dp1:0 dp1:1", "rx = dp0:0 dp7:0", "[worker 1] rx: port 'dp7' is not defined; known: dp0, dp1");
	assert_error("rx = dp0:0 dp1:0 dp1:1", "rx = dp0:0 dp1:0 dp1:5", "port dp1 has 2 rx queue(s); expected a queue from 0 to 1");
	assert_error("rx = dp0:0 dp1:0 dp1:1", "rx = dp0:0 dp1:0", "[port dp1]: rx queue 1 is polled by no worker");
	assert_error("rx = dp0:0 dp1:0 dp1:1", "rx = dp0:0 dp1:0 dp1:1 dp0:0", "dp0:0 is already polled by worker 1");
	assert_error("[worker 1]", "[worker 0]", "[worker 0]: lcore 0 is the main (control) lcore");
	assert_error("[worker 1]", "[worker x]", "expected [worker N] with N an lcore number");
	assert_error("rx = dp0:0", "rx_burst = 0\nrx = dp0:0", "[worker 1] rx_burst = '0': expected an integer from 1 to 256");
	assert_error("rx = dp0:0", "rx_burst = 257\nrx = dp0:0", "[worker 1] rx_burst = '257': expected an integer from 1 to 256");
	assert_error("rx = dp0:0", "rx_burst = 64k\nrx = dp0:0", "[worker 1] rx_burst = '64k': expected an integer from 1 to 256");
	assert_error("dev = net_memif1,role=server", "dev = eth0", "[port dp1] dev = 'eth0': expected a PCI address");
	assert_error("dev = net_memif1,role=server\n", "", "[port dp1] dev: missing");
	assert_error("rxq = 2\n[worker 1]\nrx = dp0:0 dp1:0 dp1:1",
		     "rxq = 2\ntxq = 1\n[worker 1]\nrx = dp0:0 dp1:0\n[worker 2]\nrx = dp1:1",
		     "[port dp1] txq = 1: expected at least 2 (one per worker)");
	assert_error("[fib]", "[fibs]", "[fibs]: unknown section");
	assert_error("[fib]", "[neighbours]\nmax = 2000000\n[fib]", "[neighbours] max = '2000000': expected an integer from 1024 to 1048576");
	assert_error("[fib]", "[neighbours]\nlimit = 2000\n[fib]", "[neighbours] unknown key 'limit'");
	assert_error("[fib]", "[memif]\npeer_memory = trusted\n[fib]", "[memif] peer_memory = 'trusted': expected sealed or any");
	assert_error("routes = 65536", "route = 65536", "[fib] unknown key 'route'");
	assert_error("[api]", "[api", "line 13: '[api': expected a section header");
	assert_error("socket = /tmp/t.sock", "socket /tmp/t.sock", "line 14: 'socket /tmp/t.sock': expected 'key = value'");
	assert_error("[port dp1]", "[port dp0]", "[port dp0]: port 'dp0' is defined twice");
	assert_error("tables = 100, 7 default", "tables = 100 vrf", "[netlink] tables = '100 vrf': 'vrf' is not a table number (1 to 4294967295) or default");
	assert_error("tables = 100, 7 default", "tables = 254", "[netlink] tables = '254': 254 (main) is always mirrored; list only other tables");
	assert_error("tables = 100, 7 default", "tables = 7 100 7", "[netlink] tables = '7 100 7': table 7 is listed twice");
	assert_error("tables = 100, 7 default", "tables = 1 2 3 4 5 6 7 8 9", "[netlink] tables = '1 2 3 4 5 6 7 8 9': at most 8 tables");
	assert_error("[netlink]", "[exception]\nidle_sleep_max_ms = 0\n[netlink]", "[exception] idle_sleep_max_ms = '0': expected an integer from 1 to 100");
	assert_error("[netlink]", "[exception]\nidle_sleep = 8\n[netlink]", "[exception] unknown key 'idle_sleep'");
	assert_error("tables = 100, 7 default", "batch_interval_us = 100001", "[netlink] batch_interval_us = '100001': expected an integer from 0 to 100000");
}

static void test_config_missing_file(void **state)
{
	assert_true(tern_config_load("/nonexistent/ternd.conf", &cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/nonexistent/ternd.conf: cannot open: No such file or directory");
}

static void test_config_pci_device_detected(void **state)
{
	assert_int_equal(load_with("dev = net_memif1,role=server", "dev = 0000:03:00.1"), 0);
	assert_true(cfg.ports[1].is_pci);
}

static bool has(const struct tern_eal_args *a, const char *opt, const char *val)
{
	int i;

	for (i = 0; i + 1 < a->argc; i++)
		if (strcmp(a->argv[i], opt) == 0 && (val == NULL || strcmp(a->argv[i + 1], val) == 0))
			return true;
	return val == NULL && a->argc > 0 && strcmp(a->argv[a->argc - 1], opt) == 0;
}

static void test_eal_args_never_probe_pci_unless_asked(void **state)
{
	struct tern_eal_args a;

	assert_int_equal(load(good), 0);
	assert_int_equal(tern_eal_args_build(&cfg, &a, err, sizeof(err)), 0);
	assert_string_equal(a.argv[0], "ternd");
	assert_true(has(&a, "--no-huge", NULL));
	assert_true(has(&a, "-l", "0,1"));
	assert_true(has(&a, "--no-pci", NULL));
	assert_true(has(&a, "--vdev", "net_memif0,role=server,socket=/run/tern/m0.sock"));
	assert_true(has(&a, "--file-prefix", "tern"));
	assert_null(a.argv[a.argc]);

	assert_int_equal(load_with("dev = net_memif1,role=server", "dev = 0000:03:00.1"), 0);
	assert_int_equal(tern_eal_args_build(&cfg, &a, err, sizeof(err)), 0);
	assert_false(has(&a, "--no-pci", NULL));
	assert_true(has(&a, "-a", "0000:03:00.1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_good_file_loads),
		cmocka_unit_test(test_config_control_plane),
		cmocka_unit_test(test_config_errors_name_section_key_and_expectation),
		cmocka_unit_test(test_config_bonds),
		cmocka_unit_test(test_config_bond_errors),
		cmocka_unit_test(test_config_missing_file),
		cmocka_unit_test(test_config_pci_device_detected),
		cmocka_unit_test(test_eal_args_never_probe_pci_unless_asked),
	};
	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
