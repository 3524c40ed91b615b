// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof triage LOG... [--json] [--allow KIND,...] [--full]
 *
 * Read recorded serial console logs (ours, LAVA's, a QEMU -serial file:
 * log...) and say what the boot did: the verdict, the last milestone, every
 * kernel problem with its first lines and signature, and KTAP results.
 * The judging is core/bootlog's, the same chain a live boot goes through;
 * this file reads the files and prints.
 * Exit 0 clean boot, 1 kernel problem (or failed KTAP tests), 2 bad input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bootproof.h"
#include "core/bootlog.h"
#include "core/recjson.h"
#include "core/verdict.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define HEAD_LINES 6		/* report lines shown per problem in text */
#define SNIFF_BYTES 65536	/* looked at to tell text from binary */

struct opts {
	bool json;
	bool full;
	const char **allowed;
	size_t n_allowed;
};

/* More than 10% of bytes that no console prints: binary data. */
static bool looks_binary(const unsigned char *b, size_t n)
{
	size_t odd = 0;

	for (size_t i = 0; i < n; i++)
		if ((b[i] < 0x20 && b[i] != '\n' && b[i] != '\r' &&
		     b[i] != '\t' && b[i] != 0x1b) ||
		    b[i] == 0x7f)
			odd++;
	return n && odd * 10 > n;
}

/* One log, judged: the chain it went through and what it concluded. */
struct triage {
	const char *path;
	const struct bootlog *bl;
	const struct console *con;
	struct console_stats st;
	struct verdict v;
	struct ktap_totals tot;
	bool ktap_failed;
};

/* Feed the file to bl.  0, or an exit code (the error reported). */
static int triage_read(const char *path, struct bootlog *bl)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char buf[SNIFF_BYTES];
	size_t total = 0;

	if (fd < 0) {
		log_error_errno(errno, "%s", path);
		return BP_EXIT_USAGE;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			log_error_errno(errno, "%s", path);
			return BP_EXIT_USAGE;
		}
		if (n == 0)
			break;
		if (!total && looks_binary(buf, (size_t)n)) {
			log_error("%s: binary data, not a console log", path);
			return BP_EXIT_USAGE;
		}
		total += (size_t)n;
		bootlog_feed(bl, buf, (size_t)n);
	}
	if (!total) {
		log_error("%s: empty file, not a console log", path);
		return BP_EXIT_USAGE;
	}
	return 0;
}

/* Finish the chain and decide, as for a recorded log.  0, or an exit
 * code (the error reported). */
static int triage_analyse(struct triage *t, struct bootlog *bl,
			  const struct opts *o)
{
	struct bootlog_context ctx = {
		.allowed = o->allowed,
		.n_allowed = o->n_allowed,
	};

	if (bootlog_finish(bl) < 0) {
		log_error("out of memory");
		return BP_EXIT_INFRA;
	}
	if (!bootlog_is_console(bl)) {
		log_error("%s: no kernel console output found (no boot "
			  "messages, no printk timestamps, no KTAP)", t->path);
		return BP_EXIT_USAGE;
	}
	t->bl = bl;
	t->con = bootlog_console(bl);
	console_get_stats(t->con, &t->st);
	ctx.end = bootlog_recorded_end(bl);
	bootlog_decide(bl, &ctx, &t->v);
	t->ktap_failed = bootlog_ktap_failed(bl, &t->tot);
	return 0;
}

static json_object *triage_json(const struct triage *t)
{
	const struct console_milestone_event *last =
		console_last_milestone(t->con);
	const struct ktap *k = bootlog_ktap(t->bl);
	json_object *j = json_object_new_object(), *pa;

	recjson_add_str(j, "file", t->path);
	recjson_add_str(j, "verdict", boot_verdict_name(t->v.verdict));
	recjson_add_str(j, "reason", t->v.reason);
	recjson_add_str(j, "last_milestone",
			last ? console_milestone_name(last->milestone) : NULL);
	recjson_add_str(j, "banner", console_banner(t->con));
	json_object_object_add(j, "milestones", recjson_milestones(t->con));
	pa = json_object_new_array();
	for (size_t i = 0; i < console_n_problems(t->con); i++)
		json_object_array_add(
			pa, recjson_problem(console_problem(t->con, i), true));
	json_object_object_add(j, "problems", pa);
	json_object_object_add(j, "problems_dropped",
			       json_object_new_int64((int64_t)t->st.problems_dropped));
	json_object_object_add(j, "ktap", ktap_get_stats(k)->documents
						  ? recjson_ktap(k)
						  : NULL);
	json_object_object_add(j, "debug", recjson_debug(t->bl));
	json_object_object_add(j, "lines",
			       json_object_new_int64((int64_t)t->st.lines));
	return j;
}

static void print_milestones(const struct console *c)
{
	printf("  milestones:");
	for (int m = 0; m < _CONSOLE_MS_MAX; m++) {
		const struct console_milestone_event *e =
			console_milestone_first(c, (enum console_milestone)m);
		if (!e)
			continue;
		printf(" %s (line %lu", console_milestone_name(e->milestone),
		       e->lineno);
		if (e->timestamp >= 0)
			printf(", %.2fs", e->timestamp);
		printf(")");
	}
	printf("%s\n", console_milestones(c) ? "" : " none");
}

static void print_problem(size_t i, const struct console_problem *p,
			  const struct opts *o)
{
	const char *kind = console_problem_kind_name(p->kind);
	const char *r = p->report;
	size_t shown = 0;

	printf("  problem %zu: %s: %s%s at line %lu", i + 1, kind, p->title,
	       p->corrupted ? " (report corrupted)" : "", p->lineno);
	if (p->timestamp >= 0)
		printf(" (%.2fs)", p->timestamp);
	printf(", signature %s%s\n", p->signature,
	       verdict_kind_allowed(kind, o->allowed, o->n_allowed)
		       ? " (allowed)"
		       : "");
	while (r && *r && (o->full || shown < HEAD_LINES)) {
		const char *nl = strchr(r, '\n');
		int len = nl ? (int)(nl - r) : (int)strlen(r);
		printf("    | %.*s\n", len, r);
		shown++;
		r = nl ? nl + 1 : r + len;
	}
	if (r && *r)
		printf("    | ... (%zu lines, --full shows all)\n",
		       p->report_lines);
}

/* What the agent said of kmemleak and lockdep, and where the kernel said
 * lockdep stopped checking. */
static void print_debug(const struct bootlog_debug *d, const struct console *c)
{
	unsigned long off;

	if (console_lockdep_off(c, &off))
		printf("  lockdep: the kernel turned it off at line %lu: later "
		       "locking problems were not checked\n", off);
	if (d->kmemleak_scanned)
		printf("  kmemleak: scanned after the scenarios, %lu new "
		       "suspected leaks\n", d->kmemleak_leaks);
	else if (d->kmemleak_no_scan[0])
		printf("  kmemleak: no scan (%s)\n", d->kmemleak_no_scan);
	if (d->lockdep == BOOTLOG_LOCKDEP_OFF)
		printf("  lockdep: off at the end (it turned itself off after "
		       "a report: later locking problems were not checked)\n");
	else if (d->lockdep == BOOTLOG_LOCKDEP_ON)
		printf("  lockdep: on to the end\n");
}

static void triage_print(const struct triage *t, const struct opts *o)
{
	const struct ktap *k = bootlog_ktap(t->bl);
	const struct ktap_stats *kst = ktap_get_stats(k);
	const char *banner = console_banner(t->con);

	printf("%s: %s: %s\n", t->path, boot_verdict_name(t->v.verdict),
	       t->v.reason);
	if (banner)
		printf("  kernel: %s\n", banner);
	print_milestones(t->con);
	for (size_t i = 0; i < console_n_problems(t->con); i++)
		print_problem(i, console_problem(t->con, i), o);
	if (t->st.problems_dropped)
		printf("  %lu more problems not kept\n", t->st.problems_dropped);
	print_debug(bootlog_debug(t->bl), t->con);
	if (kst->documents)
		printf("  ktap: %s%s, %zu passed, %zu failed, %zu skipped, "
		       "%zu errors\n",
		       ktap_status_name(ktap_root(k)->status),
		       kst->complete ? "" : " (incomplete: plan not completed)",
		       t->tot.passed, t->tot.failed, t->tot.skipped,
		       t->tot.errors);
}

/* Returns an exit code; *ret_json gets the log's JSON (or NULL). */
static int triage_one(const char *path, const struct opts *o,
		      json_object **ret_json)
{
	_cleanup_bootlog_ struct bootlog *bl = bootlog_new(NULL, NULL);
	struct triage t = { .path = path };
	int r;

	*ret_json = NULL;
	if (!bl) {
		log_error("out of memory");
		return BP_EXIT_INFRA;
	}
	r = triage_read(path, bl);
	if (!r)
		r = triage_analyse(&t, bl, o);
	if (r)
		return r;
	if (o->json)
		*ret_json = triage_json(&t);
	else
		triage_print(&t, o);
	if (t.v.verdict != VERDICT_BOOTED || t.ktap_failed)
		return BP_EXIT_FAIL;
	return BP_EXIT_OK;
}

int verb_triage(int argc, char **argv)
{
	struct opts o = { 0 };
	_cleanup_free_ char *allow_copy = NULL;
	const char *allowed[32], *allow = NULL;
	json_object *arr = NULL;
	int argi, worst = BP_EXIT_OK;
	const struct opt table[] = {
		OPT_FLAG('j', "json", &o.json, "the results as JSON on stdout"),
		OPT_STRING(0, "allow", &allow, "KIND[,KIND...]",
			   "problem kinds that do not fail (warn, ubsan,\n"
			   "all...)"),
		OPT_FLAG(0, "full", &o.full, "print whole problem reports"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "triage",
		.synopsis = "bootproof triage [--json] [--allow KIND[,KIND...]] "
			    "[--full] LOG...",
		.intro = "Reads recorded serial console logs and reports the "
			 "boot verdict,\nkernel problems and KTAP results.",
		.epilog = "exit: 0 clean boot, 1 kernel problem, 2 bad input",
		.opts = table,
		.max_args = -1,
	};

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (allow) {
		char *save = NULL;

		allow_copy = xstrdup(allow);
		for (char *t = strtok_r(allow_copy, ",", &save);
		     t && o.n_allowed < ELEMENTSOF(allowed);
		     t = strtok_r(NULL, ",", &save))
			allowed[o.n_allowed++] = t;
		o.allowed = allowed;
	}
	if (argi >= argc) {
		log_error("triage: no log given");
		opts_usage(&cmd, stderr);
		return BP_EXIT_USAGE;
	}
	if (o.json)
		arr = json_object_new_array();
	for (int i = argi; i < argc; i++) {
		json_object *j = NULL;
		int r = triage_one(argv[i], &o, &j);

		if (j)
			json_object_array_add(arr, j);
		/* Bad input outranks a kernel problem in the exit code. */
		if (r == BP_EXIT_USAGE || worst == BP_EXIT_USAGE)
			worst = BP_EXIT_USAGE;
		else if (r > worst)
			worst = r;
	}
	if (arr) {
		json_object *root = json_object_new_object();
		json_object_object_add(root, "logs", arr);
		puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	}
	return worst;
}
