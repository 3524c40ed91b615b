// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option group files: scenarios/groups/ (strict) and any fragment a user
 * names by path (lenient).
 *
 * Input: the file's content; both parses run.  Checks (groups.h): 0 with
 * a group, or -EINVAL with a "file:line: " or "file: " message; a group has
 * a name, options, its scenarios and arch; a strict group has every
 * required header and a valid name; a strict parse that succeeds succeeds
 * leniently too, with the same header values.
 */
#include "fuzz.h"

#include "core/groups.h"

static const char file[] = "scenarios/groups/x86_64/fuzz.config";

static struct group *parse(const uint8_t *data, size_t size, unsigned flags)
{
	struct strbuf err = STRBUF_INIT;
	struct group *g = NULL;
	int r = group_parse(file, (const char *)data, size, flags, &g, &err);

	FUZZ_CHECK(r == 0 || r == -EINVAL);
	if (r < 0) {
		FUZZ_CHECK(!g);
		FUZZ_CHECK(!strncmp(err.buf, file, strlen(file)));
		FUZZ_CHECK(err.buf[strlen(file)] == ':');
		strbuf_release(&err);
		return NULL;
	}
	FUZZ_CHECK(g && g->name && *g->name && g->file && g->options);
	FUZZ_CHECK(!strcmp(g->file, file));
	FUZZ_CHECK(kconfig_count(g->options) >= 1);
	FUZZ_CHECK(g->n_scenarios >= 1);
	for (size_t i = 0; i < g->n_scenarios; i++) {
		FUZZ_CHECK(g->scenarios[i]);
		FUZZ_CHECK(group_has_scenario(g, g->scenarios[i]));
	}
	FUZZ_CHECK(group_for_arch(g, g->arch ? g->arch : "x86_64"));
	if (flags & GROUP_PARSE_STRICT) {
		FUZZ_CHECK(group_name_valid(g->name));
		FUZZ_CHECK(g->arch && g->from && g->has_header);
	}
	strbuf_release(&err);
	return g;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct group *s = parse(data, size, GROUP_PARSE_STRICT);
	struct group *l = parse(data, size, 0);

	if (s) {
		FUZZ_CHECK(l);
		FUZZ_CHECK(!strcmp(s->name, l->name));
		FUZZ_CHECK(!strcmp(s->arch, l->arch));
		FUZZ_CHECK(s->n_scenarios == l->n_scenarios);
		FUZZ_CHECK(kconfig_count(s->options) ==
			   kconfig_count(l->options));
	}
	group_free(s);
	group_free(l);
	return 0;
}
