// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doctor's orchestration with fake host checks: which accelerator it
 * picks, what it tells libguestfs, the KVM line, when a boot is possible,
 * the order of the report.  The real checks run in
 * tests/integration/doctor.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/doctor.h"

static struct {
	/* answers */
	bool libvirt_ok;
	bool kvm_usable, tcg_usable;
	const char *kvm_reason, *kvm_fix;
	int guestfs_start_err;
	/* what was seen */
	int guestfs_force_tcg;
	bool guestfs_job_null;
	const char *uri, *ksrc, *cc;
	bool cache_saw_ids;
} F;

static void f_qemu(const char *binary, const char *name, bool required,
		   struct check_list *out)
{
	check_list_add(out, name, CHECK_OK, required, NULL, "%s 7.2", binary);
}

static void f_libvirt(const char *uri, struct check_list *out,
		      struct hostcheck_libvirt_info *info)
{
	F.uri = uri;
	*info = (struct hostcheck_libvirt_info){ 0 };
	if (!F.libvirt_ok) {
		check_list_add(out, "libvirt", CHECK_FAIL, true, "libvirtd -d",
			       "libvirt: cannot connect");
		return;
	}
	info->connected = info->have_qemu_ids = true;
	info->qemu_uid = 64055;
	check_list_add(out, "libvirt", CHECK_OK, true, NULL, "connected");
	check_list_add(out, "libvirt-x86_64", CHECK_OK, true, NULL, "yes");
}

static int f_probe_kvm(const struct accel_probe_opts *o,
		       struct accel_probe *ret)
{
	*ret = (struct accel_probe){ .usable = F.kvm_usable, .elapsed_ms = 250 };
	if (!F.kvm_usable) {
		snprintf(ret->reason, sizeof(ret->reason), "%s", F.kvm_reason);
		snprintf(ret->fix, sizeof(ret->fix), "%s", F.kvm_fix);
	}
	return 0;
}

static int f_probe_tcg(const struct accel_probe_opts *o,
		       struct accel_probe *ret)
{
	*ret = (struct accel_probe){ .usable = F.tcg_usable, .elapsed_ms = 1400 };
	if (!F.tcg_usable) {
		snprintf(ret->reason, sizeof(ret->reason), "probe guest did not finish in 15 s");
		snprintf(ret->command, sizeof(ret->command), "qemu-system-x86_64 -accel tcg");
	}
	return 0;
}

static int f_guestfs_start(bool force_tcg, struct hostcheck_guestfs **ret)
{
	F.guestfs_force_tcg = force_tcg;
	if (F.guestfs_start_err)
		return F.guestfs_start_err;
	*ret = (struct hostcheck_guestfs *)&F; /* any non-NULL token */
	return 0;
}

static void f_guestfs_finish(struct hostcheck_guestfs *job, unsigned timeout_ms,
			     struct check_list *out)
{
	F.guestfs_job_null = !job;
	assert_int_equal(timeout_ms, HOSTCHECK_GUESTFS_TIMEOUT_MS);
	check_list_add(out, "libguestfs", job ? CHECK_OK : CHECK_FAIL, false,
		       NULL, "launched");
}

static void f_ksrc(const char *path, struct check_list *out)
{
	F.ksrc = path;
	check_list_add(out, "kernel-source", CHECK_OK, false, NULL, "there");
}

static void f_compiler(const char *cc, struct check_list *out)
{
	F.cc = cc;
	check_list_add(out, "cc-x86_64", CHECK_OK, false, NULL, "links");
	check_list_add(out, "cc-i386", CHECK_FAIL, false, "apt-get install -y gcc-multilib", "no");
}

static void f_cache(const struct hostcheck_libvirt_info *lv,
		    struct check_list *out)
{
	/* Runs after the libvirt check, and sees what it learnt. */
	F.cache_saw_ids = lv->have_qemu_ids && lv->qemu_uid == 64055;
	check_list_add(out, "cache", CHECK_OK, false, NULL, "writable");
}

static const struct hostcheck_ops fake_ops = {
	.qemu = f_qemu,
	.libvirt = f_libvirt,
	.probe_kvm = f_probe_kvm,
	.probe_tcg = f_probe_tcg,
	.guestfs_start = f_guestfs_start,
	.guestfs_finish = f_guestfs_finish,
	.ksrc = f_ksrc,
	.compiler = f_compiler,
	.cache = f_cache,
};

static int setup(void **state)
{
	memset(&F, 0, sizeof(F));
	F.libvirt_ok = true;
	F.tcg_usable = true;
	F.kvm_reason = "no /dev/kvm";
	F.kvm_fix = "modprobe kvm_intel";
	F.guestfs_force_tcg = -1;
	return 0;
}

struct early_seen {
	int calls;
	size_t n;
	int guestfs_finished_before;
	const char *accel;
};

static void record_early(const struct check_list *done, const char *accel,
			 void *ud)
{
	struct early_seen *e = ud;

	e->calls++;
	e->n = done->n;
	e->accel = accel;
	e->guestfs_finished_before = check_list_find(done, "libguestfs") != NULL;
}

static void test_tcg_host(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	const char *accel = "unset";
	const struct check *c;
	struct early_seen early = { 0 };
	struct doctor_opts o = { .uri = "test:///default", .ksrc = "/k",
				 .cc = "clang" };
	static const char *const order[] = {
		"qemu-x86_64", "qemu-i386", "libvirt", "libvirt-x86_64", "kvm",
		"tcg", "kernel-source", "cc-x86_64", "cc-i386", "cache",
		"libguestfs",
	};

	o.early = record_early;
	o.early_ud = &early;
	assert_int_equal(doctor_run(&fake_ops, &o, &l, &accel), 0);
	assert_string_equal(accel, "tcg");
	assert_true(check_list_bootable(&l));
	/* Everything but libguestfs was handed over before libguestfs was
	 * waited for: the KVM verdict shows at once. */
	assert_int_equal(early.calls, 1);
	assert_int_equal(early.n, ELEMENTSOF(order) - 1);
	assert_int_equal(early.guestfs_finished_before, 0);
	assert_string_equal(early.accel, "tcg");
	/* KVM unusable: libguestfs must not try it. */
	assert_int_equal(F.guestfs_force_tcg, 1);
	assert_false(F.guestfs_job_null);
	assert_string_equal(F.uri, "test:///default");
	assert_string_equal(F.ksrc, "/k");
	assert_string_equal(F.cc, "clang");
	assert_true(F.cache_saw_ids);

	assert_int_equal(l.n, ELEMENTSOF(order));
	for (size_t i = 0; i < ELEMENTSOF(order); i++)
		assert_string_equal(l.v[i].name, order[i]);

	c = check_list_find(&l, "kvm");
	assert_int_equal(c->status, CHECK_WARN);
	assert_false(c->required);
	assert_string_equal(c->detail, "KVM unusable: no /dev/kvm; using TCG");
	assert_non_null(strstr(c->fix, "modprobe kvm_intel"));
	c = check_list_find(&l, "tcg");
	assert_int_equal(c->status, CHECK_OK);
	assert_true(c->required);
	assert_string_equal(c->detail, "TCG runs the probe guest (1.4 s)");

	check_list_render_text(&l, accel, &text);
	assert_non_null(strstr(text.buf, "\nwarn  kvm             KVM unusable: no /dev/kvm; using TCG | fix: "));
	assert_non_null(strstr(text.buf, "\nbootable: yes (accelerator: tcg)\n"));
}

static void test_broken_kvm(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	const char *accel = NULL;
	struct doctor_opts o = { 0 };
	const struct check *c;

	F.kvm_reason = "failed to set MSR 0x10a to 0x69";
	F.kvm_fix = "none on this host";
	assert_int_equal(doctor_run(&fake_ops, &o, &l, &accel), 0);
	assert_string_equal(accel, "tcg");
	assert_int_equal(F.guestfs_force_tcg, 1);
	assert_null(F.uri);
	c = check_list_find(&l, "kvm");
	assert_string_equal(c->detail,
			    "KVM unusable: failed to set MSR 0x10a to 0x69; using TCG");
	assert_string_equal(c->fix, "none on this host");
}

static void test_kvm_host(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	const char *accel = NULL;
	struct doctor_opts o = { 0 };
	const struct check *c;

	F.kvm_usable = true;
	F.tcg_usable = false;
	assert_int_equal(doctor_run(&fake_ops, &o, &l, &accel), 0);
	assert_string_equal(accel, "kvm");
	/* KVM works: libguestfs may use it. */
	assert_int_equal(F.guestfs_force_tcg, 0);
	c = check_list_find(&l, "kvm");
	assert_int_equal(c->status, CHECK_OK);
	assert_string_equal(c->detail, "KVM usable: the probe guest ran in 0.2 s");
	/* TCG failing does not matter when KVM works. */
	c = check_list_find(&l, "tcg");
	assert_int_equal(c->status, CHECK_FAIL);
	assert_false(c->required);
	assert_non_null(strstr(c->fix, "then try: qemu-system-x86_64 -accel tcg"));
	assert_true(check_list_bootable(&l));
}

static void test_no_accelerator(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	const char *accel = "unset";
	struct doctor_opts o = { 0 };
	const struct check *c;

	F.tcg_usable = false;
	assert_int_equal(doctor_run(&fake_ops, &o, &l, &accel), 0);
	assert_null(accel);
	c = check_list_find(&l, "kvm");
	assert_int_equal(c->status, CHECK_FAIL);
	assert_string_equal(c->detail, "KVM unusable: no /dev/kvm");
	c = check_list_find(&l, "tcg");
	assert_true(c->required);
	assert_string_equal(c->detail,
			    "TCG cannot run the probe guest: probe guest did not finish in 15 s");
	assert_false(check_list_bootable(&l));
}

static void test_no_libvirt(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	const char *accel = NULL;
	struct doctor_opts o = { .uri = "qemu+unix:///system?socket=/nonexistent" };

	F.libvirt_ok = false;
	assert_int_equal(doctor_run(&fake_ops, &o, &l, &accel), 0);
	assert_false(check_list_bootable(&l));
	assert_null(check_list_find(&l, "libvirt-x86_64"));
	assert_false(F.cache_saw_ids);
}

static void test_guestfs_fork_fails(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	const char *accel = NULL;
	struct doctor_opts o = { 0 };

	F.guestfs_start_err = -EAGAIN;
	assert_int_equal(doctor_run(&fake_ops, &o, &l, &accel), 0);
	assert_true(F.guestfs_job_null);
	assert_int_equal(check_list_find(&l, "libguestfs")->status, CHECK_FAIL);
	/* libguestfs is not needed to boot. */
	assert_true(check_list_bootable(&l));
}

static void test_quick(void **state)
{
	_cleanup_check_list_ struct check_list l = CHECK_LIST_INIT;
	const char *accel = NULL;
	struct doctor_opts o = { .quick = true };
	const struct check *c;

	assert_int_equal(doctor_run(&fake_ops, &o, &l, &accel), 0);
	/* Never forked, never waited for. */
	assert_int_equal(F.guestfs_force_tcg, -1);
	assert_false(F.guestfs_job_null);
	c = check_list_find(&l, "libguestfs");
	assert_int_equal(c->status, CHECK_WARN);
	assert_string_equal(c->detail, "libguestfs launch not checked (--quick)");
	assert_string_equal(accel, "tcg");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_tcg_host, setup),
		cmocka_unit_test_setup(test_broken_kvm, setup),
		cmocka_unit_test_setup(test_kvm_host, setup),
		cmocka_unit_test_setup(test_no_accelerator, setup),
		cmocka_unit_test_setup(test_no_libvirt, setup),
		cmocka_unit_test_setup(test_guestfs_fork_fails, setup),
		cmocka_unit_test_setup(test_quick, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
