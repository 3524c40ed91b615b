// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/doctor.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/arch.h"
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
