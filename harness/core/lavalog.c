// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/lavalog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/console.h"
#include "core/yamljson.h"
#include "util/jsonx.h"
#include "util/xalloc.h"

#define BOOT_COMMAND "Boot command: "
#define DISPATCHER "lava-dispatcher, installed at version: "

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object *, json_object_put)

void lavalog_done(struct lavalog *l)
{
	strbuf_release(&l->console);
	free(l->qemu_command);
	free(l->dispatcher);
	json_object_put(l->cases);
	memset(l, 0, sizeof(*l));
}

double lavalog_time(const char *dt)
{
	struct tm tm = { 0 };
	const char *rest;
	double frac = 0;

	if (!dt)
		return -1;
	rest = strptime(dt, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		return -1;
	if (*rest == '.') {
		char *end;

		frac = strtod(rest, &end);
		if (end == rest)
			return -1;
	}
	return (double)timegm(&tm) + frac;
}

/* A console line as the device printed it: the dispatcher wrote its
 * double quotes as \" (lava_dispatcher/shell.py, ShellLogger). */
static void add_console(struct lavalog *l, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == '"')
			s++;
		strbuf_addch(&l->console, *s);
	}
	strbuf_addch(&l->console, '\n');
}

static void on_result(struct lavalog *l, json_object *msg)
{
	const char *def = jsonx_str(msg, "definition");
	const char *c = jsonx_str(msg, "case");

	json_object_array_add(l->cases, json_object_get(msg));
	if (def && c && !strcmp(def, "lava") && !strcmp(c, "job")) {
		l->job_result = jsonx_str(msg, "result");
		l->error_type = jsonx_str(msg, "error_type");
		l->error_msg = jsonx_str(msg, "error_msg");
	}
}

static void on_info(struct lavalog *l, const char *msg, double t)
{
	if (!strncmp(msg, BOOT_COMMAND, strlen(BOOT_COMMAND))) {
		free(l->qemu_command);
		l->qemu_command = xstrdup(msg + strlen(BOOT_COMMAND));
		l->t_qemu = t;
	} else if (!l->dispatcher &&
		   !strncmp(msg, DISPATCHER, strlen(DISPATCHER))) {
		l->dispatcher = xstrdup(msg + strlen(DISPATCHER));
	}
}

/* One console line into the chain, and the times it shows. */
static void on_target(struct lavalog *l, const char *text, double t,
		      struct bootlog *bl)
{
	size_t from = l->console.len;

	add_console(l, text);
	l->target_lines++;
	if (!bl)
		return;
	bootlog_feed(bl, l->console.buf + from, l->console.len - from);
	if (l->t_init < 0 &&
	    console_milestone_first(bootlog_console(bl), CONSOLE_MS_INIT_STARTED))
		l->t_init = t;
	if (l->t_done < 0 && bootlog_agent_said_done(bl))
		l->t_done = t;
}

/* One line of the log: a record, "- " before it in a server's file. */
static int record(struct lavalog *l, const char *line, size_t n,
		  struct bootlog *bl)
{
	_cleanup_(json_object_putp) json_object *r = NULL;
	json_object *msg;
	const char *lvl;
	double t;

	if (n >= 2 && line[0] == '-' && line[1] == ' ') {
		line += 2;
		n -= 2;
	}
	if (!n || line[0] != '{' || yamljson_parse(line, n, &r, NULL) < 0 ||
	    !json_object_is_type(r, json_type_object) ||
	    !(lvl = jsonx_str(r, "lvl")))
		return -EINVAL;
	l->records++;
	t = lavalog_time(jsonx_str(r, "dt"));
	if (t >= 0) {
		if (l->t_first < 0)
			l->t_first = t;
		l->t_last = t;
	}
	msg = jsonx_get(r, "msg");
	if (!strcmp(lvl, "target"))
		on_target(l, json_object_get_string(msg) ?: "", t, bl);
	else if (!strcmp(lvl, "results") && json_object_is_type(msg, json_type_object))
		on_result(l, msg);
	else if (!strcmp(lvl, "info") && json_object_is_type(msg, json_type_string))
		on_info(l, json_object_get_string(msg), t);
	return 0;
}

int lavalog_read(struct lavalog *l, const char *buf, size_t len,
		 struct bootlog *bl, struct strbuf *err)
{
	const char *p = buf, *end = buf + len;

	memset(l, 0, sizeof(*l));
	strbuf_init(&l->console, 0);
	l->t_first = l->t_qemu = l->t_last = l->t_init = l->t_done = -1;
	l->cases = json_object_new_array();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		while (n && (p[n - 1] == '\r' || p[n - 1] == ' '))
			n--;
		if (n && record(l, p, n, bl) < 0)
			l->not_records++;
		p = nl ? nl + 1 : end;
	}
	if (!l->records)
		return strbuf_fail(err, -EINVAL, "not a LAVA job log: no line is "
				   "a {dt, lvl, msg} record");
	return 0;
}

bool lavalog_kvm(const struct lavalog *l)
{
	return l->qemu_command && (strstr(l->qemu_command, "-enable-kvm") ||
				   strstr(l->qemu_command, "accel=kvm"));
}

const char *lavalog_machine(const struct lavalog *l, char *buf, size_t size)
{
	const char *p = l->qemu_command, *hit = NULL;
	size_t n;

	/* The last -machine wins, as in QEMU. */
	while (p && (p = strstr(p, "-machine "))) {
		hit = p + strlen("-machine ");
		p = hit;
	}
	if (!hit)
		return NULL;
	if (!strncmp(hit, "type=", 5))
		hit += 5;
	n = strcspn(hit, ", \t\"'");
	if (!n || n >= size)
		return NULL;
	memcpy(buf, hit, n);
	buf[n] = '\0';
	return buf;
}

const char *lavalog_download_sha256(const struct lavalog *l, const char *label)
{
	for (size_t i = 0; i < json_object_array_length(l->cases); i++) {
		json_object *c = json_object_array_get_idx(l->cases, i);
		json_object *x = jsonx_get(c, "extra");
		const char *lb = jsonx_str(x, "label");

		if (lb && !strcmp(lb, label) && jsonx_str(c, "case") &&
		    !strcmp(jsonx_str(c, "case"), "http-download"))
			return jsonx_str(x, "sha256sum");
	}
	return NULL;
}

bool lavalog_timed_out(const struct lavalog *l)
{
	return (l->error_type && !strcmp(l->error_type, "LAVATimeout")) ||
	       (l->error_msg && strstr(l->error_msg, "timed out"));
}

/* The kernel printed something: its banner or a timestamped line. */
static bool kernel_spoke(const struct bootlog *bl)
{
	const struct console *c = bootlog_console(bl);
	struct console_stats st;

	console_get_stats(c, &st);
	return console_milestone_first(c, CONSOLE_MS_KERNEL_BANNER) ||
	       st.timestamped;
}

static bool panicked(const struct bootlog *bl)
{
	const struct console *c = bootlog_console(bl);

	for (size_t i = 0; i < console_n_problems(c); i++)
		if (console_problem(c, i)->kind == CONSOLE_PANIC)
			return true;
	return false;
}

void lavalog_end(const struct lavalog *l, const struct bootlog *bl,
		 enum boot_end *ret, char *why, size_t n)
{
	const char *type = l->error_type ? l->error_type : "";
	const char *msg = l->error_msg ? l->error_msg : "";
	size_t ml = strlen(msg);

	/* LAVA's message ends with a newline at times. */
	while (ml && (msg[ml - 1] == '\n' || msg[ml - 1] == ' '))
		ml--;
	if (bootlog_recorded_end(bl) == BOOT_END_STOPPED) {
		*ret = BOOT_END_STOPPED;
		snprintf(why, n, "the guest stopped; LAVA: job %s%s%s%s%.*s",
			 l->job_result ? l->job_result : "without a result",
			 *type ? ", " : "", type, *type ? " error: " : "",
			 (int)ml, msg);
	} else if (!l->job_result) {
		*ret = BOOT_END_TIMEOUT;
		snprintf(why, n, "the LAVA log ends before the job did");
	} else if (!strcmp(type, "Canceled")) {
		*ret = panicked(bl) ? BOOT_END_TIMEOUT : BOOT_END_INTERRUPTED;
		snprintf(why, n, "LAVA cancelled the job: %.*s", (int)ml, msg);
	} else if (lavalog_timed_out(l) || !*type) {
		*ret = BOOT_END_TIMEOUT;
		snprintf(why, n, "LAVA: %s%s%.*s", *type ? type : "job passed",
			 *type ? " error: " : "", (int)ml, *type ? msg : "");
	} else if (!kernel_spoke(bl)) {
		*ret = BOOT_END_INFRA;
		snprintf(why, n, "LAVA %s error before the kernel printed "
			 "anything: %.*s", type, (int)ml, msg);
	} else if (!strcmp(msg, "Connection closed")) {
		*ret = BOOT_END_STOPPED;
		snprintf(why, n, "QEMU ended (LAVA: %s error: %.*s)", type,
			 (int)ml, msg);
	} else {
		*ret = BOOT_END_INFRA;
		snprintf(why, n, "LAVA %s error: %.*s", type, (int)ml, msg);
	}
}
