#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Installs exactly the Debian packages tern needs to build, run and test.
# --check only reports (exit 1) whether any is missing.
set -e
PKGS="build-essential pkg-config libdpdk-dev dpdk dpdk-dev dpdk-doc libmnl-dev
libreadline-dev libsqlite3-dev sqlite3 clang xxd debhelper dpkg-dev lintian bird2 frr libcmocka-dev python3-scapy tcpdump iproute2
iputils-ping traceroute tmux procps strace gdb cppcheck clang-tidy clang-format prometheus
snmpd snmptrapd snmp libsnmp-dev pmacct tshark"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	[ "$1" = "--check" ] || echo "deps: all packages present"
	exit 0
fi
[ "$1" = "--check" ] && { echo "deps: missing:$missing"; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: packages missing:$missing; run 'make deps' as root to install them" >&2
	exit 1
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# frr's package would start its daemons in the host's namespace; the tests start their own
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' > "$policy"
	chmod +x "$policy"
	trap 'rm -f "$policy"' EXIT
fi
apt-get update -q
apt-get install -y -q --no-install-recommends $missing
