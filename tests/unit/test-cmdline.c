// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host-agent command-line contract (scenarios/contract.h), end to
 * end: the kernel command line the host builds (boot_cmdline(), the
 * harness's own function) is parsed by the agent's own parser
 * (scenarios/cmdline.c, compiled into this test), and every field the
 * host means to pass must arrive, with nothing reported as a problem.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../scenarios/contract.h"
#include "core/bootargs.h"
#include "core/groups.h"
#include "engine/boot.h"
#include "util/cleanup.h"

#include "../../scenarios/cmdline.c"

/* The host's line for req, parsed by the agent: no problem allowed. */
static void parse_host_line(const struct boot_request *req, int kgdb_port,
			    struct agent_params *p)
{
	_cleanup_free_ char *line = boot_cmdline(req, kgdb_port);
	unsigned problems;

	assert_non_null(line);
	agent_params_init(p);
	problems = agent_params_parse(p, line);
	if (problems)
		fail_msg("'%s': %u problems, first: %s", line, problems,
			 p->problems[0]);
}

static void assert_scenarios(const struct agent_params *p, const char *list)
{
	char want[512];
	unsigned n = 0;

	snprintf(want, sizeof(want), "%s", list);
	for (char *save, *t = strtok_r(want, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		assert_true(n < p->n_scenarios);
		assert_string_equal(p->scenarios[n], t);
		n++;
	}
	assert_int_equal(p->n_scenarios, n);
}

static void test_every_field(void **state)
{
	struct boot_request req = {
		.image = "/x/root.img",
		.scenarios = "boot,bpf,cgroups,userfaultfd,kgdb,mm",
		.scenario_timeout_s = 77,
		.cmdline_extra = "quiet " BP_PARAM_CPUS "=3 "
				 BP_PARAM_MEM_MIB "=1536 " BP_PARAM_SHELL "=1",
	};
	struct agent_params p;

	parse_host_line(&req, 4242, &p);
	assert_scenarios(&p, req.scenarios);
	assert_int_equal(p.timeout_s, 77);
	assert_string_equal(p.kgdb_port, BP_KGDB_TTY);
	assert_int_equal(p.kgdb_wait_s, 60);
	assert_int_equal(p.cpus, 3);
	assert_int_equal(p.mem_mib, 1536);
	assert_true(p.shell);
}

/* bootproof's initramfs finds the root and the agent where the host put
 * them; a later word wins, a quoted value loses its quotes, a value too
 * long for the field is no value. */
static void test_root_and_init(void **state)
{
	struct boot_request req = { .image = "/x/root.img" };
	struct agent_params p;
	char longer[400];

	parse_host_line(&req, 0, &p);
	assert_string_equal(p.root, BP_ROOT_DEV);
	assert_string_equal(p.init, BP_AGENT_PATH);

	agent_params_init(&p);
	assert_int_equal(agent_params_parse(&p, "root=/dev/sda init=/a "
						"\"root=/dev/vdb\" rootwait "
						"initrd=x"),
			 0);
	assert_string_equal(p.root, "/dev/vdb");
	assert_string_equal(p.init, "/a");

	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	memcpy(longer, "init=", 5);
	agent_params_init(&p);
	agent_params_parse(&p, longer);
	assert_string_equal(p.init, "");
	assert_string_equal(p.root, "");
}

/* What the host leaves out, the agent takes as "not given". */
static void test_host_defaults(void **state)
{
	struct boot_request req = { .image = "/x/root.img" };
	struct agent_params p;

	parse_host_line(&req, 0, &p);
	assert_scenarios(&p, "boot");
	assert_int_equal(p.timeout_s, 120);	/* the host's default */
	assert_string_equal(p.kgdb_port, "");	/* kgdb skips */
	assert_int_equal(p.kgdb_wait_s, AGENT_DEFAULT_KGDB_WAIT);
	assert_int_equal(p.cpus, -1);
	assert_int_equal(p.mem_mib, -1);
	assert_false(p.shell);
}

/* Without an image there is no agent: no parameter of its own. */
static void test_no_agent(void **state)
{
	struct boot_request req = { .scenarios = "bpf" };
	_cleanup_free_ char *line = boot_cmdline(&req, 4242);

	assert_null(strstr(line, BP_PARAM_PREFIX));
}

/* Every name the host accepts in --scenarios reaches the agent as it. */
static void test_every_known_scenario(void **state)
{
	const char *const *lists[] = { group_known_scenarios,
				       bootargs_test_scenarios };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char all[512] = "";
	struct boot_request req = { .image = "/x/root.img", .scenarios = all };
	struct agent_params p;
	size_t used = 0;

	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; lists[l][i]; i++)
			used += (size_t)snprintf(all + used, sizeof(all) - used,
						 "%s%s", used ? "," : "",
						 lists[l][i]);
	assert_int_equal(bootargs_check_scenarios(all, &err), 0);
	parse_host_line(&req, 0, &p);
	assert_scenarios(&p, all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field),
		cmocka_unit_test(test_host_defaults),
		cmocka_unit_test(test_root_and_init),
		cmocka_unit_test(test_no_agent),
		cmocka_unit_test(test_every_known_scenario),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
