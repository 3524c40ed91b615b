// SPDX-License-Identifier: GPL-2.0-or-later
/* bootproof doctor: can this host boot guests, and if not, what to do. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bootproof.h"
#include "engine/doctor.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/strbuf.h"

static const char doctor_intro[] =
	"Check that this host can boot guests: QEMU, libvirt, a usable\n"
	"accelerator (KVM, decided by running a probe guest, else TCG),\n"
	"libguestfs, a kernel source, a compiler for static x86_64 and i386\n"
	"programs, the cache directory.  One line per check with its fix.";

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
	struct doctor_opts o = { 0 };
	_cleanup_check_list_ struct check_list checks = CHECK_LIST_INIT;
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	const char *accel = NULL;
	size_t printed = 0;
	bool json = false;
	long long t0;
	int argi, e;
	const struct opt table[] = {
		OPT_FLAG('j', "json", &json,
			 "a JSON document on stdout (logs stay on stderr)"),
		OPT_STRING('c', "connect", &o.uri, "URI",
			   "libvirt URI (default: $LIBVIRT_DEFAULT_URI, else\n"
			   "qemu:///system)"),
		OPT_STRING(0, "ksrc", &o.ksrc, "PATH",
			   "kernel source tree or linux-source tarball\n"
			   "(default: " HOSTCHECK_DEFAULT_KSRC ")"),
		OPT_STRING(0, "cc", &o.cc, "CC",
			   "compiler for guest programs (default: cc)"),
		OPT_FLAG(0, "quick", &o.quick,
			 "skip the libguestfs launch (~15 s under TCG)"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "doctor",
		.synopsis = "bootproof doctor [--json] [--connect URI] "
			    "[--ksrc PATH] [--cc CC] [--quick]",
		.intro = doctor_intro,
		.epilog = "Exit status: 0 a boot is possible, 3 it is not, 2 "
			  "bad usage.",
		.opts = table,
		.max_args = 0,
	};

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);

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
