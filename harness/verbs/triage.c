// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof triage LOG... [--json] [--allow KIND,...] [--full]
 *
 * Read recorded serial console logs (ours, LAVA's, a QEMU -serial file:
 * log...) and say what the boot did: the verdict, the last milestone, every
 * kernel problem with its first lines and signature, and KTAP results.
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
#include "core/console.h"
#include "core/ktap.h"
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

static void feed_ktap(const struct console_line *l, void *ud)
{
	ktap_feed_line(ud, l->text, l->len);
}

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

/* Returns an exit code; *ret_json gets the log's JSON (or NULL). */
static int triage_one(const char *path, const struct opts *o,
		      json_object **ret_json)
{
	_cleanup_console_ struct console *c = NULL;
	_cleanup_ktap_ struct ktap *k = NULL;
	_cleanup_close_ int fd = -1;
	unsigned char buf[SNIFF_BYTES];
	struct console_ops ops = { .on_line = feed_ktap };
	struct console_stats st;
	const struct ktap_stats *kst;
	struct verdict_problem vp[CONSOLE_MAX_PROBLEMS];
	struct verdict_input in = { 0 };
	struct verdict v;
	struct ktap_totals tot;
	const struct console_milestone_event *last;
	unsigned ms;
	size_t total = 0, np;
	bool first = true;

	*ret_json = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		log_error_errno(errno, "%s", path);
		return BP_EXIT_USAGE;
	}
	k = ktap_new(NULL, NULL, NULL);
	c = console_new(&ops, NULL);
	if (!k || !c) {
		log_error("out of memory");
		return BP_EXIT_INFRA;
	}
	/* console_new copied ops; userdata must be the KTAP parser. */
	console_free(c);
	c = console_new(&ops, k);
	if (!c)
		return BP_EXIT_INFRA;

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
		if (first && looks_binary(buf, (size_t)n)) {
			log_error("%s: binary data, not a console log", path);
			return BP_EXIT_USAGE;
		}
		first = false;
		total += (size_t)n;
		console_feed(c, buf, (size_t)n);
	}
	if (!total) {
		log_error("%s: empty file, not a console log", path);
		return BP_EXIT_USAGE;
	}
	console_finish(c);
	ktap_finish(k);
	console_get_stats(c, &st);
	kst = ktap_get_stats(k);
	ms = console_milestones(c);
	if (!ms && !st.timestamped && !st.problems && !kst->documents) {
		log_error("%s: no kernel console output found (no boot "
			  "messages, no printk timestamps, no KTAP)", path);
		return BP_EXIT_USAGE;
	}

	np = console_n_problems(c);
	for (size_t i = 0; i < np; i++) {
		const struct console_problem *p = console_problem(c, i);
		vp[i].kind = console_problem_kind_name(p->kind);
		vp[i].title = p->title;
	}
	last = console_last_milestone(c);
	in.any_output = true;
	in.banner = ms & (1u << CONSOLE_MS_KERNEL_BANNER);
	in.init_started = ms & (1u << CONSOLE_MS_INIT_STARTED);
	in.powered_off = ms & ((1u << CONSOLE_MS_POWER_OFF) |
			       (1u << CONSOLE_MS_HALT));
	in.rebooted = ms & (1u << CONSOLE_MS_REBOOT);
	in.last_milestone = last ? console_milestone_name(last->milestone)
				 : NULL;
	in.end = in.powered_off || in.rebooted ? BOOT_END_STOPPED
					       : BOOT_END_TIMEOUT;
	in.problems = vp;
	in.n_problems = np;
	in.allowed = o->allowed;
	in.n_allowed = o->n_allowed;
	in.timeout_s = 0;
	verdict_decide(&in, &v);
	ktap_test_totals(ktap_root(k), &tot);

	if (o->json) {
		json_object *j = json_object_new_object(), *pa;

		recjson_add_str(j, "file", path);
		recjson_add_str(j, "verdict", boot_verdict_name(v.verdict));
		recjson_add_str(j, "reason", v.reason);
		recjson_add_str(j, "last_milestone", in.last_milestone);
		recjson_add_str(j, "banner", console_banner(c));
		json_object_object_add(j, "milestones", recjson_milestones(c));
		pa = json_object_new_array();
		for (size_t i = 0; i < np; i++)
			json_object_array_add(
				pa, recjson_problem(console_problem(c, i), true));
		json_object_object_add(j, "problems", pa);
		json_object_object_add(j, "problems_dropped",
				       json_object_new_int64((int64_t)st.problems_dropped));
		json_object_object_add(j, "ktap", kst->documents ? recjson_ktap(k)
								: NULL);
		json_object_object_add(j, "lines",
				       json_object_new_int64((int64_t)st.lines));
		*ret_json = j;
	} else {
		const char *banner = console_banner(c);

		printf("%s: %s: %s\n", path, boot_verdict_name(v.verdict),
		       v.reason);
		if (banner)
			printf("  kernel: %s\n", banner);
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
		printf("%s\n", ms ? "" : " none");
		for (size_t i = 0; i < np; i++) {
			const struct console_problem *p = console_problem(c, i);
			const char *r = p->report;
			size_t shown = 0;

			printf("  problem %zu: %s at line %lu", i + 1,
			       console_problem_kind_name(p->kind), p->lineno);
			if (p->timestamp >= 0)
				printf(" (%.2fs)", p->timestamp);
			printf(", signature %s%s\n", p->signature,
			       verdict_kind_allowed(console_problem_kind_name(p->kind),
						    o->allowed, o->n_allowed)
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
		if (st.problems_dropped)
			printf("  %lu more problems not kept\n",
			       st.problems_dropped);
		if (kst->documents)
			printf("  ktap: %s%s, %zu passed, %zu failed, %zu skipped, "
			       "%zu errors\n",
			       ktap_status_name(ktap_root(k)->status),
			       kst->complete ? "" : " (incomplete: plan not completed)",
			       tot.passed, tot.failed, tot.skipped, tot.errors);
	}
	if (v.verdict != VERDICT_BOOTED)
		return BP_EXIT_FAIL;
	if (kst->documents && (tot.failed || tot.errors || !kst->complete))
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
