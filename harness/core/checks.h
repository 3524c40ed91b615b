/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host check results and their rendering (what `bootproof doctor` prints).
 * Pure: builds strings, never prints, never logs.
 *
 * A check has a short stable name ("qemu-x86_64", "kvm"), a verdict, a
 * one-line detail and, when not ok, the exact fix (a command to run).
 * A check marked required is one a boot cannot do without: the list is
 * "bootable" when no required check failed.
 */
#ifndef BP_CHECKS_H
#define BP_CHECKS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"
#include "util/strbuf.h"

enum check_status {
	CHECK_OK,
	CHECK_WARN,	/* works, but not as well as it could */
	CHECK_FAIL,
};

struct check {
	char *name;		/* owned */
	enum check_status status;
	bool required;		/* a boot is impossible when this fails */
	char *detail;		/* owned, one line, never NULL once set */
	char *fix;		/* owned, NULL when there is nothing to do */
};

struct check_list {
	struct check *v;	/* owned array of n checks */
	size_t n, alloc;
};

#define CHECK_LIST_INIT { .v = NULL, .n = 0, .alloc = 0 }

/* "ok", "warn", "FAIL" (capitals, so that a failure stands out). */
const char *check_status_name(enum check_status s);

/*
 * Append a check.  name and fix are copied (fix may be NULL); the detail
 * is formatted.  Control characters and line breaks in detail and fix are
 * turned into spaces, so that every check renders as one line.  Returns a
 * pointer to the new check, owned by the list (valid until the next add).
 * Aborts on allocation failure, as strbuf does.
 */
struct check *check_list_add(struct check_list *l, const char *name,
			     enum check_status status, bool required,
			     const char *fix, const char *fmt, ...)
	_printf_(6, 7);

/* Move all checks of src to the end of dst; src is left empty. */
void check_list_splice(struct check_list *dst, struct check_list *src);

/* Look a check up by name; NULL when absent. */
const struct check *check_list_find(const struct check_list *l,
				    const char *name);

/* True when no required check has status CHECK_FAIL. */
bool check_list_bootable(const struct check_list *l);

/* Free every check and reset to CHECK_LIST_INIT.  Accepts NULL. */
void check_list_release(struct check_list *l);
static inline void check_list_releasep(struct check_list *l)
{
	check_list_release(l);
}
#define _cleanup_check_list_ _cleanup_(check_list_releasep)

/*
 * Text report, one line per check:
 *	"ok    qemu-x86_64     QEMU emulator version 7.2.22 (/usr/bin/...)"
 *	"FAIL  libvirt         cannot connect to ... | fix: libvirtd -d"
 * followed by a summary line naming the accelerator when bootable
 * ("bootable: yes (accelerator: tcg)") or "bootable: no".
 * accel may be NULL.
 */
void check_list_render_text(const struct check_list *l, const char *accel,
			    struct strbuf *out);
/* The same in two parts: the lines of checks [from, n), then the summary
 * line. */
void check_list_render_lines(const struct check_list *l, size_t from,
			     struct strbuf *out);
void check_list_render_summary(const struct check_list *l, const char *accel,
			       struct strbuf *out);

/*
 * JSON report (json-c, pretty-printed, ending in a newline):
 *	{ "bootable": true, "accelerator": "tcg",
 *	  "checks": [ { "name", "status", "required", "detail", "fix" } ] }
 * status is "ok" / "warn" / "fail"; fix and accelerator are null when
 * absent.  Returns 0 (json-c running out of memory aborts, as xalloc).
 */
int check_list_render_json(const struct check_list *l, const char *accel,
			   struct strbuf *out);

#endif
