// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/domxml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "../scenarios/contract.h"
#include "core/xmlout.h"
#include "util/cleanup.h"
#include "util/xalloc.h"

/* The writer functions return < 0 on failure; count failures once. */
struct w {
	xmlTextWriterPtr x;
	int bad;
};

static void start(struct w *w, const char *el)
{
	if (xmlTextWriterStartElement(w->x, BAD_CAST el) < 0)
		w->bad = 1;
}

static void end(struct w *w)
{
	if (xmlTextWriterEndElement(w->x) < 0)
		w->bad = 1;
}

static void attr(struct w *w, const char *name, const char *val)
{
	if (xmlTextWriterWriteAttribute(w->x, BAD_CAST name, BAD_CAST val) < 0)
		w->bad = 1;
}

static void text_el(struct w *w, const char *el, const char *text)
{
	if (xmlTextWriterWriteElement(w->x, BAD_CAST el, BAD_CAST text) < 0)
		w->bad = 1;
}

static void empty_el(struct w *w, const char *el, const char *a1,
		     const char *v1)
{
	start(w, el);
	if (a1)
		attr(w, a1, v1);
	end(w);
}

/*
 * Every PCI device of the guest on the root complex, at a slot of its own
 * (one list: domxml_qemu places them the same way).  On q35, libvirt would
 * otherwise put each behind a pcie-root-port of its own, a hotplug bridge
 * the kernel probes as well.
 */
enum pci_slot {
	SLOT_DISK = 2,
	SLOT_NET,
	SLOT_SERIAL,	/* virtio-serial: hvc0 and the agent's channel */
	SLOT_RNG,
};

static void pci_address(struct w *w, enum pci_slot slot)
{
	char num[8];

	snprintf(num, sizeof(num), "0x%02x", (unsigned)slot);
	start(w, "address");
	attr(w, "type", "pci");
	attr(w, "domain", "0x0000");
	attr(w, "bus", "0x00");
	attr(w, "slot", num);
	attr(w, "function", "0x0");
	end(w);
}

static void devices(struct w *w, const struct domxml_spec *s,
		    const char *emulator)
{
	char port[16];

	start(w, "devices");
	text_el(w, "emulator", emulator);

	if (s->disk) {
		start(w, "disk");
		attr(w, "type", "file");
		attr(w, "device", "disk");
		start(w, "driver");
		attr(w, "name", "qemu");
		attr(w, "type", "qcow2");
		attr(w, "cache", "unsafe");
		end(w);
		empty_el(w, "source", "file", s->disk);
		start(w, "target");
		attr(w, "dev", "vda");
		attr(w, "bus", "virtio");
		end(w);
		pci_address(w, SLOT_DISK);
		end(w);
	}

	if (!s->no_network) {
		/* A tap attached to nothing: the guest has a working NIC
		 * and can reach neither the host nor beyond. */
		start(w, "interface");
		attr(w, "type", "ethernet");
		empty_el(w, "model", "type", "virtio");
		pci_address(w, SLOT_NET);
		end(w);
	}

	/* libvirt adds a USB controller to a machine unless told. */
	start(w, "controller");
	attr(w, "type", "usb");
	attr(w, "model", "none");
	end(w);
	start(w, "controller");
	attr(w, "type", "virtio-serial");
	attr(w, "index", "0");
	pci_address(w, SLOT_SERIAL);
	end(w);

	/* ttyS0: the console, read through virDomainOpenConsole. */
	start(w, "serial");
	attr(w, "type", "pty");
	if (s->serial_log) {
		start(w, "log");
		attr(w, "file", s->serial_log);
		attr(w, "append", "off");
		end(w);
	}
	empty_el(w, "target", "port", "0");
	end(w);

	if (s->kgdb_port > 0) {
		snprintf(port, sizeof(port), "%d", s->kgdb_port);
		start(w, "serial");
		attr(w, "type", "tcp");
		start(w, "source");
		attr(w, "mode", "bind");
		attr(w, "host", "127.0.0.1");
		attr(w, "service", port);
		end(w);
		empty_el(w, "protocol", "type", "raw");
		empty_el(w, "target", "port", "1");
		end(w);
	}

	start(w, "console");
	attr(w, "type", "pty");
	start(w, "target");
	attr(w, "type", "serial");
	attr(w, "port", "0");
	end(w);
	end(w);

	/* hvc0: a virtio console the boot scenario checks. */
	start(w, "console");
	attr(w, "type", "pty");
	start(w, "target");
	attr(w, "type", "virtio");
	attr(w, "port", "1");
	end(w);
	end(w);

	start(w, "channel");
	attr(w, "type", s->channel_file ? "file" : "pty");
	if (s->channel_file)
		empty_el(w, "source", "path", s->channel_file);
	start(w, "target");
	attr(w, "type", "virtio");
	attr(w, "name", BP_CHANNEL_NAME);
	end(w);
	end(w);

	start(w, "rng");
	attr(w, "model", "virtio");
	start(w, "backend");
	attr(w, "model", "random");
	if (xmlTextWriterWriteString(w->x, BAD_CAST "/dev/urandom") < 0)
		w->bad = 1;
	end(w);
	pci_address(w, SLOT_RNG);
	end(w);

	/* pvpanic on ISA (libvirt 9.0 calls it "isa"): a panicking guest
	 * tells QEMU, which libvirt reports as a crash event. */
	empty_el(w, "panic", "model", "isa");
	empty_el(w, "memballoon", "model", "none");
	end(w);
}

/*
 * How libvirt reads the guest CPU's features back after QEMU started:
 * with QEMU's "cpu-unavailable-features" capability, libvirt 9.0 asks for
 * every feature property with a qom-get of its own, about 800 monitor
 * round trips (0.3-0.5 s of every start, measured against 0.2 s for the
 * rest); without it, x86's two properties feature-words and
 * filtered-features say the same.  <qemu:capabilities> is libvirt's own
 * override of what it detected (it marks the domain tainted in its log).
 */
static void cpu_probe(struct w *w)
{
	start(w, "qemu:capabilities");
	empty_el(w, "qemu:del", "capability", "cpu-unavailable-features");
	end(w);
}

unsigned domxml_memory_mib(const struct domxml_spec *s)
{
	return s->memory_mib ? s->memory_mib : DOMXML_MEMORY_MIB_DEFAULT;
}

unsigned domxml_vcpus(const struct domxml_spec *s)
{
	return s->vcpus ? s->vcpus : DOMXML_VCPUS_DEFAULT;
}

int domxml_build(const struct domxml_spec *s, char **ret_xml)
{
	const struct bp_arch_info *arch;
	const char *emulator, *type;
	char num[32], qemu[64];
	struct xmlout xo;
	struct w w = { 0 };

	if (!s || !s->name || !*s->name || !s->kernel || !*s->kernel)
		return -EINVAL;
	arch = bp_arch_info(s->arch);
	type = bp_accel_domain_type(s->accel);
	if (!arch || !type)
		return -EINVAL;
	if (s->kgdb_port < 0 || s->kgdb_port > 65535)
		return -EINVAL;
	if ((s->channel_file && s->channel_file[0] != '/') ||
	    (s->serial_log && s->serial_log[0] != '/'))
		return -EINVAL;	/* libvirt wants an absolute path */
	snprintf(qemu, sizeof(qemu), "/usr/bin/%s", arch->qemu_system);
	emulator = s->emulator ? s->emulator : qemu;

	if (xmlout_open(&xo) < 0)
		return -ENOMEM;
	w.x = xo.w;

	start(&w, "domain");
	attr(&w, "type", type);
	attr(&w, "xmlns:qemu", "http://libvirt.org/schemas/domain/qemu/1.0");
	text_el(&w, "name", s->name);
	text_el(&w, "description",
		"bootproof guest (transient; destroyed when the run ends)");
	start(&w, "memory");
	attr(&w, "unit", "MiB");
	snprintf(num, sizeof(num), "%u", domxml_memory_mib(s));
	if (xmlTextWriterWriteString(w.x, BAD_CAST num) < 0)
		w.bad = 1;
	end(&w);
	snprintf(num, sizeof(num), "%u", domxml_vcpus(s));
	text_el(&w, "vcpu", num);

	start(&w, "os");
	start(&w, "type");
	attr(&w, "arch", arch->libvirt_arch);
	attr(&w, "machine", DOMXML_MACHINE);
	if (xmlTextWriterWriteString(w.x, BAD_CAST "hvm") < 0)
		w.bad = 1;
	end(&w);
	if (s->firmware) {
		start(&w, "loader");
		attr(&w, "readonly", "yes");
		attr(&w, "type", "rom");
		if (xmlTextWriterWriteString(w.x, BAD_CAST s->firmware) < 0)
			w.bad = 1;
		end(&w);
	}
	text_el(&w, "kernel", s->kernel);
	if (s->initrd)
		text_el(&w, "initrd", s->initrd);
	if (s->cmdline)
		text_el(&w, "cmdline", s->cmdline);
	end(&w);

	start(&w, "features");
	empty_el(&w, "acpi", NULL, NULL);
	empty_el(&w, "apic", NULL, NULL);
	end(&w);

	if (s->accel == BP_ACCEL_KVM)
		empty_el(&w, "cpu", "mode", "host-passthrough");
	else if (arch->tcg_cpu_model) {
		/* TCG with a model the arch needs (see struct bp_arch_info). */
		start(&w, "cpu");
		attr(&w, "mode", "custom");
		attr(&w, "match", "exact");
		attr(&w, "check", "none");
		start(&w, "model");
		attr(&w, "fallback", "forbid");
		if (xmlTextWriterWriteString(w.x,
					     BAD_CAST arch->tcg_cpu_model) < 0)
			w.bad = 1;
		end(&w);
		end(&w);
	} else {
		/* TCG: the richest CPU model QEMU can emulate. */
		start(&w, "cpu");
		attr(&w, "mode", "maximum");
		attr(&w, "check", "none");
		end(&w);
	}
	empty_el(&w, "clock", "offset", "utc");
	text_el(&w, "on_poweroff", "destroy");
	text_el(&w, "on_reboot", "destroy");
	text_el(&w, "on_crash", "destroy");

	devices(&w, s, emulator);
	cpu_probe(&w);
	end(&w); /* domain */

	return xmlout_close(&xo, w.bad, ret_xml);
}

/* ------------------------------------------------------------ QEMU */

static void qopt(struct domxml_qemu *q, const char *fmt, ...) _printf_(2, 3);
static void qopt(struct domxml_qemu *q, const char *fmt, ...)
{
	va_list ap;
	char *o;

	va_start(ap, fmt);
	if (vasprintf(&o, fmt, ap) < 0)
		abort();
	va_end(ap);
	q->opts = xrealloc(q->opts, (q->n_opts + 2) * sizeof(*q->opts));
	q->opts[q->n_opts++] = o;
	q->opts[q->n_opts] = NULL;
}

void domxml_qemu_done(struct domxml_qemu *q)
{
	for (size_t i = 0; i < q->n_opts; i++)
		free(q->opts[i]);
	free(q->opts);
	free(q->kernel_arg);
	free(q->initrd_arg);
	free(q->disk_arg);
	memset(q, 0, sizeof(*q));
}

int domxml_qemu(const struct domxml_spec *s, struct domxml_qemu *ret)
{
	const struct bp_arch_info *arch;
	struct domxml_qemu q = { 0 };

	memset(ret, 0, sizeof(*ret));
	if (!s || !s->kernel || !*s->kernel)
		return -EINVAL;
	arch = bp_arch_info(s->arch);
	if (!arch)
		return -EINVAL;
	/* The QEMU command line is split like a shell's: inside the
	 * double quotes around it, these two would change the text. */
	if (s->cmdline && strpbrk(s->cmdline, "\"\\"))
		return -EINVAL;

	q.memory_mib = domxml_memory_mib(s);
	/* As domxml_build: the machine (ACPI and the APIC are its
	 * defaults), the CPUs, the richest CPU model or the arch's own. */
	qopt(&q, "-machine %s", DOMXML_MACHINE);
	qopt(&q, "-smp %u", domxml_vcpus(s));
	qopt(&q, "-cpu %s", arch->tcg_cpu_model ? arch->tcg_cpu_model : "max");
	/* on_reboot destroy: a rebooting guest (panic=-1) ends. */
	qopt(&q, "-no-reboot");
	qopt(&q, "-device virtio-rng-pci");
	/* hvc0 and the agent's channel, nothing behind either. */
	qopt(&q, "-device virtio-serial-pci");
	qopt(&q, "-chardev null,id=bpcon");
	qopt(&q, "-device virtconsole,chardev=bpcon");
	qopt(&q, "-chardev null,id=bpchan");
	qopt(&q, "-device virtserialport,chardev=bpchan,name=%s",
	     BP_CHANNEL_NAME);
	/* <panic model='isa'/> */
	qopt(&q, "-device pvpanic");

	if (asprintf(&q.kernel_arg, "-kernel %s -append \"%s\"", s->kernel,
		     s->cmdline ? s->cmdline : "") < 0)
		abort();
	if (s->initrd && asprintf(&q.initrd_arg, "-initrd %s", s->initrd) < 0)
		abort();
	/* The root disk on virtio-blk as vda; the copy a lab downloaded is
	 * the guest's to write, as the local overlay is. */
	if (s->disk && asprintf(&q.disk_arg,
				"-drive format=raw,if=virtio,cache=unsafe,file=%s",
				s->disk) < 0)
		abort();
	*ret = q;
	return 0;
}
