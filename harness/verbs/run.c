// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof run [PLAN] [--arch A]... [--group G]... [--base BASE]
 *     [--base-group G]... [--candidates K]... [--ksrc DIR]
 *     [--results DIR] [--resume RUN_DIR] [--accel MODE] [--connect URI]
 *     [--jobs N] [--parallel auto|N] [--retries N] [--distcc HOST]...
 *     [--shard K/N [--shard-by cost|order]]
 *     [--json]
 *
 * The defconfig matrix: every candidate of a plan through the config,
 * build and boot stages, and a verdict per option group and arch
 * (docs/run.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootproof.h"
#include "engine/ksrc.h"
#include "core/archjobs.h"
#include "core/plan.h"
#include "engine/lavaemit.h"
#include "engine/runprep.h"
#include "verbs/run_summary.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/opts.h"

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

/* A path (a word with a '/') made absolute when it exists; owned keeps
 * what was allocated. */
static const char *absolute(struct strv *owned, const char *w)
{
	char *abs = strchr(w, '/') ? realpath(w, NULL) : NULL;

	if (!abs)
		return w;
	strv_add(owned, abs);
	return abs;
}

/* What the command line said. */
struct run_cli {
	const char *results, *resume, *accel, *uri, *ksrc, *base;
	const char *lava_out, *lava_url, *shard, *shard_by, *parallel;
	unsigned jobs, retries, boots;
	unsigned workers;	/* --parallel: 0 auto */
	bool json, rebuild;
	struct opt_list arch, group, bgroup, cand, distcc;
};

static void run_cli_done(struct run_cli *r)
{
	opt_list_done(&r->arch);
	opt_list_done(&r->group);
	opt_list_done(&r->bgroup);
	opt_list_done(&r->cand);
	opt_list_done(&r->distcc);
}

/* Parse argv into r: the index of the first argument (the plan), or -1
 * with the exit code in *ret_code (0 after --help). */
static int run_parse(struct run_cli *r, int argc, char **argv, int *ret_code)
{
	const char *why = NULL;
	const struct opt table[] = {
		OPT_LIST(0, "arch", &r->arch, "A",
			 "only this arch (repeatable; replaces the plan's)"),
		OPT_LIST(0, "group", &r->group, "G",
			 "only this group: a name or a fragment file\n"
			 "(repeatable; replaces the plan's)"),
		OPT_STRING(0, "base", &r->base, "BASE",
			   "the base of every arch: targets joined by '+'\n"
			   "or a config file (replaces the plan's)"),
		OPT_LIST(0, "base-group", &r->bgroup, "G",
			 "a group merged into every candidate's base: a\n"
			 "name or a fragment file (repeatable; replaces\n"
			 "the plan's)"),
		OPT_LIST(0, "candidates", &r->cand, "K",
			 "base, each or all (repeatable; replaces the\n"
			 "plan's)"),
		OPT_STRING(0, "ksrc", &r->ksrc, "DIR",
			   "kernel tree (default: the current directory\n"
			   "when it is one, else " KSRC_DEFAULT_TARBALL "\n"
			   "unpacked once into the cache)"),
		OPT_STRING(0, "results", &r->results, "DIR",
			   "where run directories go (default: results)"),
		OPT_STRING(0, "resume", &r->resume, "RUN_DIR",
			   "continue an interrupted run: finished stages are\n"
			   "reused, the rest runs (PLAN, --arch, --group,\n"
			   "--base, --base-group, --candidates and --ksrc\n"
			   "default to the run's)"),
		OPT_STRING(0, "accel", &r->accel, "auto|kvm|tcg",
			   "accelerator (default auto: KVM only when a probe\n"
			   "guest runs)"),
		OPT_STRING(0, "connect", &r->uri, "URI",
			   "libvirt URI (default: $LIBVIRT_DEFAULT_URI or\n"
			   "qemu:///system)"),
		OPT_UINT(0, "jobs", &r->jobs, "N", "jobs", 1, 1024,
			 "make -jN (default: the CPU count)"),
		OPT_STRING(0, "parallel", &r->parallel, "auto|N",
			   "build and boot up to N arches at once, a process "
			   "each (default auto: every arch when the host has "
			   "the CPUs and memory; docs/run.md)"),
		OPT_UINT(0, "retries", &r->retries, "N", "retries", 0, 10,
			 "boot a candidate again, up to N times, when QEMU\n"
			 "dies by itself (default 1; earlier attempts kept)"),
		OPT_UINT(0, "boots", &r->boots, "N", "boots", 1, PLAN_MAX_BOOTS,
			 "boot each candidate N times: boot times become\n"
			 "medians with their spread (default: the plan's\n"
			 "\"boots\", else 1)"),
		OPT_FLAG(0, "rebuild", &r->rebuild,
			 "build every candidate again, even when the cache\n"
			 "has its .config built (an edited --ksrc tree is\n"
			 "noticed without it)"),
		OPT_STRING(0, "lava-out", &r->lava_out, "DIR",
			   "configure and build here, then write each\n"
			   "candidate's LAVA job and files into DIR instead\n"
			   "of booting it (docs/lava.md)"),
		OPT_STRING(0, "lava-url", &r->lava_url, "URL",
			   "the URL DIR is served at (with --lava-out)"),
		OPT_LIST(0, "distcc", &r->distcc, "HOST",
			 "compile the kernels on this distcc host:\n"
			 "HOST[:PORT][/LIMIT][,lzo] or localhost[/LIMIT]\n"
			 "(repeatable; replaces the plan's; make -j the\n"
			 "sum of the limits unless --jobs)"),
		OPT_STRING(0, "shard", &r->shard, "K/N",
			   "run only shard K of N of the candidates (CI\n"
			   "jobs; bootproof merge puts the shards together)"),
		OPT_STRING(0, "shard-by", &r->shard_by, "cost|order",
			   "split by the build times the cache measured\n"
			   "(default; the plan's order when it knows none),\n"
			   "or by the plan's order"),
		OPT_FLAG(0, "json", &r->json, "print run.json on stdout"),
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
	int c = opts_parse(&cmd, argc, argv);

	*ret_code = BP_EXIT_USAGE;
	if (c < 0) {
		*ret_code = opts_exit_code(c);
		return -1;
	}
	if (archjobs_parse(r->parallel, &r->workers) < 0) {
		log_error("--parallel %s: not auto or a number from 1 to %u",
			  r->parallel, ARCHJOBS_MAX);
		return -1;
	}
	if (!r->lava_out != !r->lava_url) {
		log_error("--lava-out and --lava-url go together");
		return -1;
	}
	if (r->lava_url && !lavaemit_url_ok(r->lava_url, &why)) {
		log_error("--lava-url %s: %s", r->lava_url, why);
		return -1;
	}
	return c;
}

/* The run the command line asked for, then its summary or run.json. */
static int run_go(const struct run_cli *r, const char *plan, int argc,
		  char **argv)
{
	_cleanup_free_ char *ksrc = r->ksrc ? strdup(r->ksrc) : NULL;
	_cleanup_free_ char *report = NULL;
	struct strv groups = { 0 }, bgroups = { 0 }, owned = { 0 };
	struct lavaemit_opts lava = { .out = r->lava_out, .url = r->lava_url };
	struct matrix_outcome out = { 0 };
	int code;

	/* A path is kept absolute (run.json records it for --resume,
	 * which may run elsewhere). */
	for (size_t i = 0; i < r->group.n; i++)
		strv_add(&groups, absolute(&owned, r->group.v[i]));
	for (size_t i = 0; i < r->bgroup.n; i++)
		strv_add(&bgroups, absolute(&owned, r->bgroup.v[i]));
	{
		struct runprep_args a = {
			.plan = plan,
			.arches = (const char *const *)r->arch.v,
			.n_arches = r->arch.n,
			.groups = groups.v, .n_groups = groups.n,
			.base = r->base ? absolute(&owned, r->base) : NULL,
			.base_groups = bgroups.v, .n_base_groups = bgroups.n,
			.candidates = r->cand.v,
			.n_candidates = r->cand.n,
			.ksrc = ksrc, .results = r->results,
			.resume = r->resume, .accel = r->accel, .uri = r->uri,
			.jobs = r->jobs, .retries = r->retries, .boots = r->boots,
			.parallel = r->workers,
			.rebuild = r->rebuild, .quiet = r->json,
			.lava = r->lava_out ? &lava : NULL,
			.shard = r->shard, .shard_by = r->shard_by,
			.distcc = r->distcc.v, .n_distcc = r->distcc.n,
			.argc = argc, .argv = argv,
		};

		code = runprep_run(&a, &out, &report);
	}
	if (out.run) {
		if (r->json)
			puts(json_object_to_json_string_ext(
				out.run->doc, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
		else
			run_summary_print(out.run, report);
		if (code == BP_EXIT_INTERRUPTED)
			log_info("interrupted: continue with 'bootproof run "
				 "--resume %s'", out.run->dir);
		run_free(out.run);
	}
	free(groups.v);
	free(bgroups.v);
	for (size_t i = 0; i < owned.n; i++)
		free((char *)owned.v[i]);
	free(owned.v);
	return code;
}

int verb_run(int argc, char **argv)
{
	struct run_cli r = {
		.results = "results", .accel = "auto", .retries = 1,
		.parallel = "auto",
	};
	int code;
	int c = run_parse(&r, argc, argv, &code);

	if (c >= 0)
		code = run_go(&r, c < argc ? argv[c] : NULL, argc, argv);

	run_cli_done(&r);
	return code;
}
