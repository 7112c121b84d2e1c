/* SPDX-License-Identifier: BSD-3-Clause */
/* What acl.c and acl_classify.c share. */
#ifndef TERN_ACL_PRIV_H
#define TERN_ACL_PRIV_H

/* Workers that count: the rows of each list's counters. */
extern unsigned int dp_acl_nb_workers;

#endif
