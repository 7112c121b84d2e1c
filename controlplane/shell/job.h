/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tools the shell runs (ping, traceroute, dpdk-dumpcap): each in a process group of its
 * own, its output on a pipe, stopped by group and reaped without ever blocking the control
 * thread.
 */
#ifndef TERN_JOB_H
#define TERN_JOB_H

#include <sys/types.h>

#define JOB_PASSED_FD 3

/* Starts argv[0] (searched on PATH) with stdout and stderr on a non-blocking pipe whose read
 * end (close-on-exec) goes to *fd, stdin on /dev/null, pass_fd (unless -1) as descriptor
 * JOB_PASSED_FD and no other, default signal dispositions and mask. */
int job_spawn(char *const argv[], int pass_fd, int *fd, pid_t *pid);
/* 1 with the wait status once pid has ended, 0 while it runs, a negative errno on error. */
int job_reap(pid_t pid, int *status);
/* SIGKILL to the job's whole group; its leader is reaped by job_reap_killed later. */
void job_kill(pid_t pid);
/* Reaps the killed jobs that have ended: the control thread's tick calls it. */
void job_reap_killed(void);
/* Killed jobs not yet reaped. */
unsigned int job_killed_pending(void);

#endif
