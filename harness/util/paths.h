/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where bootproof keeps things.
 *
 * Cache directory: $BOOTPROOF_CACHE, else /var/cache/bootproof for root,
 * else $XDG_CACHE_HOME/bootproof or ~/.cache/bootproof.  libvirt's QEMU
 * runs as an unprivileged user (libvirt-qemu) that cannot enter /root, so
 * everything a guest must read (kernels, images, overlays) is placed under
 * the cache directory, never read from where the user keeps it.
 */
#ifndef BP_PATHS_H
#define BP_PATHS_H

/* Returns a malloc'd path (caller frees), never NULL. */
char *bp_cache_dir(void);

/*
 * Join a directory and a relative path: returns a malloc'd string.
 * Aborts on allocation failure.
 */
char *path_join(const char *dir, const char *rel);

/*
 * The last component of path without suffix when it ends so (and is more
 * than the suffix): "dir/kvm_guest.config", ".config" gives "kvm_guest".
 * Returns a malloc'd string; aborts on allocation failure.
 */
char *path_stem(const char *path, const char *suffix);

/*
 * The project's data directory (the source checkout holding scenarios/ and
 * harness/kconfig-explain/): $BOOTPROOF_DATADIR when set, else the nearest
 * ancestor (up to three levels) of the running executable's directory that
 * has a scenarios/groups/ directory, else the current directory when it has
 * one.  Returns a malloc'd path, or NULL when none is found.
 */
char *bp_data_dir(void);

/* mkdir -p with mode for every created component.  0 or -errno. */
int mkdir_p(const char *path, unsigned mode);

#endif
