#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The Debian package: build it, install it on this machine, run the installed ternd on virtual
# ports and query it with the installed tern, then purge it and find nothing left behind.
. "$(dirname "$0")/lib.sh"
tern_test_begin packaging
# make deb builds the package from the source, whatever TERN_BUILD holds: under make asan
# (TERN_BUILD=build/asan) it would build and test the very same package a second time
if [ "$(readlink -f "$TERN_BUILD")" != "$(readlink -f "$TERN_ROOT/build")" ]; then
	say "skip: the package is built from the source, not from $TERN_BUILD; make test runs this"
	exit 0
fi
if dpkg-query -W -f='${Status}' tern 2>/dev/null | grep -q "install ok installed"; then
	say "skip: a tern package is already installed here; not replacing it"
	exit 0
fi
purge() { dpkg --purge tern >/dev/null 2>&1; }
tern_on_exit purge

( cd "$TERN_ROOT" && make -s deb ) > "$T_DIR/deb.log" 2>&1
check "make deb builds the package, lintian finds no error" [ $? -eq 0 ]
deb=$(ls "$TERN_ROOT"/build/deb/tern_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { tail -20 "$T_DIR/deb.log"; exit 1; }
dpkg -i "$deb" > "$T_DIR/install.log" 2>&1
check "dpkg -i installs it" [ $? -eq 0 ]
dpkg -L tern > "$T_DIR/files"
for f in /usr/sbin/ternd /usr/bin/tern /usr/bin/tern-bench /etc/tern/ternd.conf \
	/lib/systemd/system/ternd.service /usr/share/man/man8/ternd.8.gz /usr/share/man/man5/ternd.conf.5.gz \
	/usr/share/bash-completion/completions/tern; do
	check "installed: $f" [ -e "$f" ]
done
check "/etc/tern/ternd.conf is a conffile" grep -q "/etc/tern/ternd.conf" <<<"$(dpkg-query -W -f='${Conffiles}' tern)"
check "the group tern exists" getent group tern >/dev/null
check "/var/lib/tern exists" [ -d /var/lib/tern ]
check "the installed ternd checks its example configuration" /usr/sbin/ternd --check-config -f /etc/tern/ternd.conf >/dev/null
check "the unit is installed but not enabled" [ "$(systemctl is-enabled ternd.service 2>/dev/null || echo disabled)" != enabled ]

R=tern-$T_ID-r
netns_add "$R"
TERND=/usr/sbin/ternd TERN=/usr/bin/tern
write_tap_config 2
start_ternd "$R"
out=$(/usr/bin/tern -s "$T_SOCK" -c "show version" -c "show interfaces brief")
check "the installed tern talks to the installed ternd" grep -q "^dp1 .*net_tap" <<<"$out"
stop_ternd

purge
installed() { dpkg-query -W -f='${Status}' tern 2>/dev/null | grep -q "install ok installed"; }
check_not "dpkg --purge removes it" installed
left=$(while read -r f; do [ -f "$f" ] && echo "$f"; done < "$T_DIR/files")
check "no installed file is left behind${left:+: $left}" [ -z "$left" ]
check "/etc/tern and /var/lib/tern are gone" [ ! -e /etc/tern -a ! -e /var/lib/tern ]
check_not "the group tern is gone" getent group tern
tern_test_end
