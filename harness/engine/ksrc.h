/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ksrc: the kernel source tree a config or build stage works on.
 *
 * Either a tree the user names (--ksrc DIR: a git checkout, an unpacked
 * tarball; never written to, every build is out of tree with O=), or by
 * default Debian's linux-source tarball, unpacked once into
 * <cache>/src/<name>/ (libarchive) and marked complete by
 * <cache>/src/<name>.unpacked, which records the tarball's size and mtime:
 * a new tarball is unpacked again, an interrupted unpack is redone (its
 * temporary <name>.unpack.* directory removed).
 * Concurrent callers serialise on <cache>/src/.lock.
 *
 * Functions return 0 or -errno; on failure err (when not NULL) holds a
 * message naming the path and what is wrong.
 */
#ifndef BP_KSRC_H
#define BP_KSRC_H

#include <stdbool.h>

#include "util/strbuf.h"

#define KSRC_DEFAULT_TARBALL "/usr/src/linux-source-6.12.tar.xz"

/*
 * Check that dir is a kernel source tree usable for x86 out-of-tree
 * builds: Makefile, Kconfig, arch/x86/Kconfig, scripts/kconfig/Makefile and
 * merge_config.sh exist, and the tree is clean (no .config or
 * include/config/ in it, which Kbuild refuses for O= builds).
 * -ENOENT / -ENOTDIR: no such directory; -EINVAL: not a (clean) tree.
 */
int ksrc_check(const char *dir, struct strbuf *err);

/* Does dir look like a kernel tree (Makefile, Kconfig, arch/x86/Kconfig),
 * clean or not?  For `bootproof run` started inside one. */
bool ksrc_looks_like(const char *dir);

/*
 * The tree's release from its Makefile ("6.12.118", with EXTRAVERSION
 * appended when set).  Returns 0 and a malloc'd string in *ret, -EINVAL
 * when the Makefile has no VERSION/PATCHLEVEL/SUBLEVEL, -errno.
 */
int ksrc_release(const char *dir, char **ret);

/*
 * Where the default tarball is unpacked: <cache>/src/<name> where name is
 * the tarball's file name without .tar.* ("linux-source-6.12").  Returns a
 * malloc'd path or NULL on allocation failure.
 */
char *ksrc_unpack_dir(const char *cache, const char *tarball);

/* True when dir holds a complete unpack of tarball (its marker matches). */
bool ksrc_is_unpacked(const char *tarball, const char *dir);

/*
 * Unpack tarball (any format and compression libarchive reads, with one
 * top-level directory) to dir, atomically: into a temporary directory
 * beside it, then renamed.  Entries with absolute paths or ".." are
 * refused (-EINVAL).  A partial dir from an interrupted unpack is removed.
 */
int ksrc_unpack(const char *tarball, const char *dir, struct strbuf *err);

/*
 * The tree to use: arg when given (made absolute and checked), else the
 * default tarball unpacked under cache (unpacked first when needed; this
 * takes a minute or two).  Returns 0 and the absolute path in *ret.
 * -ENOENT: arg does not exist or the tarball is missing; -EINVAL: not a
 * kernel tree; other -errno from unpacking.
 */
int ksrc_resolve(const char *arg, const char *cache, char **ret,
		 struct strbuf *err);

/*
 * What a build from a tree the user names depends on besides the .config:
 * its files.  bootproof's own unpack (under <cache>/src/) never changes,
 * so its artifacts are keyed by the .config alone; a user's tree (--ksrc,
 * a developer's checkout) changes between runs, and a kernel built from
 * it is reused only while the tree is as it was.  The state is a sha256
 * over every file's path, size and mtime (what Kbuild itself looks at),
 * in name order, .git left out; kconfig covers only what the config stage
 * reads (Kconfig*, the top Makefile, arch/x86/configs/, kernel/configs/,
 * scripts/kconfig/), so editing a .c file keeps the config stage cached.
 * A run takes it once, when it starts (about a second for a kernel tree).
 */
struct ksrc_state {
	bool tracked;		/* false: bootproof's unpack, hashes empty */
	char files[65];		/* every file */
	char kconfig[65];	/* what the config stage reads */
	size_t n_files;
	double seconds;		/* the walk's wall time */
};

/* Fill *ret for dir (cache: bp_cache_dir(), to know bootproof's own
 * unpack).  0, or -errno with err naming the path that could not be read. */
int ksrc_state(const char *dir, const char *cache, struct ksrc_state *ret,
	       struct strbuf *err);

/* ksrc_resolve with another tarball than KSRC_DEFAULT_TARBALL (tests). */
int ksrc_resolve_from(const char *arg, const char *tarball, const char *cache,
		      char **ret, struct strbuf *err);

#endif
