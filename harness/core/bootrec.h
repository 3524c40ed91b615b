/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bootrec: the BOOT record of run.json (docs/results.md) from a console
 * chain (core/bootlog) and what the caller knows of the boot (pure).
 *
 * One record builder for every way a console is watched: the local boot
 * (engine/boot: it adds the host halves of kgdb and of the boot
 * scenario's channel to the scenarios it builds) and a LAVA job read back
 * (engine/lavaread), so that a boot has the same record wherever it ran.
 *
 * Every json_object * returned is new and owned by the caller.
 */
#ifndef BP_BOOTREC_H
#define BP_BOOTREC_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/bootlog.h"
#include "core/ktap.h"
#include "core/verdict.h"

/* What the console says of one scenario the agent was told to run. */
struct bootrec_scenario {
	const struct ktap_test *test;	/* its KTAP test, or NULL */
	const char *result;	/* "pass" "fail" "skip" "error" "pending" */
	const char *reason;	/* may be NULL; strings owned by the bootlog */
};

/*
 * Scenario name's result from bl's KTAP.  final: the boot is over (no
 * result becomes "error", with why); else no result yet is "pending".
 */
void bootrec_scenario_of(const struct bootlog *bl, const char *name,
			 bool final, struct bootrec_scenario *ret);

/* { name, host (taken, omitted when NULL), result, reason, checks }.
 * Returns true when the result counts as a failure (fail, error). */
bool bootrec_scenario_json(const char *name, const struct bootrec_scenario *s,
			   json_object *host, json_object **ret);

struct bootrec {
	const char *name, *arch, *accel, *accel_reason;
	const char *machine;	/* QEMU's machine type: "q35" */
	const char *kernel, *initrd, *vmlinux, *config;	/* paths */
	const char *image;	/* NULL: no agent */
	const char *cmdline;
	unsigned timeout_s, heavy;
	const char *started;	/* ISO 8601 UTC */
	/* The host's 1-minute load average when the boot started; < 0: null.
	 * Boot times are only comparable under like loads. */
	double host_load;
	/* Seconds from the guest's start; < 0: null. */
	double elapsed_s, time_to_init_s, time_to_agent_end_s;
	const struct verdict *verdict;	/* NULL: still running */
	enum boot_end end;
	const char *end_reason;
	const char *const *allowed;
	size_t n_allowed;
	json_object *scenarios;	/* taken: bootrec_scenario_json objects */
	json_object *files;	/* taken */
	json_object *timeline;	/* taken: timeline_json(); NULL: null */
};

/* The record (docs/results.md, BOOT), without run-specific members. */
json_object *bootrec_build(const struct bootlog *bl, const struct bootrec *r);

/* The exit code of a boot: enum bp_exit for verdict v with failed
 * scenarios. */
int bootrec_exit_code(enum boot_verdict v, size_t failed);

#endif
