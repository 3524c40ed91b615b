// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof groups: list the option groups of scenarios/groups/<arch>/ with
 * their scenarios, origin and options.  A malformed group file is bad input
 * (exit 2, file:line).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootproof.h"
#include "core/arch.h"
#include "engine/configstage.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/paths.h"

static void print_group(const struct group *g)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	printf("  %s\n", g->name);
	for (size_t i = 0; i < g->n_scenarios; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", g->scenarios[i]);
	printf("    scenarios: %s\n", sb.buf);
	if (g->from)
		printf("    from:      %s\n", g->from);
	if (g->summary)
		printf("    summary:   %s\n", g->summary);
	/* One option a line: "# CONFIG_X is not set" has spaces of its own. */
	for (size_t i = 0; i < kconfig_count(g->options); i++) {
		strbuf_reset(&sb);
		kconfig_format_option(&sb, kconfig_at(g->options, i));
		strbuf_rtrim(&sb);
		printf("    %s %s\n", i ? "          " : "options:  ", sb.buf);
	}
}

static json_object *json_group(const struct group *g)
{
	json_object *j = json_object_new_object();
	json_object *sc = json_object_new_array();
	json_object *opts = json_object_new_array();
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	json_object_object_add(j, "name", json_object_new_string(g->name));
	json_object_object_add(j, "arch", json_object_new_string(g->arch));
	json_object_object_add(j, "file", json_object_new_string(g->file));
	for (size_t i = 0; i < g->n_scenarios; i++)
		json_object_array_add(sc,
				      json_object_new_string(g->scenarios[i]));
	json_object_object_add(j, "scenarios", sc);
	json_object_object_add(j, "from",
			       g->from ? json_object_new_string(g->from) : NULL);
	json_object_object_add(j, "summary",
			       g->summary ? json_object_new_string(g->summary)
					  : NULL);
	for (size_t i = 0; i < kconfig_count(g->options); i++) {
		const struct kconfig_option *op = kconfig_at(g->options, i);
		json_object *o = json_object_new_object();

		strbuf_reset(&sb);
		kconfig_format_value(&sb, op);
		json_object_object_add(o, "name",
				       json_object_new_string(op->name));
		json_object_object_add(o, "value",
				       json_object_new_string(sb.buf));
		json_object_object_add(o, "line",
				       json_object_new_int((int)op->line));
		json_object_array_add(opts, o);
	}
	json_object_object_add(j, "options", opts);
	return j;
}

int verb_groups(int argc, char **argv)
{
	_cleanup_free_ char *datadir = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	const char *arch = NULL;
	json_object *j = NULL;
	bool json = false;
	int argi;
	const struct opt table[] = {
		OPT_STRING('a', "arch", &arch, "x86_64|i386",
			   "only this arch's groups"),
		OPT_FLAG('j', "json", &json, "the groups as JSON on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "groups",
		.synopsis = "bootproof groups [--arch x86_64|i386] [--json]",
		.intro = "Lists the option groups (scenarios/groups/<arch>/"
			 "*.config) with their\nscenarios, the patch they come "
			 "from and their options.",
		.opts = table,
		.max_args = 0,
	};

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (arch && bp_arch_from_name(arch, NULL) < 0) {
		log_error("groups: unknown arch '%s' (x86_64 or i386)", arch);
		return BP_EXIT_USAGE;
	}
	datadir = bp_data_dir();
	if (!datadir) {
		log_error("groups: cannot find scenarios/groups/ (set "
			  "BOOTPROOF_DATADIR to the source checkout)");
		return BP_EXIT_INFRA;
	}
	if (json)
		j = json_object_new_object();
	for (size_t a = 0; bp_arch_names[a]; a++) {
		const char *ga = bp_arch_names[a];
		struct group **v = NULL;
		int n;

		if (arch && strcmp(arch, ga))
			continue;
		n = configstage_list_groups(datadir, ga, &v, &err);
		if (n < 0) {
			log_error("groups: %s", err.buf);
			json_object_put(j);
			return n == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
		}
		if (json) {
			json_object *arr = json_object_new_array();

			for (int i = 0; i < n; i++)
				json_object_array_add(arr, json_group(v[i]));
			json_object_object_add(j, ga, arr);
		} else {
			printf("%s (%d group%s, scenarios/groups/%s/):\n", ga,
			       n, n == 1 ? "" : "s", ga);
			for (int i = 0; i < n; i++)
				print_group(v[i]);
		}
		configstage_groups_free(v, (size_t)n);
	}
	if (json) {
		puts(json_object_to_json_string_ext(
			j, JSON_C_TO_STRING_PRETTY |
				   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
	}
	return BP_EXIT_OK;
}
