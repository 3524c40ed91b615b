/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exitcode: the process exit codes of bootproof, for the verbs that return
 * them and the engine that decides them.  Kernel results and host errors
 * are kept apart: a panic is a result (BP_EXIT_FAIL), libvirtd being
 * unreachable is an error of the host (BP_EXIT_INFRA).
 */
#ifndef BP_UTIL_EXITCODE_H
#define BP_UTIL_EXITCODE_H

enum bp_exit {
	BP_EXIT_OK = 0,		/* everything passed / clean boot */
	BP_EXIT_FAIL = 1,	/* a kernel, config or scenario failure */
	BP_EXIT_USAGE = 2,	/* bad usage or bad input */
	BP_EXIT_INFRA = 3,	/* host or infrastructure problem */
	BP_EXIT_INTERRUPTED = 130, /* SIGINT/SIGTERM; results kept, incomplete */
};

#endif
