/* SPDX-License-Identifier: BSD-3-Clause */
/* tern-bench's command-line values, parsed strictly: the whole word, in range, or -EINVAL. */
#ifndef TERN_BENCH_ARGS_H
#define TERN_BENCH_ARGS_H

#include <stdint.h>

/* A dotted-quad IPv4 address, returned in host order. */
int arg_ipv4(const char *s, uint32_t *ip);
/* An IPv6 address (any of its text forms), 16 bytes in network order. */
int arg_ipv6(const char *s, uint8_t ip6[16]);
/* A prefix A.B.C.D/L with no host bits set, base in host order. */
int arg_prefix(const char *s, uint32_t *base, uint8_t *len);
/* Decimal digits only (no sign, space or suffix), from min to max. */
int arg_count(const char *s, unsigned long min, unsigned long max, unsigned long *v);
/* A decimal number from min to max: not NaN, not infinite, nothing after it. */
int arg_number(const char *s, double min, double max, double *v);

#endif
