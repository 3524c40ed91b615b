// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof config: the config stage alone.  Makes the .config for a base
 * plus option groups with the kernel's own tooling and reports, per group,
 * which requested options were kept and why each dropped one was dropped.
 * Exit: 0 all kept, 1 something dropped (a result), 2 bad input, 3 infra.
 * With --refresh NEW: the refresh audit of --base against NEW
 * (verbs/config_refresh.c); exit 0 same final .config, 1 it differs.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootproof.h"
#include "core/arch.h"
#include "engine/configstage.h"
#include "engine/ksrc.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/paths.h"
#include "util/xalloc.h"
#include "verbs/config_refresh.h"

/* A path shown relative to the data directory when it is inside it. */
static const char *shown(const char *path, const char *datadir)
{
	size_t n = datadir ? strlen(datadir) : 0;

	if (n && !strncmp(path, datadir, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

static void format_final(struct strbuf *sb, const struct kconfig_option *f)
{
	if (!f) {
		strbuf_addstr(sb, "absent");
		return;
	}
	kconfig_format_option(sb, f);
	strbuf_rtrim(sb);
}

static void print_option(const struct configstage_option *op,
			 const char *datadir, bool verbose)
{
	_cleanup_strbuf_ struct strbuf req = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf fin = STRBUF_INIT;

	if (op->kept && !verbose)
		return;
	kconfig_format_option(&req, op->requested);
	strbuf_rtrim(&req);
	if (op->kept) {
		printf("  kept     %s\n", req.buf);
		return;
	}
	format_final(&fin, op->final);
	printf("  %-8s %s  -> %s  [%s:%u]\n", op->group ? "DROPPED" : "STALE",
	       req.buf, fin.buf, shown(op->requested->file, datadir),
	       op->requested->line);
	printf("           %s\n", op->reason);
}

static void print_text(const struct configstage_result *res,
		       const struct configstage_opts *o, bool verbose)
{
	printf("config: %s, base %s, Linux %s at %s\n", o->arch, o->base,
	       res->release, o->ksrc);
	printf("final .config: %s\n", res->final_config);
	printf("base %s: %zu stale line%s\n", o->base, res->n_stale,
	       res->n_stale == 1 ? "" : "s");
	for (size_t i = 0; i < res->n_opts; i++)
		if (!res->opts[i].group)
			print_option(&res->opts[i], o->datadir, verbose);
	for (size_t gi = 0; gi < o->n_groups; gi++) {
		const struct group *g = o->groups[gi];
		size_t kept = 0, dropped = 0;

		for (size_t i = 0; i < res->n_opts; i++) {
			if (res->opts[i].group != g)
				continue;
			if (res->opts[i].kept)
				kept++;
			else
				dropped++;
		}
		printf("group %s (%s): %zu kept, %zu dropped\n", g->name,
		       shown(g->file, o->datadir), kept, dropped);
		for (size_t i = 0; i < res->n_opts; i++)
			if (res->opts[i].group == g)
				print_option(&res->opts[i], o->datadir,
					     verbose);
	}
	if (res->explain_error)
		printf("explanations unavailable: %s\n", res->explain_error);
	printf("result: %zu option%s dropped, %zu stale base line%s\n",
	       res->n_dropped, res->n_dropped == 1 ? "" : "s", res->n_stale,
	       res->n_stale == 1 ? "" : "s");
}

static json_object *json_reason(const struct explain_reason *r)
{
	json_object *j = json_object_new_object();
	json_object *terms = json_object_new_array();

	json_object_object_add(j, "kind", jsonx_new_str(explain_kind_name(r->kind)));
	if (r->source)
		json_object_object_add(j, "source", jsonx_new_str(r->source));
	if (r->expr)
		json_object_object_add(j, "expr", jsonx_new_str(r->expr));
	if (r->value)
		json_object_object_add(j, "value", jsonx_new_str(r->value));
	if (r->symbol)
		json_object_object_add(j, "symbol", jsonx_new_str(r->symbol));
	if (r->low)
		json_object_object_add(j, "low", jsonx_new_str(r->low));
	if (r->high)
		json_object_object_add(j, "high", jsonx_new_str(r->high));
	if (r->text)
		json_object_object_add(j, "text", jsonx_new_str(r->text));
	for (size_t i = 0; i < r->n_terms; i++) {
		json_object *t = json_object_new_object();

		json_object_object_add(t, "name", jsonx_new_str(r->terms[i].name));
		json_object_object_add(t, "value", jsonx_new_str(r->terms[i].value));
		json_object_object_add(t, "type", jsonx_new_str(r->terms[i].type));
		json_object_array_add(terms, t);
	}
	json_object_object_add(j, "terms", terms);
	return j;
}

static json_object *json_option(const struct configstage_option *op)
{
	json_object *j = json_object_new_object();
	_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

	json_object_object_add(j, "name", jsonx_new_str(op->requested->name));
	kconfig_format_value(&v, op->requested);
	json_object_object_add(j, "requested", jsonx_new_str(v.buf));
	json_object_object_add(j, "file", jsonx_new_str(op->requested->file));
	json_object_object_add(j, "line",
			       json_object_new_int((int)op->requested->line));
	strbuf_reset(&v);
	if (op->final)
		kconfig_format_value(&v, op->final);
	json_object_object_add(j, "final", op->final ? jsonx_new_str(v.buf) : NULL);
	json_object_object_add(j, "verdict",
			       jsonx_new_str(kconfig_verdict_to_string(op->verdict)));
	json_object_object_add(j, "status", jsonx_new_str(op->kept ? "kept"
							  : op->group ? "dropped"
								      : "stale"));
	if (op->kept)
		return j;
	json_object_object_add(j, "kind",
			       jsonx_new_str(explain_kind_name(op->kind)));
	json_object_object_add(j, "cause",
			       jsonx_new_str(explain_kind_name(op->cause)));
	json_object_object_add(j, "reason", jsonx_new_str(op->reason));
	if (op->overridden_by) {
		json_object *ob = json_object_new_object();

		json_object_object_add(ob, "file",
				       jsonx_new_str(op->overridden_by->file));
		json_object_object_add(
			ob, "line",
			json_object_new_int((int)op->overridden_by->line));
		strbuf_reset(&v);
		kconfig_format_value(&v, op->overridden_by);
		json_object_object_add(ob, "value", jsonx_new_str(v.buf));
		json_object_object_add(j, "overridden_by", ob);
	}
	if (op->detail) {
		json_object *rs = json_object_new_array();

		if (op->detail->defined)
			json_object_object_add(j, "defined",
					       jsonx_new_str(op->detail->defined));
		json_object_object_add(j, "type", jsonx_new_str(op->detail->type));
		for (size_t i = 0; i < op->detail->n_reasons; i++)
			json_object_array_add(
				rs, json_reason(&op->detail->reasons[i]));
		json_object_object_add(j, "reasons", rs);
	}
	return j;
}

static void print_json(const struct configstage_result *res,
		       const struct configstage_opts *o)
{
	json_object *j = json_object_new_object();
	json_object *groups = json_object_new_array();
	json_object *stale = json_object_new_array();
	json_object *files = json_object_new_array();

	json_object_object_add(j, "arch", jsonx_new_str(o->arch));
	json_object_object_add(j, "base", jsonx_new_str(o->base));
	json_object_object_add(j, "ksrc", jsonx_new_str(o->ksrc));
	json_object_object_add(j, "release", jsonx_new_str(res->release));
	json_object_object_add(j, "final_config", jsonx_new_str(res->final_config));
	for (size_t i = 0; i < res->n_base_files; i++)
		json_object_array_add(files, jsonx_new_str(res->base_files[i]));
	json_object_object_add(j, "base_files", files);
	for (size_t gi = 0; gi < o->n_groups; gi++) {
		const struct group *g = o->groups[gi];
		json_object *jg = json_object_new_object();
		json_object *opts = json_object_new_array();
		json_object *sc = json_object_new_array();
		size_t kept = 0, dropped = 0;

		json_object_object_add(jg, "name", jsonx_new_str(g->name));
		json_object_object_add(jg, "file", jsonx_new_str(g->file));
		for (size_t i = 0; i < g->n_scenarios; i++)
			json_object_array_add(sc, jsonx_new_str(g->scenarios[i]));
		json_object_object_add(jg, "scenarios", sc);
		for (size_t i = 0; i < res->n_opts; i++) {
			if (res->opts[i].group != g)
				continue;
			res->opts[i].kept ? kept++ : dropped++;
			json_object_array_add(opts, json_option(&res->opts[i]));
		}
		json_object_object_add(jg, "kept",
				       json_object_new_int64((int64_t)kept));
		json_object_object_add(jg, "dropped",
				       json_object_new_int64((int64_t)dropped));
		json_object_object_add(jg, "options", opts);
		json_object_array_add(groups, jg);
	}
	json_object_object_add(j, "groups", groups);
	for (size_t i = 0; i < res->n_opts; i++)
		if (!res->opts[i].group)
			json_object_array_add(stale,
					      json_option(&res->opts[i]));
	json_object_object_add(j, "stale_base", stale);
	json_object_object_add(j, "dropped",
			       json_object_new_int64((int64_t)res->n_dropped));
	json_object_object_add(j, "stale",
			       json_object_new_int64((int64_t)res->n_stale));
	json_object_object_add(j, "explain_error", jsonx_new_str(res->explain_error));
	puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
}

struct grouplist {
	struct group **v;
	size_t n;
};

static void grouplist_done(struct grouplist *l)
{
	configstage_groups_free(l->v, l->n);
}

struct config_args {
	const char *arch, *base, *ksrc, *odir, *refresh;
	struct opt_list groups;
	bool json, verbose;
};

static void config_args_done(struct config_args *a)
{
	opt_list_done(&a->groups);
}

/* The options into a: the index of the first positional argument, or a
 * negative value for opts_exit_code(). */
static int parse_options(struct config_args *a, int argc, char **argv)
{
	const struct opt table[] = {
		OPT_STRING_REQUIRED('a', "arch", &a->arch, "x86_64|i386",
				    "the guest architecture"),
		OPT_STRING_REQUIRED('b', "base", &a->base, "BASE",
				    "in-tree targets joined by '+'\n"
				    "(x86_64_defconfig, tinyconfig+kvm_guest."
				    "config)\nor a config file path (./my.config)"),
		OPT_LIST('g', "group", &a->groups, "G",
			 "a group name (bootproof groups) or a fragment\n"
			 "file path; repeatable, merged in order"),
		OPT_STRING('k', "ksrc", &a->ksrc, "DIR",
			   "kernel tree (default: " KSRC_DEFAULT_TARBALL "\n"
			   "unpacked once into the cache)"),
		OPT_STRING('o', "odir", &a->odir, "DIR",
			   "the O= directory (default: under the cache)"),
		OPT_STRING('r', "refresh", &a->refresh, "NEW",
			   "audit a refresh: compare the final .config of\n"
			   "--base (the old defconfig) with that of NEW\n"
			   "(a defconfig of arch/x86/configs/ or a file) and\n"
			   "classify every line that differs"),
		OPT_FLAG('j', "json", &a->json, "the result as JSON on stdout"),
		OPT_FLAG('v', "verbose", &a->verbose, "list kept options too"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "config",
		.synopsis = "bootproof config --arch x86_64|i386 --base BASE "
			    "[--group G]... [--ksrc DIR]\n"
			    "                 [--odir DIR] [--json] [--verbose]\n"
			    "       bootproof config --arch x86_64|i386 --base OLD "
			    "--refresh NEW [--ksrc DIR]\n"
			    "                 [--odir DIR] [--json]",
		.intro = "Make the .config of a base plus option groups with the "
			 "kernel's own\ntooling; report which requested options "
			 "were kept and why each\ndropped one was dropped.",
		.epilog = "Exit: 0 every requested option kept (--refresh: "
			  "the same final .config),\n1 something dropped "
			  "(--refresh: the final .config differs), 2 bad "
			  "input,\n3 infrastructure.",
		.opts = table,
		.max_args = 0,
	};
	int argi = opts_parse(&cmd, argc, argv);

	if (argi < 0)
		return argi;
	if (bp_arch_from_name(a->arch, NULL) < 0) {
		log_error("config: unknown arch '%s' (x86_64 or i386)", a->arch);
		return opts_done(BP_EXIT_USAGE);
	}
	if (a->refresh && a->groups.n) {
		log_error("config: --refresh compares two defconfigs: it takes "
			  "no --group");
		return opts_done(BP_EXIT_USAGE);
	}
	return argi;
}

/* Each --group into l, checked to be for arch; an exit code. */
static int load_groups(const char *datadir, const char *arch,
		       const struct opt_list *args, struct grouplist *l)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int r;

	l->v = xcalloc(args->n, sizeof(*l->v));
	for (size_t i = 0; i < args->n; i++) {
		r = configstage_load_group(datadir, arch, args->v[i],
					   &l->v[l->n], &err);
		if (r < 0) {
			log_error("config: %s", err.buf);
			return r == -ENOENT || r == -EINVAL ? BP_EXIT_USAGE
							    : BP_EXIT_INFRA;
		}
		l->n++;
		if (!group_for_arch(l->v[i], arch)) {
			log_error("config: %s: group %s is for %s, not %s",
				  l->v[i]->file, l->v[i]->name, l->v[i]->arch,
				  arch);
			return BP_EXIT_USAGE;
		}
	}
	return BP_EXIT_OK;
}

/* The O= directory: --odir made absolute, else the cache's default for the
 * tree's release and arch.  NULL when the release cannot be read. */
static char *resolve_odir(const char *odir_arg, const char *cache,
			  const char *ksrc, const char *arch)
{
	_cleanup_free_ char *rel = NULL;

	if (odir_arg && odir_arg[0] == '/')
		return xstrdup(odir_arg);
	if (odir_arg) {
		char cwd[4096];

		return getcwd(cwd, sizeof(cwd)) ? path_join(cwd, odir_arg)
						: NULL;
	}
	if (ksrc_release(ksrc, &rel) < 0)
		return NULL;
	return configstage_default_odir(cache, ksrc, rel, arch);
}

int verb_config(int argc, char **argv)
{
	_cleanup_free_ char *cache = NULL, *datadir = NULL, *ksrc = NULL;
	_cleanup_free_ char *odir = NULL, *unpack_dir = NULL;
	_cleanup_(grouplist_done) struct grouplist groups = { NULL, 0 };
	_cleanup_configstage_result_ struct configstage_result *res = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_(config_args_done) struct config_args a = { .arch = NULL };
	struct configstage_opts o = { 0 };
	int r;

	r = parse_options(&a, argc, argv);
	if (r < 0)
		return opts_exit_code(r);
	cache = bp_cache_dir();
	datadir = bp_data_dir();
	if (!datadir) {
		log_error("config: cannot find bootproof's data directory "
			  "(scenarios/groups/, harness/kconfig-explain/): set "
			  "BOOTPROOF_DATADIR to the source checkout");
		return BP_EXIT_INFRA;
	}
	r = load_groups(datadir, a.arch, &a.groups, &groups);
	if (r != BP_EXIT_OK)
		return r;

	unpack_dir = ksrc_unpack_dir(cache, KSRC_DEFAULT_TARBALL);
	if (!a.ksrc && unpack_dir &&
	    !ksrc_is_unpacked(KSRC_DEFAULT_TARBALL, unpack_dir))
		log_info("unpacking %s into %s (once; a minute or two)",
			 KSRC_DEFAULT_TARBALL, unpack_dir);
	r = ksrc_resolve(a.ksrc, cache, &ksrc, &err);
	if (r < 0) {
		log_error("config: %s", err.buf);
		return BP_EXIT_INFRA;
	}
	odir = resolve_odir(a.odir, cache, ksrc, a.arch);
	if (!odir) {
		log_error("config: %s: cannot read the kernel release", ksrc);
		return BP_EXIT_INFRA;
	}
	if (a.refresh) {
		/* Not the stage's own directory: the audit makes two. */
		_cleanup_free_ char *rdir = NULL;

		if (!a.odir && asprintf(&rdir, "%s-refresh", odir) < 0)
			return BP_EXIT_INFRA;
		return config_refresh(&(struct config_refresh_args){
			.arch = a.arch, .old = a.base, .new = a.refresh,
			.ksrc = ksrc, .odir = rdir ? rdir : odir,
			.cache = cache, .datadir = datadir, .json = a.json });
	}

	o.ksrc = ksrc;
	o.arch = a.arch;
	o.base = a.base;
	o.groups = groups.v;
	o.n_groups = groups.n;
	o.odir = odir;
	o.cache = cache;
	o.datadir = datadir;
	r = configstage_run(&o, &res, &err);
	if (r < 0) {
		log_error("config: %s", err.buf);
		return r == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	}
	if (res->explain_error)
		log_warn("config: drops not explained: %s", res->explain_error);
	if (a.json)
		print_json(res, &o);
	else
		print_text(res, &o, a.verbose);
	/* Stale lines of the base are reported, but only what the groups
	 * asked for decides the exit: a base such as tinyconfig always has a
	 * few (S390_GUEST in kvm_guest.config...). */
	return res->n_dropped ? BP_EXIT_FAIL : BP_EXIT_OK;
}
