// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/accel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapters/proc.h"
#include "util/cleanup.h"
#include "util/paths.h"
#include "util/strbuf.h"

void accel_boot_sector(uint8_t buf[512])
{
	/* Real mode, loaded by the BIOS at 0x7c00. */
	static const uint8_t code[] = {
		0xfa,				/* cli */
		0xb0, ACCEL_PROBE_PORT_VALUE,	/* mov al, VALUE */
		0xe6, ACCEL_PROBE_PORT,		/* out PORT, al */
		0xf4,				/* 1: hlt */
		0xeb, 0xfd,			/* jmp 1b */
	};

	memset(buf, 0, 512);
	memcpy(buf, code, sizeof(code));
	buf[510] = 0x55;
	buf[511] = 0xaa;
}

static void set_reason(struct accel_probe *p, const char *s, size_t n)
{
	if (n >= sizeof(p->reason))
		n = sizeof(p->reason) - 1;
	memcpy(p->reason, s, n);
	p->reason[n] = '\0';
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

/*
 * QEMU's first meaningful stderr line, without the "qemu-system-x86_64: "
 * and "error: " prefixes.  Warnings are passed over unless nothing else
 * was said.  Returns false when stderr holds nothing but blanks.
 */
static bool first_meaningful_line(const struct strbuf *err,
				  struct accel_probe *p)
{
	const char *s = err->buf, *end = err->buf + err->len;
	const char *warn = NULL;
	size_t warn_n = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		const char *colon;

		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		/* "qemu-system-x86_64: -accel kvm: ..." */
		colon = memchr(s, ':', (size_t)(e - s));
		if (colon && starts_with(s, (size_t)(e - s), "qemu-system-") &&
		    colon[1] == ' ')
			s = colon + 2;
		if (starts_with(s, (size_t)(e - s), "error: "))
			s += 7;
		if (e > s) {
			if (!starts_with(s, (size_t)(e - s), "warning:")) {
				set_reason(p, s, (size_t)(e - s));
				return true;
			}
			if (!warn) {
				warn = s;
				warn_n = (size_t)(e - s);
			}
		}
		s = nl ? nl + 1 : end;
	}
	if (warn) {
		set_reason(p, warn, warn_n);
		return true;
	}
	return false;
}

/* The probe's verdict from how QEMU ended. */
static void judge(const struct proc_result *r, unsigned timeout_ms,
		  struct accel_probe *p)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	p->elapsed_ms = r->elapsed_ms;
	if (r->timed_out) {
		strbuf_addf(&sb, "probe guest did not finish in %u s",
			    (timeout_ms + 999) / 1000);
		set_reason(p, sb.buf, sb.len);
		return;
	}
	if (r->exited && r->exit_status == ACCEL_PROBE_EXIT) {
		p->usable = true;
		p->reason[0] = '\0';
		return;
	}
	if (first_meaningful_line(&r->err, p))
		return;
	strbuf_addstr(&sb, "qemu ");
	proc_result_describe(r, timeout_ms, &sb);
	if (r->exited && r->exit_status == 0)
		strbuf_addstr(&sb, " before the probe guest ran");
	set_reason(p, sb.buf, sb.len);
}

static int probe(const struct accel_probe_opts *o, bool kvm,
		 struct accel_probe *ret)
{
	const char *qemu = o && o->qemu ? o->qemu : "qemu-system-x86_64";
	const char *tmpdir = o && o->tmpdir ? o->tmpdir : getenv("TMPDIR");
	unsigned timeout = o && o->timeout_ms ? o->timeout_ms
			   : kvm ? ACCEL_KVM_TIMEOUT_MS : ACCEL_TCG_TIMEOUT_MS;
	_cleanup_free_ char *img = NULL;
	_cleanup_strbuf_ struct strbuf drive = STRBUF_INIT;
	_cleanup_(proc_result_release) struct proc_result r = PROC_RESULT_INIT;
	uint8_t sector[512];
	int e;

	*ret = (struct accel_probe){ 0 };
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	img = path_join(tmpdir, "bootproof-probe-XXXXXX");
	{
		_cleanup_close_ int fd = mkostemp(img, O_CLOEXEC);

		if (fd < 0)
			return -errno;
		accel_boot_sector(sector);
		if (write(fd, sector, sizeof(sector)) != (ssize_t)sizeof(sector)) {
			e = errno ? -errno : -EIO;
			unlink(img);
			return e;
		}
	}
	/* A ',' in a -drive value must be doubled. */
	strbuf_addstr(&drive, "file=");
	for (const char *s = img; *s; s++) {
		if (*s == ',')
			strbuf_addch(&drive, ',');
		strbuf_addch(&drive, *s);
	}
	strbuf_addstr(&drive, ",format=raw,if=ide,index=0");

	const char *argv[24];
	size_t n = 0;

	argv[n++] = qemu;
	argv[n++] = "-accel";
	argv[n++] = kvm ? "kvm" : "tcg";
	if (kvm) {
		argv[n++] = "-cpu";
		argv[n++] = "host";
	}
	argv[n++] = "-machine";
	argv[n++] = "pc";
	argv[n++] = "-m";
	argv[n++] = "16";
	argv[n++] = "-nodefaults";
	argv[n++] = "-no-user-config";
	argv[n++] = "-display";
	argv[n++] = "none";
	argv[n++] = "-no-reboot";
	argv[n++] = "-device";
	argv[n++] = "isa-debug-exit,iobase=0xf4,iosize=0x04";
	argv[n++] = "-drive";
	argv[n++] = drive.buf;
	argv[n] = NULL;

	struct proc_cmd cmd = {
		.argv = argv,
		.timeout_ms = timeout,
		.kill_grace_ms = 300,
		.out_max = 4096,
		.err_max = 16384,
	};
	{
		_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

		for (size_t i = 0; argv[i]; i++)
			strbuf_addf(&line, "%s%s", i ? " " : "", argv[i]);
		snprintf(ret->command, sizeof(ret->command), "%s", line.buf);
	}

	e = proc_run(&cmd, &r);
	unlink(img);
	if (e == -ENOENT) {
		snprintf(ret->reason, sizeof(ret->reason), "%s not found", qemu);
		return 0;
	}
	if (e < 0) {
		snprintf(ret->reason, sizeof(ret->reason), "cannot run %s: %s",
			 qemu, strerror(-e));
		return 0;
	}
	judge(&r, timeout, ret);
	return 0;
}

/* No /dev/kvm: does the CPU offer vmx (Intel) or svm (AMD)? */
static void kvm_fix_hint(const struct accel_probe_opts *o,
			 struct accel_probe *p)
{
	const char *path = o && o->cpuinfo ? o->cpuinfo : "/proc/cpuinfo";
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const char *line = NULL;

	if (strbuf_read_file(&sb, path, 16 << 20) >= 0) {
		line = strstr(sb.buf, "\nflags");
		if (!line && !strncmp(sb.buf, "flags", 5))
			line = sb.buf;
	}
	if (line) {
		size_t n = strcspn(line + 1, "\n");
		_cleanup_free_ char *flags = strndup(line + 1, n);

		if (flags) {
			/* "flags\t\t: fpu vme ...": pad for whole-word search */
			_cleanup_strbuf_ struct strbuf w = STRBUF_INIT;

			strbuf_addf(&w, "%s ", flags);
			if (strstr(w.buf, " vmx ")) {
				snprintf(p->fix, sizeof(p->fix),
					 "modprobe kvm_intel  (and enable VT-x in the firmware if it fails)");
				return;
			}
			if (strstr(w.buf, " svm ")) {
				snprintf(p->fix, sizeof(p->fix),
					 "modprobe kvm_amd  (and enable SVM in the firmware if it fails)");
				return;
			}
		}
	}
	snprintf(p->fix, sizeof(p->fix),
		 "none on this host: the CPU offers no hardware virtualisation (no vmx/svm flag; in a VM, enable nested virtualisation on its host); TCG is used (slower)");
}

int accel_probe_kvm(const struct accel_probe_opts *opts,
		    struct accel_probe *ret)
{
	const char *dev = opts && opts->dev_kvm ? opts->dev_kvm : "/dev/kvm";

	int e;

	/* Absence is decisive; presence proves nothing (see accel.h). */
	if (access(dev, F_OK) < 0) {
		*ret = (struct accel_probe){ 0 };
		snprintf(ret->reason, sizeof(ret->reason), "no %s", dev);
		kvm_fix_hint(opts, ret);
		return 0;
	}
	e = probe(opts, true, ret);
	if (e == 0 && !ret->usable)
		snprintf(ret->fix, sizeof(ret->fix),
			 "none on this host: its KVM cannot run an ordinary guest; TCG is used (slower)");
	return e;
}

int accel_probe_tcg(const struct accel_probe_opts *opts,
		    struct accel_probe *ret)
{
	return probe(opts, false, ret);
}
