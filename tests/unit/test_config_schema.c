/* SPDX-License-Identifier: BSD-3-Clause */
/* ternd.conf's one schema: the man page is printed from it, the example file names every key,
 * every default loads, and what the schema does not list is refused. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "controlplane/ternd/config_priv.h"

static struct tern_config cfg;
static char err[512];

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;

	if (f == NULL)
		fail_msg("%s: cannot open it (run the test from the repository's top folder)", path);
	assert_int_equal(getdelim(&text, &len, '\0', f) > 0, 1);
	fclose(f);
	return text;
}

static int load(const char *text, struct tern_config *out)
{
	char path[] = "/tmp/tern-test-schema-XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err[0] = '\0';
	rc = tern_config_load(path, out, err, sizeof(err));
	unlink(path);
	return rc;
}

static void test_config_schema_man_page_is_printed_from_it(void **state)
{
	char *committed = read_file("docs/man/ternd.conf.5"), *printed = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&printed, &len);

	tern_config_reference(f);
	fclose(f);
	if (strcmp(committed, printed) != 0)
		fail_msg("docs/man/ternd.conf.5 differs from ternd --config-reference: run make man");
	free(committed);
	free(printed);
}

/* The section a line of the example opens ("[port dp0]", "# [metrics]"), or NULL. */
static const char *section_of(const char *line, char *buf, size_t len)
{
	const char *end;

	while (*line == '#' || *line == ' ')
		line++;
	if (*line != '[' || (end = strpbrk(line, " ]")) == NULL)
		return NULL;
	snprintf(buf, len, "%.*s", (int)(end - line - 1), line + 1);
	return buf;
}

/* Whether a line of the example sets key, or shows it commented out: "key =", "# key =". */
static bool names_key(const char *line, const char *key)
{
	size_t n = strlen(key);

	while (*line == '#' || *line == ' ')
		line++;
	if (strncmp(line, key, n) != 0)
		return false;
	for (line += n; *line == ' '; line++)
		;
	return *line == '=';
}

static void test_config_schema_example_file_names_every_key(void **state)
{
	char *text = read_file("etc/ternd.conf"), *line, *save = NULL, sect[32] = "";
	const struct config_key *k;
	bool seen[128] = { false };
	unsigned int i;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (section_of(line, sect, sizeof(sect)) != NULL)
			continue;
		for (k = config_keys, i = 0; k->section != NULL; k++, i++)
			if (strcmp(k->section, sect) == 0 && names_key(line, k->name))
				seen[i] = true;
	}
	for (k = config_keys, i = 0; k->section != NULL; k++, i++)
		if (!seen[i])
			fail_msg("etc/ternd.conf does not name [%s] %s (as 'key =' or '# key =')",
				 k->section, k->name);
	free(text);
	text = read_file("etc/ternd.conf");
	assert_int_equal(load(text, &cfg), 0);
	free(text);
}

static const char *const minimal =
	"[port dp0]\ndev = net_null0\n"
	"[worker 1]\nrx = dp0:0\n";

/* A file that writes every default out loads as the file that leaves them all out. */
static void test_config_schema_defaults_load_as_absence(void **state)
{
	static const char *const both = "[port dp1]\ndev = net_null1\n[worker 1]\nrx = dp0:0 dp1:0\n";
	static struct tern_config explicit;
	char text[8192];
	const struct config_section *s;
	const struct config_key *k;
	size_t at;

	at = snprintf(text, sizeof(text), "[port dp0]\ndev = net_null0\n");
	for (k = config_keys; k->section != NULL; k++)
		if (strcmp(k->section, "port") == 0 && k->def != NULL)
			at += snprintf(text + at, sizeof(text) - at, "%s = %s\n", k->name, k->def);
	at += snprintf(text + at, sizeof(text) - at, "%s", both);
	for (s = config_sections; s->name != NULL; s++) {
		if (s->arg != NULL)
			continue;
		at += snprintf(text + at, sizeof(text) - at, "[%s]\n", s->name);
		for (k = config_keys; k->section != NULL; k++)
			if (strcmp(k->section, s->name) == 0 && k->def != NULL)
				at += snprintf(text + at, sizeof(text) - at, "%s = %s\n", k->name, k->def);
	}
	assert_true(at < sizeof(text));
	assert_int_equal(load(text, &explicit), 0);
	assert_int_equal(load("[port dp0]\ndev = net_null0\n" "[port dp1]\ndev = net_null1\n"
			      "[worker 1]\nrx = dp0:0 dp1:0\n", &cfg), 0);
	memset(explicit.path, 0, sizeof(explicit.path));
	memset(cfg.path, 0, sizeof(cfg.path));
	assert_memory_equal(&explicit, &cfg, sizeof(cfg));
	assert_int_equal(cfg.ports[1].mtu, 1500);
	assert_int_equal(cfg.api_limits.reply_queue_total, 134217728);
	assert_string_equal(cfg.capture_dir, "/var/lib/tern/captures");
	assert_false(cfg.memif_accept_unsealed);
}

static void test_config_schema_refuses_what_it_does_not_list(void **state)
{
	char text[512];

	snprintf(text, sizeof(text), "%s[fib]\nsize = 10\n", minimal);
	assert_int_equal(load(text, &cfg), -EINVAL);
	assert_non_null(strstr(err, "[fib] unknown key 'size'"));
	snprintf(text, sizeof(text), "%s[port]\nmtu = 1500\n", minimal);
	assert_int_equal(load(text, &cfg), -EINVAL);
	assert_non_null(strstr(err, "[port]: unknown section; expected eal, port NAME, bond NAME, worker N, mempool, fib, fib6, interfaces, neighbours, acl, memif, netlink, exception, control-plane, api, store, log, metrics, snmp or capture"));
	snprintf(text, sizeof(text), "%s[memif]\npeer_memory = some\n", minimal);
	assert_int_equal(load(text, &cfg), -EINVAL);
	assert_non_null(strstr(err, "[memif] peer_memory = 'some': expected sealed or any"));
	snprintf(text, sizeof(text), "%s[capture]\ndir = captures\n", minimal);
	assert_int_equal(load(text, &cfg), -EINVAL);
	assert_non_null(strstr(err, "[capture] dir = 'captures': expected an absolute path"));
	snprintf(text, sizeof(text), "%s[api]\nreply_queue_total = 5\n", minimal);
	assert_int_equal(load(text, &cfg), -EINVAL);
	assert_non_null(strstr(err, "[api] reply_queue_total = '5': expected an integer from 1048576 to 4294967296"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_schema_man_page_is_printed_from_it),
		cmocka_unit_test(test_config_schema_example_file_names_every_key),
		cmocka_unit_test(test_config_schema_defaults_load_as_absence),
		cmocka_unit_test(test_config_schema_refuses_what_it_does_not_list),
	};
	return cmocka_run_group_tests_name("config_schema", tests, NULL, NULL);
}
