/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verdict: decide what a boot proved, from events rather than from how
 * QEMU exited (pure).
 *
 *   BOOTED    init ran, the agent finished its KTAP plan, clean power-off
 *   PANIC     the kernel panicked (the panic line is the reason)
 *   PROBLEMS  it booted but the kernel reported oops/BUG/WARNING/UBSAN/
 *             KFENCE/lockup/... that were not allowed (--allow)
 *   HUNG      no end before the timeout: the last milestone is named
 *   CRASHED   the guest died without a panic message (triple fault reset,
 *             power-off before the agent finished)
 *   INFRA     libvirt or QEMU failed (QEMU died or was killed, libvirtd
 *             went away): not the kernel's fault
 *
 * An interrupted run has no verdict of its own: it is INCOMPLETE.
 */
#ifndef BP_VERDICT_H
#define BP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

enum boot_verdict {
	VERDICT_BOOTED,
	VERDICT_PANIC,
	VERDICT_PROBLEMS,
	VERDICT_HUNG,
	VERDICT_CRASHED,
	VERDICT_INFRA,
	VERDICT_INCOMPLETE,
};

const char *boot_verdict_name(enum boot_verdict v);
/* 0 and -EINVAL; case-insensitive. */
int boot_verdict_from_string(const char *s, enum boot_verdict *ret);

/* The verdict a boot record carries while its boot is under way. */
#define VERDICT_RUNNING_NAME "RUNNING"
/* A record's verdict name says its boot did not finish: none, INCOMPLETE
 * (the run was cut) or RUNNING. */
bool verdict_name_cut(const char *v);
/* A record's verdict name is the kernel's own: the boot finished and the
 * host did not fail it (not cut, not INFRA). */
bool verdict_name_kernel(const char *v);

/* How the guest's life ended, as the harness saw it. */
enum boot_end {
	BOOT_END_STOPPED,	/* it stopped by itself (power-off/reboot) */
	BOOT_END_PANIC_EVENT,	/* pvpanic: the kernel told QEMU it panicked */
	BOOT_END_TIMEOUT,	/* still running at the timeout: destroyed */
	BOOT_END_QEMU_FAILED,	/* QEMU died or was killed from outside */
	BOOT_END_INFRA,		/* libvirt could not start it or went away */
	BOOT_END_INTERRUPTED,	/* SIGINT/SIGTERM to bootproof */
};

const char *boot_end_name(enum boot_end e);

struct verdict_problem {
	const char *kind;	/* console kind name: "PANIC", "WARNING"... */
	const char *title;	/* its short title ("WARNING in foo") */
	const char *header;	/* the report's first line, as printed */
};

struct verdict_input {
	enum boot_end end;
	const char *end_reason;		/* from the adapter, may be NULL */
	bool any_output;		/* the console printed anything */
	bool banner;			/* "Linux version" seen */
	bool init_started;
	bool powered_off;		/* "reboot: Power down" / halted */
	bool rebooted;			/* "reboot: Restarting system" */
	const char *last_milestone;	/* name, NULL when none */
	bool agent_done;		/* the agent's KTAP plan completed */
	bool agent_reboots;		/* ... and it said it ends by a reboot
					 * (no ACPI): "rebooted" is its end */
	bool expect_agent;		/* an agent was told to run */
	const struct verdict_problem *problems;
	size_t n_problems;
	/* Problem kinds that do not fail the boot (names, case-insensitive;
	 * "warn" is accepted for WARNING). */
	const char *const *allowed;
	size_t n_allowed;
	unsigned timeout_s;		/* 0: a recorded log, no timeout */
};

struct verdict {
	enum boot_verdict verdict;
	char reason[512];
	size_t n_failing_problems;	/* problems not allowed */
};

/* Fill *ret from *in.  Never fails. */
void verdict_decide(const struct verdict_input *in, struct verdict *ret);

/* Is a problem of this kind allowed by the list?  "warn" ~ WARNING,
 * "all" allows everything but PANIC. */
bool verdict_kind_allowed(const char *kind, const char *const *allowed,
			  size_t n_allowed);

/* The words an allow list takes besides problem kinds, in
 * verdict_allow_aliases (NULL-terminated), and whether a word is one of
 * them (any case). */
#define VERDICT_ALLOW_WARN "warn"	/* WARNING */
#define VERDICT_ALLOW_ALL "all"		/* everything but PANIC */
extern const char *const verdict_allow_aliases[];
bool verdict_allow_alias(const char *word);

/* Kernel config options that slow a guest down a lot. */
extern const char *const verdict_heavy_debug_options[];

/*
 * The boot timeout in seconds: base for the accelerator (kvm: 90, tcg:
 * 300), times 1.5 for each heavy debug option enabled (at most x4).
 * is_enabled(name, ud) says whether CONFIG_<name> is y or m; may be NULL.
 */
unsigned verdict_boot_timeout(bool kvm,
			      bool (*is_enabled)(const char *name, void *ud),
			      void *ud, unsigned *ret_heavy_count);

#endif
