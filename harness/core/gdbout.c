// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/gdbout.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Copy the next line of text into buf (truncated), return pointer after. */
static const char *next_line(const char *p, const char *end, char *buf,
			     size_t n)
{
	size_t i = 0;

	while (p < end && *p != '\n') {
		if (i + 1 < n)
			buf[i++] = *p;
		p++;
	}
	buf[i] = '\0';
	return p < end ? p + 1 : p;
}

/* "#3  0xffffffff8113 in __handle_sysrq (key=103, ...) at ..." or
 * "#0  kgdb_breakpoint () at ..." → function name. */
static void parse_frame(const char *line, struct gdbout *g)
{
	const char *p = line + 1, *s;
	size_t n;

	while (isdigit((unsigned char)*p))
		p++;
	while (*p == ' ')
		p++;
	s = strstr(p, " in ");
	if (!strncmp(p, "0x", 2) && s)
		p = s + 4;
	n = strcspn(p, " (");
	if (!n || g->n_frames >= GDBOUT_MAX_FRAMES)
		return;
	if (n >= sizeof(g->frames[0]))
		n = sizeof(g->frames[0]) - 1;
	memcpy(g->frames[g->n_frames], p, n);
	g->frames[g->n_frames][n] = '\0';
	g->n_frames++;
}

/* 0x... <linux_banner>:\t"Linux version ...\n" */
static void parse_banner(const char *line, struct gdbout *g)
{
	const char *p = strchr(line, '"');
	size_t i = 0;

	if (!p)
		return;
	for (p++; *p && *p != '"' && i + 1 < sizeof(g->banner); p++) {
		char c = *p;
		if (c == '\\' && p[1]) {
			p++;
			switch (*p) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			default:
				c = *p;
			}
		}
		g->banner[i++] = c;
	}
	while (i && (g->banner[i - 1] == '\n' || g->banner[i - 1] == ' '))
		i--;
	g->banner[i] = '\0';
	g->have_banner = true;
}

void gdbout_parse(const char *text, size_t len, struct gdbout *g)
{
	const char *p = text, *end = text + len;
	char line[2048];

	memset(g, 0, sizeof(*g));
	while (p < end) {
		p = next_line(p, end, line, sizeof(line));
		if (line[0] == '#' && isdigit((unsigned char)line[1]))
			parse_frame(line, g);
		else if (strstr(line, "<linux_banner>:"))
			parse_banner(line, g);
		else if (!strncmp(line, "Remote debugging using", 22))
			g->connected = true;
		else if (strstr(line, "Detaching from program") ||
			 (strstr(line, "[Inferior") && strstr(line, "detached")))
			g->detached = true;
	}
	/* gdb -batch does not always print "Remote debugging using": having
	 * read frames or memory from the target proves the connection. */
	if (g->n_frames || g->have_banner)
		g->connected = true;
}

static bool has_frame(const struct gdbout *g, const char *const *names)
{
	for (size_t i = 0; i < g->n_frames; i++)
		for (const char *const *n = names; *n; n++)
			if (!strcmp(g->frames[i], *n))
				return true;
	return false;
}

bool kgdb_check_judge(const struct gdbout *g, const char *console_banner,
		      struct kgdb_check *r)
{
	static const char *const kgdb_entry[] = {
		"kgdb_breakpoint", "kgdb_handle_exception", "kgdb_cpu_enter",
		NULL,
	};
	static const char *const sysrq_path[] = {
		"__handle_sysrq", "sysrq_handle_dbg", "write_sysrq_trigger",
		NULL,
	};
	char want[512];
	size_t n;

	memset(r, 0, sizeof(*r));
	r->connected = g->connected;
	r->stop_in_kgdb = has_frame(g, kgdb_entry);
	r->via_sysrq = has_frame(g, sysrq_path);
	r->detached = g->detached;
	snprintf(want, sizeof(want), "%s", console_banner ? console_banner : "");
	n = strlen(want);
	while (n && isspace((unsigned char)want[n - 1]))
		want[--n] = '\0';
	r->banner_matches = g->have_banner && n && !strcmp(g->banner, want);

	if (!r->connected)
		snprintf(r->reason, sizeof(r->reason),
			 "gdb could not connect to the kgdb serial port");
	else if (!r->stop_in_kgdb)
		snprintf(r->reason, sizeof(r->reason),
			 "the backtrace (%zu frames, #0 %s) does not show the "
			 "kgdb entry (kgdb_breakpoint)",
			 g->n_frames, g->n_frames ? g->frames[0] : "none");
	else if (!r->via_sysrq)
		snprintf(r->reason, sizeof(r->reason),
			 "the backtrace does not show the sysrq path "
			 "(__handle_sysrq)");
	else if (!g->have_banner)
		snprintf(r->reason, sizeof(r->reason),
			 "linux_banner could not be read through gdb");
	else if (!r->banner_matches)
		snprintf(r->reason, sizeof(r->reason),
			 "linux_banner read through gdb (\"%.150s\") differs "
			 "from the console's (\"%.150s\")",
			 g->banner, want);
	else if (!r->detached)
		snprintf(r->reason, sizeof(r->reason),
			 "gdb did not detach from the guest");
	return !r->reason[0];
}
