/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DPDK release the workarounds in this folder were written for and tested against.
 *
 * Each of them reaches into DPDK 22.11's private layout or stands in for one of its
 * defects; against another release it could read the wrong bytes or hide a fix. So every
 * file here includes this header, and a build against another release stops with a sentence
 * instead of misbehaving. Moving to another DPDK means checking each row of README.md.
 */
#ifndef TERN_DPDK_VERSION_H
#define TERN_DPDK_VERSION_H

#include <rte_version.h>

#if RTE_VERSION < RTE_VERSION_NUM(22, 11, 0, 0) || RTE_VERSION >= RTE_VERSION_NUM(22, 12, 0, 0)
#error "tern's DPDK workarounds (dataplane/workarounds/README.md) are written for DPDK 22.11: check each against this DPDK before building with it"
#endif

#endif
