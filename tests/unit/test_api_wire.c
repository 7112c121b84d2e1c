/* SPDX-License-Identifier: BSD-3-Clause */
/* The API framing: well-formed messages pass, truncated, oversized and garbage ones are refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/tern_api.h"

static void feed(struct tern_api_rx *rx, const void *p, size_t n)
{
	assert_int_equal(tern_api_rx_reserve(rx, n), 0);
	memcpy(rx->buf + rx->len, p, n);
	rx->len += n;
}

static void test_api_rx_whole_message(void **state)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	struct tern_api_hdr h;

	tern_api_rx_init(&rx);
	tern_api_hdr_init(&h, TERN_API_COMMAND, TERN_API_F_JSON, 0, 12);
	feed(&rx, &h, sizeof(h));
	feed(&rx, "show version", 12);
	assert_int_equal(tern_api_rx_next(&rx, &m), 1);
	assert_int_equal(m.hdr.type, TERN_API_COMMAND);
	assert_int_equal(m.hdr.flags, TERN_API_F_JSON);
	assert_int_equal(m.hdr.len, 12);
	assert_memory_equal(m.payload, "show version", 12);
	assert_int_equal(tern_api_rx_next(&rx, &m), 0);
	tern_api_rx_free(&rx);
}

static void test_api_rx_truncated_waits(void **state)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	struct tern_api_hdr h;

	tern_api_rx_init(&rx);
	tern_api_hdr_init(&h, TERN_API_COMMAND, 0, 0, 4);
	feed(&rx, &h, sizeof(h) - 3);
	assert_int_equal(tern_api_rx_next(&rx, &m), 0);
	feed(&rx, (char *)&h + sizeof(h) - 3, 3);
	feed(&rx, "sh", 2);
	assert_int_equal(tern_api_rx_next(&rx, &m), 0);
	feed(&rx, "ow", 2);
	assert_int_equal(tern_api_rx_next(&rx, &m), 1);
	assert_memory_equal(m.payload, "show", 4);
	tern_api_rx_free(&rx);
}

static void test_api_rx_two_messages_in_one_read(void **state)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	struct tern_api_hdr h;

	tern_api_rx_init(&rx);
	tern_api_hdr_init(&h, TERN_API_COMMAND, 0, 0, 1);
	feed(&rx, &h, sizeof(h));
	feed(&rx, "a", 1);
	feed(&rx, &h, sizeof(h));
	feed(&rx, "b", 1);
	assert_int_equal(tern_api_rx_next(&rx, &m), 1);
	assert_int_equal(m.payload[0], 'a');
	assert_int_equal(tern_api_rx_next(&rx, &m), 1);
	assert_int_equal(m.payload[0], 'b');
	assert_int_equal(tern_api_rx_next(&rx, &m), 0);
	tern_api_rx_free(&rx);
}

static void test_api_rx_garbage_is_refused(void **state)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	char junk[64];

	memset(junk, 0xa5, sizeof(junk));
	tern_api_rx_init(&rx);
	feed(&rx, junk, sizeof(junk));
	assert_int_equal(tern_api_rx_next(&rx, &m), -EPROTO);
	tern_api_rx_free(&rx);
}

static void test_api_rx_oversized_is_refused(void **state)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	struct tern_api_hdr h;

	tern_api_rx_init(&rx);
	tern_api_hdr_init(&h, TERN_API_COMMAND, 0, 0, TERN_API_MAX_PAYLOAD + 1);
	feed(&rx, &h, sizeof(h));
	assert_int_equal(tern_api_rx_next(&rx, &m), -EMSGSIZE);
	tern_api_rx_free(&rx);
}

static void test_api_rx_unknown_type_is_refused(void **state)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	struct tern_api_hdr h;

	tern_api_rx_init(&rx);
	tern_api_hdr_init(&h, 99, 0, 0, 0);
	feed(&rx, &h, sizeof(h));
	assert_int_equal(tern_api_rx_next(&rx, &m), -EPROTO);
	tern_api_rx_free(&rx);
}

static void test_api_send_recv_over_socketpair(void **state)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	tern_api_rx_init(&rx);
	assert_int_equal(tern_api_send(sv[0], TERN_API_REPLY, 0, -EINVAL, "tern#", 6, "bad", 3), 0);
	assert_int_equal(tern_api_recv(sv[1], &rx, &m), 0);
	assert_int_equal(m.hdr.type, TERN_API_REPLY);
	assert_int_equal(m.hdr.status, -EINVAL);
	assert_int_equal(m.hdr.len, 9);
	assert_string_equal(m.payload, "tern#");
	assert_memory_equal(m.payload + 6, "bad", 3);
	close(sv[0]);
	assert_int_equal(tern_api_recv(sv[1], &rx, &m), -ECONNRESET);
	close(sv[1]);
	tern_api_rx_free(&rx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_rx_whole_message),
		cmocka_unit_test(test_api_rx_truncated_waits),
		cmocka_unit_test(test_api_rx_two_messages_in_one_read),
		cmocka_unit_test(test_api_rx_garbage_is_refused),
		cmocka_unit_test(test_api_rx_oversized_is_refused),
		cmocka_unit_test(test_api_rx_unknown_type_is_refused),
		cmocka_unit_test(test_api_send_recv_over_socketpair),
	};
	return cmocka_run_group_tests_name("api_wire", tests, NULL, NULL);
}
