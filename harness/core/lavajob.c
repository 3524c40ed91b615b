// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/lavajob.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "core/arch.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

/*
 * A KTAP result line at any depth, matched by LAVA's monitor (Python's re
 * on the console stream, as pexpect reads it):
 *   - (?m)^ *      at the start of a line, indented or not;
 *   - the lookahead puts "SKIP" in the result group when the line has a
 *     "# SKIP" directive, else "ok" or "not ok" (one group can only hold
 *     text of the line, and LAVA maps it through fixupdict);
 *   - the name, then the rest of the line up to its end: pexpect matches
 *     as bytes arrive, and a pattern that could end mid-line would take a
 *     name or a result cut short.
 */
const char lavajob_pattern[] =
	"(?m)^ *(?=(?:(?:not )?ok [0-9]+ [A-Za-z0-9_.-]+ # )?"
	"(?P<result>SKIP|not ok|ok))"
	"(?:not )?ok [0-9]+ (?P<test_case_id>[A-Za-z0-9_.-]+)[^\\r\\n]*[\\r\\n]";

#define DOWNLOAD_S 600
/* After the test's limit: LAVA's own finalising. */
#define JOB_MARGIN_S 300

struct em {
	yaml_emitter_t e;
	struct strbuf out;
	bool bad;
};

static int write_out(void *data, unsigned char *buf, size_t n)
{
	struct em *m = data;

	strbuf_add(&m->out, buf, n);
	return 1;
}

static void ev(struct em *m, yaml_event_t *e, int made)
{
	if (!made || !yaml_emitter_emit(&m->e, e))
		m->bad = true;
}

/* A string value, always quoted: a config hash such as "12e4..." must
 * not come back as a number, nor "no" as false. */
static void str(struct em *m, const char *s)
{
	yaml_event_t e;

	ev(m, &e, yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)s,
					       (int)strlen(s), 0, 1,
					       YAML_SINGLE_QUOTED_SCALAR_STYLE));
}

/* A key or a word YAML reads as itself: plain. */
static void word(struct em *m, const char *s)
{
	yaml_event_t e;

	ev(m, &e, yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)s,
					       (int)strlen(s), 1, 0,
					       YAML_PLAIN_SCALAR_STYLE));
}

static void num(struct em *m, unsigned long v)
{
	char b[32];

	snprintf(b, sizeof(b), "%lu", v);
	word(m, b);
}

static void map_start(struct em *m, bool flow)
{
	yaml_event_t e;

	ev(m, &e, yaml_mapping_start_event_initialize(
			  &e, NULL, NULL, 1,
			  flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
}

static void map_end(struct em *m)
{
	yaml_event_t e;

	ev(m, &e, yaml_mapping_end_event_initialize(&e));
}

static void seq_start(struct em *m)
{
	yaml_event_t e;

	ev(m, &e, yaml_sequence_start_event_initialize(&e, NULL, NULL, 1,
							YAML_BLOCK_SEQUENCE_STYLE));
}

static void seq_end(struct em *m)
{
	yaml_event_t e;

	ev(m, &e, yaml_sequence_end_event_initialize(&e));
}

static void kstr(struct em *m, const char *k, const char *v)
{
	word(m, k);
	str(m, v);
}

/* key: {seconds: N} */
static void timeout(struct em *m, const char *k, unsigned long s)
{
	word(m, k);
	map_start(m, true);
	word(m, "seconds");
	num(m, s);
	map_end(m);
}

static void image(struct em *m, const char *label,
		  const struct lavajob_file *f, const char *arg)
{
	word(m, label);
	map_start(m, false);
	kstr(m, "url", f->url);
	if (f->sha256)
		kstr(m, "sha256sum", f->sha256);
	kstr(m, "image_arg", arg);
	map_end(m);
}

static void context(struct em *m, const struct lavajob_spec *s,
		    const struct domxml_qemu *q)
{
	word(m, "context");
	map_start(m, false);
	kstr(m, "arch", bp_arch_name(s->guest->arch));
	word(m, "memory");
	num(m, q->memory_mib);
	/* The device type adds "-net nic,model=virtio ... -net NETDEVICE".
	 * QEMU's user network, restricted: the NIC transmits (the boot
	 * scenario sends a frame), and the guest reaches neither the host
	 * nor beyond, as the local guest's tap attached to nothing.  ("none"
	 * leaves a hub that drops the frame: EIO in the guest.) */
	kstr(m, "netdevice", "user,restrict=on");
	word(m, "extra_options");
	seq_start(m);
	for (size_t i = 0; i < q->n_opts; i++)
		str(m, q->opts[i]);
	seq_end(m);
	map_end(m);
}

static void actions(struct em *m, const struct lavajob_spec *s,
		    const struct domxml_qemu *q, unsigned download_s)
{
	word(m, "actions");
	seq_start(m);

	map_start(m, false);
	word(m, "deploy");
	map_start(m, false);
	kstr(m, "to", "tmpfs");
	timeout(m, "timeout", download_s);
	word(m, "images");
	map_start(m, false);
	image(m, "kernel", &s->kernel, q->kernel_arg);
	if (s->initrd.url)
		image(m, "ramdisk", &s->initrd, q->initrd_arg);
	image(m, "rootfs", &s->disk, q->disk_arg);
	map_end(m);
	map_end(m);
	map_end(m);

	map_start(m, false);
	word(m, "boot");
	map_start(m, false);
	kstr(m, "method", "qemu");
	kstr(m, "media", "tmpfs");
	/* QEMU's console connection keeps the boot action's limit: the
	 * monitor waits that long for each next line it matches.  The whole
	 * boot, so that only the test's own limit ends a slow scenario. */
	timeout(m, "timeout", s->boot_timeout_s);
	map_end(m);
	map_end(m);

	map_start(m, false);
	word(m, "test");
	map_start(m, false);
	timeout(m, "timeout", s->boot_timeout_s);
	word(m, "monitors");
	seq_start(m);
	map_start(m, false);
	kstr(m, "name", LAVAJOB_MONITOR_NAME);
	kstr(m, "start", LAVAJOB_MONITOR_START);
	kstr(m, "end", LAVAJOB_MONITOR_END);
	kstr(m, "pattern", lavajob_pattern);
	word(m, "fixupdict");
	map_start(m, false);
	kstr(m, "ok", "pass");
	kstr(m, "not ok", "fail");
	kstr(m, "SKIP", "skip");
	map_end(m);
	map_end(m);
	seq_end(m);
	map_end(m);
	map_end(m);

	seq_end(m);
}

static void job(struct em *m, const struct lavajob_spec *s,
		const struct domxml_qemu *q)
{
	unsigned download_s = s->download_timeout_s ? s->download_timeout_s
						    : DOWNLOAD_S;

	map_start(m, false);
	kstr(m, "job_name", s->job_name);
	kstr(m, "device_type", "qemu");
	kstr(m, "visibility", "public");
	kstr(m, "priority", "medium");
	word(m, "timeouts");
	map_start(m, false);
	timeout(m, "job", (unsigned long)download_s + 2ul * s->boot_timeout_s +
				  JOB_MARGIN_S);
	/* The monitor waits this long for its start string (the test
	 * action's connection limit, LAVA's default 30 s): the whole boot,
	 * the agent starts after the kernel and its initrd. */
	word(m, "connections");
	map_start(m, false);
	timeout(m, "lava-test-monitor", s->boot_timeout_s);
	map_end(m);
	map_end(m);
	context(m, s, q);
	word(m, "metadata");
	map_start(m, false);
	for (size_t i = 0; i < s->n_meta; i++)
		kstr(m, s->meta[i].key, s->meta[i].value ? s->meta[i].value : "");
	map_end(m);
	actions(m, s, q, download_s);
	map_end(m);
}

int lavajob_build(const struct lavajob_spec *s, char **ret_yaml)
{
	struct domxml_spec g;
	struct domxml_qemu q;
	struct em m = { .out = STRBUF_INIT };
	yaml_event_t e;
	size_t n;
	int r;

	*ret_yaml = NULL;
	if (!s || !s->guest || !s->job_name || !*s->job_name ||
	    (n = strlen(s->job_name)) > 200 || !s->kernel.url ||
	    !s->disk.url || !s->boot_timeout_s)
		return -EINVAL;
	g = *s->guest;
	g.kernel = LAVAJOB_KERNEL;
	g.initrd = s->initrd.url ? LAVAJOB_INITRD : NULL;
	g.disk = LAVAJOB_DISK;
	r = domxml_qemu(&g, &q);
	if (r < 0)
		return r;
	if (!yaml_emitter_initialize(&m.e)) {
		domxml_qemu_done(&q);
		return -ENOMEM;
	}
	yaml_emitter_set_output(&m.e, write_out, &m);
	yaml_emitter_set_unicode(&m.e, 1);
	yaml_emitter_set_width(&m.e, -1);
	ev(&m, &e, yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING));
	ev(&m, &e, yaml_document_start_event_initialize(&e, NULL, NULL, NULL, 1));
	job(&m, s, &q);
	ev(&m, &e, yaml_document_end_event_initialize(&e, 1));
	ev(&m, &e, yaml_stream_end_event_initialize(&e));
	yaml_emitter_delete(&m.e);
	domxml_qemu_done(&q);
	if (m.bad) {
		strbuf_release(&m.out);
		return -EINVAL;
	}
	*ret_yaml = strbuf_detach(&m.out, NULL);
	return 0;
}
