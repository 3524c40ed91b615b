// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/verdict.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/cleanup.h"

static const char *const verdict_names[] = {
	[VERDICT_BOOTED] = "BOOTED",   [VERDICT_PANIC] = "PANIC",
	[VERDICT_PROBLEMS] = "PROBLEMS", [VERDICT_HUNG] = "HUNG",
	[VERDICT_CRASHED] = "CRASHED", [VERDICT_INFRA] = "INFRA",
	[VERDICT_INCOMPLETE] = "INCOMPLETE",
};

const char *boot_verdict_name(enum boot_verdict v)
{
	if ((unsigned)v >= sizeof(verdict_names) / sizeof(verdict_names[0]))
		return "UNKNOWN";
	return verdict_names[v];
}

int boot_verdict_from_string(const char *s, enum boot_verdict *ret)
{
	for (unsigned i = 0; s && i < sizeof(verdict_names) /
					      sizeof(verdict_names[0]); i++)
		if (!strcasecmp(s, verdict_names[i])) {
			*ret = (enum boot_verdict)i;
			return 0;
		}
	return -EINVAL;
}

bool verdict_name_cut(const char *v)
{
	return !v || !strcmp(v, verdict_names[VERDICT_INCOMPLETE]) ||
	       !strcmp(v, VERDICT_RUNNING_NAME);
}

bool verdict_name_kernel(const char *v)
{
	return !verdict_name_cut(v) && strcmp(v, verdict_names[VERDICT_INFRA]);
}

static const char *const boot_end_names[] = {
	[BOOT_END_STOPPED] = "stopped",
	[BOOT_END_PANIC_EVENT] = "panic-event",
	[BOOT_END_TIMEOUT] = "timeout",
	[BOOT_END_QEMU_FAILED] = "qemu-failed",
	[BOOT_END_INFRA] = "infra",
	[BOOT_END_INTERRUPTED] = "interrupted",
};

const char *boot_end_name(enum boot_end e)
{
	return ENUM_NAME(boot_end_names, e, "unknown");
}

const char *const verdict_allow_aliases[] = { VERDICT_ALLOW_WARN,
						 VERDICT_ALLOW_ALL, NULL };

bool verdict_allow_alias(const char *word)
{
	for (size_t i = 0; verdict_allow_aliases[i]; i++)
		if (!strcasecmp(word, verdict_allow_aliases[i]))
			return true;
	return false;
}

bool verdict_kind_allowed(const char *kind, const char *const *allowed,
			  size_t n_allowed)
{
	if (!kind)
		return false;
	for (size_t i = 0; i < n_allowed; i++) {
		const char *a = allowed[i];

		if (!strcasecmp(a, kind))
			return true;
		if (!strcasecmp(a, VERDICT_ALLOW_WARN) &&
		    !strcasecmp(kind, "WARNING"))
			return true;
		if (!strcasecmp(a, VERDICT_ALLOW_ALL) &&
		    strcasecmp(kind, "PANIC"))
			return true;
	}
	return false;
}

static const struct verdict_problem *
first_of(const struct verdict_input *in, const char *kind)
{
	for (size_t i = 0; i < in->n_problems; i++)
		if (in->problems[i].kind &&
		    !strcasecmp(in->problems[i].kind, kind))
			return &in->problems[i];
	return NULL;
}

#define SETR(ret, ...) snprintf((ret)->reason, sizeof((ret)->reason), __VA_ARGS__)

void verdict_decide(const struct verdict_input *in, struct verdict *ret)
{
	const struct verdict_problem *panic = first_of(in, "PANIC");
	const struct verdict_problem *bad = NULL;
	const char *last = in->last_milestone ? in->last_milestone : "none";

	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < in->n_problems; i++)
		if (!verdict_kind_allowed(in->problems[i].kind, in->allowed,
					  in->n_allowed) &&
		    strcasecmp(in->problems[i].kind, "PANIC")) {
			if (!bad)
				bad = &in->problems[i];
			ret->n_failing_problems++;
		}

	if (in->end == BOOT_END_INTERRUPTED) {
		ret->verdict = VERDICT_INCOMPLETE;
		SETR(ret, "interrupted; last milestone: %s", last);
		return;
	}
	/* What the kernel said outranks how the guest ended. */
	if (panic) {
		ret->verdict = VERDICT_PANIC;
		/* the kernel's last words, as it printed them */
		SETR(ret, "%s", panic->header ? panic->header
			  : panic->title ? panic->title : "kernel panic");
		return;
	}
	if (in->end == BOOT_END_PANIC_EVENT) {
		ret->verdict = VERDICT_PANIC;
		SETR(ret, "the guest reported a panic (pvpanic) but no panic "
			  "message reached the console; last milestone: %s",
		     last);
		return;
	}
	if (in->end == BOOT_END_INFRA) {
		ret->verdict = VERDICT_INFRA;
		SETR(ret, "%s", in->end_reason ? in->end_reason
					       : "libvirt or QEMU failed");
		return;
	}
	if (in->end == BOOT_END_TIMEOUT) {
		ret->verdict = VERDICT_HUNG;
		if (!in->timeout_s) /* a recorded log that just stops */
			SETR(ret, "the log ends before the boot finished; "
				  "last milestone: %s%s%s",
			     last, bad ? "; problem: " : "",
			     bad && bad->title ? bad->title : "");
		else if (!in->any_output)
			SETR(ret, "no console output in %us", in->timeout_s);
		else
			SETR(ret, "no end within %us; last milestone: %s%s%s",
			     in->timeout_s, last, bad ? "; problem: " : "",
			     bad && bad->title ? bad->title : "");
		return;
	}
	if (in->end == BOOT_END_QEMU_FAILED) {
		/* The emulator died or was killed from outside: the host's
		 * failure.  A guest that resets itself (triple fault) ends
		 * as a stop, below, and is CRASHED. */
		ret->verdict = VERDICT_INFRA;
		SETR(ret, "QEMU died: %s; last milestone: %s",
		     in->end_reason ? in->end_reason : "no reason given", last);
		return;
	}
	/* It stopped by itself: by a power-off, or by the reboot the agent
	 * announced after it finished (a kernel without ACPI). */
	bool clean_end = in->powered_off ||
			 (in->rebooted && in->agent_done && in->agent_reboots);

	if (!clean_end || (in->expect_agent && !in->agent_done) ||
	    !in->init_started) {
		ret->verdict = VERDICT_CRASHED;
		if (!in->any_output)
			SETR(ret, "the guest stopped without any console "
				  "output");
		else if (in->rebooted && in->agent_done && !in->powered_off)
			SETR(ret, "the guest rebooted after the agent finished, "
				  "which announced no reboot (no power-off); "
				  "last milestone: %s%s%s",
			     last, bad ? "; problem: " : "",
			     bad && bad->title ? bad->title : "");
		else if (in->rebooted || !in->powered_off)
			SETR(ret, "the guest %s before it finished "
				  "(no power-off); last milestone: %s%s%s",
			     in->rebooted ? "rebooted" : "reset", last,
			     bad ? "; problem: " : "",
			     bad && bad->title ? bad->title : "");
		else if (!in->init_started)
			SETR(ret, "the guest powered off before init ran; "
				  "last milestone: %s",
			     last);
		else
			SETR(ret, "the guest powered off before the agent "
				  "finished; last milestone: %s",
			     last);
		return;
	}
	if (bad) {
		ret->verdict = VERDICT_PROBLEMS;
		SETR(ret, "%zu kernel problem%s, first: %s",
		     ret->n_failing_problems,
		     ret->n_failing_problems == 1 ? "" : "s",
		     bad->title ? bad->title : bad->kind);
		return;
	}
	ret->verdict = VERDICT_BOOTED;
	SETR(ret, "init ran%s, clean %s",
	     in->expect_agent ? ", agent finished" : "",
	     in->powered_off ? "power-off" : "reboot (no ACPI)");
}

const char *const verdict_heavy_debug_options[] = {
	"KASAN",	   "UBSAN",	      "KFENCE",
	"KCSAN",	   "PROVE_LOCKING",   "DEBUG_PAGEALLOC",
	"PAGE_POISONING", "DEBUG_KMEMLEAK", "DEBUG_OBJECTS",
	"LOCKDEP",	   "KMSAN",	      NULL,
};

unsigned verdict_boot_timeout(bool kvm,
			      bool (*is_enabled)(const char *name, void *ud),
			      void *ud, unsigned *ret_heavy_count)
{
	unsigned t = kvm ? 90 : 300, n = 0;
	double f = 1.0;

	for (size_t i = 0; is_enabled && verdict_heavy_debug_options[i]; i++)
		if (is_enabled(verdict_heavy_debug_options[i], ud))
			n++;
	for (unsigned i = 0; i < n && f < 4.0; i++)
		f *= 1.5;
	if (f > 4.0)
		f = 4.0;
	if (ret_heavy_count)
		*ret_heavy_count = n;
	return (unsigned)(t * f);
}
