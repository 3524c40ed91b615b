/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image_spec: what goes into a bootproof guest disk image (pure).
 *
 * A guest image is a raw ext4 filesystem without a partition table (the
 * guest boots with root=/dev/vda).  This module describes its content as a
 * list of entries (the layout), derives the cache key from that list, and
 * writes the list as a tar stream (libarchive) that the libguestfs adapter
 * unpacks into the new filesystem.  It also checks the inputs (ELF class,
 * machine, static linking) and selects kernel modules from modules.dep for
 * `--modules`.
 *
 * No I/O except on the FILE * given to image_layout_write_tar(); nothing
 * here logs.  Functions return 0 (or a count) or -errno.  The layout owns
 * every string and buffer stored in it.
 */
#ifndef BP_IMAGE_SPEC_H
#define BP_IMAGE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../scenarios/contract.h"
#include "util/sha256.h"
#include "core/arch.h"
#include "util/strbuf.h"

/*
 * Bump when the layout or the way an image is made changes in a way the
 * entries do not show (mkfs options, tar handling): it is part of the key.
 */
#define IMAGE_RECIPE_VERSION 1

#define IMAGE_LABEL "bootproof"
#define IMAGE_AGENT_PATH BP_AGENT_PATH
#define IMAGE_BUSYBOX_PATH "/bin/busybox"
#define IMAGE_MARKER_PATH BP_MARKER_PATH
#define IMAGE_MARKER_SIZE BP_MARKER_SIZE
/* Every entry gets this mtime (2024-01-01 00:00 UTC): builds reproduce. */
#define IMAGE_MTIME 1704067200
#define IMAGE_HASH_HEX_LEN SHA256_HEX_LEN

/* Byte i of the marker file (contract.h). */
static inline uint8_t image_marker_byte(uint64_t i)
{
	return bp_marker_byte(i);
}
void image_marker_fill(uint8_t *buf, size_t n);

/*
 * Is buf an executable the guest of this arch can run without a dynamic
 * loader: ELF, the arch's class and machine (struct bp_arch_info), ET_EXEC
 * or ET_DYN, and no PT_INTERP?
 * Returns 0, or -ENOEXEC with *ret_why (static text) saying what is wrong.
 */
int image_check_elf(const void *buf, size_t len, enum bp_arch arch,
		    const char **ret_why);

enum image_entry_kind {
	IMAGE_ENTRY_DIR,
	IMAGE_ENTRY_FILE,
	IMAGE_ENTRY_SYMLINK,
	IMAGE_ENTRY_CHARDEV,
};

struct image_entry {
	enum image_entry_kind kind;
	char *path;		/* absolute: "/bin/sh" */
	unsigned mode;		/* permission bits, 07777 */
	char *target;		/* SYMLINK: what the link points to */
	uint8_t *data;		/* FILE: content (may be NULL when len is 0) */
	size_t len;
	unsigned major, minor;	/* CHARDEV */
};

struct image_layout {
	struct image_entry *entries;	/* in the order they were added */
	size_t n, alloc;
	/* When set: the path of a busybox inside the image whose applet
	 * links the builder creates in the image (it can run the binary:
	 * the host cannot always, e.g. i386 on a kernel without IA32). */
	char *applets_of;
};

#define IMAGE_LAYOUT_INIT { .entries = NULL }

void image_layout_done(struct image_layout *l);
static inline void image_layout_donep(struct image_layout *l)
{
	image_layout_done(l);
}
#define _cleanup_layout_ _cleanup_(image_layout_donep)

/*
 * Add entries.  path must be absolute and normal (no "//", ".", "..",
 * trailing '/'; not "/" itself).  Missing parent directories are added
 * first with mode 0755 (mkdir -p).  Returns 0, -EINVAL for a bad path or
 * mode, -EEXIST when path is already in the layout (adding a directory
 * that exists as a directory only sets its mode), -ENOTDIR when a parent
 * is not a directory.  add_file copies data.
 */
int image_layout_add_dir(struct image_layout *l, const char *path,
			 unsigned mode);
int image_layout_add_file(struct image_layout *l, const char *path,
			  unsigned mode, const void *data, size_t len);
int image_layout_add_symlink(struct image_layout *l, const char *path,
			     const char *target);
int image_layout_add_chardev(struct image_layout *l, const char *path,
			     unsigned mode, unsigned major, unsigned minor);

/* The entry at path, or NULL. */
const struct image_entry *image_layout_find(const struct image_layout *l,
					    const char *path);

/*
 * The fixed part of every image: the directory tree (/bin /sbin /etc /proc
 * /sys /dev /tmp /run /mnt /root /lib /var /bootproof, mount points under
 * /sys and /dev), /usr/bin -> ../bin and /usr/sbin -> ../sbin, /dev/console
 * and /dev/null, a minimal /etc (passwd, group, hostname, hosts) and
 * /bootproof/marker.bin.  0 or -errno (-EEXIST when l is not empty).
 */
int image_layout_add_base(struct image_layout *l);

/* /bin/busybox (0755) from data, and mark it for applet links. */
int image_layout_add_busybox(struct image_layout *l, const void *data,
			     size_t len);

/*
 * Turn `busybox --list-full` output ("usr/bin/awk\nsbin/ifconfig\n...")
 * into symlinks: bin/X and usr/bin/X become /bin/X -> busybox, sbin/X and
 * usr/sbin/X become /sbin/X -> ../bin/busybox, added to ret (with their
 * parent directories); other lines ("linuxrc") are ignored, as is an
 * applet whose path is in have (the image's own entries; may be NULL) or
 * already in ret.  Returns the number of links added, or -EINVAL for a
 * line that is not a plain applet name below one of those directories.
 */
int image_applet_links(const char *list, size_t len,
		       const struct image_layout *have,
		       struct image_layout *ret);

/* Sum of the file sizes in the layout. */
uint64_t image_layout_content_bytes(const struct image_layout *l);

/* Disk size for that much content: content * 1.5 + 64 MiB rounded up to
 * 16 MiB, at least 128 MiB. */
uint64_t image_disk_size(uint64_t content_bytes);

/*
 * The cache key: sha256 over the recipe version, the arch, the disk size,
 * the label, applets_of and every entry (kind, path, mode, target, device
 * numbers, content) in path order, so it changes when and only when
 * something that ends up in the image changes; not with where the inputs
 * came from or the order entries were added.  ret: IMAGE_HASH_HEX_LEN + 1.
 * 0 or -ENOMEM.
 */
int image_layout_hash(const struct image_layout *l, enum bp_arch arch,
		      char *ret);

/*
 * Write the layout as a tar stream (pax, owner root:root, mtime
 * IMAGE_MTIME) to f, entries in layout order (parents come first).
 * Returns 0, -EIO (with the reason in err when not NULL) or -ENOMEM.
 */
int image_layout_write_tar(const struct image_layout *l, FILE *f,
			   struct strbuf *err);

/*
 * The same as a cpio archive in the kernel's initramfs format ("newc"),
 * uncompressed: the guest would spend longer decompressing it under TCG
 * than QEMU spends loading it.
 */
int image_layout_write_cpio(const struct image_layout *l, FILE *f,
			    struct strbuf *err);

/* --------------------------------------------------------- modules */

/* The modules the agent loads, NULL-terminated. */
extern const char *const image_default_modules[];
/* What bootproof's initramfs loads to mount the root image: the root disk
 * (virtio-blk on PCI) and its filesystem, NULL-terminated. */
extern const char *const image_root_modules[];

/* Texts of a modules directory (NUL-terminated; NULL when absent). */
struct image_moddir {
	const char *dep;	/* modules.dep: required */
	const char *builtin;	/* modules.builtin */
	const char *softdep;	/* modules.softdep */
	const char *alias;	/* modules.alias */
};

struct image_modsel {
	char **paths;		/* relative .ko paths, modules.dep order */
	size_t n_paths;
	char **builtin;		/* wanted names built into the kernel */
	size_t n_builtin;
	char **missing;		/* wanted names neither module nor built in */
	size_t n_missing;
};

#define IMAGE_MODSEL_INIT { .paths = NULL }
void image_modsel_done(struct image_modsel *s);

/*
 * "kernel/drivers/char/hw_random/virtio-rng.ko.xz" -> "virtio_rng" into
 * ret (size n).  0, or -EINVAL when it is not a .ko[.gz|.xz|.zst] path or
 * does not fit.
 */
int image_module_name(const char *path, char *ret, size_t n);

/*
 * Select the wanted modules (names with '-' or '_') and everything they
 * need: their modules.dep dependencies and their softdeps (pre: and
 * post:, resolved by name or through modules.alias), transitively.
 * Returns 0, -EBADMSG when modules.dep has a line without ':' (err says
 * which line), -EINVAL without modules.dep.
 */
int image_modules_select(const struct image_moddir *d,
			 const char *const *wanted, struct image_modsel *ret,
			 struct strbuf *err);

/*
 * Keep the lines of a modules.* file that belong to the selection, so
 * modprobe in the guest sees a consistent set.  file is the base name:
 * modules.dep, modules.order, modules.alias, modules.symbols,
 * modules.softdep or modules.devname (comments are dropped).  Appends to
 * out.  Returns the number of lines kept, -EINVAL for another name.
 */
int image_modules_filter(const struct image_modsel *s, const char *file,
			 const char *text, struct strbuf *out);

#endif
