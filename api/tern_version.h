/* SPDX-License-Identifier: BSD-3-Clause */
/* tern's version, shared by ternd, tern and tern-bench (api/ so every program may include it). */
#ifndef TERN_VERSION_H
#define TERN_VERSION_H

#define TERN_VERSION "0.1.0"

#endif
