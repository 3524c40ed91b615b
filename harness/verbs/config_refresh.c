// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof config --refresh: the output of the refresh audit
 * (engine/refreshstage), text or JSON.  verbs/config.c parses the options.
 */
#include "verbs/config_refresh.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/refreshstage.h"
#include "util/exitcode.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/strbuf.h"

/* "CONFIG_X=y" or "# CONFIG_X is not set", without the newline. */
static void format_line(struct strbuf *sb, const struct kconfig_option *o)
{
	kconfig_format_option(sb, o);
	strbuf_rtrim(sb);
}

static void format_diff_value(struct strbuf *sb, const struct kconfig_option *o,
			      const struct kconfig_option *other)
{
	if (o || !other || other->kind == KCONFIG_YES ||
	    other->kind == KCONFIG_MODULE)
		refresh_format_value(sb, o);
	else
		strbuf_addstr(sb, "(unset)");
}

static void print_diff(const struct refresh_result *rr,
		       const struct refresh_diff *d)
{
	_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

	format_diff_value(&v, d->old, d->new);
	strbuf_addstr(&v, " -> ");
	format_diff_value(&v, d->new, d->old);
	printf("  %-28s %-14s", d->name, v.buf);
	if (!d->n_lines)
		printf(" no differing line explains it\n");
	else if (!d->via)
		printf(" its own line\n");
	else {
		printf(" knock-on: %s %s, from the line of",
		       explain_rule_kind_name(d->via_rule), d->via);
		for (size_t i = 0; i < d->n_lines; i++)
			printf(" %s", rr->lines[d->lines[i]].name);
		printf("\n");
	}
}

static void print_line(const struct refresh_line *l)
{
	_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;
	static const char mark[REFRESH_CHANGE_MAX] = {
		[REFRESH_ADDED] = '+', [REFRESH_REMOVED] = '-',
		[REFRESH_CHANGED] = '!', [REFRESH_MOVED] = '~',
	};

	format_line(&t, l->old ? l->old : l->new);
	if (l->change == REFRESH_CHANGED) {
		strbuf_addstr(&t, " -> ");
		format_line(&t, l->new);
	}
	printf("  %-9s %c %s  [", l->effect ? "CHANGES" : "no effect",
	       mark[l->change], t.buf);
	if (l->old)
		printf("old:%u", l->old->line);
	if (l->old && l->new)
		printf(" ");
	if (l->new)
		printf("new:%u", l->new->line);
	printf("]\n              %s\n", l->reason ? l->reason : "");
}

static void print_text(const struct refreshstage_result *res,
		       const struct config_refresh_args *a)
{
	const struct refresh_result *rr = res->refresh;

	printf("refresh: %s, %s -> %s, Linux %s at %s\n", a->arch, a->old,
	       a->new, res->release, a->ksrc);
	printf("old: %s -> %s\n", res->old.file, res->old.final_config);
	printf("new: %s -> %s\n", res->new.file, res->new.final_config);
	printf("final .config: %zu option%s differ%s\n", rr->n_diffs,
	       rr->n_diffs == 1 ? "" : "s", rr->n_diffs == 1 ? "s" : "");
	for (size_t i = 0; i < rr->n_diffs; i++)
		print_diff(rr, &rr->diffs[i]);
	printf("defconfig: %zu line%s differ%s: %zu change%s the result, "
	       "%zu %s no effect\n",
	       rr->n_lines, rr->n_lines == 1 ? "" : "s",
	       rr->n_lines == 1 ? "s" : "", rr->n_effect,
	       rr->n_effect == 1 ? "s" : "", rr->n_lines - rr->n_effect,
	       rr->n_lines - rr->n_effect == 1 ? "has" : "have");
	for (size_t i = 0; i < rr->n_lines; i++)
		print_line(&rr->lines[i]);
	if (res->explain_error)
		printf("reasons unavailable: %s\n", res->explain_error);
	if (rr->n_diffs)
		printf("result: NOT a no-op: %zu option%s of the final .config "
		       "differ%s\n",
		       rr->n_diffs, rr->n_diffs == 1 ? "" : "s",
		       rr->n_diffs == 1 ? "s" : "");
	else
		printf("result: a no-op: the final .config is the same\n");
}

static json_object *json_value(const struct kconfig_option *o)
{
	_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

	if (!o)
		return NULL;
	kconfig_format_value(&v, o);
	return jsonx_new_str(v.buf);
}

static json_object *json_def_line(const struct kconfig_option *o)
{
	json_object *j;

	if (!o)
		return NULL;
	j = json_object_new_object();
	json_object_object_add(j, "file", jsonx_new_str(o->file));
	json_object_object_add(j, "line", json_object_new_int((int)o->line));
	json_object_object_add(j, "value", json_value(o));
	return j;
}

static json_object *json_side(const struct refreshstage_side *s,
			      const char *arg)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "arg", jsonx_new_str(arg));
	json_object_object_add(j, "file", jsonx_new_str(s->file));
	json_object_object_add(j, "final_config",
			       jsonx_new_str(s->final_config));
	return j;
}

static json_object *json_diff(const struct refresh_result *rr,
			      const struct refresh_diff *d)
{
	json_object *j = json_object_new_object();
	json_object *lines = json_object_new_array();

	json_object_object_add(j, "name", jsonx_new_str(d->name));
	json_object_object_add(j, "old", json_value(d->old));
	json_object_object_add(j, "new", json_value(d->new));
	for (size_t i = 0; i < d->n_lines; i++)
		json_object_array_add(lines,
				      jsonx_new_str(rr->lines[d->lines[i]].name));
	json_object_object_add(j, "lines", lines);
	json_object_object_add(j, "via", jsonx_new_str(d->via));
	json_object_object_add(j, "via_rule",
			       d->via ? jsonx_new_str(explain_rule_kind_name(
						d->via_rule))
				      : NULL);
	return j;
}

static json_object *json_line(const struct refresh_result *rr,
			      const struct refresh_line *l)
{
	json_object *j = json_object_new_object();
	json_object *syms = json_object_new_array();
	json_object *changes = json_object_new_array();

	json_object_object_add(j, "name", jsonx_new_str(l->name));
	json_object_object_add(j, "change",
			       jsonx_new_str(refresh_change_name(l->change)));
	json_object_object_add(j, "old", json_def_line(l->old));
	json_object_object_add(j, "new", json_def_line(l->new));
	json_object_object_add(j, "effect", json_object_new_boolean(l->effect));
	json_object_object_add(j, "cause",
			       jsonx_new_str(refresh_cause_name(l->cause)));
	json_object_object_add(j, "reason", jsonx_new_str(l->reason));
	for (size_t i = 0; i < l->n_symbols; i++)
		json_object_array_add(syms, jsonx_new_str(l->symbols[i]));
	json_object_object_add(j, "symbols", syms);
	for (size_t i = 0; i < l->n_changes; i++)
		json_object_array_add(
			changes, jsonx_new_str(rr->diffs[l->changes[i]].name));
	json_object_object_add(j, "changes", changes);
	return j;
}

static void print_json(const struct refreshstage_result *res,
		       const struct config_refresh_args *a)
{
	const struct refresh_result *rr = res->refresh;
	json_object *j = json_object_new_object();
	json_object *diffs = json_object_new_array();
	json_object *lines = json_object_new_array();

	json_object_object_add(j, "arch", jsonx_new_str(a->arch));
	json_object_object_add(j, "ksrc", jsonx_new_str(a->ksrc));
	json_object_object_add(j, "release", jsonx_new_str(res->release));
	json_object_object_add(j, "old", json_side(&res->old, a->old));
	json_object_object_add(j, "new", json_side(&res->new, a->new));
	json_object_object_add(j, "noop", json_object_new_boolean(!rr->n_diffs));
	for (size_t i = 0; i < rr->n_diffs; i++)
		json_object_array_add(diffs, json_diff(rr, &rr->diffs[i]));
	json_object_object_add(j, "diffs", diffs);
	for (size_t i = 0; i < rr->n_lines; i++)
		json_object_array_add(lines, json_line(rr, &rr->lines[i]));
	json_object_object_add(j, "lines", lines);
	json_object_object_add(j, "differ",
			       json_object_new_int64((int64_t)rr->n_diffs));
	json_object_object_add(j, "effect",
			       json_object_new_int64((int64_t)rr->n_effect));
	json_object_object_add(
		j, "unexplained_diffs",
		json_object_new_int64((int64_t)rr->n_unexplained_diffs));
	json_object_object_add(j, "explain_error",
			       jsonx_new_str(res->explain_error));
	puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
}

int config_refresh(const struct config_refresh_args *a)
{
	_cleanup_refreshstage_result_ struct refreshstage_result *res = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	const struct refreshstage_opts o = {
		.ksrc = a->ksrc,
		.arch = a->arch,
		.old = a->old,
		.new = a->new,
		.odir = a->odir,
		.cache = a->cache,
		.datadir = a->datadir,
	};
	int r = refreshstage_run(&o, &res, &err);

	if (r < 0) {
		log_error("config: %s", err.buf);
		return r == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	}
	if (res->explain_error)
		log_warn("config: lines not explained: %s", res->explain_error);
	if (a->json)
		print_json(res, a);
	else
		print_text(res, a);
	return res->refresh->n_diffs ? BP_EXIT_FAIL : BP_EXIT_OK;
}
