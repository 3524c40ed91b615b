/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kbuild: what the files a kernel build leaves in its O= tree say about
 * the build (pure: buffers in, names and counts out).
 *
 * The objects of a build are the kernel's own definition of them, the one
 * `make compile_commands.json` uses (scripts/clang-tools/
 * gen_compile_commands.py): the members of the thin archive vmlinux.a
 * and of the lib.a archives linked beside it (KBUILD_VMLINUX_LIBS), and,
 * for every module that modules.order lists, the objects its <module>.mod
 * file names.  Objects of the tree that no longer belong to the .config
 * (Kbuild never deletes them) are therefore not counted.
 *
 * The ccache statistics log (CCACHE_STATSLOG, ccache >= 4.0) says, per
 * compilation, which counters it moved: "direct_cache_hit" and
 * "preprocessed_cache_hit" are hits, "cache_miss" a compilation ccache
 * ran the compiler for.
 */
#ifndef BP_KBUILD_H
#define BP_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

/* Called with each name (len bytes, not NUL-terminated); a negative
 * return stops the walk and is returned by it. */
typedef int (*kbuild_name_fn)(void *ud, const char *name, size_t len);

/*
 * The member names of an ar archive (buf, n bytes): a GNU thin archive
 * ("!<thin>\n", members stored by name only, as Kbuild makes them) or a
 * regular one ("!<arch>\n").  The symbol table and the long-name table
 * are not members; a long name ("/<offset>") is looked up in the latter.
 * Returns the number of members, a negative return of fn, or -EINVAL
 * when buf is not such an archive or is cut short (members before the
 * damage have been given to fn).
 */
int kbuild_ar_members(const char *buf, size_t n, kbuild_name_fn fn, void *ud);

/*
 * The words of a .mod file or the lines of modules.order (any blank
 * separates; empty words skipped).  Returns the number of words or a
 * negative return of fn.
 */
int kbuild_words(const char *buf, size_t n, kbuild_name_fn fn, void *ud);

struct kbuild_ccache {
	unsigned long hits;	/* direct or preprocessed cache hits */
	unsigned long misses;	/* the compiler ran */
	unsigned long other;	/* compilations neither (uncacheable, ...) */
};

/* Count a ccache statistics log (buf, n bytes): its records, each a
 * "# <file>" line then counter names one a line.  Never fails. */
void kbuild_ccache_log(const char *buf, size_t n, struct kbuild_ccache *ret);

#endif
