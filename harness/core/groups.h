/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * groups: option group files (pure).
 *
 * A group is a kernel config fragment whose leading comments say what it is:
 *
 *	# group: bpf
 *	# arch: x86_64
 *	# scenarios: bpf,boot
 *	# from: 006-patch-x86-kconfig-64-enable-bpf-support-in-the-defconfig.patch
 *	# summary: The bpf() syscall with an always-on JIT, ...
 *	# summary: (repeated summary lines are joined)
 *	CONFIG_BPF_SYSCALL=y
 *	# CONFIG_FOO is not set
 *
 * Header lines are "# key: value" comments before the first option; keys
 * are group, arch, scenarios, from and summary.  Other comments are
 * allowed anywhere.  The fragment is parsed by kconfig_parse() (same line
 * forms, file:line provenance).
 *
 * A strict parse (a group of scenarios/groups/) requires group, arch,
 * scenarios and from; a lenient one (any fragment a user names by path, such
 * as the kernel's own kernel/configs/kvm_guest.config) takes what header
 * lines there are and fills the rest in: the name from the file (basename
 * without ".config"), any arch, the "boot" scenario.
 *
 * Pure module: parses a buffer, no I/O, never logs.
 */
#ifndef BP_GROUPS_H
#define BP_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/kconfig.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

/* The in-guest scenarios a group can name: the contract's feature
 * scenarios (scenarios/contract.h), NULL-terminated. */
extern const char *const group_known_scenarios[];

/* Is s[0..len) one of the NULL-terminated list's names? */
bool group_in_list(const char *const *list, const char *s, size_t len);

struct group {
	char *name;		/* "# group:", or derived from the file name */
	char *arch;		/* a bp_arch_names entry, or NULL: any arch */
	char **scenarios;	/* n_scenarios names, in header order */
	size_t n_scenarios;
	char *from;		/* "# from:", NULL when absent */
	char *summary;		/* joined "# summary:" lines, NULL when absent */
	char *file;		/* the file name given to group_parse() */
	bool has_header;	/* at least one header line was present */
	/* The fragment's options (owned): definitions carry file:line. */
	struct kconfig *options;
};

/* Parse flags. */
enum {
	GROUP_PARSE_STRICT = 1 << 0, /* require group, arch, scenarios, from */
};

/*
 * Parse len bytes of buf, the content of the file named file (a copy of the
 * name is kept).  Returns 0 and a new group in *ret, -EINVAL for a malformed
 * file with the message "file:line: ..." in *err (err may be NULL), or
 * -E2BIG past INT_MAX lines.  A group needs at least one option.
 */
int group_parse(const char *file, const char *buf, size_t len, unsigned flags,
		struct group **ret, struct strbuf *err);

/* NULL is fine. */
void group_free(struct group *g);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct group *, group_free)
#define _cleanup_group_ _cleanup_(group_freep)

/* True when g may be used for arch (its arch, or any when it has none). */
bool group_for_arch(const struct group *g, const char *arch);

/* True when g names scenario s. */
bool group_has_scenario(const struct group *g, const char *s);

/*
 * A valid group name: [a-z0-9][a-z0-9_.-]*, at most 64 characters.  Used
 * for "# group:" and to tell a group name from a path on the command line.
 */
bool group_name_valid(const char *name);

#endif
