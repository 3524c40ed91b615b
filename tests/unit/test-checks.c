// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <json-c/json.h>

#include "core/checks.h"

static void test_add_and_find(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	const struct check *c;

	for (int i = 0; i < 20; i++)
		check_list_add(&l, i % 2 ? "odd" : "even", CHECK_OK, false, NULL,
			       "number %d", i);
	assert_int_equal(l.n, 20);
	c = check_list_find(&l, "odd");
	assert_non_null(c);
	assert_string_equal(c->detail, "number 1");
	assert_null(c->fix);
	assert_null(check_list_find(&l, "missing"));
}

static void test_one_line(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	struct check *c;

	c = check_list_add(&l, "kvm", CHECK_WARN, false, "modprobe\tkvm\n",
			   "  first\r\nsecond\n\n\x1b[0mthird  ");
	assert_string_equal(c->detail, "first second [0mthird");
	assert_string_equal(c->fix, "modprobe kvm");
}

static void test_bootable(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;

	assert_true(check_list_bootable(&l));
	check_list_add(&l, "cc-i386", CHECK_FAIL, false, "apt-get install -y gcc-multilib",
		       "no 32-bit libc");
	check_list_add(&l, "kvm", CHECK_WARN, false, NULL, "KVM unusable");
	assert_true(check_list_bootable(&l));
	check_list_add(&l, "libvirt", CHECK_FAIL, true, "libvirtd -d", "down");
	assert_false(check_list_bootable(&l));
}

static void test_splice(void **state)
{
	_cleanup_check_list_ struct check_list a = CHECK_LIST_INIT;
	_cleanup_check_list_ struct check_list b = CHECK_LIST_INIT;

	check_list_add(&a, "a1", CHECK_OK, false, NULL, "x");
	check_list_add(&b, "b1", CHECK_OK, false, NULL, "y");
	check_list_add(&b, "b2", CHECK_FAIL, true, "fix", "z");
	check_list_splice(&a, &b);
	assert_int_equal(a.n, 3);
	assert_int_equal(b.n, 0);
	assert_null(b.v);
	assert_string_equal(a.v[0].name, "a1");
	assert_string_equal(a.v[2].name, "b2");
	assert_string_equal(a.v[2].fix, "fix");
	check_list_splice(&a, &b); /* empty: nothing happens */
	assert_int_equal(a.n, 3);
}

static void fill(struct check_list *l)
{
	check_list_add(l, "qemu-x86_64", CHECK_OK, true, NULL,
		       "QEMU emulator version 7.2.22");
	check_list_add(l, "kvm", CHECK_WARN, false,
		       "modprobe kvm_intel || modprobe kvm_amd",
		       "KVM unusable: no /dev/kvm; using TCG");
	check_list_add(l, "cc-i386", CHECK_FAIL, false,
		       "apt-get install -y gcc-multilib",
		       "cc -static -m32: cannot find -lc");
}

static void test_render_text(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;

	fill(&l);
	check_list_render_text(&l, "tcg", &out);
	assert_string_equal(
		out.buf,
		"ok    qemu-x86_64     QEMU emulator version 7.2.22\n"
		"warn  kvm             KVM unusable: no /dev/kvm; using TCG "
		"| fix: modprobe kvm_intel || modprobe kvm_amd\n"
		"FAIL  cc-i386         cc -static -m32: cannot find -lc "
		"| fix: apt-get install -y gcc-multilib\n"
		"bootable: yes (accelerator: tcg)\n");

	/* A fix is never shown for a check that is ok. */
	strbuf_reset(&out);
	check_list_release(&l);
	check_list_add(&l, "x", CHECK_OK, false, "do this", "fine");
	check_list_add(&l, "libvirt", CHECK_FAIL, true, "libvirtd -d",
		       "libvirt: cannot connect");
	check_list_render_text(&l, NULL, &out);
	assert_string_equal(out.buf,
			    "ok    x               fine\n"
			    "FAIL  libvirt         libvirt: cannot connect "
			    "| fix: libvirtd -d\n"
			    "bootable: no\n");
}

static void test_render_json(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	json_object *root, *checks, *c, *v;

	fill(&l);
	/* A quote and a backslash must survive the round trip. */
	check_list_add(&l, "cache", CHECK_OK, false, NULL,
		       "dir \"a\\b\"");
	assert_int_equal(check_list_render_json(&l, "tcg", &out), 0);
	assert_int_equal(out.buf[out.len - 1], '\n');
	root = json_tokener_parse(out.buf);
	assert_non_null(root);

	assert_true(json_object_object_get_ex(root, "bootable", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(root, "accelerator", &v));
	assert_string_equal(json_object_get_string(v), "tcg");
	assert_true(json_object_object_get_ex(root, "checks", &checks));
	assert_int_equal(json_object_array_length(checks), 4);

	c = json_object_array_get_idx(checks, 1);
	assert_true(json_object_object_get_ex(c, "name", &v));
	assert_string_equal(json_object_get_string(v), "kvm");
	assert_true(json_object_object_get_ex(c, "status", &v));
	assert_string_equal(json_object_get_string(v), "warn");
	assert_true(json_object_object_get_ex(c, "detail", &v));
	assert_string_equal(json_object_get_string(v),
			    "KVM unusable: no /dev/kvm; using TCG");
	assert_true(json_object_object_get_ex(c, "fix", &v));
	assert_string_equal(json_object_get_string(v),
			    "modprobe kvm_intel || modprobe kvm_amd");

	c = json_object_array_get_idx(checks, 0);
	assert_true(json_object_object_get_ex(c, "fix", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(c, "required", &v));
	assert_true(json_object_get_boolean(v));

	c = json_object_array_get_idx(checks, 2);
	assert_true(json_object_object_get_ex(c, "status", &v));
	assert_string_equal(json_object_get_string(v), "fail");

	c = json_object_array_get_idx(checks, 3);
	assert_true(json_object_object_get_ex(c, "detail", &v));
	assert_string_equal(json_object_get_string(v), "dir \"a\\b\"");
	json_object_put(root);

	/* Not bootable: no accelerator is named. */
	strbuf_reset(&out);
	check_list_add(&l, "libvirt", CHECK_FAIL, true, "libvirtd -d", "down");
	assert_int_equal(check_list_render_json(&l, "tcg", &out), 0);
	root = json_tokener_parse(out.buf);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "bootable", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(root, "accelerator", &v));
	assert_null(v);
	json_object_put(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_and_find),
		cmocka_unit_test(test_one_line),
		cmocka_unit_test(test_bootable),
		cmocka_unit_test(test_splice),
		cmocka_unit_test(test_render_text),
		cmocka_unit_test(test_render_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
