/* SPDX-License-Identifier: BSD-3-Clause */
/* A worker's sample made into an sFlow flow sample, with what the RIB forwards it by. */
#ifndef TERN_SFLOW_FLOW_H
#define TERN_SFLOW_FLOW_H

#include <stdint.h>

#include "controlplane/sflow/sflow_agent.h"
#include "controlplane/sflow/sflow_datagram.h"
#include "dataplane/l2/sflow_sample.h"

/* Fills f from sample s, taken at rate on an interface of those counts (its pool and drops),
 * as that interface's flow sample sequence; f->header points into s. */
void sflow_flow_of(const struct dp_sflow_sample *s, uint32_t rate,
		   const struct dp_sflow_count *counts, uint32_t sequence, struct sflow_flow *f);

#endif
