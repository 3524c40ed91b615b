// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof run [PLAN] [--arch A]... [--group G]... [--ksrc DIR]
 *     [--results DIR] [--resume RUN_DIR] [--accel MODE] [--connect URI]
 *     [--jobs N] [--json]
 *
 * The defconfig matrix: every candidate of a plan through the config,
 * build and boot stages, and a verdict per option group and arch
 * (docs/run.md).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/accel.h"
#include "bootproof.h"
#include "core/plan.h"
#include "engine/ksrc.h"
#include "engine/matrix.h"
#include "util/jsonx.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/paths.h"
#include "util/strbuf.h"
#include "verbs/report.h"

static const char run_synopsis[] = "bootproof run [PLAN] [options]";
static const char run_intro[] =
	"PLAN is a plan file, or the name of one in scenarios/plans/ "
	"(default: demo).";
static const char run_epilog[] =
	"exit: 0 every group PASS, PARTIAL or SKIP; 1 a group FAILed; 2 bad "
	"input;\n      3 infrastructure; 130 interrupted (resume with "
	"--resume)";

struct strv {
	const char **v;
	size_t n;
};

static void strv_add(struct strv *s, const char *x)
{
	s->v = realloc(s->v, (s->n + 1) * sizeof(char *));
	if (!s->v)
		abort();
	s->v[s->n++] = x;
}

static bool file_ok(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* PLAN as given, or scenarios/plans/<PLAN>[.plan] of the data directory. */
static char *find_plan(const char *datadir, const char *arg)
{
	_cleanup_free_ char *dir = path_join(datadir, "scenarios/plans");
	char *p;

	if (!arg)
		arg = "demo";
	if (strchr(arg, '/') || file_ok(arg))
		return strdup(arg);
	p = path_join(dir, arg);
	if (file_ok(p))
		return p;
	free(p);
	if (asprintf(&p, "%s/%s.plan", dir, arg) < 0)
		return NULL;
	return p;
}

/* With --resume: what the interrupted run used, for what is not given. */
static int from_record(const char *dir, const char *datadir, char **plan,
		       struct strv *arches, struct strv *groups, char **ksrc,
		       json_object **ret_doc)
{
	_cleanup_free_ char *p = path_join(dir, "run.json");
	json_object *doc = json_object_from_file(p), *pl, *v;

	if (!doc) {
		log_error("--resume %s: cannot read %s: %s", dir, p,
			  json_util_get_last_err());
		return -EINVAL;
	}
	*ret_doc = doc;
	pl = jsonx_get(doc, "plan");
	if (!pl) {
		log_error("--resume %s: %s is not the record of a `bootproof "
			  "run` (no plan)", dir, p);
		return -EINVAL;
	}
	if (!*plan && (v = jsonx_get(pl, "file")) && json_object_get_string(v)) {
		const char *f = json_object_get_string(v);

		*plan = f[0] == '/' ? strdup(f) : path_join(datadir, f);
	}
	if (!arches->n && (v = jsonx_get(pl, "arches")))
		for (size_t i = 0; i < json_object_array_length(v); i++)
			strv_add(arches, json_object_get_string(
						 json_object_array_get_idx(v, i)));
	/* Only what --group gave: the plan's own groups come from the plan
	 * file, resolved against its directory as the first time. */
	if (!groups->n && (v = jsonx_get(pl, "group_args")) &&
	    json_object_is_type(v, json_type_array))
		for (size_t i = 0; i < json_object_array_length(v); i++)
			strv_add(groups, json_object_get_string(
						 json_object_array_get_idx(v, i)));
	if (!*ksrc && (v = jsonx_get(pl, "ksrc")) && json_object_get_string(v))
		*ksrc = strdup(json_object_get_string(v));
	return 0;
}

static void summary(const struct run *run, const char *report)
{
	json_object *groups = jsonx_get(run->doc, "groups");
	json_object *plan = jsonx_get(run->doc, "plan");
	json_object *arches = jsonx_get(plan, "arches");
	json_object *names = jsonx_get(plan, "groups");
	size_t na = arches ? json_object_array_length(arches) : 0;

	printf("%-24s", "group");
	for (size_t a = 0; a < na; a++)
		printf(" %-8s", json_object_get_string(
					json_object_array_get_idx(arches, a)));
	putchar('\n');
	for (size_t n = 0; names && n < json_object_array_length(names); n++) {
		const char *name = json_object_get_string(
			json_object_array_get_idx(names, n));

		printf("%-24s", name);
		for (size_t a = 0; a < na; a++) {
			const char *arch = json_object_get_string(
				json_object_array_get_idx(arches, a));
			const char *v = "?";

			for (size_t i = 0; i < json_object_array_length(groups);
			     i++) {
				json_object *g = json_object_array_get_idx(groups, i);

				if (!strcmp(jsonx_text(g, "group") ?: "", name) &&
				    !strcmp(jsonx_text(g, "arch") ?: "", arch))
					v = jsonx_text(g, "verdict") ?: "?";
			}
			printf(" %-8s", v);
		}
		putchar('\n');
	}
	for (size_t i = 0; groups && i < json_object_array_length(groups); i++) {
		json_object *g = json_object_array_get_idx(groups, i);
		const char *v = jsonx_text(g, "verdict") ?: "?";
		const char *stage = jsonx_text(g, "stage");

		if (!strcmp(v, "PASS"))
			continue;
		printf("  %s on %s: %s%s%s\n      %s\n",
		       jsonx_text(g, "group") ?: "?", jsonx_text(g, "arch") ?: "?", v,
		       stage ? " at " : "", stage ? stage : "",
		       jsonx_text(g, "reason") ?: "");
	}
	printf("results: %s/\n", run->dir);
	if (report)
		printf("report: %s\n", report);
}

int verb_run(int argc, char **argv)
{
	_cleanup_free_ char *datadir = NULL, *cache = NULL, *plan_path = NULL;
	_cleanup_free_ char *ksrc = NULL, *ksrc_arg = NULL, *release = NULL;
	_cleanup_free_ char *unpack = NULL, *report = NULL;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	_cleanup_plan_ struct plan *plan = NULL;
	struct strv arches = { 0 }, groups = { 0 }, owned = { 0 };
	const char *results = "results", *resume = NULL, *accel_arg = "auto";
	const char *uri = NULL;
	json_object *resumed_doc = NULL;
	char accel_reason[512] = "";
	enum guest_accel accel = GUEST_ACCEL_TCG;
	volatile sig_atomic_t *interrupted;
	struct matrix_outcome out = { 0 };
	_cleanup_(opt_list_done) struct opt_list arch_opt = { 0 };
	_cleanup_(opt_list_done) struct opt_list group_opt = { 0 };
	const char *ksrc_opt = NULL;
	unsigned jobs = 0;
	bool json = false, rebuild = false;
	const struct opt table[] = {
		OPT_LIST(0, "arch", &arch_opt, "A",
			 "only this arch (repeatable; replaces the plan's)"),
		OPT_LIST(0, "group", &group_opt, "G",
			 "only this group: a name or a fragment file\n"
			 "(repeatable; replaces the plan's)"),
		OPT_STRING(0, "ksrc", &ksrc_opt, "DIR",
			   "kernel tree (default: " KSRC_DEFAULT_TARBALL "\n"
			   "unpacked once into the cache)"),
		OPT_STRING(0, "results", &results, "DIR",
			   "where run directories go (default: results)"),
		OPT_STRING(0, "resume", &resume, "RUN_DIR",
			   "continue an interrupted run: finished stages are\n"
			   "reused, the rest runs (PLAN, --arch, --group and\n"
			   "--ksrc default to the run's)"),
		OPT_STRING(0, "accel", &accel_arg, "auto|kvm|tcg",
			   "accelerator (default auto: KVM only when a probe\n"
			   "guest runs)"),
		OPT_STRING(0, "connect", &uri, "URI",
			   "libvirt URI (default: $LIBVIRT_DEFAULT_URI or\n"
			   "qemu:///system)"),
		OPT_UINT(0, "jobs", &jobs, "N", "jobs", 1, 1024,
			 "make -jN (default: the CPU count)"),
		OPT_FLAG(0, "rebuild", &rebuild,
			 "build every candidate again, even when the cache\n"
			 "has its .config built (e.g. after editing the tree)"),
		OPT_FLAG(0, "json", &json, "print run.json on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "run",
		.synopsis = run_synopsis,
		.intro = run_intro,
		.epilog = run_epilog,
		.opts = table,
		.max_args = 1,
	};
	int argi, r, code;

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0) {
		code = opts_exit_code(argi);
		goto out;
	}
	for (size_t i = 0; i < arch_opt.n; i++)
		strv_add(&arches, arch_opt.v[i]);
	for (size_t i = 0; i < group_opt.n; i++) {
		/* A path is kept absolute (run.json records it for --resume,
		 * which may run elsewhere). */
		const char *g = group_opt.v[i];
		char *abs = strchr(g, '/') ? realpath(g, NULL) : NULL;

		if (abs)
			strv_add(&owned, abs);
		strv_add(&groups, abs ? abs : g);
	}
	if (ksrc_opt)
		ksrc_arg = strdup(ksrc_opt);
	datadir = bp_data_dir();
	cache = bp_cache_dir();
	if (!datadir) {
		log_error("run: cannot find bootproof's data directory "
			  "(scenarios/): set BOOTPROOF_DATADIR to the source "
			  "checkout");
		code = BP_EXIT_INFRA;
		goto out;
	}
	if (!cache) {
		code = BP_EXIT_INFRA;
		goto out;
	}
	if (argi < argc)
		plan_path = find_plan(datadir, argv[argi]);
	if (resume && from_record(resume, datadir, &plan_path, &arches, &groups,
				  &ksrc_arg, &resumed_doc) < 0) {
		code = BP_EXIT_USAGE;
		goto out;
	}
	if (!plan_path)
		plan_path = find_plan(datadir, NULL);

	/* The plan. */
	r = strbuf_read_file(&sb, plan_path, 1 << 20);
	if (r < 0) {
		log_error_errno(r, "run: plan %s", plan_path);
		code = BP_EXIT_USAGE;
		goto out;
	}
	r = plan_parse(plan_path, sb.buf, sb.len, &plan, &err);
	if (r >= 0 && arches.n)
		r = plan_set_arches(plan, arches.v, arches.n, &err);
	if (r >= 0 && groups.n)
		r = plan_set_groups(plan, groups.v, groups.n, &err);
	if (r < 0) {
		log_error("run: %s", err.buf);
		code = r == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
		goto out;
	}

	/* The kernel tree. */
	unpack = ksrc_unpack_dir(cache, KSRC_DEFAULT_TARBALL);
	if (!ksrc_arg && unpack &&
	    !ksrc_is_unpacked(KSRC_DEFAULT_TARBALL, unpack))
		log_info("unpacking %s into %s (once; a minute or two)",
			 KSRC_DEFAULT_TARBALL, unpack);
	r = ksrc_resolve(ksrc_arg, cache, &ksrc, &err);
	if (r < 0) {
		log_error("run: %s", err.buf);
		code = ksrc_arg && (r == -ENOENT || r == -EINVAL || r == -ENOTDIR)
			       ? BP_EXIT_USAGE
			       : BP_EXIT_INFRA;
		goto out;
	}
	r = ksrc_release(ksrc, &release);
	if (r < 0) {
		log_error_errno(r, "run: %s: no kernel release in its Makefile",
				ksrc);
		code = BP_EXIT_INFRA;
		goto out;
	}

	/* The accelerator: KVM only when a probe guest really ran. */
	if (!strcmp(accel_arg, "tcg")) {
		snprintf(accel_reason, sizeof(accel_reason), "TCG requested");
	} else if (!strcmp(accel_arg, "kvm") || !strcmp(accel_arg, "auto")) {
		struct accel_probe p;
		struct accel_probe_opts po = { 0 };

		accel_probe_kvm(&po, &p);
		if (p.usable) {
			accel = GUEST_ACCEL_KVM;
			snprintf(accel_reason, sizeof(accel_reason),
				 "KVM probe guest ran in %ld ms", p.elapsed_ms);
		} else if (!strcmp(accel_arg, "kvm")) {
			log_error("--accel kvm: KVM unusable: %s", p.reason);
			code = BP_EXIT_INFRA;
			goto out;
		} else {
			snprintf(accel_reason, sizeof(accel_reason),
				 "KVM unusable: %s; using TCG", p.reason);
		}
	} else {
		log_error("--accel %s: expected auto, kvm or tcg", accel_arg);
		code = BP_EXIT_USAGE;
		goto out;
	}
	if (!uri)
		uri = getenv("LIBVIRT_DEFAULT_URI");
	if (!uri || !*uri)
		uri = "qemu:///system";

	interrupted = interrupt_catch();
	if (!json)
		log_info("plan %s: %s; Linux %s at %s; %s", plan->name,
			 plan_path, release, ksrc, accel_reason);
	{
		struct matrix_opts mo = {
			.plan = plan,
			.datadir = datadir,
			.cache = cache,
			.ksrc = ksrc,
			.release = release,
			.results = results,
			.resume = resume,
			.accel = accel,
			.accel_reason = accel_reason,
			.uri = uri,
			.argc = argc,
			.argv = argv,
			.quiet = json,
			.jobs = jobs,
			.rebuild = rebuild,
			.interrupted = interrupted,
		};

		r = matrix_run(&mo, &out, &err);
	}
	if (r < 0) {
		log_error("run: %s", err.buf);
		code = r == -EINVAL || r == -ENOENT ? BP_EXIT_USAGE
						    : BP_EXIT_INFRA;
		goto out;
	}
	code = out.exit_code;

	/* The human-readable report (verbs/report.c); run.json when it
	 * could not be written (report_write says why). */
	if (report_write(out.run->dir, &report) < 0 || !report)
		report = run_path(out.run, "run.json");

	if (json)
		puts(json_object_to_json_string_ext(
			out.run->doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		summary(out.run, report);
	if (code == BP_EXIT_INTERRUPTED)
		log_info("interrupted: continue with 'bootproof run --resume %s'",
			 out.run->dir);
	run_free(out.run);
out:
	free(arches.v);
	free(groups.v);
	for (size_t i = 0; i < owned.n; i++)
		free((char *)owned.v[i]);
	free(owned.v);
	json_object_put(resumed_doc);
	return code;
}
