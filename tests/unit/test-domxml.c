// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * domxml against golden XML in tests/data/domxml/.  The golden files were
 * accepted by a real libvirtd (tests/data/domxml/README.md: when and how);
 * every integration boot starts what domxml_build() writes.  BP_UPDATE_GOLDEN=1 rewrites
 * them from the code, to be reviewed with git diff.
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

#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "core/domxml.h"
#include "util/strbuf.h"

static void check_golden(const char *xml, const char *name)
{
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;
	const char *upd = getenv("BP_UPDATE_GOLDEN");

	assert_true(asprintf(&path, "%s/domxml/%s", TEST_DATA, name) > 0);
	if (upd && !strcmp(upd, "1")) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(xml, f);
		fclose(f);
	}
	assert_true(strbuf_read_file(&want, path, 0) >= 0);
	assert_string_equal(xml, want.buf);
}

static const struct domxml_spec full_x86_64 = {
	.name = "bootproof-20261203-101500-x86_64-ab12",
	.arch = BP_ARCH_X86_64,
	.accel = BP_ACCEL_TCG,
	.kernel = "/var/cache/bootproof/runs/r1/vmlinuz",
	.initrd = "/var/cache/bootproof/runs/r1/initrd.img",
	.firmware = "/usr/share/qemu/qboot.rom",
	.cmdline = "console=ttyS0 root=/dev/vda rw init=/bootproof/agent "
		   "bootproof.scenarios=boot,bpf",
	.disk = "/var/cache/bootproof/runs/r1/root.qcow2",
	.kgdb_port = 40123,
	.channel_file = "/var/cache/bootproof/runs/r1/channel.log",
	.serial_log = "/var/cache/bootproof/runs/r1/serial.log",
};

static void test_full_x86_64(void **state)
{
	_cleanup_free_ char *xml = NULL;

	assert_int_equal(domxml_build(&full_x86_64, &xml), 0);
	check_golden(xml, "x86_64-tcg-full.xml");
}

static void test_i386_kvm_minimal(void **state)
{
	struct domxml_spec s = {
		.name = "bp-i386",
		.arch = BP_ARCH_I386,
		.accel = BP_ACCEL_KVM,
		.kernel = "/k/bzImage",
		.memory_mib = 512,
		.vcpus = 1,
		.no_network = true,
	};
	_cleanup_free_ char *xml = NULL;

	assert_int_equal(domxml_build(&s, &xml), 0);
	check_golden(xml, "i386-kvm-minimal.xml");
	assert_non_null(strstr(xml, "qemu-system-i386"));
	assert_non_null(strstr(xml, "host-passthrough"));
	assert_null(strstr(xml, "<initrd>"));
	assert_null(strstr(xml, "<interface"));
	assert_null(strstr(xml, "type=\"tcp\""));
}

/* Under TCG an i386 guest gets an Intel model, not QEMU's "max" (an AMD K7
 * without the MP bit, on which SMP kernels WARN); x86_64 gets "max". */
static void test_tcg_cpu_models(void **state)
{
	struct domxml_spec s = full_x86_64;
	_cleanup_free_ char *x64 = NULL, *x32 = NULL;

	assert_int_equal(domxml_build(&s, &x64), 0);
	assert_non_null(strstr(x64, "<cpu mode=\"maximum\" check=\"none\"/>"));
	assert_null(strstr(x64, "coreduo"));
	s.arch = BP_ARCH_I386;
	assert_int_equal(domxml_build(&s, &x32), 0);
	assert_null(strstr(x32, "maximum"));
	assert_non_null(strstr(x32, "<cpu mode=\"custom\" match=\"exact\" "
				    "check=\"none\">\n    <model "
				    "fallback=\"forbid\">coreduo</model>\n"
				    "  </cpu>"));
	assert_non_null(strstr(x32, "qemu-system-i386"));
}

/* The number of nodes expr selects in doc. */
static int xpath_count(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o;
	int n;

	assert_non_null(ctx);
	o = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	assert_non_null(o);
	n = o->nodesetval ? o->nodesetval->nodeNr : 0;
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(ctx);
	return n;
}

/*
 * q35, and every PCI device on the root complex at a slot of its own:
 * without an address libvirt puts each behind a pcie-root-port of its own.
 */
static void test_pci_on_root_bus(void **state)
{
	static const char *const pci_devices[] = {
		"/domain/devices/disk[target/@bus='virtio']",
		"/domain/devices/interface",
		"/domain/devices/controller[@type='virtio-serial']",
		"/domain/devices/rng",
	};
	_cleanup_free_ char *xml = NULL;
	char expr[256];
	xmlDocPtr doc;

	assert_int_equal(domxml_build(&full_x86_64, &xml), 0);
	doc = xmlReadMemory(xml, (int)strlen(xml), "d.xml", NULL, 0);
	assert_non_null(doc);
	assert_int_equal(xpath_count(doc, "/domain/os/type[@machine='q35']"), 1);
	for (size_t i = 0; i < sizeof(pci_devices) / sizeof(*pci_devices); i++) {
		snprintf(expr, sizeof(expr),
			 "%s/address[@type='pci'][@bus='0x00'][@function='0x0']",
			 pci_devices[i]);
		assert_int_equal(xpath_count(doc, expr), 1);
	}
	assert_int_equal(xpath_count(doc, "//address"), 4);
	/* No two on one slot. */
	assert_int_equal(xpath_count(doc, "//address[@slot = "
				     "following::address/@slot]"), 0);
	xmlFreeDoc(doc);
}

/* Everything the guest's user controls is escaped, never markup. */
static void test_escaping(void **state)
{
	struct domxml_spec s = full_x86_64;
	_cleanup_free_ char *xml = NULL;

	s.cmdline = "a=<b> c=\"&d\" </cmdline><evil/>";
	s.kernel = "/tmp/k&<>.img";
	assert_int_equal(domxml_build(&s, &xml), 0);
	assert_null(strstr(xml, "<evil/>"));
	assert_non_null(strstr(xml, "a=&lt;b&gt; c=&quot;&amp;d&quot; "
				    "&lt;/cmdline&gt;&lt;evil/&gt;"));
	assert_non_null(strstr(xml, "/tmp/k&amp;&lt;&gt;.img"));
}

static void test_invalid(void **state)
{
	struct domxml_spec s = full_x86_64;
	char *xml = NULL;

	assert_int_equal(domxml_build(NULL, &xml), -EINVAL);
	s.name = "";
	assert_int_equal(domxml_build(&s, &xml), -EINVAL);
	s = full_x86_64;
	s.kernel = NULL;
	assert_int_equal(domxml_build(&s, &xml), -EINVAL);
	s = full_x86_64;
	s.arch = (enum bp_arch)7;
	assert_int_equal(domxml_build(&s, &xml), -EINVAL);
	s = full_x86_64;
	s.kgdb_port = 70000;
	assert_int_equal(domxml_build(&s, &xml), -EINVAL);
	s = full_x86_64;
	s.channel_file = "channel.log";
	assert_int_equal(domxml_build(&s, &xml), -EINVAL);
	assert_null(xml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_x86_64),
		cmocka_unit_test(test_i386_kvm_minimal),
		cmocka_unit_test(test_tcg_cpu_models),
		cmocka_unit_test(test_pci_on_root_bus),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
