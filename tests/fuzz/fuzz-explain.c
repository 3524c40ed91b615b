// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bp-kconfig-explain helper's output (a program compiled at run time
 * against the user's kernel tree) and include/config/auto.conf.cmd.
 *
 * Input: the text; both parsers read it.  Checks (explain.h): 0 with a
 * result, -EINVAL with "line N: ..." or -EPROTO; every symbol has a name
 * and type and is found by name; every reason formats to one line; the
 * limiting terms are counted right; every rule of a "why" answer has
 * a known kind and the fields of its kind; auto.conf.cmd gives NUL-terminated
 * "NAME=VALUE" strings.
 */
#include "fuzz.h"

#include "core/explain.h"

static void check_result(const struct explain_result *r)
{
	for (size_t i = 0; i < r->n_syms; i++) {
		const struct explain_symbol *s = &r->syms[i];

		FUZZ_CHECK(s->name && s->type);
		FUZZ_CHECK(explain_find(r, s->name));
		FUZZ_CHECK(!strcmp(explain_find(r, s->name)->name, s->name));
		for (size_t j = 0; j < s->n_reasons; j++) {
			const struct explain_reason *re = &s->reasons[j];
			struct strbuf sb = STRBUF_INIT;
			bool *flags = calloc(re->n_terms + 1, sizeof(*flags));
			size_t set = 0, n;

			FUZZ_CHECK((unsigned)re->kind < EXPLAIN_KIND_MAX);
			FUZZ_CHECK(strcmp(explain_kind_name(re->kind), "?"));
			for (size_t k = 0; k < re->n_terms; k++)
				FUZZ_CHECK(re->terms[k].name &&
					   re->terms[k].value &&
					   re->terms[k].type);
			explain_format_reason(&sb, re);
			/* (empty for a "noprompt" record with an empty text:
			 * the helper never writes one) */
			FUZZ_CHECK(sb.len > 0 || re->kind == EXPLAIN_NOPROMPT);
			FUZZ_CHECK(strlen(sb.buf) == sb.len);
			n = explain_limiting_terms(re, flags);
			for (size_t k = 0; k < re->n_terms; k++)
				set += flags[k];
			FUZZ_CHECK(n == set && n <= re->n_terms);
			free(flags);
			strbuf_release(&sb);
		}
		for (size_t j = 0; j < s->n_rules; j++) {
			const struct explain_rule *ru = &s->rules[j];

			FUZZ_CHECK((unsigned)ru->kind < EXPLAIN_RULE_KIND_MAX);
			FUZZ_CHECK(strcmp(explain_rule_kind_name(ru->kind), "?"));
			FUZZ_CHECK(ru->kind == EXPLAIN_RULE_CHOICE || ru->value);
			FUZZ_CHECK(ru->kind != EXPLAIN_RULE_DEFAULT ||
				   (ru->cond && ru->expr && ru->cond_expr));
			for (size_t k = 0; k < ru->n_terms; k++)
				FUZZ_CHECK(ru->terms[k].name &&
					   ru->terms[k].value &&
					   ru->terms[k].type);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct explain_result *r = NULL;
	struct strbuf err = STRBUF_INIT, env = STRBUF_INIT;
	int e;

	e = explain_parse((const char *)data, size, &r, &err);
	FUZZ_CHECK(e == 0 || e == -EINVAL || e == -EPROTO);
	if (e == 0) {
		FUZZ_CHECK(r);
		check_result(r);
	} else {
		FUZZ_CHECK(!r);
		if (e == -EINVAL)
			FUZZ_CHECK(!strncmp(err.buf, "line ", 5));
	}
	explain_result_free(r);

	e = explain_parse_env((const char *)data, size, &env);
	FUZZ_CHECK(e >= 0 || e == -EINVAL);
	if (e > 0) {
		FUZZ_CHECK(env.len && env.buf[env.len - 1] == '\0');
		FUZZ_CHECK(strchr(env.buf, '='));
	}
	strbuf_release(&err);
	strbuf_release(&env);
	return 0;
}
