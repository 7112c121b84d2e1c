#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Who may do what on the API socket: root and processes in group tern configure (by the groups
# the kernel gives for the peer, not /etc/group's list); a user outside group tern may read but
# not configure when the socket is open to all (mode 0666); with the default mode 0660 such a
# user cannot connect at all and is told why.
. "$(dirname "$0")/lib.sh"
tern_test_begin permissions
R=tern-$T_ID-r
netns_add "$R"
T_SOCK_MODE=0666 write_tap_config 2
start_ternd "$R"
chmod 755 "$T_DIR"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$TERN" -s "$T_SOCK" "$@"; }

check "the socket's mode is 0666 as configured" [ "$(stat -c %a "$T_SOCK")" = 666 ]
check "its group is tern" [ "$(stat -c %G "$T_SOCK")" = tern ]
out=$(as_nobody -c "show version" 2>&1)
check "an unprivileged user can read: $(head -1 <<<"$out")" grep -q "^tern " <<<"$out"
out=$(as_nobody -c "configure terminal" 2>&1); rc=$?
check "but not configure (exit $rc): $out" grep -q "Permission denied: 'configure terminal' changes the router; only root and members of group 'tern' may configure" <<<"$out"
check "and the exit status says so" [ $rc -ne 0 ]
out=$(as_nobody -c "write memory" 2>&1)
check "nor save: $out" grep -q "Permission denied" <<<"$out"
check "root configures" tern_cli -c "configure terminal" -c "hostname ok" -c "end"
# a member of group tern by the groups its process holds (setpriv gives nobody the group
# without /etc/group saying so): ternd asks the kernel for the peer's groups
tern_gid=$(getent group tern | cut -d: -f3)
as_member() { setpriv --reuid=65534 --regid=65534 --groups="$tern_gid" "$TERN" -s "$T_SOCK" "$@"; }
out=$(as_member -c "configure terminal" -c "hostname member" -c "end" 2>&1); rc=$?
check "a non-root process in group tern configures (exit $rc) $out" [ $rc -eq 0 ]
check "and its change took" grep -q "^hostname member" <<<"$(tern_cli -c "show running-config")"

stop_ternd
write_tap_config 2
start_ternd "$R"
check "the default mode is 0660" [ "$(stat -c %a "$T_SOCK")" = 660 ]
out=$(as_nobody -c "show version" 2>&1)
check "then an outsider cannot connect and is told why: $out" grep -q "permission denied on $T_SOCK: join group 'tern' or run as root" <<<"$out"
tern_test_end
