/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boot: one guest boot, start to verdict.  Used by `bootproof boot` and,
 * once per candidate, by `bootproof run`.
 *
 * Stages the kernel (and initrd) where libvirt's unprivileged QEMU can read
 * them, puts a throwaway qcow2 overlay over the cached root image, builds
 * the domain XML, starts the guest through req->ops (struct domain_ops:
 * the real libvirt adapter or a test fake), follows the console live
 * (console.log written as bytes arrive, console and KTAP parsers fed),
 * runs the host half of the kgdb scenario with real gdb when the guest
 * asks for it, ends the guest at power-off, panic, timeout or interrupt,
 * and decides the verdict.  The guest is destroyed and the staging
 * directory removed on every path.
 */
#ifndef BP_ENGINE_BOOT_H
#define BP_ENGINE_BOOT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "adapters/virt.h"
#include "core/domxml.h"
#include "core/timeline.h"
#include "core/verdict.h"

struct boot_request {
	const char *name;	/* domain name, unique per run (required) */
	enum bp_arch arch;
	enum bp_accel accel;
	const char *accel_reason; /* why this accelerator, for the record */
	const char *uri;	/* libvirt URI (required) */
	const char *kernel;	/* bzImage (required) */
	const char *initrd;	/* optional */
	const char *vmlinux;	/* optional: symbols for the kgdb scenario */
	const char *config;	/* the kernel's .config, optional */
	const char *image;	/* root image (raw ext4); NULL: no disk, no agent */
	const char *scenarios;	/* "boot,bpf,..."; NULL: "boot" */
	const char *cmdline_extra; /* appended to the command line */
	unsigned timeout_s;	/* 0: verdict_boot_timeout() */
	unsigned scenario_timeout_s; /* in-guest limit per scenario; 0: 120 */
	const char *const *allowed; /* problem kinds that do not fail */
	size_t n_allowed;
	unsigned memory_mib, vcpus; /* 0: 1024, 2 */
	const char *run_dir;	/* existing: console.log etc. go here */
	const char *prefix;	/* file name prefix in run_dir, "" for none */
	/* created, and removed at the end (or left for a later boot's sweep
	 * while libvirt still holds the domain); named after the domain */
	const char *stage_dir;
	const struct domain_ops *ops; /* NULL: virt_domain_ops */
	volatile sig_atomic_t *interrupted; /* set by a signal handler */
	/* A boot whose QEMU died by itself (a QEMU or host fault, never the
	 * kernel's: the verdict would be INFRA) is tried again this many
	 * times; each earlier attempt is kept (see boot_run). */
	unsigned retries;
	bool quiet;		/* no progress lines on stderr */
	/* The phases before the boot (engine/bootprep's), copied into each
	 * attempt's timeline; NULL: the timeline starts with the boot. */
	const struct timeline *timeline;
	/* Called with the record so far whenever something was learnt
	 * (milestone, scenario result), so the caller can save it. */
	void (*on_update)(void *ud, json_object *record);
	void *ud;
};

struct boot_outcome {
	enum boot_verdict verdict;
	int exit_code;		/* enum bp_exit (util/exitcode.h) */
	size_t scenarios_failed;
	bool retryable;		/* INFRA because QEMU died by itself */
	json_object *record;	/* owned by the caller (json_object_put) */
};

/*
 * Run the boot, trying again (up to req->retries times) when QEMU died by
 * itself.  The outcome is the last attempt's; the records of the earlier
 * ones are in its "earlier_attempts" array, each pointing at its own
 * console log, <prefix>console.attemptN.log.  Returns 0 when there is an
 * outcome (whatever the verdict: ret->exit_code says), -errno only on
 * allocation failure.
 */
int boot_run(const struct boot_request *req, struct boot_outcome *ret);

/*
 * The kernel command line for a request: console, root, init, panic,
 * scenarios and their parameters, then req->cmdline_extra.  kgdb_port > 0
 * adds what the kgdb scenario needs (nokaslr: gdb's symbols must match).
 * Caller frees.
 */
char *boot_cmdline(const struct boot_request *req, int kgdb_port);

/*
 * The whole-boot limit of req under accelerator accel: req->timeout_s, or
 * else verdict_boot_timeout() from the kernel's config (req->config, when
 * readable); *ret_heavy (may be NULL) gets the number of heavy debug
 * options that found (0 when req->timeout_s decided).
 */
unsigned boot_timeout(const struct boot_request *req, enum bp_accel accel,
		      unsigned *ret_heavy);

#endif
