// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof config: the config stage alone.  Makes the .config for a base
 * plus option groups with the kernel's own tooling and reports, per group,
 * which requested options were kept and why each dropped one was dropped.
 * Exit: 0 all kept, 1 something dropped (a result), 2 bad input, 3 infra.
 */
#include <errno.h>
#include <getopt.h>
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
#include "util/paths.h"

static void usage(FILE *f)
{
	fputs("usage: bootproof config --arch x86_64|i386 --base BASE "
	      "[--group G]... [--ksrc DIR]\n"
	      "                        [--odir DIR] [--json] [--verbose]\n"
	      "\n"
	      "  --base BASE   in-tree targets joined by '+' (x86_64_defconfig,\n"
	      "                tinyconfig+kvm_guest.config) or a config file "
	      "path (./my.config)\n"
	      "  --group G     a group name (bootproof groups) or a fragment "
	      "file path; repeatable,\n"
	      "                merged in order\n"
	      "  --ksrc DIR    kernel tree (default: " KSRC_DEFAULT_TARBALL
	      " unpacked once\n"
	      "                into the cache)\n"
	      "  --odir DIR    the O= directory (default: under the cache)\n"
	      "  --json        the result as JSON on stdout\n"
	      "  --verbose     list kept options too\n"
	      "\n"
	      "Exit: 0 every requested option kept, 1 something dropped, 2 bad "
	      "input, 3 infrastructure.\n",
	      f);
}

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

int verb_config(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "base", required_argument, NULL, 'b' },
		{ "group", required_argument, NULL, 'g' },
		{ "ksrc", required_argument, NULL, 'k' },
		{ "odir", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	_cleanup_free_ char *cache = NULL, *datadir = NULL, *ksrc = NULL;
	_cleanup_free_ char *odir = NULL, *unpack_dir = NULL;
	_cleanup_free_ const char **group_args = NULL;
	_cleanup_(grouplist_done) struct grouplist groups = { NULL, 0 };
	_cleanup_configstage_result_ struct configstage_result *res = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct configstage_opts o = { 0 };
	const char *arch = NULL, *base = NULL, *ksrc_arg = NULL;
	const char *odir_arg = NULL;
	size_t n_args = 0;
	bool json = false, verbose = false;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "a:b:g:k:o:jvh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			arch = optarg;
			break;
		case 'b':
			base = optarg;
			break;
		case 'g':
			group_args = realloc(group_args,
					     (n_args + 1) * sizeof(char *));
			if (!group_args)
				return BP_EXIT_INFRA;
			group_args[n_args++] = optarg;
			break;
		case 'k':
			ksrc_arg = optarg;
			break;
		case 'o':
			odir_arg = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return BP_EXIT_OK;
		default:
			usage(stderr);
			return BP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		log_error("config: unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return BP_EXIT_USAGE;
	}
	if (!arch || !base) {
		log_error("config: --arch and --base are required");
		usage(stderr);
		return BP_EXIT_USAGE;
	}
	if (bp_arch_from_name(arch, NULL) < 0) {
		log_error("config: unknown arch '%s' (x86_64 or i386)", arch);
		return BP_EXIT_USAGE;
	}
	cache = bp_cache_dir();
	if (!cache)
		return BP_EXIT_INFRA;
	datadir = bp_data_dir();
	if (!datadir) {
		log_error("config: cannot find bootproof's data directory "
			  "(scenarios/groups/, harness/kconfig-explain/): set "
			  "BOOTPROOF_DATADIR to the source checkout");
		return BP_EXIT_INFRA;
	}

	groups.v = calloc(n_args ? n_args : 1, sizeof(*groups.v));
	if (!groups.v)
		return BP_EXIT_INFRA;
	for (size_t i = 0; i < n_args; i++) {
		r = configstage_load_group(datadir, arch, group_args[i],
					   &groups.v[groups.n], &err);
		if (r < 0) {
			log_error("config: %s", err.buf);
			return r == -ENOENT || r == -EINVAL ? BP_EXIT_USAGE
							    : BP_EXIT_INFRA;
		}
		groups.n++;
		if (!group_for_arch(groups.v[i], arch)) {
			log_error("config: %s: group %s is for %s, not %s",
				  groups.v[i]->file, groups.v[i]->name,
				  groups.v[i]->arch, arch);
			return BP_EXIT_USAGE;
		}
	}

	unpack_dir = ksrc_unpack_dir(cache, KSRC_DEFAULT_TARBALL);
	if (!ksrc_arg && unpack_dir &&
	    !ksrc_is_unpacked(KSRC_DEFAULT_TARBALL, unpack_dir))
		log_info("unpacking %s into %s (once; a minute or two)",
			 KSRC_DEFAULT_TARBALL, unpack_dir);
	r = ksrc_resolve(ksrc_arg, cache, &ksrc, &err);
	if (r < 0) {
		log_error("config: %s", err.buf);
		return BP_EXIT_INFRA;
	}
	if (odir_arg && odir_arg[0] == '/')
		odir = strdup(odir_arg);
	else if (odir_arg) {
		char cwd[4096];

		odir = getcwd(cwd, sizeof(cwd)) ? path_join(cwd, odir_arg)
						: NULL;
	} else {
		_cleanup_free_ char *rel = NULL;

		r = ksrc_release(ksrc, &rel);
		odir = r < 0 ? NULL
			     : configstage_default_odir(cache, ksrc, rel, arch);
	}
	if (!odir) {
		log_error("config: %s: cannot read the kernel release", ksrc);
		return BP_EXIT_INFRA;
	}

	o.ksrc = ksrc;
	o.arch = arch;
	o.base = base;
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
	if (json)
		print_json(res, &o);
	else
		print_text(res, &o, verbose);
	/* Stale lines of the base are reported, but only what the groups
	 * asked for decides the exit: a base such as tinyconfig always has a
	 * few (S390_GUEST in kvm_guest.config...). */
	return res->n_dropped ? BP_EXIT_FAIL : BP_EXIT_OK;
}
