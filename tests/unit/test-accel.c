// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The accelerator probe, with QEMU replaced by the proc dry-run hook: the
 * hook checks the command the probe would run (and the boot sector file it
 * points at) and hands back how QEMU ended on hosts we have seen.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapters/accel.h"
#include "adapters/proc.h"
#include "engine/guesthost.h"

struct fake {
	int calls;
	/* what to answer */
	int ret;
	bool exited, timed_out;
	int status, sig;
	const char *err;
	/* what was seen */
	char argv[1024];
	char drive[512];
	unsigned timeout_ms;
	bool sector_ok;
};

static int fake_run(const struct proc_cmd *cmd, struct proc_result *ret,
		    void *opaque)
{
	struct fake *f = opaque;
	_cleanup_strbuf_ struct strbuf file = STRBUF_INIT;
	uint8_t want[512];

	f->calls++;
	f->timeout_ms = cmd->timeout_ms;
	f->argv[0] = '\0';
	for (size_t i = 0; cmd->argv[i]; i++) {
		strncat(f->argv, cmd->argv[i], sizeof(f->argv) - strlen(f->argv) - 2);
		strncat(f->argv, " ", sizeof(f->argv) - strlen(f->argv) - 1);
		if (!strcmp(cmd->argv[i], "-drive") && cmd->argv[i + 1])
			snprintf(f->drive, sizeof(f->drive), "%s",
				 cmd->argv[i + 1]);
	}
	/* The drive is a real file holding the boot sector, now. */
	if (!strncmp(f->drive, "file=", 5)) {
		char path[512];

		snprintf(path, sizeof(path), "%.*s",
			 (int)strcspn(f->drive + 5, ","), f->drive + 5);
		accel_boot_sector(want);
		f->sector_ok = strbuf_read_file(&file, path, 4096) == 512 &&
			       !memcmp(file.buf, want, 512);
		snprintf(f->drive, sizeof(f->drive), "%s", path);
	}
	if (f->ret < 0)
		return f->ret;
	ret->exited = f->exited;
	ret->exit_status = f->status;
	ret->term_signal = f->sig;
	ret->timed_out = f->timed_out;
	ret->elapsed_ms = 123;
	if (f->err)
		strbuf_addstr(&ret->err, f->err);
	return 0;
}

static const struct accel_probe_opts with_kvm = { .dev_kvm = "/dev/null" };

static void probe_kvm(struct fake *f, struct accel_probe *p)
{
	proc_set_dry_run(fake_run, f);
	assert_int_equal(accel_probe_kvm(&with_kvm, p), 0);
	proc_set_dry_run(NULL, NULL);
}

static void test_boot_sector(void **state)
{
	uint8_t b[512];

	accel_boot_sector(b);
	assert_int_equal(b[510], 0x55);
	assert_int_equal(b[511], 0xaa);
	/* mov al, imm8; out imm8, al: the value and port QEMU is set up
	 * with, and the exit status the probe waits for follows from it. */
	assert_int_equal(b[1], 0xb0);
	assert_int_equal(b[3], 0xe6);
	assert_int_equal(b[4], ACCEL_PROBE_PORT);
	assert_int_equal((b[2] << 1) | 1, ACCEL_PROBE_EXIT);
	/* Then halt forever: hlt; jmp back to it. */
	assert_int_equal(b[5], 0xf4);
	assert_int_equal(b[6], 0xeb);
	assert_int_equal((int8_t)b[7], -3);
	for (size_t i = 8; i < 510; i++)
		assert_int_equal(b[i], 0);
}

static void test_no_dev_kvm(void **state)
{
	struct fake f = { .exited = true, .status = ACCEL_PROBE_EXIT };
	struct accel_probe p;
	struct accel_probe_opts o = { .dev_kvm = "/nonexistent/kvm" };

	proc_set_dry_run(fake_run, &f);
	assert_int_equal(accel_probe_kvm(&o, &p), 0);
	proc_set_dry_run(NULL, NULL);
	assert_false(p.usable);
	assert_string_equal(p.reason, "no /nonexistent/kvm");
	assert_int_equal(f.calls, 0);
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

static void test_no_dev_kvm_hint(void **state)
{
	char path[] = "/tmp/bp-test-cpuinfo-XXXXXX";
	struct accel_probe p;
	struct accel_probe_opts o = { .dev_kvm = "/nonexistent/kvm",
				      .cpuinfo = path };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_file(path, "processor\t: 0\nflags\t\t: fpu vme de vmx pse\n\n"
			 "processor\t: 1\nflags\t\t: fpu vme de vmx pse\n");
	assert_int_equal(accel_probe_kvm(&o, &p), 0);
	assert_false(p.usable);
	assert_non_null(strstr(p.fix, "modprobe kvm_intel"));

	write_file(path, "processor\t: 0\nflags\t\t: fpu svm\n");
	assert_int_equal(accel_probe_kvm(&o, &p), 0);
	assert_non_null(strstr(p.fix, "modprobe kvm_amd"));

	/* A guest without nested virtualisation ("svmx" is no flag). */
	write_file(path, "processor\t: 0\nflags\t\t: fpu svmx hypervisor\n");
	assert_int_equal(accel_probe_kvm(&o, &p), 0);
	assert_null(strstr(p.fix, "modprobe"));
	assert_non_null(strstr(p.fix, "no vmx/svm flag"));
	unlink(path);
}

static void test_kvm_works(void **state)
{
	struct fake f = { .exited = true, .status = ACCEL_PROBE_EXIT };
	struct accel_probe p;

	probe_kvm(&f, &p);
	assert_int_equal(f.calls, 1);
	assert_true(p.usable);
	assert_string_equal(p.reason, "");
	assert_int_equal(p.elapsed_ms, 123);
	assert_non_null(strstr(f.argv, "qemu-system-x86_64 -accel kvm -cpu host "));
	assert_non_null(strstr(f.argv, " -device isa-debug-exit,iobase=0xf4,iosize=0x04 "));
	assert_non_null(strstr(p.command, "-accel kvm -cpu host"));
	assert_int_equal(f.timeout_ms, ACCEL_KVM_TIMEOUT_MS);
	assert_true(f.sector_ok);
	/* The temporary boot sector is gone afterwards. */
	assert_int_equal(access(f.drive, F_OK), -1);
}

static void test_kvm_msr_abort(void **state)
{
	/* A paravirtual KVM: -cpu host makes QEMU abort. */
	struct fake f = {
		.sig = SIGABRT,
		.err = "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69\n"
		       "qemu-system-x86_64: ../target/i386/kvm/kvm.c:3870: "
		       "kvm_buf_set_msrs: Assertion `ret == cpu->kvm_msr_buf->nmsrs' failed.\n",
	};
	struct accel_probe p;

	probe_kvm(&f, &p);
	assert_false(p.usable);
	assert_string_equal(p.reason, "failed to set MSR 0x10a to 0x69");
	assert_non_null(strstr(p.fix, "its KVM cannot run an ordinary guest"));
}

static void test_kvm_hangs(void **state)
{
	struct fake f = { .timed_out = true, .sig = SIGTERM };
	struct accel_probe p;

	probe_kvm(&f, &p);
	assert_false(p.usable);
	assert_string_equal(p.reason, "probe guest did not finish in 3 s");
}

static void test_kvm_no_permission(void **state)
{
	struct fake f = {
		.exited = true,
		.status = 1,
		.err = "qemu-system-x86_64: warning: host doesn't support requested feature: CPUID.80000001H:ECX.svm [bit 2]\n"
		       "\n"
		       "Could not access KVM kernel module: Permission denied\n"
		       "qemu-system-x86_64: -accel kvm: failed to initialize kvm: Permission denied\n",
	};
	struct accel_probe p;

	probe_kvm(&f, &p);
	assert_false(p.usable);
	assert_string_equal(p.reason,
			    "Could not access KVM kernel module: Permission denied");

	/* Only a warning said anything: the warning is the reason. */
	f.err = "qemu-system-x86_64: warning: something odd\n";
	probe_kvm(&f, &p);
	assert_string_equal(p.reason, "warning: something odd");

	/* Nothing said at all. */
	f.err = NULL;
	probe_kvm(&f, &p);
	assert_string_equal(p.reason, "qemu exit status 1");

	/* Exit 0: the guest never reached the debug-exit port. */
	f.status = 0;
	probe_kvm(&f, &p);
	assert_false(p.usable);
	assert_string_equal(p.reason, "qemu exit status 0 before the probe guest ran");
}

static void test_qemu_missing(void **state)
{
	struct fake f = { .ret = -ENOENT };
	struct accel_probe p;

	probe_kvm(&f, &p);
	assert_false(p.usable);
	assert_string_equal(p.reason, "qemu-system-x86_64 not found");
	assert_int_equal(access(f.drive, F_OK), -1);
}

static void test_tcg(void **state)
{
	struct fake f = { .exited = true, .status = ACCEL_PROBE_EXIT };
	struct accel_probe p;
	struct accel_probe_opts o = { .qemu = "/opt/q/qemu", .timeout_ms = 777 };

	proc_set_dry_run(fake_run, &f);
	assert_int_equal(accel_probe_tcg(&o, &p), 0);
	proc_set_dry_run(NULL, NULL);
	assert_true(p.usable);
	assert_non_null(strstr(f.argv, "/opt/q/qemu -accel tcg -machine pc "));
	assert_null(strstr(f.argv, "-cpu host"));
	assert_int_equal(f.timeout_ms, 777);
	assert_true(f.sector_ok);

	f.timed_out = true;
	proc_set_dry_run(fake_run, &f);
	assert_int_equal(accel_probe_tcg(&o, &p), 0);
	proc_set_dry_run(NULL, NULL);
	assert_false(p.usable);
	assert_string_equal(p.reason, "probe guest did not finish in 1 s");
}

static void test_tmpdir_unwritable(void **state)
{
	struct fake f = { .exited = true, .status = ACCEL_PROBE_EXIT };
	struct accel_probe p;
	struct accel_probe_opts o = { .tmpdir = "/nonexistent/dir" };

	proc_set_dry_run(fake_run, &f);
	assert_int_equal(accel_probe_tcg(&o, &p), -ENOENT);
	proc_set_dry_run(NULL, NULL);
	assert_int_equal(f.calls, 0);
}

/* Each mode with a KVM that works, one that hangs, and a bad mode. */
static void test_choose(void **state)
{
	static const struct fake works = { .exited = true,
					   .status = ACCEL_PROBE_EXIT };
	static const struct fake hangs = { .timed_out = true, .sig = SIGTERM };
	static const struct {
		const char *mode;
		const struct fake *kvm;
		int ret;
		enum bp_accel accel;
		const char *reason;
		int probes;
	} cases[] = {
		/* No probe guest for TCG. */
		{ "tcg", &works, 0, BP_ACCEL_TCG, "TCG requested", 0 },
		{ "auto", &works, 0, BP_ACCEL_KVM,
		  "KVM probe guest ran in 123 ms", 1 },
		{ "kvm", &works, 0, BP_ACCEL_KVM,
		  "KVM probe guest ran in 123 ms", 1 },
		/* auto falls back and says why, kvm does not. */
		{ "auto", &hangs, 0, BP_ACCEL_TCG,
		  "KVM unusable: probe guest did not finish in 3 s; using TCG",
		  1 },
		{ "kvm", &hangs, -ENODEV, BP_ACCEL_TCG,
		  "--accel kvm: KVM unusable: probe guest did not finish in 3 s",
		  1 },
		{ "KVM", &works, -EINVAL, BP_ACCEL_TCG,
		  "--accel KVM: expected auto, kvm or tcg", 0 },
	};

	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		struct fake f = *cases[i].kvm;
		enum bp_accel a = BP_ACCEL_TCG;
		char why[GUESTHOST_REASON_MAX];
		int r;

		proc_set_dry_run(fake_run, &f);
		r = guesthost_accel(cases[i].mode, &with_kvm, &a, why,
				    sizeof(why));
		proc_set_dry_run(NULL, NULL);
		assert_int_equal(r, cases[i].ret);
		assert_string_equal(why, cases[i].reason);
		if (!r)
			assert_int_equal(a, cases[i].accel);
		assert_int_equal(f.calls, cases[i].probes);
	}
}

static void test_uri_default(void **state)
{
	assert_int_equal(setenv("LIBVIRT_DEFAULT_URI", "test:///default", 1),
			 0);
	assert_string_equal(guesthost_uri("qemu:///session"),
			    "qemu:///session");
	assert_string_equal(guesthost_uri(NULL), "test:///default");
	setenv("LIBVIRT_DEFAULT_URI", "", 1);
	assert_string_equal(guesthost_uri(NULL), "qemu:///system");
	assert_string_equal(guesthost_uri(""), "qemu:///system");
	unsetenv("LIBVIRT_DEFAULT_URI");
	assert_string_equal(guesthost_uri(NULL), "qemu:///system");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_sector),
		cmocka_unit_test(test_no_dev_kvm),
		cmocka_unit_test(test_no_dev_kvm_hint),
		cmocka_unit_test(test_kvm_works),
		cmocka_unit_test(test_kvm_msr_abort),
		cmocka_unit_test(test_kvm_hangs),
		cmocka_unit_test(test_kvm_no_permission),
		cmocka_unit_test(test_qemu_missing),
		cmocka_unit_test(test_tcg),
		cmocka_unit_test(test_tmpdir_unwritable),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_uri_default),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
