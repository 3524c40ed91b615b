// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof run [PLAN] [--arch A]... [--group G]... [--base BASE]
 *     [--base-group G]... [--candidates K]... [--ksrc DIR]
 *     [--results DIR] [--resume RUN_DIR] [--accel MODE] [--connect URI]
 *     [--jobs N] [--retries N] [--distcc HOST]...
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

int verb_run(int argc, char **argv)
{
	_cleanup_free_ char *ksrc_arg = NULL, *report = NULL;
	struct strv arches = { 0 }, groups = { 0 }, owned = { 0 };
	const char *results = "results", *resume = NULL, *accel_arg = "auto";
	const char *uri = NULL;
	struct matrix_outcome out = { 0 };
	unsigned jobs = 0, retries = 1, boots = 0;
	_cleanup_(opt_list_done) struct opt_list arch_opt = { 0 };
	_cleanup_(opt_list_done) struct opt_list group_opt = { 0 };
	_cleanup_(opt_list_done) struct opt_list bgroup_opt = { 0 };
	_cleanup_(opt_list_done) struct opt_list cand_opt = { 0 };
	_cleanup_(opt_list_done) struct opt_list distcc_opt = { 0 };
	struct strv bgroups = { 0 };
	const char *ksrc_opt = NULL, *base = NULL;
	const char *lava_out = NULL, *lava_url = NULL, *why = NULL;
	struct lavaemit_opts lava;
	const char *shard = NULL, *shard_by = NULL;
	bool json = false, rebuild = false;
	const struct opt table[] = {
		OPT_LIST(0, "arch", &arch_opt, "A",
			 "only this arch (repeatable; replaces the plan's)"),
		OPT_LIST(0, "group", &group_opt, "G",
			 "only this group: a name or a fragment file\n"
			 "(repeatable; replaces the plan's)"),
		OPT_STRING(0, "base", &base, "BASE",
			   "the base of every arch: targets joined by '+'\n"
			   "or a config file (replaces the plan's)"),
		OPT_LIST(0, "base-group", &bgroup_opt, "G",
			 "a group merged into every candidate's base: a\n"
			 "name or a fragment file (repeatable; replaces\n"
			 "the plan's)"),
		OPT_LIST(0, "candidates", &cand_opt, "K",
			 "base, each or all (repeatable; replaces the\n"
			 "plan's)"),
		OPT_STRING(0, "ksrc", &ksrc_opt, "DIR",
			   "kernel tree (default: " KSRC_DEFAULT_TARBALL "\n"
			   "unpacked once into the cache)"),
		OPT_STRING(0, "results", &results, "DIR",
			   "where run directories go (default: results)"),
		OPT_STRING(0, "resume", &resume, "RUN_DIR",
			   "continue an interrupted run: finished stages are\n"
			   "reused, the rest runs (PLAN, --arch, --group,\n"
			   "--base, --base-group, --candidates and --ksrc\n"
			   "default to the run's)"),
		OPT_STRING(0, "accel", &accel_arg, "auto|kvm|tcg",
			   "accelerator (default auto: KVM only when a probe\n"
			   "guest runs)"),
		OPT_STRING(0, "connect", &uri, "URI",
			   "libvirt URI (default: $LIBVIRT_DEFAULT_URI or\n"
			   "qemu:///system)"),
		OPT_UINT(0, "jobs", &jobs, "N", "jobs", 1, 1024,
			 "make -jN (default: the CPU count)"),
		OPT_UINT(0, "retries", &retries, "N", "retries", 0, 10,
			 "boot a candidate again, up to N times, when QEMU\n"
			 "dies by itself (default 1; earlier attempts kept)"),
		OPT_UINT(0, "boots", &boots, "N", "boots", 1, PLAN_MAX_BOOTS,
			 "boot each candidate N times: boot times become\n"
			 "medians with their spread (default: the plan's\n"
			 "\"boots\", else 1)"),
		OPT_FLAG(0, "rebuild", &rebuild,
			 "build every candidate again, even when the cache\n"
			 "has its .config built (e.g. after editing the tree)"),
		OPT_STRING(0, "lava-out", &lava_out, "DIR",
			   "configure and build here, then write each\n"
			   "candidate's LAVA job and files into DIR instead\n"
			   "of booting it (docs/lava.md)"),
		OPT_STRING(0, "lava-url", &lava_url, "URL",
			   "the URL DIR is served at (with --lava-out)"),
		OPT_LIST(0, "distcc", &distcc_opt, "HOST",
			 "compile the kernels on this distcc host:\n"
			 "HOST[:PORT][/LIMIT][,lzo] or localhost[/LIMIT]\n"
			 "(repeatable; replaces the plan's; make -j the\n"
			 "sum of the limits unless --jobs)"),
		OPT_STRING(0, "shard", &shard, "K/N",
			   "run only shard K of N of the candidates (CI\n"
			   "jobs; bootproof merge puts the shards together)"),
		OPT_STRING(0, "shard-by", &shard_by, "cost|order",
			   "split by the build times the cache measured\n"
			   "(default; the plan's order when it knows none),\n"
			   "or by the plan's order"),
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
	int c, code;

	c = opts_parse(&cmd, argc, argv);
	if (c < 0) {
		code = opts_exit_code(c);
		goto out;
	}
	if (!lava_out != !lava_url) {
		log_error("--lava-out and --lava-url go together");
		code = BP_EXIT_USAGE;
		goto out;
	}
	if (lava_url && !lavaemit_url_ok(lava_url, &why)) {
		log_error("--lava-url %s: %s", lava_url, why);
		code = BP_EXIT_USAGE;
		goto out;
	}
	lava = (struct lavaemit_opts){ .out = lava_out, .url = lava_url };
	for (size_t i = 0; i < arch_opt.n; i++)
		strv_add(&arches, arch_opt.v[i]);
	/* A path is kept absolute (run.json records it for --resume,
	 * which may run elsewhere). */
	for (size_t i = 0; i < group_opt.n; i++)
		strv_add(&groups, absolute(&owned, group_opt.v[i]));
	for (size_t i = 0; i < bgroup_opt.n; i++)
		strv_add(&bgroups, absolute(&owned, bgroup_opt.v[i]));
	if (base)
		base = absolute(&owned, base);
	if (ksrc_opt)
		ksrc_arg = strdup(ksrc_opt);
	{
		struct runprep_args a = {
			.plan = c < argc ? argv[c] : NULL,
			.arches = arches.v, .n_arches = arches.n,
			.groups = groups.v, .n_groups = groups.n,
			.base = base,
			.base_groups = bgroups.v, .n_base_groups = bgroups.n,
			.candidates = cand_opt.v,
			.n_candidates = cand_opt.n,
			.ksrc = ksrc_arg, .results = results, .resume = resume,
			.accel = accel_arg, .uri = uri, .jobs = jobs,
			.retries = retries, .boots = boots,
			.rebuild = rebuild, .quiet = json,
			.lava = lava_out ? &lava : NULL,
			.shard = shard, .shard_by = shard_by,
			.distcc = distcc_opt.v, .n_distcc = distcc_opt.n,
			.argc = argc, .argv = argv,
		};

		code = runprep_run(&a, &out, &report);
	}
	if (!out.run)
		goto out;
	if (json)
		puts(json_object_to_json_string_ext(
			out.run->doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		run_summary_print(out.run, report);
	if (code == BP_EXIT_INTERRUPTED)
		log_info("interrupted: continue with 'bootproof run --resume %s'",
			 out.run->dir);
	run_free(out.run);
out:
	free(arches.v);
	free(groups.v);
	free(bgroups.v);
	for (size_t i = 0; i < owned.n; i++)
		free((char *)owned.v[i]);
	free(owned.v);
	return code;
}
