// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bootlog.h"

#include "../scenarios/contract.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bootlog {
	struct console *con;
	struct ktap *ktap;
	struct bootlog_ops ops;
	void *ud;
	bool agent_done;
	bool agent_reboots; /* BP_AGENT_REBOOT after BP_AGENT_DONE */
	struct bootlog_debug debug;
	struct bootlog_memory mem;
};

static bool prefixed(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The agent's notes about kmemleak and lockdep (contract.h). */
static void agent_debug_note(struct bootlog_debug *d, const char *t)
{
	const char *n = strstr(t, BP_AGENT_NOTE);
	char *end;

	if (!n)
		return;
	n += strlen(BP_AGENT_NOTE);
	if (prefixed(n, BP_AGENT_KMEMLEAK_LEAKS)) {
		n += strlen(BP_AGENT_KMEMLEAK_LEAKS);
		d->kmemleak_leaks = strtoul(n, &end, 10);
		d->kmemleak_scanned = end != n;
	} else if (prefixed(n, BP_AGENT_KMEMLEAK_NO_SCAN)) {
		snprintf(d->kmemleak_no_scan, sizeof(d->kmemleak_no_scan),
			 "%s", n + strlen(BP_AGENT_KMEMLEAK_NO_SCAN));
	} else if (prefixed(n, BP_AGENT_LOCKDEP_ON)) {
		d->lockdep = BOOTLOG_LOCKDEP_ON;
	} else if (prefixed(n, BP_AGENT_LOCKDEP_OFF)) {
		d->lockdep = BOOTLOG_LOCKDEP_OFF;
	}
}

/* A decimal number of kB followed by 'K' (the kernel's "%luK"). */
static bool kib(const char **p, long *ret)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || *end != 'K')
		return false;
	*ret = v;
	*p = end + 1;
	return true;
}

/* "Memory: 104380K/130552K available (...)": the first one counts. */
static void kernel_memory_line(struct bootlog_memory *m, const char *t)
{
	long a, tot;

	if (m->kernel_total_kb >= 0 || strncmp(t, "Memory: ", 8))
		return;
	t += 8;
	if (kib(&t, &a) && *t++ == '/' && kib(&t, &tot) &&
	    !strncmp(t, " available", 10)) {
		m->kernel_available_kb = a;
		m->kernel_total_kb = tot;
	}
}

static void agent_memory_note(struct bootlog_memory *m, const char *t)
{
	const char *n = strstr(t, BP_AGENT_NOTE BP_AGENT_MEMAVAILABLE);
	char *end;
	long v;

	if (!n || m->agent_memavailable_kb >= 0)
		return;
	n += strlen(BP_AGENT_NOTE BP_AGENT_MEMAVAILABLE);
	errno = 0;
	v = strtol(n, &end, 10);
	if (!errno && end != n && v >= 0 && !strcmp(end, " kB"))
		m->agent_memavailable_kb = v;
}

static void on_line(const struct console_line *l, void *ud)
{
	struct bootlog *b = ud;
	/* The one rule (bootlog.h): a timestamped line is the kernel's. */
	bool agent = l->timestamp < 0;

	if (agent) {
		ktap_feed_line(b->ktap, l->text, l->len);
		if (strstr(l->text, BP_AGENT_DONE_LINE))
			b->agent_done = true;
		else if (b->agent_done && strstr(l->text, BP_AGENT_REBOOT_LINE))
			b->agent_reboots = true;
		agent_debug_note(&b->debug, l->text);
		agent_memory_note(&b->mem, l->text);
	} else {
		kernel_memory_line(&b->mem, l->text);
	}
	if (b->ops.on_line)
		b->ops.on_line(l, agent, b->ud);
}

static void on_milestone(const struct console_milestone_event *ev, void *ud)
{
	struct bootlog *b = ud;

	if (b->ops.on_milestone)
		b->ops.on_milestone(ev, b->ud);
}

static void on_problem(const struct console_problem *p, void *ud)
{
	struct bootlog *b = ud;

	if (b->ops.on_problem)
		b->ops.on_problem(p, b->ud);
}

static void on_ktap(void *ud, const struct ktap_event *ev)
{
	struct bootlog *b = ud;

	if (b->ops.on_ktap)
		b->ops.on_ktap(ev, b->ud);
}

struct bootlog *bootlog_new(const struct bootlog_ops *ops, void *userdata)
{
	static const struct console_ops cops = {
		.on_line = on_line,
		.on_milestone = on_milestone,
		.on_problem = on_problem,
	};
	const struct ktap_limits kl = { .max_tests = BOOTLOG_KTAP_MAX_TESTS };
	struct bootlog *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	*b = (struct bootlog){
		.ops = ops ? *ops : (struct bootlog_ops){ 0 },
		.ud = userdata,
		.con = console_new(&cops, b),
		.ktap = ktap_new(&kl, on_ktap, b),
		.mem = { -1, -1, -1 },
	};
	if (b->con && b->ktap)
		return b;
	bootlog_free(b);
	return NULL;
}

void bootlog_free(struct bootlog *b)
{
	if (b) {
		console_free(b->con);
		ktap_free(b->ktap);
	}
	free(b);
}

int bootlog_feed(struct bootlog *b, const void *buf, size_t n)
{
	return b ? console_feed(b->con, buf, n) : -EINVAL;
}

int bootlog_finish(struct bootlog *b)
{
	if (!b)
		return -EINVAL;
	/* The console's last partial line may still reach KTAP. */
	console_finish(b->con);
	return ktap_finish(b->ktap);
}

const struct console *bootlog_console(const struct bootlog *b)
{
	return b->con;
}

const struct ktap *bootlog_ktap(const struct bootlog *b)
{
	return b->ktap;
}

bool bootlog_agent_said_done(const struct bootlog *b)
{
	return b->agent_done;
}

const struct bootlog_debug *bootlog_debug(const struct bootlog *b)
{
	return &b->debug;
}

const struct bootlog_memory *bootlog_memory(const struct bootlog *b)
{
	return &b->mem;
}

static const char *const lockdep_names[] = {
	[BOOTLOG_LOCKDEP_ON] = "on",
	[BOOTLOG_LOCKDEP_OFF] = "off",
};

const char *bootlog_lockdep_name(enum bootlog_lockdep l)
{
	return ENUM_NAME(lockdep_names, l, NULL);
}

bool bootlog_is_console(const struct bootlog *b)
{
	struct console_stats st;

	console_get_stats(b->con, &st);
	return console_milestones(b->con) || st.timestamped || st.problems ||
	       ktap_get_stats(b->ktap)->documents;
}

#define MS_BIT(m) (1u << CONSOLE_MS_##m)

enum boot_end bootlog_recorded_end(const struct bootlog *b)
{
	return console_milestones(b->con) &
			       (MS_BIT(POWER_OFF) | MS_BIT(HALT) | MS_BIT(REBOOT))
		       ? BOOT_END_STOPPED
		       : BOOT_END_TIMEOUT;
}

bool bootlog_ktap_failed(const struct bootlog *b, struct ktap_totals *totals)
{
	const struct ktap_stats *kst = ktap_get_stats(b->ktap);
	struct ktap_totals tot;

	ktap_test_totals(ktap_root(b->ktap), &tot);
	if (totals)
		*totals = tot;
	return kst->documents && (tot.failed || tot.errors || !kst->complete);
}

void bootlog_verdict_input(const struct bootlog *b,
			   const struct bootlog_context *ctx,
			   struct verdict_problem problems[CONSOLE_MAX_PROBLEMS],
			   struct verdict_input *ret)
{
	const struct console_milestone_event *last =
		console_last_milestone(b->con);
	unsigned ms = console_milestones(b->con);
	size_t np = console_n_problems(b->con);
	struct console_stats st;

	console_get_stats(b->con, &st);
	for (size_t i = 0; i < np; i++) {
		const struct console_problem *p = console_problem(b->con, i);

		problems[i].kind = console_problem_kind_name(p->kind);
		problems[i].title = p->title;
		problems[i].header = p->header;
	}
	*ret = (struct verdict_input){
		.end = ctx->end,
		.end_reason = ctx->end_reason,
		.any_output = st.bytes > 0,
		.banner = ms & MS_BIT(KERNEL_BANNER),
		.init_started = ms & MS_BIT(INIT_STARTED),
		.powered_off = ms & (MS_BIT(POWER_OFF) | MS_BIT(HALT)),
		.rebooted = ms & MS_BIT(REBOOT),
		.agent_reboots = b->agent_reboots,
		.last_milestone =
			last ? console_milestone_name(last->milestone) : NULL,
		.expect_agent = ctx->expect_agent,
		.agent_done = b->agent_done &&
			      ktap_get_stats(b->ktap)->complete,
		.problems = problems,
		.n_problems = np,
		.allowed = ctx->allowed,
		.n_allowed = ctx->n_allowed,
		.timeout_s = ctx->timeout_s,
	};
}

void bootlog_decide(const struct bootlog *b, const struct bootlog_context *ctx,
		    struct verdict *ret)
{
	struct verdict_problem vp[CONSOLE_MAX_PROBLEMS];
	struct verdict_input in;

	bootlog_verdict_input(b, ctx, vp, &in);
	verdict_decide(&in, ret);
}
