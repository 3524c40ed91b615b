// SPDX-License-Identifier: GPL-2.0-or-later
/* bootproof doctor: can this host boot guests, and if not, what to do. */
#include "verbs/doctor.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "bootproof.h"
#include "core/arch.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/strbuf.h"

#define QEMU_FIX "apt-get install -y qemu-system-x86"

struct doctor_state {
	const struct hostcheck_ops *ops;
	const struct doctor_opts *o;
	/* Filled by the threads, each its own part. */
	struct check_list qemu, libvirt, cache, cc;
	struct hostcheck_libvirt_info lv;
	struct accel_probe tcg;
	int tcg_err;
};

static void *virt_thread(void *arg)
{
	struct doctor_state *s = arg;
	const struct bp_arch_info *x64 = bp_arch_info(BP_ARCH_X86_64);
	const struct bp_arch_info *x32 = bp_arch_info(BP_ARCH_I386);

	s->ops->qemu(x64->qemu_system, x64->qemu_user, true, &s->qemu);
	s->ops->qemu(x32->qemu_system, x32->qemu_user, false, &s->qemu);
	s->ops->libvirt(s->o->uri, &s->libvirt, &s->lv);
	s->ops->cache(&s->lv, &s->cache);
	return NULL;
}

static void *tcg_thread(void *arg)
{
	struct doctor_state *s = arg;

	s->tcg_err = s->ops->probe_tcg(NULL, &s->tcg);
	return NULL;
}

static void *cc_thread(void *arg)
{
	struct doctor_state *s = arg;

	s->ops->compiler(s->o->cc, &s->cc);
	return NULL;
}

static void secs(long ms, struct strbuf *sb)
{
	strbuf_addf(sb, "%ld.%ld s", ms / 1000, ms % 1000 / 100);
}

static void add_accel_checks(const struct accel_probe *kvm, int kvm_err,
			     const struct accel_probe *tcg, int tcg_err,
			     struct check_list *out, const char **ret_accel)
{
	_cleanup_strbuf_ struct strbuf kr = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf tr = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf fix = STRBUF_INIT;
	bool kvm_ok = !kvm_err && kvm->usable;
	bool tcg_ok = !tcg_err && tcg->usable;
	const char *kfix;

	if (kvm_err)
		strbuf_addf(&kr, "cannot prepare the probe guest: %s",
			    strerror(-kvm_err));
	else
		strbuf_addstr(&kr, kvm->reason);
	if (tcg_err)
		strbuf_addf(&tr, "cannot prepare the probe guest: %s",
			    strerror(-tcg_err));
	else
		strbuf_addstr(&tr, tcg->reason);

	kfix = !kvm_err && kvm->fix[0] ? kvm->fix : NULL;

	if (kvm_ok) {
		_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;

		secs(kvm->elapsed_ms, &t);
		check_list_add(out, "kvm", CHECK_OK, false, NULL,
			       "KVM usable: the probe guest ran in %s", t.buf);
	} else if (tcg_ok) {
		check_list_add(out, "kvm", CHECK_WARN, false, kfix,
			       "KVM unusable: %s; using TCG", kr.buf);
	} else {
		check_list_add(out, "kvm", CHECK_FAIL, false, kfix,
			       "KVM unusable: %s", kr.buf);
	}

	if (tcg_ok) {
		_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;

		secs(tcg->elapsed_ms, &t);
		check_list_add(out, "tcg", CHECK_OK, !kvm_ok, NULL,
			       "TCG runs the probe guest (%s)", t.buf);
	} else {
		strbuf_addstr(&fix, QEMU_FIX);
		if (!tcg_err && tcg->command[0])
			strbuf_addf(&fix, "; then try: %s", tcg->command);
		check_list_add(out, "tcg", CHECK_FAIL, !kvm_ok, fix.buf,
			       "TCG cannot run the probe guest: %s", tr.buf);
	}
	*ret_accel = kvm_ok ? "kvm" : tcg_ok ? "tcg" : NULL;
}

int doctor_run(const struct hostcheck_ops *ops, const struct doctor_opts *o,
	       struct check_list *ret, const char **ret_accel)
{
	struct doctor_state s = { .ops = ops, .o = o };
	_cleanup_check_list_ struct check_list ksrc = CHECK_LIST_INIT;
	_cleanup_check_list_ struct check_list gfs = CHECK_LIST_INIT;
	_cleanup_check_list_ struct check_list accel = CHECK_LIST_INIT;
	struct hostcheck_guestfs *job = NULL;
	struct accel_probe kvm;
	pthread_t th[3];
	bool started[3] = { false, false, false };
	void *(*fns[3])(void *) = { virt_thread, tcg_thread, cc_thread };
	int kvm_err, e;

	/*
	 * Single-threaded still: the KVM probe says whether libguestfs may
	 * try KVM (a broken KVM hangs its appliance), and the libguestfs
	 * launch forks.  Without /dev/kvm the probe returns at once; with a
	 * working KVM it takes a fraction of a second.
	 */
	kvm_err = ops->probe_kvm(NULL, &kvm);
	if (!o->quick) {
		e = ops->guestfs_start(kvm_err || !kvm.usable, &job);
		if (e < 0)
			job = NULL;
	}

	for (size_t i = 0; i < ELEMENTSOF(th); i++)
		started[i] = pthread_create(&th[i], NULL, fns[i], &s) == 0;
	for (size_t i = 0; i < ELEMENTSOF(th); i++)
		if (!started[i])
			fns[i](&s); /* no thread: do it here, slower */

	ops->ksrc(o->ksrc, &ksrc);
	for (size_t i = 0; i < ELEMENTSOF(th); i++)
		if (started[i])
			pthread_join(th[i], NULL);
	add_accel_checks(&kvm, kvm_err, &s.tcg, s.tcg_err, &accel, ret_accel);
	check_list_splice(ret, &s.qemu);
	check_list_splice(ret, &s.libvirt);
	check_list_splice(ret, &accel);
	check_list_splice(ret, &ksrc);
	check_list_splice(ret, &s.cc);
	check_list_splice(ret, &s.cache);
	if (o->early)
		o->early(ret, *ret_accel, o->early_ud);

	if (o->quick)
		check_list_add(&gfs, "libguestfs", CHECK_WARN, false,
			       "bootproof doctor  (without --quick)",
			       "libguestfs launch not checked (--quick)");
	else
		ops->guestfs_finish(job, o->guestfs_timeout_ms
						 ? o->guestfs_timeout_ms
						 : HOSTCHECK_GUESTFS_TIMEOUT_MS,
				    &gfs);
	check_list_splice(ret, &gfs);
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: bootproof doctor [--json] [--connect URI] [--ksrc PATH] [--cc CC]\n"
	      "                        [--quick]\n"
	      "\n"
	      "Check that this host can boot guests: QEMU, libvirt, a usable\n"
	      "accelerator (KVM, decided by running a probe guest, else TCG),\n"
	      "libguestfs, a kernel source, a compiler for static x86_64 and i386\n"
	      "programs, the cache directory.  One line per check with its fix.\n"
	      "\n"
	      "  --json         a JSON document on stdout (logs stay on stderr)\n"
	      "  --connect URI  libvirt URI (default: $LIBVIRT_DEFAULT_URI, else\n"
	      "                 qemu:///system)\n"
	      "  --ksrc PATH    kernel source tree or linux-source tarball\n"
	      "                 (default: " HOSTCHECK_DEFAULT_KSRC ")\n"
	      "  --cc CC        compiler for guest programs (default: cc)\n"
	      "  --quick        skip the libguestfs launch (~15 s under TCG)\n"
	      "\n"
	      "Exit status: 0 a boot is possible, 3 it is not, 2 bad usage.\n",
	      f);
}

/* Text mode: print what is known while libguestfs still boots. */
static void print_early(const struct check_list *done, const char *accel,
			void *ud)
{
	size_t *printed = ud;
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;

	check_list_render_lines(done, 0, &out);
	fwrite(out.buf, 1, out.len, stdout);
	fflush(stdout);
	*printed = done->n;
}

int verb_doctor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "connect", required_argument, NULL, 'c' },
		{ "ksrc", required_argument, NULL, 'k' },
		{ "cc", required_argument, NULL, 'C' },
		{ "quick", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct doctor_opts o = { 0 };
	_cleanup_check_list_ struct check_list checks = CHECK_LIST_INIT;
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	const char *accel = NULL;
	size_t printed = 0;
	bool json = false;
	long long t0;
	int c, e;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jc:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'c':
			o.uri = optarg;
			break;
		case 'k':
			o.ksrc = optarg;
			break;
		case 'C':
			o.cc = optarg;
			break;
		case 'q':
			o.quick = true;
			break;
		case 'h':
			usage(stdout);
			return BP_EXIT_OK;
		default:
			log_error("doctor: unknown or incomplete option '%s'",
				  argv[optind - 1]);
			usage(stderr);
			return BP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		log_error("doctor: unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return BP_EXIT_USAGE;
	}

	if (!o.quick)
		log_info("doctor: checking the host (libguestfs launches an appliance: ~15 s under TCG)");
	if (!json) {
		o.early = print_early;
		o.early_ud = &printed;
	}
	t0 = clock_mono_ms();
	e = doctor_run(&hostcheck_real_ops, &o, &checks, &accel);
	if (e < 0) {
		log_error_errno(e, "doctor: cannot run the checks");
		return BP_EXIT_INFRA;
	}
	log_debug("doctor: done in %lld ms", clock_mono_ms() - t0);

	if (json) {
		e = check_list_render_json(&checks, accel, &out);
		if (e < 0) {
			log_error_errno(e, "doctor: cannot render JSON");
			return BP_EXIT_INFRA;
		}
	} else {
		check_list_render_lines(&checks, printed, &out);
		check_list_render_summary(&checks, accel, &out);
	}
	fwrite(out.buf, 1, out.len, stdout);
	if (fflush(stdout) != 0) {
		log_error_errno(errno, "doctor: cannot write the report");
		return BP_EXIT_INFRA;
	}
	for (size_t i = 0; i < checks.n; i++)
		if (checks.v[i].required && checks.v[i].status == CHECK_FAIL)
			log_error("doctor: no boot possible: %s: %s",
				  checks.v[i].name, checks.v[i].detail);
	return check_list_bootable(&checks) ? BP_EXIT_OK : BP_EXIT_INFRA;
}
