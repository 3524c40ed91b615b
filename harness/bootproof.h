/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verbs of the bootproof command, one per file in harness/verbs/
 * (git's builtin.h).  Each takes the arguments after the verb name (argv[0]
 * is the verb) and returns a process exit code from enum bp_exit.
 */
#ifndef BP_BOOTPROOF_H
#define BP_BOOTPROOF_H

/*
 * Exit codes.  Kernel results and host errors are kept apart: a panic is a
 * result (1), libvirtd being unreachable is an error of the host (3).
 */
enum bp_exit {
	BP_EXIT_OK = 0,		/* everything passed / clean boot */
	BP_EXIT_FAIL = 1,	/* a kernel, config or scenario failure */
	BP_EXIT_USAGE = 2,	/* bad usage or bad input */
	BP_EXIT_INFRA = 3,	/* host or infrastructure problem */
	BP_EXIT_INTERRUPTED = 130, /* SIGINT/SIGTERM; results kept, incomplete */
};

int verb_doctor(int argc, char **argv);
int verb_triage(int argc, char **argv);
int verb_boot(int argc, char **argv);
int verb_image(int argc, char **argv);
int verb_report(int argc, char **argv);
int verb_diff(int argc, char **argv);
int verb_config(int argc, char **argv);
int verb_groups(int argc, char **argv);
int verb_run(int argc, char **argv);

#endif
