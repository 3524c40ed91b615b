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

/* ksrc_resolve with another tarball than KSRC_DEFAULT_TARBALL (tests). */
int ksrc_resolve_from(const char *arg, const char *tarball, const char *cache,
		      char **ret, struct strbuf *err);

#endif
