// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host-testable pure parts of the in-guest agent (scenarios/): the
 * kernel command-line parser and the KTAP line formatter.  They are
 * compiled into this test directly from the agent's sources.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "../../scenarios/cmdline.c"
#include "../../scenarios/ktapfmt.c"

static void test_defaults(void **state)
{
	struct agent_params p;

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p, ""), 0);
	assert_int_equal(p.n_scenarios, 1);
	assert_string_equal(p.scenarios[0], "boot");
	assert_int_equal(p.timeout_s, AGENT_DEFAULT_TIMEOUT);
	assert_string_equal(p.kgdb_port, "");
	assert_int_equal(p.kgdb_wait_s, AGENT_DEFAULT_KGDB_WAIT);
	assert_int_equal(p.cpus, -1);
	assert_int_equal(p.mem_mib, -1);
	assert_false(p.shell);
}

/* The command line the boot harness writes, plus kernel noise. */
static void test_harness_cmdline(void **state)
{
	struct agent_params p;

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p,
		"console=ttyS0,115200 panic=-1 root=/dev/vda rw "
		"init=/bootproof/agent psi=1 "
		"bootproof.scenarios=boot,bpf,cgroups,userfaultfd,kgdb,mm "
		"bootproof.timeout=120 nokaslr bootproof.kgdb=ttyS1 "
		"bootproof.kgdb_wait=60 bootproof.cpus=2 "
		"bootproof.mem_mib=1024\n"), 0);
	assert_int_equal(p.n_scenarios, 6);
	assert_string_equal(p.scenarios[0], "boot");
	assert_string_equal(p.scenarios[2], "cgroups");
	assert_string_equal(p.scenarios[5], "mm");
	assert_int_equal(p.timeout_s, 120);
	assert_string_equal(p.kgdb_port, "ttyS1");
	assert_int_equal(p.kgdb_wait_s, 60);
	assert_int_equal(p.cpus, 2);
	assert_int_equal(p.mem_mib, 1024);
}

/* '-' and '_' are the same in parameter names, as for the kernel. */
static void test_dash_underscore(void **state)
{
	struct agent_params p;

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p, "bootproof.kgdb-wait=5 "
					    "bootproof.mem-mib=256"), 0);
	assert_int_equal(p.kgdb_wait_s, 5);
	assert_int_equal(p.mem_mib, 256);
}

/* Quoting as the kernel's next_arg(): a quoted value keeps its spaces. */
static void test_quotes(void **state)
{
	struct agent_params p;

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p,
		"foo=\"a b c\" bootproof.scenarios=\"bpf,mm\" "
		"\"bootproof.timeout=7\" dyndbg=\"file x +p\""), 0);
	assert_int_equal(p.n_scenarios, 2);
	assert_string_equal(p.scenarios[0], "bpf");
	assert_string_equal(p.scenarios[1], "mm");
	assert_int_equal(p.timeout_s, 7);
}

static void test_bad_values_keep_defaults(void **state)
{
	struct agent_params p;

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p,
		"bootproof.timeout=abc bootproof.timeout=0 "
		"bootproof.timeout=-5 bootproof.kgdb_wait=1x "
		"bootproof.cpus= bootproof.kgdb=/dev/ttyS1 "
		"bootproof.shell=maybe bootproof.frobnicate=1"), 8);
	assert_int_equal(p.timeout_s, AGENT_DEFAULT_TIMEOUT);
	assert_int_equal(p.kgdb_wait_s, AGENT_DEFAULT_KGDB_WAIT);
	assert_int_equal(p.cpus, -1);
	assert_string_equal(p.kgdb_port, "");
	assert_false(p.shell);
	assert_non_null(strstr(p.problems[0], "bootproof.timeout=abc"));
	assert_non_null(strstr(p.problems[5], "bootproof.kgdb=/dev/ttyS1"));
	assert_non_null(strstr(p.problems[7], "bootproof.frobnicate"));
}

static void test_scenario_list_edges(void **state)
{
	struct agent_params p;
	char many[4096];
	size_t len;

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p, "bootproof.scenarios=,,bpf,,"),
			 0);
	assert_int_equal(p.n_scenarios, 1);
	assert_string_equal(p.scenarios[0], "bpf");

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p, "bootproof.scenarios=,"), 1);
	assert_int_equal(p.n_scenarios, 1);
	assert_string_equal(p.scenarios[0], "boot");

	agent_params_init(&p);
	len = (size_t)snprintf(many, sizeof(many), "bootproof.scenarios=");
	for (int i = 0; i < AGENT_MAX_SCENARIOS + 3; i++)
		len += (size_t)snprintf(many + len, sizeof(many) - len, "mm,");
	assert_true(agent_params_parse(&p, many) >= 1);
	assert_int_equal(p.n_scenarios, AGENT_MAX_SCENARIOS);

	/* A name that does not fit is reported, not truncated. */
	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p, "bootproof.scenarios=boot,"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,bpf"), 1);
	assert_int_equal(p.n_scenarios, 2);
	assert_string_equal(p.scenarios[1], "bpf");
}

/* A later value wins, as on the kernel command line. */
static void test_last_wins_and_flags(void **state)
{
	struct agent_params p;

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p, "bootproof.timeout=5 "
		"bootproof.shell bootproof.timeout=9"), 0);
	assert_int_equal(p.timeout_s, 9);
	assert_true(p.shell);
	/* Not ours: other dotted parameters are ignored silently. */
	assert_int_equal(agent_params_parse(&p, "kgdboc.kgdboc=ttyS1 "
		"bootproofx.timeout=3 bootproof=1"), 0);
	assert_int_equal(p.timeout_s, 9);
}

static void test_problem_cap(void **state)
{
	struct agent_params p;
	char line[2048];
	size_t len = 0;

	agent_params_init(&p);
	for (int i = 0; i < 20; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					"bootproof.x=1 ");
	assert_int_equal(agent_params_parse(&p, line), AGENT_MAX_PROBLEMS);
}

static void test_fmt_result(void **state)
{
	char buf[KTAPFMT_LINE_MAX];

	assert_int_equal(ktapfmt_result(buf, sizeof(buf), 0, true, 1, "boot",
					NULL, NULL), 10);
	assert_string_equal(buf, "ok 1 boot\n");
	ktapfmt_result(buf, sizeof(buf), 4, false, 12, "virtio_net", NULL,
		       "ignored without a directive");
	assert_string_equal(buf, "    not ok 12 virtio_net\n");
	ktapfmt_result(buf, sizeof(buf), 4, true, 3, "jit", "SKIP",
		       "JIT disabled");
	assert_string_equal(buf, "    ok 3 jit # SKIP JIT disabled\n");
	ktapfmt_result(buf, sizeof(buf), 0, false, 2, "hang", "TIMEOUT",
		       "60 s");
	assert_string_equal(buf, "not ok 2 hang # TIMEOUT 60 s\n");
	ktapfmt_result(buf, sizeof(buf), 0, true, 2, "a", "SKIP", "");
	assert_string_equal(buf, "ok 2 a # SKIP\n");
	/* '#' cannot be part of a description. */
	ktapfmt_result(buf, sizeof(buf), 0, true, 1, "odd#name", NULL, NULL);
	assert_string_equal(buf, "ok 1 odd_name\n");
}

static void test_fmt_line_is_one_line(void **state)
{
	char buf[64];
	size_t n;

	n = ktapfmt_line(buf, sizeof(buf), 4, "# %s: %s", "chk",
			 "two\nlines\r\tand\x1b[0m");
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, "    # chk: two lines  and [0m\n");
	assert_null(memchr(buf, '\n', n - 1));
}

static void test_fmt_truncation(void **state)
{
	char buf[16], big[100];
	size_t n;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	n = ktapfmt_line(buf, sizeof(buf), 4, "%s", big);
	assert_int_equal(n, 15);
	assert_string_equal(buf, "    xxxxxxxxxx\n");
	/* Indentation larger than the buffer still leaves the newline. */
	n = ktapfmt_line(buf, sizeof(buf), 40, "%s", "y");
	assert_int_equal(n, 15);
	assert_int_equal(buf[14], '\n');
	assert_int_equal(ktapfmt_line(buf, 1, 0, "%s", "z"), 0);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_harness_cmdline),
		cmocka_unit_test(test_dash_underscore),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_bad_values_keep_defaults),
		cmocka_unit_test(test_scenario_list_edges),
		cmocka_unit_test(test_last_wins_and_flags),
		cmocka_unit_test(test_problem_cap),
		cmocka_unit_test(test_fmt_result),
		cmocka_unit_test(test_fmt_line_is_one_line),
		cmocka_unit_test(test_fmt_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
