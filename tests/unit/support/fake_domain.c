// SPDX-License-Identifier: GPL-2.0-or-later
#include "fake_domain.h"

#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/strbuf.h"

static struct fake_domain *cur;

struct guest {
	struct fake_domain *f;
	struct strbuf data;
	size_t pos;
	enum guest_state state;
	bool gen_done;
	char chunk[65536];
};

void fake_domain_use(struct fake_domain *f)
{
	cur = f;
}

/* The path in the first `attr="..."` after `after` in xml, into path. */
static bool xml_path(const char *xml, const char *after, const char *attr,
		     char *path, size_t n)
{
	const char *p = strstr(xml, after), *e;

	if (!p || !(p = strstr(p, attr)))
		return false;
	p += strlen(attr);
	e = strchr(p, '"');
	if (!e || (size_t)(e - p) >= n)
		return false;
	memcpy(path, p, (size_t)(e - p));
	path[e - p] = '\0';
	return true;
}

/* What the guest "wrote" to a file QEMU would have written. */
static void write_at(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return;
	fwrite(data, 1, len, f);
	fclose(f);
}

/* The guest's words on its virtio-serial channel, as QEMU's file chardev
 * would have written them. */
static void write_channel(const char *xml, const char *text)
{
	char path[4096];

	if (xml_path(xml, "<channel type=\"file\">", "<source path=\"", path,
		     sizeof(path)))
		write_at(path, text, strlen(text));
}

/* All the guest printed on ttyS0, as QEMU's logfile= would have it. */
static void write_serial_log(const char *xml, const struct strbuf *all)
{
	char path[4096];

	if (xml_path(xml, "<serial", "<log file=\"", path, sizeof(path)))
		write_at(path, all->buf, all->len);
}

static int fstart(const char *uri, const char *xml, struct guest **ret,
		  struct strbuf *err)
{
	struct fake_domain *f = cur;
	struct guest *g;

	if (f->then)
		cur = f->then; /* the next start */

	f->started++;
	free(f->xml);
	f->xml = strdup(xml);
	if (f->start_error < 0) {
		strbuf_addstr(err, f->start_err_text ? f->start_err_text
						       : "fake start failure");
		return f->start_error;
	}
	g = calloc(1, sizeof(*g));
	g->f = f;
	strbuf_init(&g->data, 0);
	if (f->log && strbuf_read_file(&g->data, f->log, 0) < 0) {
		free(g);
		return -EIO;
	}
	if (f->channel_text)
		write_channel(xml, f->channel_text);
	if (f->serial_log)
		write_serial_log(xml, &g->data);
	if (f->lost_tail) {
		strbuf_setlen(&g->data, g->data.len > f->lost_tail
						? g->data.len - f->lost_tail
						: 0);
	}
	g->state = GUEST_RUNNING;
	*ret = g;
	return 0;
}

static int fpoll(struct guest *g, int timeout_ms, struct guest_event *ev)
{
	size_t chunk = g->f->chunk ? g->f->chunk : 977;
	size_t n = g->data.len - g->pos;

	memset(ev, 0, sizeof(*ev));
	ev->state = g->state;
	if (n) {
		if (n > chunk)
			n = chunk;
		if (n > sizeof(g->chunk))
			n = sizeof(g->chunk);
		memcpy(g->chunk, g->data.buf + g->pos, n);
		g->pos += n;
		g->f->bytes += n;
		ev->data = g->chunk;
		ev->len = n;
		return 0;
	}
	if (g->f->gen && !g->gen_done && g->state == GUEST_RUNNING) {
		ssize_t r = g->f->gen(g->f->gen_ud, g->chunk,
				      chunk < sizeof(g->chunk) ? chunk
							       : sizeof(g->chunk));

		if (r > 0) {
			g->f->bytes += (size_t)r;
			ev->data = g->chunk;
			ev->len = (size_t)r;
			return 0;
		}
		if (r == 0) {
			usleep((useconds_t)(timeout_ms > 20 ? 20 : timeout_ms) *
			       1000);
			return 0;
		}
		g->gen_done = true;
	}
	if (g->state == GUEST_RUNNING && g->f->end != GUEST_RUNNING) {
		g->state = g->f->end;
		ev->state = g->state;
		ev->state_changed = 1;
		ev->reason = g->f->end_reason ? g->f->end_reason : "fake end";
		return 0;
	}
	if (g->f->interrupt_at_end)
		*g->f->interrupt_at_end = 1;
	/* Nothing more: a guest that says nothing. */
	usleep((useconds_t)(timeout_ms > 20 ? 20 : timeout_ms) * 1000);
	return 0;
}

static const char *held, *held_marker;

void fake_domain_hold(const char *name, const char *marker)
{
	held = name;
	held_marker = marker;
}

static size_t fstate_files(const char *name, char (*files)[PATH_MAX],
			   size_t max)
{
	if (!held || !name || strcmp(held, name) || !max)
		return 0;
	snprintf(files[0], PATH_MAX, "%s", held_marker);
	return 1;
}

static int fdestroy(struct guest *g)
{
	if (g && g->state == GUEST_RUNNING) {
		g->f->destroyed++;
		g->state = GUEST_DESTROYED;
	}
	return 0;
}

static void ffree(struct guest *g)
{
	if (!g)
		return;
	fdestroy(g);
	g->f->freed++;
	strbuf_release(&g->data);
	free(g);
}

const struct domain_ops fake_domain_ops = {
	.start = fstart,
	.poll = fpoll,
	.destroy = fdestroy,
	.free = ffree,
	.state_files = fstate_files,
};
