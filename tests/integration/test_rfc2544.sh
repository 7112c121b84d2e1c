#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A short RFC 2544 run (the --quick profile cut down to one frame size) of ternd over memif:
# it completes, ternd forwarded the trials, and every report file is there and parses. Then
# bidirectional, and IPv6 (RFC 5180: its smallest frame the one that carries the stamp).
. "$(dirname "$0")/lib.sh"
tern_test_begin rfc2544
OUT=$T_DIR/report

TERN_BUILD=$TERN_BUILD "$TERN_ROOT/bench/rfc2544.sh" "$TERN_BUILD" "$OUT" --quick --sizes 64,512 \
	--trial 0.3 --latency-trial 0.3 --recovery 0.3 --b2b-repeats 1 --max-trials 4 \
	--loss-goal 0 --loss-goal 0.5 > "$T_DIR/run.log" 2>&1
rc=$?
sed 's/^/    /' "$T_DIR/run.log" | grep -v '^    rfc2544: ' | tail -n 12
check "the run completes" [ $rc -eq 0 ]
for f in report.md results.json results.csv throughput.svg latency.svg loss.svg; do
	check "$f is written" [ -s "$OUT/$f" ]
done

check "results.json parses and ternd forwarded at both sizes under both loss goals" /usr/bin/python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [s["frame_size"] for s in d["sizes"]] == [64, 512], d["sizes"]
for s in d["sizes"]:
    assert s["ceiling_pps"] > 0
    ndr, pdr = s["throughput"]
    assert ndr["loss_goal_pct"] == 0 and pdr["loss_goal_pct"] == 0.5
    assert ndr["pps"] > 10000, ndr
    assert ndr["loss_pct"] == 0, ndr
    assert pdr["loss_pct"] <= 0.5, pdr
    assert s["latency_ns"]["samples"] > 0 and s["latency_ns"]["min"] <= s["latency_ns"]["p99"]
    assert len(s["frame_loss"]) >= 2 and s["frame_loss"][0]["pct_of_max"] == 100
    assert s["back_to_back"]["runs"] == 1
    assert s["recovery"] is not None
tests = {t["test"] for t in d["trials"]}
assert tests >= {"ceiling", "throughput", "latency", "frame_loss", "back_to_back"}, tests
for t in d["trials"]:
    if t["test"] == "throughput" and t["pass"]:
        assert t["tx"] > 0 and t["rx"] >= t["tx"] * (1 - 0.005), t
assert "rfc2544-dut" in d["dut"] and "show version" not in d["dut"], d["dut"][:200]
PY
check "results.csv has its header and a throughput row per size and goal" \
	bash -c "head -1 '$OUT/results.csv' | grep -qx 'frame_size,test,parameter,value,unit' &&
		[ \$(grep -c ',throughput,loss<=.*,pps$' '$OUT/results.csv') -eq 4 ]"
check "the SVG charts are well-formed XML" /usr/bin/python3 -c '
import sys, xml.dom.minidom as m
for f in sys.argv[1:]:
    assert m.parse(f).documentElement.tagName == "svg"' "$OUT/throughput.svg" "$OUT/latency.svg" "$OUT/loss.svg"
check "report.md has every section and the DUT's account" bash -c "
	for s in 'Throughput (§26.1)' 'Latency at the throughput rate' 'Frame loss rate' \
		'Back-to-back frames' 'System recovery' 'Device under test' 'hostname rfc2544-dut'; do
		grep -qF \"\$s\" '$OUT/report.md' || { echo \"missing: \$s\"; exit 1; }
	done"

# Bidirectional: both ports send, both receive, and the DUT's counters show it.
BIDIR=1 TERN_BUILD=$TERN_BUILD "$TERN_ROOT/bench/rfc2544.sh" "$TERN_BUILD" "$T_DIR/bidir" --quick \
	--sizes 64 --tests throughput --trial 0.3 --max-trials 5 > "$T_DIR/bidir.log" 2>&1
check "a bidirectional run completes" [ $? -eq 0 ]
check "in it, ternd forwarded both ways and the report says the rates are sums" /usr/bin/python3 - "$T_DIR/bidir/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"]["bidirectional"] is True
assert d["sizes"][0]["throughput"][0]["pps"] > 10000
ifs = next(json.loads(l) for l in d["dut"].split("\n") if l.startswith('{"interfaces"'))["interfaces"]
rx = {i["name"]: i["rx_packets"] for i in ifs}
tx = {i["name"]: i["tx_packets"] for i in ifs}
assert rx["m0"] > 10000 and rx["m1"] > 10000 and tx["m0"] > 10000 and tx["m1"] > 10000, (rx, tx)
PY
# IPv6: the default sizes start at the smallest IPv6 frame that carries the stamp; ternd's
# workers forwarded the trials (the exception path would have policed them to 10 000 a second)
IPV6=1 TERN_BUILD=$TERN_BUILD "$TERN_ROOT/bench/rfc2544.sh" "$TERN_BUILD" "$T_DIR/ipv6" --quick \
	--tests throughput --trial 0.3 --max-trials 4 > "$T_DIR/ipv6.log" 2>&1
check "an IPv6 run completes" [ $? -eq 0 ]
check "in it, ternd forwarded IPv6 at every default size, the first 82 bytes" /usr/bin/python3 - "$T_DIR/ipv6/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"]["ipv6"] is True and "IPv6/UDP flows from 2001:2::2" in d["generator"], d["generator"]
assert [s["frame_size"] for s in d["sizes"]] == [82, 128, 256, 512, 1024, 1280, 1518], d["sizes"]
for s in d["sizes"]:
    assert s["throughput"][0]["pps"] > 20000, s
errors = next(json.loads(l) for l in d["dut"].split("\n") if '"punt_non_ip"' in l)
assert errors["punt_non_ip"] == 0 and errors["punt_local"] < 100, errors
PY
out=$("$TERN_BUILD/tern-bench" rfc2544 --port net_null0 --port net_null1 --dst-mac 02:00:00:00:a0:00 \
	--ipv6 --sizes 64 2>&1)
check "an IPv6 frame size too small for the stamp is refused in a sentence: $out" \
	grep -q "frame size 64: an IPv6 frame carrying the generator's stamp takes 82 bytes or more" <<<"$out"

check "the run left no namespace behind" bash -c "! ip netns list | grep -q tern-rfc2544-tern-r"
check "the run left no DPDK runtime directory behind" bash -c "! ls -d /var/run/dpdk/tern-rfc2544-tern-* 2>/dev/null"
tern_test_end
