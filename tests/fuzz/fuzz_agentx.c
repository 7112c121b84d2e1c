/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: any bytes from the AgentX master, through net-snmp's AgentX parser as ternd's
 * subagent runs it (agentx_check_packet, which finds a whole PDU's length in a stream, then
 * agentx_parse of those bytes): a PDU or an error, never a crash. A PDU that parses is built again and
 * parsed again, as ternd answers the master with what it read.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

/* net-snmp 5.9's agent/mibgroup/agentx/protocol.h, which libsnmp-dev does not install; the
 * functions are libnetsnmpagent's */
int agentx_parse(netsnmp_session *session, netsnmp_pdu *pdu, u_char *data, size_t len);
int agentx_check_packet(u_char *packet, size_t packet_len);
int agentx_realloc_build(netsnmp_session *session, netsnmp_pdu *pdu, u_char **buf,
			 size_t *buf_len, size_t *out_len);

#define AGENTX_VERSION_1 193	/* AGENTX_VERSION_BASE (192) + 1 */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	setenv("MIBS", "", 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_PERSIST_STATE, 1);
	snmp_disable_log();
	init_snmp("fuzz_agentx");
	return 0;
}

static netsnmp_pdu *parse(netsnmp_session *s, const uint8_t *data, size_t size)
{
	/* the bytes alone in a buffer of their size: AddressSanitizer sees a read past them */
	u_char *buf = malloc(size ? size : 1);
	netsnmp_pdu *pdu = calloc(1, sizeof(*pdu));
	int rc;

	if (buf == NULL || pdu == NULL) {
		free(buf);
		free(pdu);
		return NULL;
	}
	memcpy(buf, data, size);
	pdu->version = AGENTX_VERSION_1;
	rc = agentx_parse(s, pdu, buf, size);
	free(buf);
	if (rc != 0) {
		snmp_free_pdu(pdu);
		return NULL;
	}
	return pdu;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	netsnmp_session s;
	netsnmp_pdu *pdu, *again;
	u_char *buf, *copy;
	size_t buf_len = 0, out_len = 0;
	int whole;

	snmp_sess_init(&s);
	s.version = AGENTX_VERSION_1;
	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	whole = agentx_check_packet(copy, size);
	free(copy);
	/* the stream reader waits for the length the header gives, then parses that much */
	if (whole <= 0 || (size_t)whole > size)
		return 0;
	pdu = parse(&s, data, whole);
	if (pdu == NULL)
		return 0;
	buf_len = 256;
	buf = malloc(buf_len);
	if (buf != NULL && agentx_realloc_build(&s, pdu, &buf, &buf_len, &out_len) == 0) {
		again = parse(&s, buf, out_len);
		if (again != NULL)
			snmp_free_pdu(again);
	}
	free(buf);
	snmp_free_pdu(pdu);
	return 0;
}
