// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/kconfig.h"
#include "util/strbuf.h"

#define KDATA TEST_DATA "/kconfig/"

/* Parse text as `file` into kc, expecting success; returns the count. */
static int parse_into(struct kconfig *kc, const char *file, const char *text)
{
	_cleanup_kconfig_error_ struct kconfig_error err = KCONFIG_ERROR_INIT;
	int r = kconfig_parse(kc, file, text, strlen(text), &err);

	if (r < 0)
		fail_msg("parse of %s failed: %d %s", file, r, err.msg.buf);
	return r;
}

static struct kconfig *parse_new(const char *file, const char *text)
{
	struct kconfig *kc = NULL;

	assert_int_equal(kconfig_new(&kc), 0);
	parse_into(kc, file, text);
	return kc;
}

static void assert_option(const struct kconfig *kc, const char *name,
			  enum kconfig_kind kind, const char *value,
			  const char *file, unsigned line)
{
	const struct kconfig_option *o = kconfig_find(kc, name);

	if (!o)
		fail_msg("%s not found", name);
	assert_string_equal(o->name, name);
	assert_int_equal(o->kind, kind);
	assert_string_equal(o->value, value);
	assert_int_equal(o->value_len, strlen(value));
	assert_string_equal(o->file, file);
	assert_int_equal(o->line, line);
}

static void test_line_forms(void **state)
{
	_cleanup_kconfig_ struct kconfig *kc = parse_new(
	    "forms.config", "#\n"
			    "# Automatically generated file; DO NOT EDIT.\n"
			    "\n"
			    "CONFIG_BUILTIN=y\n"
			    "CONFIG_MODULAR=m\n"
			    "CONFIG_EXPLICIT_NO=n\n"
			    "# CONFIG_UNSET is not set\n"
			    "CONFIG_STR=\"console=ttyS0\"\n"
			    "CONFIG_EMPTY=\"\"\n"
			    "CONFIG_ESCAPED=\"a \\\"quoted\\\" \\\\ path\"\n"
			    "CONFIG_DEC=123\n"
			    "CONFIG_NEG=-5\n"
			    "CONFIG_ZERO=0\n"
			    "CONFIG_HEX=0x1f\n"
			    "CONFIG_HEX_UPPER=0XDEAD\n"
			    "CONFIG_SND_SOC_AMD_ACP3x=m\n"
			    "CONFIG_3C515=y\n"
			    "#CONFIG_NO_SPACE is not set\n"
			    "# CONFIG_COMMENTED=y\n"
			    "# CONFIG_TWO WORDS is not set\n"
			    "   \t\n"
			    "CONFIG_TRAILING=y \t \n"
			    "CONFIG_LAST=y");

	assert_int_equal(kconfig_count(kc), 16);
	assert_option(kc, "BUILTIN", KCONFIG_YES, "y", "forms.config", 4);
	assert_option(kc, "MODULAR", KCONFIG_MODULE, "m", "forms.config", 5);
	assert_option(kc, "EXPLICIT_NO", KCONFIG_NO, "n", "forms.config", 6);
	assert_option(kc, "UNSET", KCONFIG_NO, "n", "forms.config", 7);
	assert_option(kc, "STR", KCONFIG_STRING, "console=ttyS0",
		      "forms.config", 8);
	assert_option(kc, "EMPTY", KCONFIG_STRING, "", "forms.config", 9);
	assert_option(kc, "ESCAPED", KCONFIG_STRING, "a \"quoted\" \\ path",
		      "forms.config", 10);
	assert_option(kc, "DEC", KCONFIG_DECIMAL, "123", "forms.config", 11);
	assert_option(kc, "NEG", KCONFIG_DECIMAL, "-5", "forms.config", 12);
	assert_option(kc, "ZERO", KCONFIG_DECIMAL, "0", "forms.config", 13);
	assert_option(kc, "HEX", KCONFIG_HEX, "0x1f", "forms.config", 14);
	assert_option(kc, "HEX_UPPER", KCONFIG_HEX, "0XDEAD", "forms.config",
		      15);
	assert_option(kc, "SND_SOC_AMD_ACP3x", KCONFIG_MODULE, "m",
		      "forms.config", 16);
	assert_option(kc, "3C515", KCONFIG_YES, "y", "forms.config", 17);
	/* comments, whatever they look like */
	assert_null(kconfig_find(kc, "NO_SPACE"));
	assert_null(kconfig_find(kc, "COMMENTED"));
	assert_null(kconfig_find(kc, "TWO"));
	assert_option(kc, "TRAILING", KCONFIG_YES, "y", "forms.config", 22);
	/* no newline at the end of the buffer */
	assert_option(kc, "LAST", KCONFIG_YES, "y", "forms.config", 23);

	/* first-definition order */
	assert_string_equal(kconfig_at(kc, 0)->name, "BUILTIN");
	assert_string_equal(kconfig_at(kc, 15)->name, "LAST");
	assert_null(kconfig_at(kc, 16));
}

static void test_escapes_like_confdata(void **state)
{
	/* confdata.c drops any backslash and keeps the byte after it. */
	_cleanup_kconfig_ struct kconfig *kc = parse_new(
	    "esc.config", "CONFIG_A=\"x\\ny\"\nCONFIG_B=\"tab\there\"\n"
			  "CONFIG_C=\"\\\\\"\n");

	assert_option(kc, "A", KCONFIG_STRING, "xny", "esc.config", 1);
	assert_option(kc, "B", KCONFIG_STRING, "tab\there", "esc.config", 2);
	assert_option(kc, "C", KCONFIG_STRING, "\\", "esc.config", 3);
}

static void test_crlf(void **state)
{
	_cleanup_kconfig_ struct kconfig *kc =
	    parse_new("dos.config", "# a comment\r\n"
				    "CONFIG_A=y\r\n"
				    "\r\n"
				    "# CONFIG_B is not set\r\n"
				    "CONFIG_C=\"with space \"\r\n"
				    "CONFIG_D=0x10\r\n");

	assert_int_equal(kconfig_count(kc), 4);
	assert_option(kc, "A", KCONFIG_YES, "y", "dos.config", 2);
	assert_option(kc, "B", KCONFIG_NO, "n", "dos.config", 4);
	assert_option(kc, "C", KCONFIG_STRING, "with space ", "dos.config", 5);
	assert_option(kc, "D", KCONFIG_HEX, "0x10", "dos.config", 6);
}

static void expect_error(const char *text, size_t len, unsigned line,
			 const char *msg)
{
	_cleanup_kconfig_error_ struct kconfig_error err = KCONFIG_ERROR_INIT;
	_cleanup_kconfig_ struct kconfig *kc = NULL;

	assert_int_equal(kconfig_new(&kc), 0);
	assert_int_equal(kconfig_parse(kc, "bpf.config", text, len, &err),
			 -EINVAL);
	assert_int_equal(err.line, line);
	assert_string_equal(err.msg.buf, msg);
	/* nothing of a broken fragment is kept */
	assert_int_equal(kconfig_count(kc), 0);
	/* and without an error struct it still fails */
	assert_int_equal(kconfig_parse(kc, "bpf.config", text, len, NULL),
			 -EINVAL);
}
#define EXPECT_ERROR(text, line, msg)                                          \
	expect_error(text, sizeof(text) - 1, line, msg)

static void test_malformed(void **state)
{
	const char *generic =
	    "expected CONFIG_NAME=value or '# CONFIG_NAME is not set'";
	char want[256];

	/* the example of the task, line 7 */
	snprintf(want, sizeof(want), "bpf.config:7: %s", generic);
	EXPECT_ERROR("# bpf\nCONFIG_BPF=y\n\nCONFIG_BPF_SYSCALL=y\n"
		     "CONFIG_BPF_JIT=y\n# CONFIG_X is not set\n"
		     "BPF_LSM=y\nCONFIG_AFTER=y\n",
		     7, want);

	/* garbage */
	snprintf(want, sizeof(want), "bpf.config:1: %s", generic);
	EXPECT_ERROR("hello world\n", 1, want);
	EXPECT_ERROR("=y\n", 1, want);
	EXPECT_ERROR("CONFIG\n", 1, want);
	snprintf(want, sizeof(want), "bpf.config:2: %s", generic);
	EXPECT_ERROR("CONFIG_A=y\r\n\x7f"
		     "ELF\x01\x01\r\n",
		     2, want);
	snprintf(want, sizeof(want),
		 "bpf.config:1: %s (found leading whitespace)", generic);
	EXPECT_ERROR("  CONFIG_A=y\n", 1, want);
	EXPECT_ERROR("CONFIG_A=\0y\n", 1, "bpf.config:1: unexpected NUL byte");

	/* lower case */
	snprintf(want, sizeof(want), "bpf.config:1: %s (CONFIG_ is upper case)",
		 generic);
	EXPECT_ERROR("config_bpf=y\n", 1, want);
	EXPECT_ERROR("CONFIG_foo=y\n", 1,
		     "bpf.config:1: expected an upper-case symbol name after "
		     "'CONFIG_', found 'foo'");
	EXPECT_ERROR("# CONFIG_foo is not set\n", 1,
		     "bpf.config:1: expected an upper-case symbol name after "
		     "'CONFIG_', found 'foo'");

	/* names */
	EXPECT_ERROR("CONFIG_=y\n", 1,
		     "bpf.config:1: expected a symbol name after 'CONFIG_'");
	EXPECT_ERROR("# CONFIG_ is not set\n", 1,
		     "bpf.config:1: expected a symbol name after 'CONFIG_'");
	EXPECT_ERROR("# CONFIG_A-B is not set\n", 1,
		     "bpf.config:1: expected a symbol name in "
		     "'# CONFIG_NAME is not set'");
	EXPECT_ERROR("CONFIG_BPF\n", 1,
		     "bpf.config:1: expected '=' after 'CONFIG_BPF'");
	EXPECT_ERROR("CONFIG_BPF y\n", 1,
		     "bpf.config:1: expected '=' after 'CONFIG_BPF'");
	EXPECT_ERROR("CONFIG_BPF-JIT=y\n", 1,
		     "bpf.config:1: expected '=' after 'CONFIG_BPF'");

	/* missing value */
	EXPECT_ERROR("CONFIG_A=y\nCONFIG_BPF=\n", 2,
		     "bpf.config:2: expected a value after 'CONFIG_BPF='");
	EXPECT_ERROR("CONFIG_BPF=  \r\n", 1,
		     "bpf.config:1: expected a value after 'CONFIG_BPF='");

	/* bad values */
	EXPECT_ERROR("CONFIG_BPF=yes\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_BPF, found 'yes'");
	EXPECT_ERROR("CONFIG_BPF=Y\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_BPF, found 'Y'");
	EXPECT_ERROR("CONFIG_BPF=y # enable\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_BPF, found 'y # enable'");
	EXPECT_ERROR("CONFIG_X=0x\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_X, found '0x'");
	EXPECT_ERROR("CONFIG_X=0x1g\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_X, found '0x1g'");
	EXPECT_ERROR("CONFIG_X=1.5\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_X, found '1.5'");
	EXPECT_ERROR("CONFIG_X=-\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_X, found '-'");
	EXPECT_ERROR("CONFIG_X=unquoted text\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_X, found 'unquoted text'");
	/* long values are cut in the message */
	EXPECT_ERROR("CONFIG_X=aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeee\n",
		     1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_X, found "
		     "'aaaaaaaaaabbbbbbbbbbccccccccccddddddd...'");

	/* bad quotes */
	EXPECT_ERROR("CONFIG_CMDLINE=\"console=ttyS0\n", 1,
		     "bpf.config:1: expected a closing '\"' in the value of "
		     "CONFIG_CMDLINE");
	EXPECT_ERROR("CONFIG_CMDLINE=\"\n", 1,
		     "bpf.config:1: expected a closing '\"' in the value of "
		     "CONFIG_CMDLINE");
	EXPECT_ERROR("CONFIG_CMDLINE=\"ends in backslash\\\"\n", 1,
		     "bpf.config:1: expected a closing '\"' in the value of "
		     "CONFIG_CMDLINE");
	EXPECT_ERROR("CONFIG_CMDLINE=\"a\"b\"\n", 1,
		     "bpf.config:1: expected the end of the line after the "
		     "string value of CONFIG_CMDLINE, found 'b\"'");
	EXPECT_ERROR("CONFIG_CMDLINE=console\"\n", 1,
		     "bpf.config:1: expected y, m, n, a number or a \"string\" "
		     "as the value of CONFIG_CMDLINE, found 'console\"'");
}

static void test_error_keeps_set_and_names_buffer(void **state)
{
	_cleanup_kconfig_error_ struct kconfig_error err = KCONFIG_ERROR_INIT;
	_cleanup_kconfig_ struct kconfig *kc =
	    parse_new("base.config", "CONFIG_A=y\n");
	static const char bad[] = "CONFIG_A=m\nCONFIG_B=y\nCONFIG_C=maybe\n";

	assert_int_equal(
	    kconfig_parse(kc, "bad.config", bad, sizeof(bad) - 1, &err),
	    -EINVAL);
	assert_int_equal(kconfig_count(kc), 1);
	assert_option(kc, "A", KCONFIG_YES, "y", "base.config", 1);
	assert_null(kconfig_find(kc, "B"));

	/* a second error replaces the first message */
	assert_int_equal(kconfig_parse(kc, NULL, "x\n", 2, &err), -EINVAL);
	assert_string_equal(err.msg.buf,
			    "(buffer):1: expected CONFIG_NAME=value or "
			    "'# CONFIG_NAME is not set'");

	/* empty input is fine */
	assert_int_equal(kconfig_parse(kc, "empty", "", 0, &err), 0);
	assert_int_equal(kconfig_parse(kc, "empty", NULL, 0, &err), 0);
	assert_int_equal(kconfig_parse(kc, "x", NULL, 3, &err), -EINVAL);
	assert_int_equal(kconfig_parse(NULL, "x", "", 0, &err), -EINVAL);
}

static void test_override_in_fragment(void **state)
{
	_cleanup_kconfig_ struct kconfig *kc = NULL;
	const struct kconfig_option *o;

	assert_int_equal(kconfig_new(&kc), 0);
	assert_int_equal(parse_into(kc, "bpf.config",
				    "CONFIG_BPF=y\n"
				    "CONFIG_DEBUG_INFO_BTF=y\n"
				    "# CONFIG_BPF is not set\n"
				    "CONFIG_X=1\n"
				    "CONFIG_BPF=m\n"),
			 5);
	assert_int_equal(kconfig_count(kc), 3);
	/* the later wins, the symbol keeps its first position */
	assert_string_equal(kconfig_at(kc, 0)->name, "BPF");
	o = kconfig_find(kc, "CONFIG_BPF");
	assert_ptr_equal(o, kconfig_at(kc, 0));
	assert_option(kc, "BPF", KCONFIG_MODULE, "m", "bpf.config", 5);
	/* and remembers what it overrode, back to the first definition */
	assert_non_null(o->overrides);
	assert_int_equal(o->overrides->kind, KCONFIG_NO);
	assert_int_equal(o->overrides->line, 3);
	assert_string_equal(o->overrides->file, "bpf.config");
	assert_non_null(o->overrides->overrides);
	assert_int_equal(o->overrides->overrides->kind, KCONFIG_YES);
	assert_int_equal(o->overrides->overrides->line, 1);
	assert_null(o->overrides->overrides->overrides);
	assert_null(kconfig_find(kc, "DEBUG_INFO_BTF")->overrides);
}

/* "file:line VALUE <- file:line VALUE ..." for the whole chain */
static void chain_text(struct strbuf *sb, const struct kconfig_option *o)
{
	for (; o; o = o->overrides) {
		strbuf_addf(sb, "%s%s:%u ", sb->len ? "<- " : "", o->file,
			    o->line);
		kconfig_format_value(sb, o);
		strbuf_addch(sb, ' ');
	}
}

static void test_merge_fragments(void **state)
{
	_cleanup_kconfig_ struct kconfig *seq = NULL;
	_cleanup_kconfig_ struct kconfig *merged = NULL;
	_cleanup_kconfig_ struct kconfig *a = NULL, *b = NULL, *c = NULL;
	_cleanup_strbuf_ struct strbuf s1 = STRBUF_INIT, s2 = STRBUF_INIT;
	static const char ta[] = "CONFIG_A=y\nCONFIG_B=y\nCONFIG_S=\"one\"\n";
	static const char tb[] = "CONFIG_B=m\nCONFIG_C=0x10\nCONFIG_B=y\n";
	static const char tc[] = "# CONFIG_A is not set\nCONFIG_S=\"two\"\n";

	/* parsing one after the other into one set */
	assert_int_equal(kconfig_new(&seq), 0);
	parse_into(seq, "a.config", ta);
	parse_into(seq, "b.config", tb);
	parse_into(seq, "c.config", tc);

	/* or merging separately parsed sets */
	a = parse_new("a.config", ta);
	b = parse_new("b.config", tb);
	c = parse_new("c.config", tc);
	assert_int_equal(kconfig_new(&merged), 0);
	assert_int_equal(kconfig_merge(merged, a), 0);
	assert_int_equal(kconfig_merge(merged, b), 0);
	assert_int_equal(kconfig_merge(merged, c), 0);
	/* the sources are untouched */
	assert_int_equal(kconfig_count(b), 2);
	assert_option(b, "B", KCONFIG_YES, "y", "b.config", 3);
	assert_int_equal(kconfig_find(b, "B")->overrides->line, 1);
	assert_null(kconfig_find(b, "B")->overrides->overrides);

	for (int pass = 0; pass < 2; pass++) {
		struct kconfig *kc = pass ? merged : seq;

		assert_int_equal(kconfig_count(kc), 4);
		assert_string_equal(kconfig_at(kc, 0)->name, "A");
		assert_string_equal(kconfig_at(kc, 1)->name, "B");
		assert_string_equal(kconfig_at(kc, 2)->name, "S");
		assert_string_equal(kconfig_at(kc, 3)->name, "C");
		assert_option(kc, "A", KCONFIG_NO, "n", "c.config", 1);
		assert_option(kc, "B", KCONFIG_YES, "y", "b.config", 3);
		assert_option(kc, "C", KCONFIG_HEX, "0x10", "b.config", 2);
		assert_option(kc, "S", KCONFIG_STRING, "two", "c.config", 2);
		strbuf_reset(&s1);
		chain_text(&s1, kconfig_find(kc, "B"));
		assert_string_equal(s1.buf, "b.config:3 y <- b.config:1 m "
					    "<- a.config:2 y ");
		strbuf_reset(&s2);
		chain_text(&s2, kconfig_find(kc, "S"));
		assert_string_equal(
		    s2.buf, "c.config:2 \"two\" <- a.config:3 \"one\" ");
	}
	/* merging a set into itself's copy keeps working after the source
	 * is gone: names and files are owned by the destination */
	kconfig_free(TAKE_PTR(b));
	assert_string_equal(kconfig_find(merged, "C")->file, "b.config");
}

static void test_find(void **state)
{
	_cleanup_kconfig_ struct kconfig *kc =
	    parse_new("f.config", "CONFIG_AB=y\nCONFIG_ABC=y\nCONFIG_A=m\n");

	assert_string_equal(kconfig_find(kc, "AB")->name, "AB");
	assert_string_equal(kconfig_find(kc, "CONFIG_ABC")->name, "ABC");
	assert_string_equal(kconfig_find(kc, "A")->value, "m");
	assert_null(kconfig_find(kc, "ABCD"));
	assert_null(kconfig_find(kc, "ab"));
	assert_null(kconfig_find(kc, ""));
	assert_null(kconfig_find(kc, NULL));
	assert_null(kconfig_find(NULL, "A"));
	assert_int_equal(kconfig_count(NULL), 0);
}

static void test_value_equal(void **state)
{
	_cleanup_kconfig_ struct kconfig *kc = parse_new(
	    "v.config", "CONFIG_H1=0x1F\nCONFIG_H2=0x01f\nCONFIG_H3=0x0\n"
			"CONFIG_H4=0x000\nCONFIG_H5=0x1f0\nCONFIG_D1=31\n"
			"CONFIG_D2=031\nCONFIG_S1=\"31\"\nCONFIG_S2=\"\"\n"
			"CONFIG_S3=\"\"\nCONFIG_Y=y\nCONFIG_M=m\n"
			"CONFIG_N=n\n# CONFIG_N2 is not set\n");
#define EQ(a, b) kconfig_value_equal(kconfig_find(kc, a), kconfig_find(kc, b))

	assert_true(EQ("H1", "H2"));
	assert_true(EQ("H3", "H4"));
	assert_false(EQ("H1", "H5"));
	assert_false(EQ("H1", "D1"));
	assert_false(EQ("D1", "D2"));
	assert_false(EQ("D1", "S1"));
	assert_true(EQ("S2", "S3"));
	assert_false(EQ("S1", "S2"));
	assert_false(EQ("Y", "M"));
	assert_true(EQ("N", "N2"));
	assert_true(EQ("Y", "Y"));
#undef EQ
}

static void test_writer(void **state)
{
	static const char text[] = "CONFIG_Y=y\n"
				   "CONFIG_M=m\n"
				   "CONFIG_N=n\n"
				   "# CONFIG_UNSET is not set\n"
				   "CONFIG_S=\"say \\\"hi\\\" C:\\\\ \"\n"
				   "CONFIG_E=\"\"\n"
				   "CONFIG_D=-12\n"
				   "CONFIG_H=0xFfe0\n";
	static const char want[] = "CONFIG_Y=y\n"
				   "CONFIG_M=m\n"
				   "# CONFIG_N is not set\n"
				   "# CONFIG_UNSET is not set\n"
				   "CONFIG_S=\"say \\\"hi\\\" C:\\\\ \"\n"
				   "CONFIG_E=\"\"\n"
				   "CONFIG_D=-12\n"
				   "CONFIG_H=0xFfe0\n";
	_cleanup_kconfig_ struct kconfig *kc = parse_new("w.config", text);
	_cleanup_kconfig_ struct kconfig *again = NULL;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_free_ char *mem = NULL;
	size_t memlen = 0;
	FILE *f;

	for (size_t i = 0; i < kconfig_count(kc); i++)
		kconfig_format_option(&sb, kconfig_at(kc, i));
	assert_string_equal(sb.buf, want);

	strbuf_reset(&sb);
	kconfig_format_value(&sb, kconfig_find(kc, "S"));
	assert_string_equal(sb.buf, "\"say \\\"hi\\\" C:\\\\ \"");

	f = open_memstream(&mem, &memlen);
	assert_non_null(f);
	assert_int_equal(kconfig_write(kc, f), 0);
	fclose(f);
	assert_string_equal(mem, want);

	/* what the writer writes reads back the same */
	again = parse_new("again.config", mem);
	assert_int_equal(kconfig_count(again), kconfig_count(kc));
	for (size_t i = 0; i < kconfig_count(kc); i++) {
		const struct kconfig_option *o = kconfig_at(kc, i);
		const struct kconfig_option *p = kconfig_find(again, o->name);

		assert_non_null(p);
		assert_true(kconfig_value_equal(o, p));
		assert_int_equal(p->value_len, o->value_len);
		assert_memory_equal(p->value, o->value, o->value_len);
	}

	/* a stream that fails is reported */
	f = fopen("/dev/full", "w");
	assert_non_null(f);
	assert_int_equal(kconfig_write(kc, f), -EIO);
	fclose(f);
	assert_int_equal(kconfig_write(NULL, stdout), -EINVAL);
}

static const struct kconfig_check *check_of(const struct kconfig_report *r,
					    const char *name)
{
	for (size_t i = 0; i < r->n_checks; i++)
		if (strcmp(r->checks[i].requested->name, name) == 0)
			return &r->checks[i];
	fail_msg("no check for %s", name);
	return NULL;
}

static void test_verify_outcomes(void **state)
{
	_cleanup_kconfig_ struct kconfig *req = NULL;
	_cleanup_kconfig_ struct kconfig *fin = NULL;
	_cleanup_kconfig_report_ struct kconfig_report *r = NULL;
	const struct kconfig_check *c;

	assert_int_equal(kconfig_new(&req), 0);
	parse_into(req, "base.config",
		   "CONFIG_KEEP_Y=y\n"
		   "CONFIG_KEEP_M=m\n"
		   "CONFIG_KEEP_STR=\"a\\\"b\"\n"
		   "CONFIG_KEEP_HEX=0x1F\n"
		   "CONFIG_KEEP_DEC=-1\n"
		   "# CONFIG_KEEP_N is not set\n"
		   "# CONFIG_KEEP_N_ABSENT is not set\n"
		   "CONFIG_DEMOTE=y\n");
	parse_into(req, "bpf.config",
		   "CONFIG_Y_TO_N=y\n"
		   "# CONFIG_N_TO_Y is not set\n"
		   "CONFIG_N_TO_M=n\n"
		   "CONFIG_M_TO_Y=m\n"
		   "CONFIG_M_TO_N=m\n"
		   "CONFIG_STR=\"requested\"\n"
		   "CONFIG_DEC=100\n"
		   "CONFIG_HEX=0x1000\n"
		   "CONFIG_GONE=y\n"
		   "CONFIG_GONE_STR=\"x\"\n"
		   "CONFIG_KEEP_Y=m\n"
		   "CONFIG_KEEP_Y=y\n");
	fin = parse_new(".config", "CONFIG_KEEP_Y=y\n"
				   "CONFIG_KEEP_M=m\n"
				   "CONFIG_KEEP_STR=\"a\\\"b\"\n"
				   "CONFIG_KEEP_HEX=0x1f\n"
				   "CONFIG_KEEP_DEC=-1\n"
				   "# CONFIG_KEEP_N is not set\n"
				   "CONFIG_DEMOTE=m\n"
				   "# CONFIG_Y_TO_N is not set\n"
				   "CONFIG_N_TO_Y=y\n"
				   "CONFIG_N_TO_M=m\n"
				   "CONFIG_M_TO_Y=y\n"
				   "# CONFIG_M_TO_N is not set\n"
				   "CONFIG_STR=\"final\"\n"
				   "CONFIG_DEC=64\n"
				   "CONFIG_HEX=0x2000\n"
				   "CONFIG_UNREQUESTED=y\n");

	assert_int_equal(kconfig_verify(req, fin, &r), 11);
	assert_int_equal(r->n_checks, 18);
	assert_int_equal(r->count[KCONFIG_KEPT], 7);
	assert_int_equal(r->count[KCONFIG_CHANGED], 8);
	assert_int_equal(r->count[KCONFIG_ABSENT], 2);
	assert_int_equal(r->count[KCONFIG_DEMOTED], 1);
	/* in the requested order */
	assert_string_equal(r->checks[0].requested->name, "KEEP_Y");
	assert_string_equal(r->checks[17].requested->name, "GONE_STR");

	static const struct {
		const char *name;
		enum kconfig_verdict v;
		const char *file;
		unsigned line;
	} want[] = {
	    {"KEEP_Y", KCONFIG_KEPT, "bpf.config", 12},
	    {"KEEP_M", KCONFIG_KEPT, "base.config", 2},
	    {"KEEP_STR", KCONFIG_KEPT, "base.config", 3},
	    {"KEEP_HEX", KCONFIG_KEPT, "base.config", 4},
	    {"KEEP_DEC", KCONFIG_KEPT, "base.config", 5},
	    {"KEEP_N", KCONFIG_KEPT, "base.config", 6},
	    {"KEEP_N_ABSENT", KCONFIG_KEPT, "base.config", 7},
	    {"DEMOTE", KCONFIG_DEMOTED, "base.config", 8},
	    {"Y_TO_N", KCONFIG_CHANGED, "bpf.config", 1},
	    {"N_TO_Y", KCONFIG_CHANGED, "bpf.config", 2},
	    {"N_TO_M", KCONFIG_CHANGED, "bpf.config", 3},
	    {"M_TO_Y", KCONFIG_CHANGED, "bpf.config", 4},
	    {"M_TO_N", KCONFIG_CHANGED, "bpf.config", 5},
	    {"STR", KCONFIG_CHANGED, "bpf.config", 6},
	    {"DEC", KCONFIG_CHANGED, "bpf.config", 7},
	    {"HEX", KCONFIG_CHANGED, "bpf.config", 8},
	    {"GONE", KCONFIG_ABSENT, "bpf.config", 9},
	    {"GONE_STR", KCONFIG_ABSENT, "bpf.config", 10},
	};
	for (size_t i = 0; i < ELEMENTSOF(want); i++) {
		c = check_of(r, want[i].name);
		if (c->verdict != want[i].v)
			fail_msg("%s: %s, expected %s", want[i].name,
				 kconfig_verdict_to_string(c->verdict),
				 kconfig_verdict_to_string(want[i].v));
		assert_string_equal(c->requested->file, want[i].file);
		assert_int_equal(c->requested->line, want[i].line);
	}

	/* CHANGED carries both values */
	c = check_of(r, "STR");
	assert_string_equal(c->requested->value, "requested");
	assert_string_equal(c->final->value, "final");
	assert_string_equal(c->final->file, ".config");
	assert_int_equal(c->final->line, 13);
	c = check_of(r, "DEMOTE");
	assert_int_equal(c->final->kind, KCONFIG_MODULE);
	assert_null(check_of(r, "GONE")->final);
	assert_null(check_of(r, "KEEP_N_ABSENT")->final);
	/* the requested override chain is reachable from the result */
	c = check_of(r, "KEEP_Y");
	assert_int_equal(c->requested->overrides->line, 11);
	assert_int_equal(c->requested->overrides->overrides->line, 1);
	assert_string_equal(c->requested->overrides->overrides->file,
			    "base.config");

	assert_string_equal(kconfig_verdict_to_string(KCONFIG_ABSENT),
			    "ABSENT");
	assert_string_equal(kconfig_verdict_to_string(KCONFIG_VERDICT_MAX),
			    "?");
	assert_int_equal(kconfig_verify(req, NULL, &r), -EINVAL);
}

static void test_verify_empty(void **state)
{
	_cleanup_kconfig_ struct kconfig *a = NULL, *b = NULL;
	_cleanup_kconfig_report_ struct kconfig_report *r = NULL;

	assert_int_equal(kconfig_new(&a), 0);
	b = parse_new(".config", "CONFIG_A=y\n");
	assert_int_equal(kconfig_verify(a, b, &r), 0);
	assert_int_equal(r->n_checks, 0);
	kconfig_report_free(NULL);
	kconfig_free(NULL);
	kconfig_error_done(NULL);
}

/* ------------------------------------------------------------ golden */

static struct kconfig *load_into(struct kconfig *kc, const char *name,
				 int *ret_count)
{
	_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT;
	_cleanup_kconfig_error_ struct kconfig_error err = KCONFIG_ERROR_INIT;
	int r;

	strbuf_addf(&path, KDATA "%s", name);
	if (strbuf_read_file(&buf, path.buf, 0) < 0)
		fail_msg("cannot read %s", path.buf);
	if (!kc)
		assert_int_equal(kconfig_new(&kc), 0);
	r = kconfig_parse(kc, name, buf.buf, buf.len, &err);
	if (r < 0)
		fail_msg("%s: %d %s", name, r, err.msg.buf);
	if (ret_count)
		*ret_count = r;
	return kc;
}

/*
 * The lines of a real file the writer must reproduce: every line except
 * blank ones and comments other than "# CONFIG_X is not set".
 */
static void definition_lines(const char *name, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT;
	char *line, *save = NULL;

	strbuf_addf(&path, KDATA "%s", name);
	assert_true(strbuf_read_file(&buf, path.buf, 0) > 0);
	for (line = strtok_r(buf.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (line[0] == '#' &&
		    (strncmp(line, "# CONFIG_", 9) != 0 || n < 11 ||
		     strcmp(line + n - 11, " is not set") != 0))
			continue;
		strbuf_addstr(out, line);
		strbuf_addch(out, '\n');
	}
}

/* golden counts.txt: "file count" */
static int golden_count(const char *name)
{
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT;
	char *line, *save = NULL;

	assert_true(strbuf_read_file(&buf, KDATA "counts.txt", 0) > 0);
	for (line = strtok_r(buf.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (sp && (size_t)(sp - line) == strlen(name) &&
		    strncmp(line, name, (size_t)(sp - line)) == 0)
			return atoi(sp + 1);
	}
	fail_msg("%s not in counts.txt", name);
	return -1;
}

static void test_golden_parse_and_write(void **state)
{
	static const char *const files[] = {
	    "x86_64_defconfig",
	    "i386_defconfig",
	    "kvm_guest.config",
	    "bootproof-extra.config",
	    "x86_64_defconfig.final.config",
	    "merged.final.config",
	};

	for (size_t i = 0; i < ELEMENTSOF(files); i++) {
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf got = STRBUF_INIT;
		_cleanup_kconfig_ struct kconfig *kc = NULL;
		int count;

		kc = load_into(NULL, files[i], &count);
		assert_int_equal(count, golden_count(files[i]));
		if (strcmp(files[i], "bootproof-extra.config") == 0)
			continue; /* defines LOG_BUF_SHIFT twice */
		assert_int_equal(kconfig_count(kc), (size_t)count);
		definition_lines(files[i], &want);
		for (size_t j = 0; j < kconfig_count(kc); j++)
			kconfig_format_option(&got, kconfig_at(kc, j));
		assert_string_equal(got.buf, want.buf);
	}
}

static void test_golden_facts(void **state)
{
	_cleanup_kconfig_ struct kconfig *def = NULL, *fin = NULL;
	const struct kconfig_option *o;

	def = load_into(NULL, "x86_64_defconfig", NULL);
	fin = load_into(NULL, "x86_64_defconfig.final.config", NULL);
	o = kconfig_find(fin, "CC_VERSION_TEXT");
	assert_non_null(o);
	assert_int_equal(o->kind, KCONFIG_STRING);
	assert_int_equal(o->line, 5);
	o = kconfig_find(fin, "ILLEGAL_POINTER_VALUE");
	assert_int_equal(o->kind, KCONFIG_HEX);
	assert_string_equal(o->value, "0xdead000000000000");
	o = kconfig_find(def, "PRINT_QUOTA_WARNING");
	assert_int_equal(o->kind, KCONFIG_NO);
	assert_null(kconfig_find(fin, "PRINT_QUOTA_WARNING"));
	o = kconfig_find(def, "LOGITECH_FF");
	assert_true(kconfig_value_equal(o, kconfig_find(fin, "LOGITECH_FF")));
}

/* "VERDICT NAME file:line requested V[ final V]" per option not KEPT */
static void report_text(const struct kconfig_report *r, struct strbuf *sb)
{
	for (size_t i = 0; i < r->n_checks; i++) {
		const struct kconfig_check *c = &r->checks[i];

		if (c->verdict == KCONFIG_KEPT)
			continue;
		strbuf_addf(sb, "%s %s %s:%u requested ",
			    kconfig_verdict_to_string(c->verdict),
			    c->requested->name, c->requested->file,
			    c->requested->line);
		kconfig_format_value(sb, c->requested);
		if (c->final) {
			strbuf_addstr(sb, " final ");
			kconfig_format_value(sb, c->final);
		}
		strbuf_addch(sb, '\n');
	}
}

static void verify_golden(const char *const *fragments, size_t n,
			  const char *final, const char *expect)
{
	_cleanup_kconfig_ struct kconfig *req = NULL, *fin = NULL;
	_cleanup_kconfig_report_ struct kconfig_report *r = NULL;
	_cleanup_strbuf_ struct strbuf got = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
	int bad;

	for (size_t i = 0; i < n; i++)
		req = load_into(req, fragments[i], NULL);
	fin = load_into(NULL, final, NULL);
	bad = kconfig_verify(req, fin, &r);
	assert_true(bad >= 0);
	report_text(r, &got);
	strbuf_addf(&path, KDATA "%s", expect);
	assert_true(strbuf_read_file(&want, path.buf, 0) > 0);
	assert_string_equal(got.buf, want.buf);
	assert_int_equal((size_t)bad, r->n_checks - r->count[KCONFIG_KEPT]);
}

static void test_golden_verify_defconfig(void **state)
{
	static const char *const frags[] = {"x86_64_defconfig"};

	verify_golden(frags, 1, "x86_64_defconfig.final.config",
		      "x86_64_defconfig.verify");
}

static void test_golden_verify_merged(void **state)
{
	static const char *const frags[] = {
	    "x86_64_defconfig", "kvm_guest.config", "bootproof-extra.config"};
	_cleanup_kconfig_ struct kconfig *req = NULL;
	_cleanup_strbuf_ struct strbuf chain = STRBUF_INIT;

	verify_golden(frags, ELEMENTSOF(frags), "merged.final.config",
		      "merged.verify");

	/* provenance across the real fragments */
	for (size_t i = 0; i < ELEMENTSOF(frags); i++)
		req = load_into(req, frags[i], NULL);
	chain_text(&chain, kconfig_find(req, "LOG_BUF_SHIFT"));
	assert_string_equal(chain.buf, "bootproof-extra.config:23 17 <- "
				       "bootproof-extra.config:22 16 <- "
				       "x86_64_defconfig:13 18 ");
	strbuf_reset(&chain);
	chain_text(&chain, kconfig_find(req, "VIRTIO_CONSOLE"));
	assert_string_equal(chain.buf, "bootproof-extra.config:9 m <- "
				       "kvm_guest.config:27 y <- "
				       "x86_64_defconfig:184 y ");
}

/* ------------------------------------------------------------ speed */

static double parse_seconds(size_t lines, int *ret_count)
{
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT;
	_cleanup_kconfig_ struct kconfig *kc = NULL;
	struct timespec t0, t1;

	for (size_t i = 0; i < lines; i++)
		strbuf_addf(&buf,
			    i % 3 ? "CONFIG_SYM_%zu_X=y\n"
				  : "# CONFIG_SYM_%zu_X is not set\n",
			    i);
	assert_int_equal(kconfig_new(&kc), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	*ret_count = kconfig_parse(kc, "big.config", buf.buf, buf.len, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(kconfig_count(kc), lines);
	assert_non_null(kconfig_find(kc, "SYM_0_X"));
	assert_non_null(kconfig_find(kc, "CONFIG_SYM_12345_X"));
	return (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

static void test_linear(void **state)
{
	int count;
	double t;

	/*
	 * 200,000 distinct symbols, 20 times a real .config.  A quadratic
	 * parser needs about 2e10 steps for that; a linear one well under a
	 * second even with sanitizers on a loaded machine.
	 */
	t = parse_seconds(200000, &count);
	assert_int_equal(count, 200000);
	if (t > 10.0)
		fail_msg("parsing 200000 lines took %.1f s", t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_line_forms),
	    cmocka_unit_test(test_escapes_like_confdata),
	    cmocka_unit_test(test_crlf),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_error_keeps_set_and_names_buffer),
	    cmocka_unit_test(test_override_in_fragment),
	    cmocka_unit_test(test_merge_fragments),
	    cmocka_unit_test(test_find),
	    cmocka_unit_test(test_value_equal),
	    cmocka_unit_test(test_writer),
	    cmocka_unit_test(test_verify_outcomes),
	    cmocka_unit_test(test_verify_empty),
	    cmocka_unit_test(test_golden_parse_and_write),
	    cmocka_unit_test(test_golden_facts),
	    cmocka_unit_test(test_golden_verify_defconfig),
	    cmocka_unit_test(test_golden_verify_merged),
	    cmocka_unit_test(test_linear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
