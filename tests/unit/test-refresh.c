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

#include "core/refresh.h"
#include "util/strbuf.h"

/* Golden data from real runs: tests/data/refresh/README.md. */
#define DATA TEST_DATA "/refresh/"

/* ------------------------------------------------------------ helpers */

static struct kconfig *kc_text(const char *name, const char *text)
{
	_cleanup_kconfig_error_ struct kconfig_error err = KCONFIG_ERROR_INIT;
	struct kconfig *kc = NULL;

	assert_int_equal(kconfig_new(&kc), 0);
	if (kconfig_parse(kc, name, text, strlen(text), &err) < 0) {
		print_error("%s\n", err.msg.buf);
		fail();
	}
	return kc;
}

static struct kconfig *kc_file(const char *name)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char path[4096];

	snprintf(path, sizeof(path), DATA "%s", name);
	assert_true(strbuf_read_file(&sb, path, 0) > 0);
	return kc_text(name, sb.buf);
}

static struct explain_result *why_text(const char *text)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct explain_result *r = NULL;

	if (explain_parse(text, strlen(text), &r, &err)) {
		print_error("%s\n", err.buf);
		fail();
	}
	return r;
}

static struct explain_result *why_file(const char *name)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char path[4096];

	snprintf(path, sizeof(path), DATA "%s", name);
	assert_true(strbuf_read_file(&sb, path, 0) > 0);
	return why_text(sb.buf);
}

static const struct refresh_line *line(const struct refresh_result *r,
				       const char *name)
{
	for (size_t i = 0; i < r->n_lines; i++)
		if (!strcmp(r->lines[i].name, name))
			return &r->lines[i];
	print_error("no line %s\n", name);
	fail();
	return NULL;
}

static const struct refresh_diff *diff(const struct refresh_result *r,
				       const char *name)
{
	for (size_t i = 0; i < r->n_diffs; i++)
		if (!strcmp(r->diffs[i].name, name))
			return &r->diffs[i];
	print_error("no diff %s\n", name);
	fail();
	return NULL;
}

static bool names(const struct refresh_line *l, const char *sym)
{
	for (size_t i = 0; i < l->n_symbols; i++)
		if (!strcmp(l->symbols[i], sym))
			return true;
	return false;
}

/* The names of the options a line changes, space-separated. */
static void changes(const struct refresh_result *r,
		    const struct refresh_line *l, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (size_t i = 0; i < l->n_changes; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "",
			    r->diffs[l->changes[i]].name);
}

/* The four sets and two answers of one case, and its result. */
struct fixture {
	struct kconfig *old_def, *new_def, *old_final, *new_final;
	struct explain_result *why_old, *why_new;
	struct refresh_result *r;
	struct strbuf queries;
	size_t n_queries;
};

static void fixture_run(struct fixture *f)
{
	assert_int_equal(refresh_compare(f->old_def, f->new_def, f->old_final,
					 f->new_final, &f->r),
			 0);
	strbuf_init(&f->queries, 0);
	f->n_queries = refresh_queries(f->r, &f->queries);
	refresh_classify(f->r, f->why_old, f->why_new);
}

static void fixture_done(struct fixture *f)
{
	refresh_result_free(f->r);
	if (f->why_new != f->why_old)
		explain_result_free(f->why_new);
	explain_result_free(f->why_old);
	if (f->new_final != f->old_final)
		kconfig_free(f->new_final);
	kconfig_free(f->old_final);
	kconfig_free(f->old_def);
	kconfig_free(f->new_def);
	strbuf_release(&f->queries);
}

/* ------------------------------------------------------------ synthetic */

/*
 * A small made-up tree: A (a line removed, its default n), B follows A
 * (default A), C follows B (default B): a knock-on chain through an option
 * without a line; S selected by T; I implied by T; D depends on OFF; G gone;
 * K only moved; N int with a default; CH a choice member; P y without a
 * prompt or any rule; Z y with a prompt and nothing else: no reason.
 */
static const char old_def[] = "CONFIG_K=y\n"
			      "CONFIG_A=y\n"
			      "CONFIG_S=y\n"
			      "CONFIG_I=y\n"
			      "# CONFIG_D is not set\n"
			      "CONFIG_G=y\n"
			      "CONFIG_N=1024\n"
			      "CONFIG_CH1=y\n"
			      "CONFIG_M=m\n"
			      "CONFIG_P=y\n"
			      "CONFIG_Z=y\n";
static const char new_def[] = "CONFIG_S=y\n"
			      "CONFIG_K=y\n"
			      "CONFIG_M=y\n"
			      "CONFIG_X=n\n";
static const char old_final[] = "CONFIG_K=y\nCONFIG_A=y\nCONFIG_B=y\n"
				"CONFIG_C=y\nCONFIG_S=y\nCONFIG_T=y\n"
				"CONFIG_I=y\nCONFIG_N=1024\nCONFIG_CH1=y\n"
				"CONFIG_M=y\nCONFIG_W=5\nCONFIG_P=y\n"
				"CONFIG_Z=y\n";
static const char new_final[] = "CONFIG_K=y\n# CONFIG_A is not set\n"
				"# CONFIG_B is not set\nCONFIG_S=y\n"
				"CONFIG_T=y\nCONFIG_I=y\nCONFIG_N=1024\n"
				"CONFIG_CH1=y\nCONFIG_M=y\n"
				"# CONFIG_X is not set\nCONFIG_P=y\n"
				"CONFIG_Z=y\n";
/* The answers as the helper words them; the same rules on both sides,
 * with each side's values. */
#define HDR "bp-kconfig-explain\t2\n"
#define WHY_COMMON                                                             \
	"symbol\tS\tbool\ty\tk:1\n"                                            \
	"rule\tprompt\ty\ty\n"                                                 \
	"rule\tselect\tT\ty\tT\n"                                              \
	"term\tT\ty\tbool\n"                                                   \
	"rule\tselect\tU\tn\tU && V\n"                                         \
	"term\tU\tn\tbool\n"                                                   \
	"term\tV\ty\tbool\n"                                                   \
	"end\n"                                                                \
	"symbol\tI\tbool\ty\tk:2\n"                                            \
	"rule\tprompt\ty\ty\n"                                                 \
	"rule\timply\tT\ty\tT\n"                                               \
	"term\tT\ty\tbool\n"                                                   \
	"end\n"                                                                \
	"symbol\tD\tbool\t-\tk:3\n"                                            \
	"rule\tdepends\tn\tOFF && ON\n"                                        \
	"term\tOFF\tn\tbool\n"                                                 \
	"term\tON\ty\tbool\n"                                                  \
	"rule\tprompt\tn\tOFF && ON\n"                                         \
	"term\tOFF\tn\tbool\n"                                                 \
	"term\tON\ty\tbool\n"                                                  \
	"end\n"                                                                \
	"symbol\tG\tunknown\t-\t\n"                                            \
	"end\n"                                                                \
	"symbol\tN\tint\t1024\tk:4\n"                                          \
	"rule\tprompt\ty\ty\n"                                                 \
	"rule\tdefault\t2048\tn\t2048\t64BIT\n"                                \
	"term\t64BIT\tn\tbool\n"                                               \
	"rule\tdefault\t1024\ty\t1024\t!64BIT\n"                               \
	"term\t64BIT\tn\tbool\n"                                               \
	"end\n"                                                                \
	"symbol\tCH1\tbool\ty\tk:5\n"                                          \
	"rule\tprompt\ty\ty\n"                                                 \
	"rule\tchoice\tCH1\tCH1\n"                                             \
	"term\tCH1\ty\tbool\n"                                                 \
	"term\tCH2\tn\tbool\n"                                                 \
	"end\n"                                                                \
	"symbol\tM\ttristate\ty\tk:6\n"                                        \
	"rule\tprompt\ty\ty\n"                                                 \
	"rule\tselect\tT\ty\tT\n"                                              \
	"term\tT\ty\tbool\n"                                                   \
	"end\n"                                                                \
	"symbol\tX\tbool\t-\tk:7\n"                                            \
	"end\n"                                                                \
	"symbol\tP\tbool\ty\tk:8\n"                                            \
	"end\n"                                                                \
	"symbol\tZ\tbool\ty\tk:9\n"                                            \
	"rule\tprompt\ty\ty\n"                                                 \
	"end\n"

static const char why_old_text[] =
	HDR "symbol\tA\tbool\ty\tk:10\n"
	"rule\tprompt\ty\ty\n"
	"end\n"
	"symbol\tB\tbool\ty\tk:11\n"
	"rule\tprompt\ty\ty\n"
	"rule\tdefault\ty\ty\tA\ty\n"
	"term\tA\ty\tbool\n"
	"end\n"
	"symbol\tC\tbool\ty\tk:12\n"
	"rule\tdefault\ty\ty\tB\ty\n"
	"term\tB\ty\tbool\n"
	"end\n"
	"symbol\tW\tint\t5\tk:13\n"
	"rule\tdepends\ty\tQ\n"
	"term\tQ\ty\tbool\n"
	"end\n" WHY_COMMON;
static const char why_new_text[] =
	HDR "symbol\tA\tbool\tn\tk:10\n"
	"rule\tprompt\ty\ty\n"
	"end\n"
	"symbol\tB\tbool\tn\tk:11\n"
	"rule\tprompt\ty\ty\n"
	"rule\tdefault\tn\ty\tA\ty\n"
	"term\tA\tn\tbool\n"
	"end\n"
	"symbol\tC\tbool\t-\tk:12\n"
	"rule\tdefault\tn\ty\tB\ty\n"
	"term\tB\tn\tbool\n"
	"end\n"
	"symbol\tW\tint\t-\tk:13\n"
	"rule\tdepends\ty\tQ\n"
	"term\tQ\ty\tbool\n"
	"end\n" WHY_COMMON;

static void synthetic(struct fixture *f, bool answers)
{
	memset(f, 0, sizeof(*f));
	f->old_def = kc_text("old", old_def);
	f->new_def = kc_text("new", new_def);
	f->old_final = kc_text("old/.config", old_final);
	f->new_final = kc_text("new/.config", new_final);
	if (answers) {
		f->why_old = why_text(why_old_text);
		f->why_new = why_text(why_new_text);
	}
	fixture_run(f);
}

static void test_synthetic_lines_and_diffs(void **state)
{
	struct fixture f;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const struct refresh_result *r;
	const struct refresh_line *l;
	const struct refresh_diff *d;

	synthetic(&f, true);
	r = f.r;
	/* A B C and W differ (W an int that is gone: no line explains it);
	 * "# CONFIG_X is not set" against no line at all does not. */
	assert_int_equal(r->n_diffs, 4);
	d = diff(r, "A");
	assert_string_equal(d->old->value, "y");
	assert_int_equal(d->new->kind, KCONFIG_NO);
	assert_null(d->via);
	d = diff(r, "B");
	assert_string_equal(d->via, "A");
	assert_int_equal(d->via_rule, EXPLAIN_RULE_DEFAULT);
	assert_int_equal(d->n_lines, 1);
	assert_string_equal(r->lines[d->lines[0]].name, "A");
	/* C follows B, which has no line: the walk goes on to A */
	d = diff(r, "C");
	assert_null(d->new);
	assert_string_equal(d->via, "B");
	assert_int_equal(d->n_lines, 1);
	assert_string_equal(r->lines[d->lines[0]].name, "A");
	d = diff(r, "W");
	assert_int_equal(d->n_lines, 0);
	assert_int_equal(r->n_unexplained_diffs, 1);

	/* The lines: K moved (S went before it), the removed ones, M
	 * changed, X added. */
	assert_int_equal(r->n_lines, 11);
	l = line(r, "K");
	assert_int_equal(l->change, REFRESH_MOVED);
	assert_int_equal(l->cause, REFRESH_CAUSE_MOVED);
	assert_false(l->effect);
	assert_string_equal(l->reason, "only moved (same line, other position)");

	l = line(r, "A");
	assert_int_equal(l->change, REFRESH_REMOVED);
	assert_true(l->effect);
	assert_int_equal(l->cause, REFRESH_CAUSE_RESULT);
	changes(r, l, &sb);
	assert_string_equal(sb.buf, "A B C");
	assert_string_equal(l->reason,
			    "changes the result: A y -> n, knock-on B y -> n "
			    "(default A), knock-on C y -> n (default B)");
	assert_int_equal(r->n_effect, 1);

	fixture_done(&f);
}

static void test_synthetic_no_effect(void **state)
{
	struct fixture f;
	const struct refresh_result *r;
	const struct refresh_line *l;

	synthetic(&f, true);
	r = f.r;
	assert_true(r->classified);
	/* S stayed in place (K moved around it) and has the same value, so
	 * it is no line of the diff; I is removed and implied. */
	for (size_t i = 0; i < r->n_lines; i++)
		assert_string_not_equal(r->lines[i].name, "S");

	l = line(r, "I");
	assert_int_equal(l->cause, REFRESH_CAUSE_IMPLIED);
	assert_string_equal(l->reason, "implied by T");
	assert_true(names(l, "T"));

	l = line(r, "D");
	assert_int_equal(l->cause, REFRESH_CAUSE_DEPENDS);
	assert_string_equal(l->reason, "depends on something off: depends on "
				       "OFF && ON (OFF=n)");
	assert_true(names(l, "OFF"));
	assert_false(names(l, "ON"));

	l = line(r, "G");
	assert_int_equal(l->cause, REFRESH_CAUSE_GONE);
	assert_string_equal(l->reason, "symbol gone from this tree: no config "
				       "G in its Kconfig files");

	l = line(r, "N");
	assert_int_equal(l->cause, REFRESH_CAUSE_DEFAULT);
	assert_string_equal(l->reason, "the default gives the same value: "
				       "1024 (default 1024 if !64BIT)");
	assert_int_equal(l->n_symbols, 0);

	l = line(r, "CH1");
	assert_int_equal(l->cause, REFRESH_CAUSE_CHOICE);
	assert_string_equal(l->reason, "the choice picks the same member: CH1 "
				       "(its default)");

	/* M=m -> M=y: the new line holds (y), the old one did not: T's
	 * select made it y on the old side too. */
	l = line(r, "M");
	assert_int_equal(l->change, REFRESH_CHANGED);
	assert_int_equal(l->cause, REFRESH_CAUSE_SELECTED);
	assert_string_equal(l->reason, "selected by T");

	/* X=n added: no rule gives X more than n on the old side */
	l = line(r, "X");
	assert_int_equal(l->change, REFRESH_ADDED);
	assert_int_equal(l->cause, REFRESH_CAUSE_DEFAULT);
	assert_string_equal(l->reason, "the default gives the same value: n "
				       "(no default applies)");

	l = line(r, "P");
	assert_int_equal(l->cause, REFRESH_CAUSE_NOPROMPT);
	assert_string_equal(l->reason, "no prompt: a line cannot set it, only "
				       "its defaults and selects do");
	l = line(r, "Z");
	assert_int_equal(l->cause, REFRESH_CAUSE_UNEXPLAINED);
	assert_string_equal(l->reason, "no effect, but Kconfig's rules name no "
				       "reason for Z=y");

	fixture_done(&f);
}

static void test_synthetic_queries(void **state)
{
	struct fixture f;

	synthetic(&f, true);
	/* every line but the moved one, then the diffs not yet asked */
	assert_int_equal(f.n_queries, 13);
	assert_string_equal(f.queries.buf,
			    "why\tA\nwhy\tI\nwhy\tD\nwhy\tG\nwhy\tN\n"
			    "why\tCH1\nwhy\tM\nwhy\tP\nwhy\tZ\nwhy\tX\n"
			    "why\tB\nwhy\tC\nwhy\tW\n");
	fixture_done(&f);
}

static void test_without_answers(void **state)
{
	struct fixture f;
	const struct refresh_result *r;

	synthetic(&f, false);
	r = f.r;
	assert_false(r->classified);
	/* A's own option changed: that much is known without Kconfig */
	assert_true(line(r, "A")->effect);
	assert_int_equal(line(r, "A")->n_changes, 1);
	assert_int_equal(line(r, "I")->cause, REFRESH_CAUSE_UNEXPLAINED);
	assert_int_equal(line(r, "K")->cause, REFRESH_CAUSE_MOVED);
	/* B, C, W: no knock-on found without the rules */
	assert_int_equal(r->n_unexplained_diffs, 3);
	fixture_done(&f);
}

static void test_missing_answer(void **state)
{
	struct fixture f;

	memset(&f, 0, sizeof(f));
	f.old_def = kc_text("old", "CONFIG_Q=y\n");
	f.new_def = kc_text("new", "");
	f.old_final = kc_text("old/.config", "CONFIG_Q=y\n");
	f.new_final = f.old_final;
	f.why_old = why_text(HDR);
	f.why_new = f.why_old;
	fixture_run(&f);
	assert_int_equal(f.r->n_diffs, 0);
	assert_int_equal(line(f.r, "Q")->cause, REFRESH_CAUSE_UNEXPLAINED);
	assert_string_equal(line(f.r, "Q")->reason,
			    "no effect; Kconfig was not asked why");
	fixture_done(&f);
}

static void test_compare_edges(void **state)
{
	_cleanup_kconfig_ struct kconfig *a = kc_text("a", "CONFIG_A=y\n"
							   "CONFIG_B=n\n"
							   "CONFIG_C=0x10\n");
	_cleanup_kconfig_ struct kconfig *b = kc_text("b", "# CONFIG_B is not set\n"
							   "CONFIG_A=y\n"
							   "CONFIG_C=0x010\n");
	_cleanup_refresh_result_ struct refresh_result *r = NULL;

	assert_int_equal(refresh_compare(NULL, b, a, b, &r), -EINVAL);
	/* "=n" and "is not set", 0x10 and 0x010: the same lines, moved */
	assert_int_equal(refresh_compare(a, b, a, b, &r), 0);
	assert_int_equal(r->n_diffs, 0);
	assert_int_equal(r->n_lines, 1);
	assert_int_equal(r->lines[0].change, REFRESH_MOVED);
}

/* ------------------------------------------------------------ golden */

/* One recorded case (tests/data/refresh/README.md). */
static void golden(struct fixture *f, const char *arch, const char *name)
{
	char a[256], b[256];

	memset(f, 0, sizeof(*f));
	snprintf(a, sizeof(a), "%s.old_defconfig", arch);
	snprintf(b, sizeof(b), "%s.new_defconfig", name);
	f->old_def = kc_file(a);
	f->new_def = kc_file(b);
	snprintf(a, sizeof(a), "%s.old.config", name);
	snprintf(b, sizeof(b), "%s.new.config", name);
	f->old_final = kc_file(a);
	f->new_final = kc_file(b);
	snprintf(a, sizeof(a), "%s.why-old.out", name);
	snprintf(b, sizeof(b), "%s.why-new.out", name);
	f->why_old = why_file(a);
	f->why_new = why_file(b);
	fixture_run(f);
}

/* Every query bootproof makes is among the recorded ones. */
static void assert_answered(const struct fixture *f)
{
	const char *p = f->queries.buf;

	for (size_t i = 0; i < f->n_queries; i++) {
		const char *nl = strchr(p, '\n');
		char name[256];

		assert_non_null(nl);
		snprintf(name, sizeof(name), "%.*s", (int)(nl - p - 4), p + 4);
		if (!explain_find(f->why_old, name) ||
		    !explain_find(f->why_new, name)) {
			print_error("no recorded answer for %s\n", name);
			fail();
		}
		p = nl + 1;
	}
}

static void test_x86_64_002(void **state)
{
	struct fixture f;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const struct refresh_result *r;
	const struct refresh_line *l;
	const struct refresh_diff *d;

	golden(&f, "x86_64", "x86_64-002");
	r = f.r;
	assert_answered(&f);

	/* Not a no-op: three options differ. */
	assert_int_equal(r->n_diffs, 3);
	d = diff(r, "LOGITECH_FF");
	assert_string_equal(d->old->value, "y");
	assert_int_equal(d->new->kind, KCONFIG_NO);
	assert_null(d->via);
	d = diff(r, "LOGIWHEELS_FF");
	assert_string_equal(d->old->value, "y");
	assert_int_equal(d->new->kind, KCONFIG_NO);
	assert_string_equal(d->via, "LOGITECH_FF");
	assert_int_equal(d->via_rule, EXPLAIN_RULE_DEFAULT);
	d = diff(r, "SCHED_DEBUG");
	assert_int_equal(d->old->kind, KCONFIG_NO);
	assert_string_equal(d->new->value, "y");
	assert_int_equal(r->n_unexplained_diffs, 0);

	assert_int_equal(r->n_lines, 8);
	assert_int_equal(r->n_effect, 2);
	l = line(r, "LOGITECH_FF");
	assert_int_equal(l->change, REFRESH_REMOVED);
	assert_true(l->effect);
	changes(r, l, &sb);
	assert_string_equal(sb.buf, "LOGITECH_FF LOGIWHEELS_FF");
	assert_string_equal(l->reason,
			    "changes the result: LOGITECH_FF y -> n, knock-on "
			    "LOGIWHEELS_FF y -> n (default LOGITECH_FF)");
	l = line(r, "SCHED_DEBUG");
	assert_true(l->effect);
	changes(r, l, &sb);
	assert_string_equal(sb.buf, "SCHED_DEBUG");

	l = line(r, "KEXEC");
	assert_int_equal(l->change, REFRESH_MOVED);
	assert_int_equal(l->old->line, 43);
	assert_int_equal(l->new->line, 30);
	l = line(r, "CRASH_DUMP");
	assert_int_equal(l->cause, REFRESH_CAUSE_DEFAULT);
	assert_true(names(l, "ARCH_DEFAULT_CRASH_DUMP"));
	l = line(r, "UNIX");
	assert_int_equal(l->cause, REFRESH_CAUSE_IMPLIED);
	assert_string_equal(l->reason, "implied by NET_9P_FD");
	l = line(r, "INET");
	assert_int_equal(l->cause, REFRESH_CAUSE_IMPLIED);
	assert_true(names(l, "NET_9P_FD"));
	l = line(r, "PRINT_QUOTA_WARNING");
	assert_int_equal(l->cause, REFRESH_CAUSE_DEPENDS);
	assert_string_equal(l->reason, "depends on something off: depends on "
				       "QUOTA && BROKEN (BROKEN=n)");
	assert_true(names(l, "BROKEN"));
	l = line(r, "SECURITY_SELINUX_DISABLE");
	assert_int_equal(l->cause, REFRESH_CAUSE_GONE);
	fixture_done(&f);
}

static void test_i386_003(void **state)
{
	struct fixture f;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const struct refresh_result *r;
	const struct refresh_line *l;

	golden(&f, "i386", "i386-003");
	r = f.r;
	assert_answered(&f);
	assert_int_equal(r->n_unexplained_diffs, 0);
	l = line(r, "DEBUG_WX");
	assert_true(l->effect);
	changes(r, l, &sb);
	assert_non_null(strstr(sb.buf, "PTDUMP"));
	assert_string_equal(diff(r, "PTDUMP")->via, "DEBUG_WX");
	assert_int_equal(diff(r, "PTDUMP")->via_rule, EXPLAIN_RULE_SELECT);
	assert_true(line(r, "LOGITECH_FF")->effect);
	assert_true(line(r, "SCHED_DEBUG")->effect);
	assert_int_equal(line(r, "KEXEC")->change, REFRESH_MOVED);
	assert_int_equal(line(r, "UNWINDER_FRAME_POINTER")->change,
			 REFRESH_MOVED);
	assert_int_equal(line(r, "SECURITY_SELINUX_DISABLE")->cause,
			 REFRESH_CAUSE_GONE);
	assert_int_equal(line(r, "PRINT_QUOTA_WARNING")->cause,
			 REFRESH_CAUSE_DEPENDS);
	/* no line is left without a reason */
	for (size_t i = 0; i < r->n_lines; i++)
		assert_int_not_equal(r->lines[i].cause,
				     REFRESH_CAUSE_UNEXPLAINED);
	fixture_done(&f);
}

/* make savedefconfig of the old result: a true no-op, every line that
 * differs from the tree's defconfig without effect, each with a reason. */
static void test_x86_64_savedefconfig(void **state)
{
	struct fixture f;
	const struct refresh_result *r;

	memset(&f, 0, sizeof(f));
	f.old_def = kc_file("x86_64.old_defconfig");
	f.new_def = kc_file("x86_64-save.new_defconfig");
	f.old_final = kc_file("x86_64-002.old.config");
	f.new_final = f.old_final;
	f.why_old = why_file("x86_64-save.why.out");
	f.why_new = f.why_old;
	fixture_run(&f);
	r = f.r;
	assert_answered(&f);
	assert_int_equal(r->n_diffs, 0);
	assert_int_equal(r->n_effect, 0);
	assert_true(r->n_lines > 0);
	for (size_t i = 0; i < r->n_lines; i++) {
		assert_false(r->lines[i].effect);
		if (r->lines[i].cause == REFRESH_CAUSE_UNEXPLAINED) {
			print_error("%s: %s\n", r->lines[i].name,
				    r->lines[i].reason);
			fail();
		}
	}
	fixture_done(&f);
}

/* The old defconfig against itself with one line moved to the end. */
static void test_reordered(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf moved = STRBUF_INIT;
	char path[4096];
	struct fixture f;
	const char *kexec, *eol;

	snprintf(path, sizeof(path), DATA "x86_64.old_defconfig");
	assert_true(strbuf_read_file(&sb, path, 0) > 0);
	kexec = strstr(sb.buf, "CONFIG_KEXEC=y\n");
	assert_non_null(kexec);
	eol = strchr(kexec, '\n') + 1;
	strbuf_add(&moved, sb.buf, (size_t)(kexec - sb.buf));
	strbuf_addstr(&moved, eol);
	strbuf_add(&moved, kexec, (size_t)(eol - kexec));

	memset(&f, 0, sizeof(f));
	f.old_def = kc_text("old", sb.buf);
	f.new_def = kc_text("new", moved.buf);
	f.old_final = kc_file("x86_64-002.old.config");
	f.new_final = f.old_final;
	f.why_old = why_text(HDR);
	f.why_new = f.why_old;
	fixture_run(&f);
	assert_int_equal(f.n_queries, 0);
	assert_int_equal(f.r->n_diffs, 0);
	assert_int_equal(f.r->n_lines, 1);
	assert_string_equal(f.r->lines[0].name, "KEXEC");
	assert_int_equal(f.r->lines[0].change, REFRESH_MOVED);
	fixture_done(&f);
}

static void test_names(void **state)
{
	assert_string_equal(refresh_change_name(REFRESH_ADDED), "added");
	assert_string_equal(refresh_change_name(REFRESH_MOVED), "moved");
	assert_string_equal(refresh_change_name(REFRESH_CHANGE_MAX), "?");
	assert_string_equal(refresh_cause_name(REFRESH_CAUSE_RESULT),
			    "changes result");
	assert_string_equal(refresh_cause_name(REFRESH_CAUSE_UNEXPLAINED),
			    "unexplained");
	assert_string_equal(refresh_cause_name(REFRESH_CAUSE_MAX), "?");
	for (int i = 0; i < REFRESH_CAUSE_MAX; i++)
		assert_string_not_equal(refresh_cause_name(i), "?");
	assert_string_equal(explain_rule_kind_name(EXPLAIN_RULE_IMPLY), "imply");
	assert_string_equal(explain_rule_kind_name(EXPLAIN_RULE_KIND_MAX), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synthetic_lines_and_diffs),
		cmocka_unit_test(test_synthetic_no_effect),
		cmocka_unit_test(test_synthetic_queries),
		cmocka_unit_test(test_without_answers),
		cmocka_unit_test(test_missing_answer),
		cmocka_unit_test(test_compare_edges),
		cmocka_unit_test(test_x86_64_002),
		cmocka_unit_test(test_i386_003),
		cmocka_unit_test(test_x86_64_savedefconfig),
		cmocka_unit_test(test_reordered),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
