/* SPDX-License-Identifier: BSD-3-Clause */
/* The configuration store (round trip, history, missing and corrupt databases) and the rollback diff. */
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "controlplane/shell/running_config.h"
#include "controlplane/shell/store.h"

static char path[64];
static char err[512];

static int setup(void **state)
{
	snprintf(path, sizeof(path), "/tmp/tern-test-store-%d.db", getpid());
	unlink(path);
	return 0;
}

static int teardown(void **state)
{
	char p[96];

	store_close();
	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
	return 0;
}

static void test_store_round_trip_and_history(void **state)
{
	struct store_entry *e;
	unsigned int n;
	int64_t id1, id2;
	char *text;

	assert_int_equal(store_open(path, err, sizeof(err)), 0);
	assert_int_equal(store_load(0, &text, err, sizeof(err)), -ENOENT);
	assert_int_equal(store_save("hostname a\nend\n", "root", &id1), 0);
	assert_int_equal(store_save("hostname b\nend\n", "alice", &id2), 0);
	assert_true(id2 > id1);
	assert_int_equal(store_load(0, &text, err, sizeof(err)), 0);
	assert_string_equal(text, "hostname b\nend\n");
	free(text);
	assert_int_equal(store_load(id1, &text, err, sizeof(err)), 0);
	assert_string_equal(text, "hostname a\nend\n");
	free(text);
	assert_int_equal(store_load(id2 + 7, &text, err, sizeof(err)), -ENOENT);
	assert_int_equal(store_history(&e, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(e[0].id, id2);
	assert_string_equal(e[0].user, "alice");
	assert_int_equal(e[0].lines, 2);
	assert_int_equal(e[1].id, id1);
	assert_int_equal(strlen(e[0].created), 20);	/* 2026-11-29T22:00:00Z */
	free(e);
	store_close();
	/* reopened: still there */
	assert_int_equal(store_open(path, err, sizeof(err)), 0);
	assert_int_equal(store_load(0, &text, err, sizeof(err)), 0);
	assert_string_equal(text, "hostname b\nend\n");
	free(text);
}

/* Whether a file path.corrupt-* exists (and removes it). */
static bool moved_aside(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "ls %s.corrupt-* >/dev/null 2>&1 && rm -f %s.corrupt-*", path, path);
	return system(cmd) == 0;
}

static void test_store_corrupt_header_is_moved_aside(void **state)
{
	FILE *f = fopen(path, "w");
	char *text;
	int64_t id;
	int i;

	for (i = 0; i < 4096; i++)
		fputc(i * 7 & 0xff, f);
	fclose(f);
	assert_int_equal(store_open(path, err, sizeof(err)), -EUCLEAN);
	assert_non_null(strstr(err, "was corrupt (file is not a database); it was moved aside to"));
	assert_null(strchr(err, '\n'));
	/* a new database took its place */
	assert_int_equal(store_load(0, &text, err, sizeof(err)), -ENOENT);
	assert_int_equal(store_save("hostname a\nend\n", "root", &id), 0);
	assert_true(moved_aside());
}

/* A database whose first table page (page 2) is overwritten: the header is whole. */
static void test_store_corrupt_page_is_moved_aside(void **state)
{
	char *text, junk[512];
	int64_t id;
	FILE *f;
	int i;

	assert_int_equal(store_open(path, err, sizeof(err)), 0);
	for (i = 0; i < 50; i++)
		assert_int_equal(store_save("hostname a\nip route 198.19.0.0/16 blackhole\nend\n", "root", &id), 0);
	store_close();	/* checkpoints the WAL into the file */
	memset(junk, 0x5a, sizeof(junk));
	f = fopen(path, "r+");
	assert_non_null(f);
	assert_int_equal(fseek(f, 4096 + 8, SEEK_SET), 0);
	assert_int_equal(fwrite(junk, 1, sizeof(junk), f), sizeof(junk));
	fclose(f);
	assert_int_equal(store_open(path, err, sizeof(err)), -EUCLEAN);
	assert_non_null(strstr(err, "was corrupt ("));
	assert_int_equal(store_load(0, &text, err, sizeof(err)), -ENOENT);
	assert_true(moved_aside());
}

static void test_store_settings_and_schema_version(void **state)
{
	struct store_info info;

	assert_int_equal(store_open(path, err, sizeof(err)), 0);
	assert_int_equal(store_info(&info), 0);
	assert_int_equal(info.schema_version, STORE_SCHEMA_VERSION);
	assert_string_equal(info.journal_mode, "wal");
	assert_int_equal(info.synchronous, 2);	/* FULL */
}

static int sql(const char *cmd)
{
	char line[640];

	snprintf(line, sizeof(line), "sqlite3 %s \"%s\"", path, cmd);
	return system(line);
}

static void test_store_newer_schema_is_refused_and_left_alone(void **state)
{
	int64_t id;

	assert_int_equal(store_open(path, err, sizeof(err)), 0);
	assert_int_equal(store_save("hostname a\nend\n", "root", &id), 0);
	store_close();
	assert_int_equal(sql("PRAGMA user_version = 7"), 0);
	assert_int_equal(store_open(path, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "has schema version 7, newer than the version 1 this ternd knows"));
	assert_int_equal(store_save("hostname b\nend\n", "root", &id), -ENODEV);
	assert_int_equal(sql("SELECT count(*) FROM config"), 0);
	assert_false(moved_aside());
}

static void test_store_older_schema_is_migrated(void **state)
{
	struct store_info info;
	char *text;

	/* what a ternd before schema versions wrote */
	assert_int_equal(sql("CREATE TABLE config (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL,"
			     " user TEXT NOT NULL, text TEXT NOT NULL);"
			     " INSERT INTO config (created, user, text) VALUES ('2026-01-01T00:00:00Z', 'root', 'hostname old');"), 0);
	assert_int_equal(store_open(path, err, sizeof(err)), 0);
	assert_int_equal(store_info(&info), 0);
	assert_int_equal(info.schema_version, STORE_SCHEMA_VERSION);
	assert_int_equal(store_load(0, &text, err, sizeof(err)), 0);
	assert_string_equal(text, "hostname old");
	free(text);
}

static void test_store_unusable_without_open(void **state)
{
	char *text;
	int64_t id;

	assert_int_equal(store_save("x", "root", &id), -ENODEV);
	assert_int_equal(store_load(0, &text, err, sizeof(err)), -ENODEV);
}

static void test_transition_removes_then_adds(void **state)
{
	const char *from = "hostname a\n!\ninterface dp0\n ip address 198.18.0.1/24\n mtu 1400\n!\n"
			   "ip route 198.19.0.0/16 198.18.0.2\narp 198.18.0.9 02:00:00:00:00:09 dp0\nend\n";
	const char *to = "hostname b\n!\ninterface dp0\n ip address 198.18.0.1/24\n ip address 198.18.5.1/24\n!\n"
			 "ip route 198.19.1.0/24 blackhole\nend\n";
	struct outbuf out;

	ob_init(&out);
	assert_int_equal(config_transition(from, to, &out), 0);
	assert_string_equal(out.buf,
			    "no arp 198.18.0.9\n"
			    "no ip route 198.19.0.0/16 198.18.0.2\n"
			    "interface dp0\nno mtu\nexit\n"
			    "hostname b\n"
			    "interface dp0\nip address 198.18.5.1/24\nexit\n"
			    "ip route 198.19.1.0/24 blackhole\n");
	ob_reset(&out);
	assert_int_equal(config_transition(to, to, &out), 0);
	assert_true(out.len == 0);
	ob_free(&out);
}

/* control-plane classes: one value each class, a changed one replaced, a gone one undone */
static void test_transition_of_control_plane_classes(void **state)
{
	const char *from = "control-plane\n class icmp rate 50 burst 10\n class routing rate 900 burst 90\n!\n"
			   "interface dp0\n ip address 198.18.0.1/24\n!\nend\n";
	const char *to = "control-plane\n class icmp rate 60 burst 10\n!\n"
			 "interface dp0\n ip address 198.18.0.1/24\n!\nend\n";
	struct outbuf out;

	(void)state;
	ob_init(&out);
	assert_int_equal(config_transition(from, to, &out), 0);
	assert_string_equal(out.buf,
			    "control-plane\nno class routing\nexit\n"
			    "control-plane\nclass icmp rate 60 burst 10\nexit\n");
	ob_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_store_round_trip_and_history, setup, teardown),
		cmocka_unit_test(test_transition_of_control_plane_classes),
		cmocka_unit_test_setup_teardown(test_store_corrupt_header_is_moved_aside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_corrupt_page_is_moved_aside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_settings_and_schema_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_newer_schema_is_refused_and_left_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_older_schema_is_migrated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_unusable_without_open, setup, teardown),
		cmocka_unit_test(test_transition_removes_then_adds),
	};
	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
