// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/lavajob and the QEMU side of core/domxml.  The golden job
 * (tests/data/lava/job-golden.yaml) is checked against LAVA's own schema
 * (lava_common.schemas.validate, strict) by tests/integration/lava.sh,
 * and jobs like it ran under lava-run (tests/data/lava/README.md).
 * BP_UPDATE_GOLDEN=1 rewrites the golden file from the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../scenarios/contract.h"
#include "core/domxml.h"
#include "core/lavajob.h"
#include "core/yamljson.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static const struct domxml_spec guest = {
	.arch = BP_ARCH_X86_64,
	.accel = BP_ACCEL_TCG,
	.cmdline = "console=ttyS0,115200 panic=-1 printk.time=1 root=/dev/vda "
		   "rw init=/bootproof/agent psi=1 bootproof.scenarios=boot,bpf "
		   "bootproof.timeout=120",
};

static const struct lavajob_meta meta[] = {
	{ "bootproof.run", "20261206-041951-demo-3b3e32" },
	{ "bootproof.candidate", "x86_64-all" },
	{ "bootproof.config_hash", "12e4" }, /* a number to YAML, unquoted */
	{ "bootproof.groups", "no" },	     /* a boolean, unquoted */
};

static struct lavajob_spec spec(void)
{
	return (struct lavajob_spec){
		.job_name = "bootproof 20261206-041951-demo-3b3e32 x86_64-all",
		.guest = &guest,
		.kernel = { "http://127.0.0.1:8767/kernels/2117ea14b803f022/bzImage",
			    "2117ea14b803f022a59c45de1b7a69d3a25b23132497286b1f8108cd5a17e0ba" },
		.initrd = { "http://127.0.0.1:8767/initrds/00/initrd.img", NULL },
		.disk = { "http://127.0.0.1:8767/images/root.img", NULL },
		.meta = meta,
		.n_meta = 4,
		.boot_timeout_s = 300,
	};
}

static void test_golden(void **state)
{
	struct lavajob_spec s = spec();
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
	_cleanup_free_ char *yaml = NULL, *path = NULL;
	const char *upd = getenv("BP_UPDATE_GOLDEN");

	assert_int_equal(lavajob_build(&s, &yaml), 0);
	assert_true(asprintf(&path, "%s/lava/job-golden.yaml", TEST_DATA) > 0);
	if (upd && !strcmp(upd, "1")) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(yaml, f);
		fclose(f);
	}
	assert_true(strbuf_read_file(&want, path, 0) >= 0);
	assert_string_equal(yaml, want.buf);
}

/* What the YAML says, read back: the values a lab's LAVA will see. */
static void test_read_back(void **state)
{
	struct lavajob_spec s = spec();
	_cleanup_free_ char *yaml = NULL;
	json_object *j = NULL, *ctx, *acts, *img, *mon, *extra;
	_cleanup_strbuf_ struct strbuf all = STRBUF_INIT;

	assert_int_equal(lavajob_build(&s, &yaml), 0);
	assert_int_equal(yamljson_parse(yaml, strlen(yaml), &j, NULL), 0);
	assert_string_equal(jsonx_str(j, "device_type"), "qemu");
	ctx = jsonx_get(j, "context");
	assert_string_equal(jsonx_str(ctx, "arch"), "x86_64");
	assert_string_equal(jsonx_str(ctx, "memory"), "1024");
	assert_string_equal(jsonx_str(ctx, "netdevice"), "user,restrict=on");
	extra = jsonx_get(ctx, "extra_options");
	for (size_t i = 0; i < json_object_array_length(extra); i++)
		strbuf_addf(&all, "%s|",
			    json_object_get_string(json_object_array_get_idx(extra, i)));
	assert_non_null(strstr(all.buf, "-smp 2|-cpu max|-no-reboot|"));
	assert_non_null(strstr(all.buf, "name=" BP_CHANNEL_NAME "|"));
	assert_non_null(strstr(all.buf, "-device pvpanic|"));
	/* Quoted where YAML would have read a number or a boolean. */
	assert_string_equal(jsonx_str(jsonx_get(j, "metadata"), "bootproof.config_hash"),
			    "12e4");
	assert_non_null(strstr(yaml, "bootproof.config_hash: '12e4'"));
	assert_non_null(strstr(yaml, "bootproof.groups: 'no'"));
	acts = jsonx_get(j, "actions");
	assert_int_equal(json_object_array_length(acts), 3);
	img = jsonx_get(jsonx_get(json_object_array_get_idx(acts, 0), "deploy"), "images");
	assert_string_equal(jsonx_str(jsonx_get(img, "kernel"), "image_arg"),
			    "-kernel {kernel} -append \"console=ttyS0,115200 panic=-1 "
			    "printk.time=1 root=/dev/vda rw init=/bootproof/agent "
			    "psi=1 bootproof.scenarios=boot,bpf bootproof.timeout=120\"");
	assert_string_equal(jsonx_str(jsonx_get(img, "ramdisk"), "image_arg"),
			    "-initrd {ramdisk}");
	assert_string_equal(jsonx_str(jsonx_get(img, "rootfs"), "image_arg"),
			    "-drive format=raw,if=virtio,cache=unsafe,file={rootfs}");
	assert_null(jsonx_get(jsonx_get(img, "rootfs"), "sha256sum"));
	mon = json_object_array_get_idx(
		jsonx_get(jsonx_get(json_object_array_get_idx(acts, 2), "test"),
			  "monitors"), 0);
	assert_string_equal(jsonx_str(mon, "start"), LAVAJOB_MONITOR_START);
	assert_string_equal(jsonx_str(mon, "end"), LAVAJOB_MONITOR_END);
	assert_string_equal(jsonx_str(mon, "pattern"), lavajob_pattern);
	assert_string_equal(jsonx_str(jsonx_get(mon, "fixupdict"), "not ok"), "fail");
	/* The boot action's limit is the monitor's wait for each line. */
	assert_string_equal(jsonx_str(jsonx_get(jsonx_get(json_object_array_get_idx(
							      acts, 1), "boot"),
						  "timeout"), "seconds"), "300");
	json_object_put(j);
}

static void test_refused(void **state)
{
	struct lavajob_spec s = spec();
	struct domxml_spec quoted = guest;
	char name[202];
	char *yaml = NULL;

	s.job_name = "";
	assert_int_equal(lavajob_build(&s, &yaml), -EINVAL);
	memset(name, 'j', 201);
	name[201] = '\0';
	s.job_name = name;
	assert_int_equal(lavajob_build(&s, &yaml), -EINVAL);
	s = spec();
	s.disk.url = NULL;
	assert_int_equal(lavajob_build(&s, &yaml), -EINVAL);
	s = spec();
	s.boot_timeout_s = 0;
	assert_int_equal(lavajob_build(&s, &yaml), -EINVAL);
	/* A command line a shell-like split would change. */
	s = spec();
	quoted.cmdline = "console=ttyS0 bootproof.x=\"a b\"";
	s.guest = &quoted;
	assert_int_equal(lavajob_build(&s, &yaml), -EINVAL);
	quoted.cmdline = "console=ttyS0 x=a\\b";
	assert_int_equal(lavajob_build(&s, &yaml), -EINVAL);
	assert_null(yaml);
}

/* The QEMU options and the domain XML describe one guest. */
static void test_qemu_matches_domain(void **state)
{
	struct domxml_spec g = guest;
	struct domxml_qemu q;
	_cleanup_free_ char *xml = NULL;
	_cleanup_strbuf_ struct strbuf all = STRBUF_INIT;

	g.name = "bootproof-x";
	g.kernel = "K";
	g.disk = "D";
	g.memory_mib = 768;
	g.vcpus = 3;
	assert_int_equal(domxml_build(&g, &xml), 0);
	assert_int_equal(domxml_qemu(&g, &q), 0);
	for (size_t i = 0; i < q.n_opts; i++)
		strbuf_addf(&all, "%s|", q.opts[i]);
	assert_int_equal(q.memory_mib, 768);
	assert_non_null(strstr(xml, "<memory unit=\"MiB\">768</memory>"));
	assert_non_null(strstr(all.buf, "-smp 3|"));
	assert_non_null(strstr(xml, "<vcpu>3</vcpu>"));
	assert_non_null(strstr(all.buf, "-machine " DOMXML_MACHINE "|"));
	assert_non_null(strstr(xml, "machine=\"" DOMXML_MACHINE "\""));
	assert_non_null(strstr(all.buf, "-device virtio-rng-pci|"));
	assert_non_null(strstr(xml, "<rng model=\"virtio\">"));
	assert_non_null(strstr(all.buf, "-device virtconsole,"));
	assert_non_null(strstr(xml, "<target type=\"virtio\" port=\"1\"/>"));
	assert_non_null(strstr(all.buf, "name=" BP_CHANNEL_NAME "|"));
	assert_non_null(strstr(xml, "name=\"" BP_CHANNEL_NAME "\""));
	assert_non_null(strstr(all.buf, "-device pvpanic|"));
	assert_non_null(strstr(xml, "<panic model=\"isa\"/>"));
	assert_non_null(strstr(all.buf, "-no-reboot|"));
	assert_non_null(strstr(xml, "<on_reboot>destroy</on_reboot>"));
	assert_non_null(strstr(q.disk_arg, "if=virtio"));
	assert_non_null(strstr(xml, "bus=\"virtio\""));
	assert_null(q.initrd_arg);
	assert_string_equal(q.opts[q.n_opts - 1], "-device pvpanic");
	assert_null(q.opts[q.n_opts]);
	domxml_qemu_done(&q);
	/* Defaults as the domain's; i386 keeps its TCG CPU model. */
	g.memory_mib = 0;
	g.vcpus = 0;
	g.arch = BP_ARCH_I386;
	assert_int_equal(domxml_qemu(&g, &q), 0);
	assert_int_equal(q.memory_mib, DOMXML_MEMORY_MIB_DEFAULT);
	all.len = 0;
	for (size_t i = 0; i < q.n_opts; i++)
		strbuf_addf(&all, "%s|", q.opts[i]);
	assert_non_null(strstr(all.buf, "-smp 2|-cpu coreduo|"));
	domxml_qemu_done(&q);
	g.kernel = NULL;
	assert_int_equal(domxml_qemu(&g, &q), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_qemu_matches_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
