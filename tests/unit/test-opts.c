// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootproof.h"
#include "util/opts.h"
#include "util/strbuf.h"

/* The options of a verb much like boot. */
struct vals {
	bool json, verbose, verify;
	const char *kernel, *arch;
	struct opt_list groups;
	unsigned timeout, jobs;
};

static struct vals v;

static const struct opt table[] = {
	OPT_STRING(0, "kernel", &v.kernel, "PATH", "the kernel image"),
	OPT_STRING('a', "arch", &v.arch, "A", "x86_64 or i386\n(default: x86_64)"),
	OPT_LIST('g', "group", &v.groups, "G", "a group; repeatable"),
	OPT_UINT(0, "timeout", &v.timeout, "S", "seconds", 0, 1000000,
		 "whole-boot limit"),
	OPT_UINT('J', "jobs", &v.jobs, "N", "jobs", 1, 1024, "make -jN"),
	OPT_FLAG('j', "json", &v.json, "JSON on stdout"),
	OPT_FLAG('v', "verbose", &v.verbose, "say more"),
	OPT_FLAG(0, "verify", &v.verify, "an option --ver is ambiguous with"),
	OPT_END(),
};

static const struct opts_cmd cmd = {
	.name = "try",
	.synopsis = "bootproof try [options] FILE...\n"
		    "bootproof try --kernel PATH",
	.intro = "Tries things.",
	.epilog = "exit: 0 ok, 2 bad input",
	.opts = table,
	.max_args = 2,
};

static struct strbuf err_text = STRBUF_INIT, out_text = STRBUF_INIT;

/* Parse a NULL-ended argument list (after the verb), capturing what goes
 * to stdout and stderr; argv keeps the permuted list. */
static int parse(char **argv, ...)
{
	FILE *eo = tmpfile(), *oo = tmpfile();
	int save_err = dup(2), save_out = dup(1), argc = 1, r;
	va_list ap;

	assert_non_null(eo);
	assert_non_null(oo);
	memset(&v, 0, sizeof(v));
	argv[0] = (char *)"try";
	va_start(ap, argv);
	for (char *a; (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;

	fflush(stdout);
	fflush(stderr);
	dup2(fileno(eo), 2);
	dup2(fileno(oo), 1);
	r = opts_parse(&cmd, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(save_err, 2);
	dup2(save_out, 1);
	close(save_err);
	close(save_out);

	strbuf_reset(&err_text);
	strbuf_reset(&out_text);
	rewind(eo);
	rewind(oo);
	strbuf_read_fd(&err_text, fileno(eo), 0);
	strbuf_read_fd(&out_text, fileno(oo), 0);
	fclose(eo);
	fclose(oo);
	return r;
}

static void test_flags_and_strings(void **state)
{
	char *argv[16];
	int r = parse(argv, "--json", "-v", "--kernel", "/boot/vmlinuz",
		      "--arch=i386", NULL);

	assert_int_equal(r, 6);
	assert_true(v.json);
	assert_true(v.verbose);
	assert_string_equal(v.kernel, "/boot/vmlinuz");
	assert_string_equal(v.arch, "i386");
	assert_string_equal(err_text.buf, "");

	/* Short forms: bundled flags, a value attached or separate; the
	 * last value of a string option wins. */
	r = parse(argv, "-jv", "-ax86_64", "-a", "i386", NULL);
	assert_int_equal(r, 5);
	assert_true(v.json);
	assert_true(v.verbose);
	assert_string_equal(v.arch, "i386");

	/* Nothing given, nothing stored. */
	r = parse(argv, NULL);
	assert_int_equal(r, 1);
	assert_null(v.arch);
	assert_false(v.json);
}

static void test_abbreviations(void **state)
{
	char *argv[16];

	assert_int_equal(parse(argv, "--verb", "--js", "--ker=k", NULL), 4);
	assert_true(v.verbose);
	assert_true(v.json);
	assert_string_equal(v.kernel, "k");

	/* --ver could be --verbose or --verify. */
	assert_int_equal(opts_exit_code(parse(argv, "--ver", NULL)),
			 BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "try: ambiguous option '--ver'"));
	assert_false(v.verbose);
}

static void test_lists(void **state)
{
	char *argv[16];
	int r = parse(argv, "--group", "bpf", "-g", "mm", "--group=kvm-host",
		      "-gnet", NULL);

	assert_int_equal(r, 7);
	assert_int_equal(v.groups.n, 4);
	assert_string_equal(v.groups.v[0], "bpf");
	assert_string_equal(v.groups.v[1], "mm");
	assert_string_equal(v.groups.v[2], "kvm-host");
	assert_string_equal(v.groups.v[3], "net");
	opt_list_done(&v.groups);
	assert_null(v.groups.v);
	assert_int_equal(v.groups.n, 0);
}

static void test_numbers_and_ranges(void **state)
{
	char *argv[16];
	int r;

	r = parse(argv, "--timeout", "75", "--jobs=1024", NULL);
	assert_int_equal(r, 4);
	assert_int_equal(v.timeout, 75);
	assert_int_equal(v.jobs, 1024);
	assert_int_equal(parse(argv, "--timeout", "0", NULL), 3);
	assert_int_equal(v.timeout, 0);

	r = parse(argv, "--timeout", "x", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf,
			       "bootproof: error: try: --timeout: expected a "
			       "number of seconds, got 'x'\n"));
	/* The usage follows the message. */
	assert_non_null(strstr(err_text.buf, "usage: bootproof try"));

	r = parse(argv, "--timeout", "", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	r = parse(argv, "--timeout", "-1", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	r = parse(argv, "--timeout", "12s", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "got '12s'"));

	r = parse(argv, "--jobs", "0", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf,
			       "try: --jobs: expected 1 to 1024 jobs, got '0'"));
	r = parse(argv, "-J", "1025", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf,
			       "try: -J: expected 1 to 1024 jobs, got '1025'"));
	/* Far beyond unsigned: still out of range, not wrapped around. */
	r = parse(argv, "--timeout", "99999999999999999999999", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "expected 0 to 1000000 seconds"));
}

static void test_missing_argument(void **state)
{
	char *argv[16];
	int r = parse(argv, "--json", "--kernel", NULL);

	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf,
			       "try: --kernel: expected PATH after it"));
	r = parse(argv, "-a", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "try: -a: expected A after it"));
	/* A flag takes no value. */
	r = parse(argv, "--json=yes", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "try: --json takes no value"));
}

static void test_unknown_option(void **state)
{
	char *argv[16];
	int r = parse(argv, "--bogus", NULL);

	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "try: unknown option '--bogus'"));
	assert_string_equal(out_text.buf, "");
	r = parse(argv, "--bogus=1", NULL);
	assert_non_null(strstr(err_text.buf, "try: unknown option '--bogus'"));
	r = parse(argv, "-jx", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "try: unknown option '-x'"));
	r = parse(argv, "--=x", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
}

static void test_help(void **state)
{
	char *argv[16];
	int r = parse(argv, "--json", "--help", "--bogus", NULL);

	assert_int_equal(opts_exit_code(r), BP_EXIT_OK);
	assert_string_equal(err_text.buf, "");
	assert_string_equal(
		out_text.buf,
		"usage: bootproof try [options] FILE...\n"
		"       bootproof try --kernel PATH\n"
		"\n"
		"Tries things.\n"
		"\n"
		"      --kernel PATH      the kernel image\n"
		"  -a, --arch A           x86_64 or i386\n"
		"                         (default: x86_64)\n"
		"  -g, --group G          a group; repeatable\n"
		"      --timeout S        whole-boot limit\n"
		"  -J, --jobs N           make -jN\n"
		"  -j, --json             JSON on stdout\n"
		"  -v, --verbose          say more\n"
		"      --verify           an option --ver is ambiguous with\n"
		"  -h, --help             print this help and exit\n"
		"\n"
		"exit: 0 ok, 2 bad input\n");
	r = parse(argv, "-h", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_OK);
	assert_non_null(strstr(out_text.buf, "usage: bootproof try"));
}

static void test_positional_arguments(void **state)
{
	char *argv[16];
	int r = parse(argv, "a.log", "--json", "b.log", "--kernel", "k", NULL);

	/* Options first, then the positional arguments in their order. */
	assert_int_equal(r, 4);
	assert_string_equal(argv[1], "--json");
	assert_string_equal(argv[2], "--kernel");
	assert_string_equal(argv[3], "k");
	assert_string_equal(argv[4], "a.log");
	assert_string_equal(argv[5], "b.log");
	assert_string_equal(v.kernel, "k");
	assert_true(v.json);

	/* After "--" everything is positional; "-" is one. */
	r = parse(argv, "-", "--", "--json", NULL);
	assert_int_equal(r, 2);
	assert_string_equal(argv[2], "-");
	assert_string_equal(argv[3], "--json");
	assert_false(v.json);

	/* More than max_args. */
	r = parse(argv, "a", "b", "--json", "c", NULL);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(err_text.buf, "try: unexpected argument 'c'"));
}

static const char *must;
static const struct opt required_table[] = {
	OPT_STRING_REQUIRED(0, "kernel", &must, "PATH", "the kernel image"),
	OPT_END(),
};

static void test_required(void **state)
{
	const struct opts_cmd rcmd = {
		.name = "need",
		.synopsis = "bootproof need --kernel PATH",
		.opts = required_table,
		.max_args = 0,
	};
	char *argv[] = { (char *)"need", NULL, NULL, NULL };
	FILE *f = tmpfile();
	_cleanup_strbuf_ struct strbuf usage = STRBUF_INIT;
	int save = dup(2), r;

	/* Missing: an error naming it, exit 2. */
	must = NULL;
	dup2(fileno(f), 2);
	r = opts_parse(&rcmd, 1, argv);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	rewind(f);
	strbuf_read_fd(&usage, fileno(f), 0);
	fclose(f);
	assert_int_equal(opts_exit_code(r), BP_EXIT_USAGE);
	assert_non_null(strstr(usage.buf,
			       "bootproof: error: need: --kernel PATH is "
			       "required\n"));
	/* The usage says so too. */
	assert_non_null(strstr(usage.buf,
			       "      --kernel PATH      the kernel image "
			       "(required)\n"));

	argv[1] = (char *)"--kernel=/boot/vmlinuz";
	assert_int_equal(opts_parse(&rcmd, 2, argv), 2);
	assert_string_equal(must, "/boot/vmlinuz");
}

static int teardown(void **state)
{
	strbuf_release(&err_text);
	strbuf_release(&out_text);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_and_strings),
		cmocka_unit_test(test_abbreviations),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_numbers_and_ranges),
		cmocka_unit_test(test_missing_argument),
		cmocka_unit_test(test_unknown_option),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_positional_arguments),
		cmocka_unit_test(test_required),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
