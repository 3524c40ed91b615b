/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verbs of the bootproof command, one per file in harness/verbs/
 * (git's builtin.h).  Each takes the arguments after the verb name (argv[0]
 * is the verb) and returns a process exit code from enum bp_exit.
 */
#ifndef BP_BOOTPROOF_H
#define BP_BOOTPROOF_H

#include "util/exitcode.h"

int verb_doctor(int argc, char **argv);
int verb_triage(int argc, char **argv);
int verb_boot(int argc, char **argv);
int verb_image(int argc, char **argv);
int verb_report(int argc, char **argv);
int verb_diff(int argc, char **argv);
int verb_config(int argc, char **argv);
int verb_groups(int argc, char **argv);
int verb_run(int argc, char **argv);
int verb_merge(int argc, char **argv);
int verb_bisect(int argc, char **argv);
int verb_kcidb(int argc, char **argv);
int verb_cost(int argc, char **argv);
int verb_lava_results(int argc, char **argv);

#endif
