// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/explain.h"
#include "util/strbuf.h"

/* Golden output of the real helper: tests/data/explain/README.md. */
#define DATA TEST_DATA "/explain/"

static struct explain_result *load(const char *name)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct explain_result *r = NULL;
	char path[4096];

	snprintf(path, sizeof(path), DATA "%s", name);
	assert_true(strbuf_read_file(&sb, path, 0) > 0);
	if (explain_parse(sb.buf, sb.len, &r, &err)) {
		print_error("%s: %s\n", name, err.buf);
		fail();
	}
	return r;
}

/* The number of queries in a .queries file: one answer block each. */
static size_t count_queries(const char *name)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char path[4096];
	size_t n = 0;

	snprintf(path, sizeof(path), DATA "%s", name);
	assert_true(strbuf_read_file(&sb, path, 0) > 0);
	for (size_t i = 0; i < sb.len; i++)
		n += sb.buf[i] == '\n';
	return n;
}

static const struct explain_symbol *sym(const struct explain_result *r,
					const char *name)
{
	const struct explain_symbol *s = explain_find(r, name);

	if (!s) {
		print_error("no symbol %s\n", name);
		fail();
	}
	return s;
}

static const char *term(const struct explain_reason *r, const char *name)
{
	for (size_t i = 0; i < r->n_terms; i++)
		if (!strcmp(r->terms[i].name, name))
			return r->terms[i].value;
	return NULL;
}

static void format(const struct explain_symbol *s, struct strbuf *sb)
{
	strbuf_reset(sb);
	explain_format_symbol(sb, s);
}

static void test_unmet_dependency_and_more(void **state)
{
	_cleanup_explain_result_ struct explain_result *r =
		load("x86_64-kvm-off.out");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const struct explain_symbol *s;
	const struct explain_reason *re;

	assert_int_equal(r->n_syms, count_queries("x86_64-kvm-off.queries"));

	/* CONFIG_KVM_INTEL=y with # CONFIG_KVM is not set */
	s = sym(r, "KVM_INTEL");
	assert_string_equal(s->type, "tristate");
	assert_null(s->final);
	assert_non_null(s->defined);
	assert_true(!strncmp(s->defined, "arch/x86/kvm/Kconfig:", 21));
	assert_int_equal(s->n_reasons, 1);
	re = &s->reasons[0];
	assert_int_equal(re->kind, EXPLAIN_DEPENDS);
	assert_string_equal(re->source, "depends");
	assert_string_equal(re->value, "n");
	assert_non_null(strstr(re->expr, "KVM"));
	assert_string_equal(term(re, "KVM"), "n");
	format(s, &sb);
	/* Only the failing term is named. */
	assert_non_null(strstr(sb.buf, "unmet dependency: depends on "));
	assert_non_null(strstr(sb.buf, "(KVM=n)"));

	/* exists queries: no reason, the type tells */
	s = sym(r, "SECURITY_SELINUX_DISABLE");
	assert_string_equal(s->type, "unknown");
	assert_null(s->defined);
	assert_int_equal(s->n_reasons, 0);
	s = sym(r, "LOGITECH_FF");
	assert_string_equal(s->type, "bool");
	assert_string_equal(s->final, "y");

	s = sym(r, "CGROUP_DMEM");
	assert_int_equal(s->n_reasons, 1);
	assert_int_equal(s->reasons[0].kind, EXPLAIN_UNKNOWN);
	format(s, &sb);
	assert_string_equal(sb.buf, "unknown symbol: not defined in this tree "
				    "for this arch");

	s = sym(r, "PRINT_QUOTA_WARNING");
	re = &s->reasons[0];
	assert_int_equal(re->kind, EXPLAIN_DEPENDS);
	assert_string_equal(term(re, "BROKEN"), "n");
	format(s, &sb);
	assert_non_null(strstr(sb.buf, "(BROKEN=n)"));
	assert_null(strstr(sb.buf, "QUOTA="));

	/* KVM_MAX_NR_VCPUS is not even visible without KVM */
	s = sym(r, "KVM_MAX_NR_VCPUS");
	assert_string_equal(s->type, "int");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_DEPENDS);

	s = sym(r, "HZ");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_NOPROMPT);
	assert_non_null(strstr(s->reasons[0].text, "no prompt"));

	s = sym(r, "PREEMPT");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_CHOICE);
	assert_string_equal(s->reasons[0].symbol, "PREEMPT_VOLUNTARY");
	format(s, &sb);
	assert_string_equal(sb.buf, "choice: PREEMPT_VOLUNTARY chosen instead");

	s = sym(r, "BLK_DEV_INITRD");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_INVALID);

	/* 64BIT's prompt exists only for ARCH=x86: a string comparison */
	s = sym(r, "64BIT");
	re = &s->reasons[0];
	assert_int_equal(re->kind, EXPLAIN_DEPENDS);
	assert_string_equal(re->source, "prompt");
	assert_non_null(strstr(re->expr, "\"x86\""));
	assert_int_equal(re->n_terms, 0);
	format(s, &sb);
	assert_non_null(strstr(sb.buf, "unmet dependency: prompt only if "));
}

static void test_selects(void **state)
{
	_cleanup_explain_result_ struct explain_result *r =
		load("x86_64-kvm-off.out");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf one = STRBUF_INIT;
	const struct explain_symbol *s = sym(r, "CRC32");
	size_t n = 0;

	assert_true(s->n_reasons > 6);
	for (size_t i = 0; i < s->n_reasons; i++) {
		const struct explain_reason *re = &s->reasons[i];

		assert_int_equal(re->kind, EXPLAIN_SELECT);
		assert_string_equal(re->value, "y");
		/* the selector leads its term, with its value */
		assert_true(!strncmp(re->expr, re->symbol,
				     strlen(re->symbol)));
		assert_string_equal(term(re, re->symbol), "y");
		n++;
	}
	format(s, &sb);
	assert_true(!strncmp(sb.buf, "forced by select: selected by ", 30));
	assert_non_null(strstr(sb.buf, s->reasons[0].symbol));
	strbuf_addf(&one, "(and %zu more)", n - 6);
	assert_non_null(strstr(sb.buf, one.buf));
	/* a single select shows its expression */
	strbuf_reset(&one);
	explain_format_reason(&one, &s->reasons[0]);
	assert_non_null(strstr(one.buf, s->reasons[0].expr));
}

static void test_module_and_range(void **state)
{
	_cleanup_explain_result_ struct explain_result *r =
		load("x86_64-kvm-m.out");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const struct explain_symbol *s;

	assert_int_equal(r->n_syms, count_queries("x86_64-kvm-m.queries"));
	/* CONFIG_KVM=m with CONFIG_KVM_INTEL=y */
	s = sym(r, "KVM_INTEL");
	assert_string_equal(s->final, "m");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_MODULE);
	assert_string_equal(s->reasons[0].value, "m");
	assert_string_equal(term(&s->reasons[0], "KVM"), "m");
	format(s, &sb);
	assert_non_null(strstr(sb.buf, "limited to m by a tristate "
				       "dependency: depends on "));
	assert_non_null(strstr(sb.buf, "(KVM=m)"));

	s = sym(r, "KVM_MAX_NR_VCPUS");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_RANGE);
	format(s, &sb);
	assert_string_equal(sb.buf, "value out of range 1024..4096");

	s = sym(r, "LOG_BUF_SHIFT");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_INVALID);
}

static void test_tiny_i386(void **state)
{
	_cleanup_explain_result_ struct explain_result *r =
		load("i386-tiny.out");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const struct explain_symbol *s;
	bool flags[16];

	assert_int_equal(r->n_syms, count_queries("i386-tiny.queries"));
	s = sym(r, "VIRTIO_BLK");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_NOMODULES);
	format(s, &sb);
	assert_string_equal(sb.buf, "MODULES=n: a tristate is y or n, never m");

	s = sym(r, "NOHIGHMEM");
	assert_int_equal(s->reasons[0].kind, EXPLAIN_CHOICE);
	assert_null(s->reasons[0].symbol);

	s = sym(r, "SCSI_VIRTIO");
	assert_int_equal(s->reasons[0].n_terms, 3);
	assert_int_equal(explain_limiting_terms(&s->reasons[0], flags), 2);
	format(s, &sb);
	assert_non_null(strstr(sb.buf, "(SCSI_LOWLEVEL=n SCSI=n)"));

	/* recorded with a toolchain that links 32-bit programs */
	s = sym(r, "UAPI_HEADER_TEST");
	assert_string_equal(term(&s->reasons[0], "CC_CAN_LINK"), "y");
	assert_string_equal(term(&s->reasons[0], "HEADERS_INSTALL"), "n");
}

struct bad {
	const char *text;
	int r;
	const char *msg;
};

static void test_malformed(void **state)
{
	static const struct bad cases[] = {
		{ "", -EINVAL, "line 1: no 'bp-kconfig-explain' header" },
		{ "symbol\tA\tbool\ty\t\nend\n", -EINVAL,
		  "line 1: expected 'bp-kconfig-explain VERSION'" },
		{ "bp-kconfig-explain\t1\n", -EPROTO,
		  "line 1: protocol version 1, expected 2" },
		{ "bp-kconfig-explain\t2\nreason\tunknown\n", -EINVAL,
		  "line 2: 'reason' outside a symbol block" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\n"
		  "term\tB\tn\tbool\n",
		  -EINVAL, "line 3: 'term' before any 'reason' or 'rule'" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\n"
		  "rule\tfrobbed\n",
		  -EINVAL, "line 3: unknown rule 'frobbed'" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\n"
		  "rule\tdefault\ty\ty\ty\n",
		  -EINVAL, "line 3: rule 'default' takes 4 fields, not 3" },
		{ "bp-kconfig-explain\t2\nrule\tdepends\ty\tA\n", -EINVAL,
		  "line 2: 'rule' outside a symbol block" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\n", -EINVAL,
		  "line 2: last symbol block has no 'end'" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\n"
		  "symbol\tB\tbool\ty\t\n",
		  -EINVAL, "line 3: 'symbol' before 'end' of A" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\n"
		  "reason\tfrobbed\n",
		  -EINVAL, "line 3: unknown reason 'frobbed'" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\n"
		  "reason\tdepends\tdepends\tn\n",
		  -EINVAL, "line 3: reason 'depends' takes 3 fields, not 2" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\n", -EINVAL,
		  "line 2: 'symbol' takes 4 fields, not 2" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\\q\tbool\ty\t\n", -EINVAL,
		  "line 2: bad escape or too many fields" },
		{ "bp-kconfig-explain\t2\nwhat\n", -EINVAL,
		  "line 2: 'what' outside a symbol block" },
		{ "bp-kconfig-explain\t2\nsymbol\tA\tbool\ty\t\nwhat\n",
		  -EINVAL, "line 3: unknown record 'what'" },
	};

	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
		struct explain_result *r = NULL;

		assert_int_equal(explain_parse(cases[i].text,
					       strlen(cases[i].text), &r, &err),
				 cases[i].r);
		assert_null(r);
		assert_string_equal(err.buf, cases[i].msg);
	}
}

static void test_escapes_and_queries(void **state)
{
	static const char text[] =
		"bp-kconfig-explain\t2\n"
		"symbol\tS\tstring\ta\\tb\\\\c\\nd\tinit/Kconfig:1\n"
		"reason\tother\tx\n"
		"end\n";
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf q = STRBUF_INIT;
	_cleanup_explain_result_ struct explain_result *r = NULL;

	assert_int_equal(explain_parse(text, strlen(text), &r, &err), 0);
	assert_int_equal(r->n_syms, 1);
	assert_string_equal(r->syms[0].final, "a\tb\\c\nd");
	assert_string_equal(r->syms[0].defined, "init/Kconfig:1");
	assert_null(explain_find(r, "T"));

	explain_query_value(&q, "CMDLINE", "console=ttyS0\tquiet\n");
	explain_query_exists(&q, "FOO");
	assert_string_equal(q.buf, "explain\tCMDLINE\tconsole=ttyS0 quiet\n"
				   "exists\tFOO\n");
}

static void test_kind_names(void **state)
{
	enum explain_kind k;

	assert_string_equal(explain_kind_name(EXPLAIN_STALE_BASE),
			    "stale base option");
	assert_string_equal(explain_kind_name(EXPLAIN_OVERRIDDEN),
			    "overridden");
	assert_string_equal(explain_kind_name(EXPLAIN_KIND_MAX), "?");
	for (int i = 0; i < EXPLAIN_KIND_MAX; i++)
		assert_string_not_equal(explain_kind_name(i), "?");
	assert_int_equal(explain_kind_from_word("module", &k), 0);
	assert_int_equal(k, EXPLAIN_MODULE);
	/* bootproof's own kinds are not the helper's to report */
	assert_int_equal(explain_kind_from_word("overridden", &k), -EINVAL);
}

static int env_of(const char *s, struct strbuf *sb)
{
	return explain_parse_env(s, strlen(s), sb);
}

static void test_env(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf env = STRBUF_INIT;
	bool arch = false, ccv = false;
	int n;

	assert_true(strbuf_read_file(&sb, DATA "x86_64.auto.conf.cmd.env",
				     0) > 0);
	n = explain_parse_env(sb.buf, sb.len, &env);
	assert_true(n >= 5);
	for (size_t off = 0; off < env.len; off += strlen(env.buf + off) + 1) {
		const char *kv = env.buf + off;

		n--;
		arch |= !strcmp(kv, "ARCH=x86_64");
		/* values keep their spaces */
		ccv |= !strncmp(kv, "CC_VERSION_TEXT=", 16) && strchr(kv, ' ');
	}
	assert_int_equal(n, 0);
	assert_true(arch);
	assert_true(ccv);

	strbuf_reset(&env);
	assert_int_equal(env_of("ifneq \"$(A B)\" \"x\"\n", &env), -EINVAL);
	assert_int_equal(env_of("ifneq $(A) x\n", &env), -EINVAL);
	assert_int_equal(env_of("deps_config := \\\n", &env), 0);
	assert_int_equal(env_of("ifneq \"$(CC)\" \"\"\n", &env), 1);
	assert_string_equal(env.buf, "CC=");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unmet_dependency_and_more),
		cmocka_unit_test(test_selects),
		cmocka_unit_test(test_module_and_range),
		cmocka_unit_test(test_tiny_i386),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_escapes_and_queries),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_env),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
