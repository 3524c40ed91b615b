// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/repro.h"

#include <stdbool.h>
#include <string.h>

static bool plain(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("-_./=:,+@%", *s) && !(*s >= '0' && *s <= '9') &&
		    !(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z'))
			return false;
	return true;
}

void repro_quote(struct strbuf *out, const char *s)
{
	if (plain(s)) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/* " --opt VALUE" */
static void opt(struct strbuf *out, const char *name, const char *value)
{
	if (!value)
		return;
	strbuf_addf(out, " %s ", name);
	repro_quote(out, value);
}

void repro_command(const struct repro_run *r, struct strbuf *out)
{
	strbuf_addstr(out, "bootproof run");
	if (r->plan) {
		strbuf_addch(out, ' ');
		/* A plan word starting with '-' would read as an option. */
		if (r->plan[0] == '-')
			strbuf_addstr(out, "./");
		repro_quote(out, r->plan);
	}
	opt(out, "--arch", r->arch);
	opt(out, "--base", r->base);
	for (size_t i = 0; i < r->n_base_groups; i++)
		opt(out, "--base-group", r->base_groups[i]);
	for (size_t i = 0; i < r->n_groups; i++)
		opt(out, "--group", r->groups[i]);
	opt(out, "--candidates", r->candidates);
	opt(out, "--accel", r->accel);
	opt(out, "--ksrc", r->ksrc);
}
