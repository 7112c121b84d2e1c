# SPDX-License-Identifier: BSD-3-Clause
# tern: build, test, run and benchmark the router.
# `make` builds build/ternd, build/tern and build/tern-bench.

PREFIX   ?= /usr
DESTDIR  ?=
MARCH    ?= x86-64-v2
BUILD    ?= build
# make run, test, asan, fuzz and bench build with this many compilers at once
JOBS     ?= $(shell nproc)
CC       ?= cc

DEPS_PKGS := libdpdk libmnl readline sqlite3
PKG_CFLAGS := $(shell pkg-config --cflags $(DEPS_PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(DEPS_PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)
# net-snmp's agent library, for ternd's AgentX subagent (controlplane/snmp/): ternd and the
# tests and fuzz targets, which link the control plane, take it; tern and tern-bench do not
SNMP_LIBS := $(shell pkg-config --libs netsnmp-agent 2>/dev/null)

# -fno-strict-aliasing: packet code reads and writes headers through casts of byte
# buffers (as the kernel does, and builds with the same flag). With strict aliasing, -O3
# moved a test's header stores past the checksum computed over them (test_fastpath's
# frames). Its cost is within run-to-run noise: bench/pipeline.sh, ROUNDS=3, 26.5 and
# 26.1 cycles/packet with 1k routes, 36.0 and 38.0 with 1M (without the flag, with it).
CFLAGS_BASE := -std=gnu11 -O3 -g -Wall -Wextra -Werror -Wno-unused-parameter -fno-strict-aliasing \
	-DALLOW_EXPERIMENTAL_API -D_GNU_SOURCE -I. $(PKG_CFLAGS) -march=$(MARCH)
EXTRA_CFLAGS  ?=
EXTRA_LDFLAGS ?=
CFLAGS  := $(CFLAGS_BASE) $(EXTRA_CFLAGS)
LDFLAGS := $(EXTRA_LDFLAGS)
# the bonding driver's API (rte_eth_bond_*): a driver, which libdpdk's pkg-config leaves out
LDLIBS  := $(PKG_LIBS) -lrte_net_bond -lm -lpthread

API_SRC   := $(wildcard api/*.c)
# dataplane/workarounds/interpose_*.c define libc functions (close, mmap, munmap) and EAL's
# interrupt registrations for DPDK 22.11's memif PMD: only the programs and tests that need
# them link them. EAL's names are taken in ternd alone, whose EAL is a shared library, and its
# link exports them so that the PMD, a plugin EAL loads, binds to them.
INTERPOSE_CLOSE := dataplane/workarounds/interpose_close.c
INTERPOSE_MMAP  := dataplane/workarounds/interpose_mmap.c
INTERPOSE_INTR  := dataplane/workarounds/interpose_intr.c
INTERPOSE_RECVMSG := dataplane/workarounds/interpose_recvmsg.c
INTERPOSE_PCAPNG := dataplane/workarounds/interpose_pcapng.c
INTERPOSE_PCAPNG_EXPORT := -Wl,--export-dynamic-symbol=rte_pcapng_copy
INTERPOSE_INTR_EXPORT := $(foreach f,register unregister unregister_pending,\
	-Wl,--export-dynamic-symbol=rte_intr_callback_$(f))
# dataplane/ by what a packet meets: l2/ (ports, Ethernet, VLANs, bonds, the rewrite), ip4/, ip6/,
# fib/ (both families' tables, the nexthops), punt/ (the exception path's side, the sinks), icmp/
DP_DIRS   := dataplane dataplane/l2 dataplane/ip4 dataplane/ip6 dataplane/fib dataplane/punt \
	dataplane/icmp dataplane/acl
DP_SRC    := $(foreach d,$(DP_DIRS),$(wildcard $(d)/*.c)) $(filter-out $(INTERPOSE_CLOSE) $(INTERPOSE_MMAP) \
	$(INTERPOSE_INTR) $(INTERPOSE_RECVMSG) $(INTERPOSE_PCAPNG),$(wildcard dataplane/workarounds/*.c))
HARNESS_SRC := $(wildcard dataplane/harness/*.c)
KNI_SRC   := $(wildcard kni/*.c)
CP_SRC    := $(filter-out controlplane/ternd/main.c,$(wildcard controlplane/*/*.c))
CLI_SRC   := $(filter-out cli/main.c,$(wildcard cli/*.c))
BENCH_SRC := $(filter-out bench/main.c,$(wildcard bench/*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

TERND_OBJ := $(call obj,controlplane/ternd/main.c $(CP_SRC) $(DP_SRC) $(KNI_SRC) $(API_SRC) \
	$(INTERPOSE_CLOSE) $(INTERPOSE_MMAP) $(INTERPOSE_RECVMSG))
TERN_OBJ  := $(call obj,cli/main.c $(CLI_SRC) $(API_SRC))
BENCH_OBJ := $(call obj,bench/main.c $(BENCH_SRC) $(DP_SRC) $(HARNESS_SRC) $(API_SRC) $(INTERPOSE_CLOSE) \
	$(INTERPOSE_MMAP))
LIB_OBJ   := $(call obj,$(CP_SRC) $(DP_SRC) $(HARNESS_SRC) $(KNI_SRC) $(API_SRC) $(CLI_SRC) $(BENCH_SRC))
# The unit tests of the guards, and the fuzz target of the memif PMD as ternd runs it, and only
# they, carry the interposers.
INTERPOSE_TESTS := test_memseg_fd_guard:$(INTERPOSE_CLOSE) test_memif_peer_guard:$(INTERPOSE_MMAP) \
	test_memif_channel_guard:$(INTERPOSE_CLOSE) test_memif_channel_guard:$(INTERPOSE_RECVMSG) \
	$(foreach f,$(INTERPOSE_CLOSE) $(INTERPOSE_MMAP) $(INTERPOSE_RECVMSG) $(INTERPOSE_INTR),fuzz_memif:$(f))
interposers = $(call obj,$(patsubst $(1):%,%,$(filter $(1):%,$(INTERPOSE_TESTS))))

FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN  := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 30

UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

PROGRAMS := $(BUILD)/ternd $(BUILD)/tern $(BUILD)/tern-bench

# ternd-static: ternd linked with DPDK's static archives: the libraries, and whole the buses,
# mempool drivers and every ethdev driver Debian ships (a NIC must work without a plugin
# directory); the C library and the drivers' own dependencies shared. A PMD's mempool and
# lcore accesses then cost no __tls_get_addr and no PLT call: 1.02-1.07x the rate of ternd
# in make bench's harness (bench/ab.sh, both ways round). Not the default: DPDK's multi-process
# tools (dpdk-dumpcap, so `tern capture`, and dpdk-proc-info), built on the shared libraries,
# cannot attach to it (ARCHITECTURE.md, Decisions). The memif PMD's archive is copied with
# its mmap and munmap calls renamed to dataplane/workarounds/memif_peer_guard.c's entries, which a
# shared PMD reaches by symbol interposition.
DPDK_LIBDIR := $(shell pkg-config --variable=libdir libdpdk 2>/dev/null)
DPDK_STATIC_ALL := $(shell pkg-config --static --libs libdpdk 2>/dev/null)
DPDK_DRIVERS := $(filter -l:librte_common_% -l:librte_bus_% -l:librte_mempool_% -l:librte_net_%,\
	$(DPDK_STATIC_ALL))
DPDK_CORE_LIBS := $(filter-out $(foreach k,common bus mempool net dma raw crypto compress regex \
	vdpa event baseband,-l:librte_$(k)_%),$(filter -l:librte_%,$(DPDK_STATIC_ALL)))
DPDK_SYSTEM_LIBS := $(sort $(filter-out -l:% -lrte_% -lsystemd -ldbus-1,$(filter -l% -pthread,\
	$(DPDK_STATIC_ALL))))
MEMIF_GUARDED := $(BUILD)/dpdk/librte_net_memif_guarded.a
TERND_STATIC_LIBS := -Wl,--whole-archive \
	$(patsubst -l:librte_net_memif.a,$(MEMIF_GUARDED),$(DPDK_DRIVERS)) -Wl,--no-whole-archive \
	-Wl,--start-group $(DPDK_CORE_LIBS) -Wl,--end-group -Wl,--as-needed $(DPDK_SYSTEM_LIBS) \
	$(shell pkg-config --libs libmnl sqlite3 2>/dev/null) $(SNMP_LIBS) -lm -lpthread

# A tern-bench with DPDK (only the drivers it needs: vdev bus, null, memif and
# ring ports) and the C library linked in, to run on machines without DPDK.
STATIC_DPDK := -Wl,--whole-archive -l:librte_bus_vdev.a -l:librte_net_null.a \
	-l:librte_net_memif.a -l:librte_net_ring.a -l:librte_mempool_ring.a -Wl,--no-whole-archive \
	-Wl,--start-group -l:librte_graph.a -l:librte_acl.a -l:librte_lpm.a -l:librte_fib.a -l:librte_rib.a \
	-l:librte_hash.a -l:librte_ethdev.a -l:librte_meter.a -l:librte_net.a -l:librte_mbuf.a \
	-l:librte_mempool.a -l:librte_rcu.a -l:librte_ring.a -l:librte_eal.a -l:librte_telemetry.a \
	-l:librte_kvargs.a -l:librte_cfgfile.a -l:librte_pci.a -l:librte_net_bond.a -Wl,--end-group \
	-l:libnuma.a -l:libfdt.a -l:libbsd.a -l:libmd.a -lm -ldl -lpthread -latomic

.PHONY: all man format lint deps check-deps run test unit mutants integration bench static-bench scaling rfc2544-quick asan fuzz fuzz-bins install deb clean
all: $(PROGRAMS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/ternd: $(TERND_OBJ) $(call obj,$(INTERPOSE_INTR) $(INTERPOSE_PCAPNG))
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) $(INTERPOSE_INTR_EXPORT) $(INTERPOSE_PCAPNG_EXPORT) $^ -o $@ $(LDLIBS) $(SNMP_LIBS)
$(BUILD)/ternd-static: $(TERND_OBJ) $(MEMIF_GUARDED)
	@echo "  LD      $@ (DPDK static)"
	@$(CC) $(LDFLAGS) $(TERND_OBJ) -o $@ $(TERND_STATIC_LIBS)
$(MEMIF_GUARDED): $(DPDK_LIBDIR)/librte_net_memif.a Makefile
	@mkdir -p $(dir $@)
	@objcopy --redefine-sym munmap=memif_pmd_munmap --redefine-sym mmap64=memif_pmd_mmap \
		$(foreach f,register unregister unregister_pending,\
		--redefine-sym rte_intr_callback_$(f)=memif_pmd_intr_callback_$(f)) $< $@
	@! nm $@ | grep -qE ' U (mmap|munmap)$$' || \
		{ echo "$<: the memif PMD maps memory by a call the guard does not rename"; rm -f $@; exit 1; }
	@! nm $@ | grep -qE ' U rte_intr_callback_' || \
		{ echo "$<: the memif PMD registers interrupts by a call the guard does not rename"; rm -f $@; exit 1; }
$(BUILD)/tern: $(TERN_OBJ)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)
$(BUILD)/tern-bench: $(BENCH_OBJ)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# Unit tests link every non-main object, so a test reaches any unit it needs.
.SECONDEXPANSION:
$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ) $$(call interposers,$$*)
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	@$(CC) $(CFLAGS) $< $(LIB_OBJ) $(call interposers,$*) -o $@ $(LDFLAGS) $(LDLIBS) $(SNMP_LIBS) $(CMOCKA_LIBS)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB_OBJ) $$(call interposers,$$*)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(CC) $(CFLAGS) -fsanitize=fuzzer $< $(LIB_OBJ) $(call interposers,$*) -o $@ $(LDFLAGS) \
		$(if $(filter %interpose_intr.o,$(call interposers,$*)),$(INTERPOSE_INTR_EXPORT)) $(LDLIBS) $(SNMP_LIBS)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# Installs the Debian packages the project needs, when any is missing.
deps:
	@etc/install-deps.sh

check-deps:
	@etc/install-deps.sh --check >/dev/null 2>&1 || etc/install-deps.sh

run: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@bench/demo.sh

unit: $(UNIT_BIN)
	@TERN_TESTS=none tests/run-all.sh $(UNIT_BIN)

# The tests of the safety mechanisms fail with each mechanism taken out (tests/run-mutants.sh).
mutants: $(UNIT_BIN)
	@tests/run-mutants.sh

# TERN_TESTS='test_trace*' picks integration scripts by name
integration: all
	@tests/run-all.sh

test: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) all $(BUILD)/ternd-static $(UNIT_BIN)
	@tests/run-all.sh $(UNIT_BIN)

bench: check-deps static-bench
	@$(MAKE) --no-print-directory -j$(JOBS) all build/native/ternd-static MARCH=native BUILD=build/native
	@GEN_BIN=$(CURDIR)/build/static/tern-bench-static TERN_B=build/native/ternd-static \
		bench/bench.sh build/native
	@TABLE=1m GEN_BIN=$(CURDIR)/build/static/tern-bench-static bench/bench.sh build/native
	@bench/pipeline.sh build/native
	@bench/exception.sh build/native
	@bench/nexthop_replace.sh build/native
	@bench/mirror_scale.sh build/native
	@bench/neigh_scale.sh build/native
	@ROUTES=1000 bench/restart_gap.sh build/native
	@ROUTES=1000000 bench/restart_gap.sh build/native
	@bench/rfc2544_compare.sh build/native
	@bench/flood.sh build/native
	@GEN_BIN=$(CURDIR)/build/static/tern-bench-static bench/churn.sh build/native

static-bench: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/static build/static/tern-bench-static

# RFC 2544 of ternd over memif with the --quick profile; the report goes to OUT.
OUT ?= rfc2544-report
rfc2544-quick: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@bench/rfc2544.sh $(BUILD) $(OUT) --quick

# Forwarding pipeline throughput with 1, 2, 4, 8 workers (bench/scaling.sh).
scaling: static-bench
	@bench/scaling.sh build/static/tern-bench-static

$(BUILD)/tern-bench-static: $(BENCH_OBJ)
	@echo "  LD      $@ (static)"
	@$(CC) -static $(LDFLAGS) $^ -o $@ $(STATIC_DPDK)

asan: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/asan \
		EXTRA_CFLAGS="-O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
		EXTRA_LDFLAGS="-fsanitize=address,undefined" all build/asan/ternd-static \
		$(patsubst $(BUILD)/%,build/asan/%,$(UNIT_BIN))
	@TERN_BUILD=build/asan ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		tests/run-all.sh $(patsubst $(BUILD)/%,build/asan/%,$(UNIT_BIN))

# libFuzzer targets (clang, ASan, UBSan), each run FUZZ_SECONDS from its seed corpus.
fuzz: check-deps
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/fuzz CC=clang \
		EXTRA_CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
		EXTRA_LDFLAGS="-fsanitize=address,undefined" fuzz-bins
	@tests/run-fuzz.sh build/fuzz $(FUZZ_SECONDS)

fuzz-bins: $(FUZZ_BIN)

install: all
	install -D -m 0755 $(BUILD)/ternd $(DESTDIR)$(PREFIX)/sbin/ternd
	install -D -m 0755 $(BUILD)/tern $(DESTDIR)$(PREFIX)/bin/tern
	install -D -m 0755 $(BUILD)/tern-bench $(DESTDIR)$(PREFIX)/bin/tern-bench
	install -D -m 0644 etc/ternd.conf $(DESTDIR)/etc/tern/ternd.conf
	install -D -m 0644 etc/prometheus/tern-alerts.yml $(DESTDIR)$(PREFIX)/share/tern/prometheus/tern-alerts.yml
	install -D -m 0644 etc/snmp/snmpd-tern.conf $(DESTDIR)$(PREFIX)/share/tern/snmp/snmpd-tern.conf
	install -D -m 0644 etc/snmp/snmpd-tern.service.conf $(DESTDIR)$(PREFIX)/share/tern/snmp/snmpd-tern.service.conf
	install -D -m 0644 etc/ternd.service $(DESTDIR)/lib/systemd/system/ternd.service
	install -D -m 0644 docs/man/ternd.8 $(DESTDIR)$(PREFIX)/share/man/man8/ternd.8
	install -D -m 0644 docs/man/tern.8 $(DESTDIR)$(PREFIX)/share/man/man8/tern.8
	install -D -m 0644 docs/man/tern-bench.8 $(DESTDIR)$(PREFIX)/share/man/man8/tern-bench.8
	install -D -m 0644 docs/man/ternd.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/ternd.conf.5
	for d in deployment rfc2544 security; do \
		install -D -m 0644 docs/$$d.md $(DESTDIR)$(PREFIX)/share/doc/tern/$$d.md; done

# The Debian package, built from a copy of the source with packaging/debian as debian/.
deb: check-deps
	@rm -rf build/deb && mkdir -p build/deb/src
	@tar --exclude=./build --exclude=./.git -cf - . | tar -C build/deb/src -xf -
	@cp -r packaging/debian build/deb/src/debian
	@cd build/deb/src && dpkg-buildpackage -us -uc -b -J$(JOBS) > ../build.log 2>&1 || { tail -30 ../build.log; exit 1; }
	@lintian --fail-on error build/deb/*.deb
	@ls build/deb/*.deb

# clang-format (.clang-format) on the lines changed since HEAD: the tree is laid out by hand in
# the house style, which clang-format 14 can only approach (a tab before a trailing comment,
# hand-aligned tables), so it shapes new code and leaves the rest as it is.
format:
	@git clang-format --force -q

# cppcheck and clang-tidy's bugprone checks over every source; a finding fails. A false
# positive is silenced on its line (cppcheck-suppress, NOLINT) with the reason beside it.
LINT_SRC := $(sort controlplane/ternd/main.c cli/main.c bench/main.c $(CP_SRC) $(DP_SRC) \
	$(HARNESS_SRC) $(KNI_SRC) $(API_SRC) $(CLI_SRC) $(BENCH_SRC) $(INTERPOSE_CLOSE) $(INTERPOSE_MMAP) \
	$(INTERPOSE_INTR) $(INTERPOSE_RECVMSG) $(INTERPOSE_PCAPNG))
TIDY_CHECKS := -*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-narrowing-conversions
TIDY_CHECKS := $(TIDY_CHECKS),-bugprone-reserved-identifier,-bugprone-macro-parentheses
TIDY_CHECKS := $(TIDY_CHECKS),-bugprone-assignment-in-if-condition
TIDY_CHECKS := $(TIDY_CHECKS),-bugprone-implicit-widening-of-multiplication-result
lint: check-deps
	@echo "  CPPCHECK"
	@cppcheck --quiet --error-exitcode=1 --inline-suppr --enable=warning,portability,performance \
		--suppress=missingIncludeSystem --std=c11 -I. $(LINT_SRC)
	@echo "  CLANG-TIDY"
	@printf '%s\n' $(LINT_SRC) | xargs -P $$(nproc) -I{} clang-tidy -quiet --checks='$(TIDY_CHECKS)' \
		--warnings-as-errors='*' {} -- $(filter-out -march=% -Werror,$(CFLAGS_BASE)) 2>/dev/null

# The man page of ternd.conf, printed from the configuration schema (config_schema.c).
man: $(BUILD)/ternd
	@$(BUILD)/ternd --config-reference > docs/man/ternd.conf.5

clean:
	rm -rf build
