/* Fuzz target: an API byte stream cut into messages; garbage must be refused, never crash. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api/tern_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tern_api_rx rx;
	struct tern_api_msg m;
	size_t off = 0;
	int rc = 0;

	if (tern_api_rx_init(&rx) < 0)
		return 0;
	/* feed it in uneven pieces, as a socket would */
	while (off < size && rc >= 0) {
		size_t piece = 1 + (data[off] % 61);

		if (piece > size - off)
			piece = size - off;
		if (tern_api_rx_reserve(&rx, piece) < 0)
			break;
		memcpy(rx.buf + rx.len, data + off, piece);
		rx.len += piece;
		off += piece;
		while ((rc = tern_api_rx_next(&rx, &m)) == 1)
			if (m.hdr.len > TERN_API_MAX_PAYLOAD)
				__builtin_trap();
	}
	tern_api_rx_free(&rx);
	return 0;
}
