/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agent's parameters, read from the kernel command line (/proc/cmdline).
 * Pure: no I/O; compiled into the guest agent and into a host unit test.
 *
 * The parameters, their names and their format are the host's contract
 * with the agent (contract.h: BP_PARAM_*); the defaults are the agent's:
 *   scenarios  boot ("all" = every scenario that is not test-only)
 *   timeout    AGENT_DEFAULT_TIMEOUT seconds per scenario
 *   kgdb       none: the kgdb scenario skips
 *   kgdb_wait  AGENT_DEFAULT_KGDB_WAIT seconds
 *   cpus, mem_mib  not given: not checked
 *   shell      0
 * and two of the kernel's own, root= and init= (no default).
 * Anything else starting with BP_PARAM_PREFIX is reported as unknown.
 */
#ifndef BP_AGENT_CMDLINE_H
#define BP_AGENT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "contract.h"

#define AGENT_MAX_SCENARIOS 32
#define AGENT_NAME_MAX 32
#define AGENT_MAX_PROBLEMS 8
#define AGENT_PROBLEM_MAX 160

#define AGENT_DEFAULT_TIMEOUT 60
#define AGENT_DEFAULT_KGDB_WAIT 30

struct agent_params {
	/* Scenario names as given (not validated here), in order. */
	char scenarios[AGENT_MAX_SCENARIOS][AGENT_NAME_MAX];
	unsigned n_scenarios;
	unsigned timeout_s;
	char kgdb_port[AGENT_NAME_MAX]; /* "" when no debugger is expected */
	unsigned kgdb_wait_s;
	int cpus;	/* -1 when not given */
	long mem_mib;	/* -1 when not given */
	bool shell;
	/* The kernel's own "root=" and "init=" (bootproof's initramfs hands
	 * over to them); "" when absent or too long. */
	char root[128];
	char init[128];
	/*
	 * Problems found while parsing (bad values, unknown bootproof.*
	 * parameters, too many scenarios), one message each; the caller
	 * prints them as KTAP diagnostics.  Parsing never fails: a bad value
	 * leaves the default in place.
	 */
	char problems[AGENT_MAX_PROBLEMS][AGENT_PROBLEM_MAX];
	unsigned n_problems;
};

/* Fill p with the defaults (scenario list: "boot"). */
void agent_params_init(struct agent_params *p);

/*
 * Parse a kernel command line (quoting as the kernel's next_arg(): a
 * double-quoted word or value may contain spaces).  p must have been
 * initialised with agent_params_init().  Returns the number of problems
 * recorded in p (0 when everything was understood).
 */
unsigned agent_params_parse(struct agent_params *p, const char *cmdline);

#endif
