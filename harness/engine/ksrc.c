// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/ksrc.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/sha256.h"

static bool exists_as(const char *dir, const char *rel, mode_t type)
{
	_cleanup_free_ char *p = path_join(dir, rel);
	struct stat st;

	return stat(p, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

int ksrc_check(const char *dir, struct strbuf *err)
{
	static const char *const files[] = {
		"Makefile", "Kconfig", "arch/x86/Kconfig",
		"scripts/kconfig/Makefile", "scripts/kconfig/merge_config.sh",
	};
	struct stat st;

	if (stat(dir, &st) < 0)
		return strbuf_fail(err, -errno, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return strbuf_fail(err, -ENOTDIR, "%s: not a directory", dir);
	for (size_t i = 0; i < ELEMENTSOF(files); i++)
		if (!exists_as(dir, files[i], S_IFREG))
			return strbuf_fail(err, -EINVAL,
				    "%s is not a kernel source tree for x86: "
				    "no %s",
				    dir, files[i]);
	if (!exists_as(dir, "arch/x86/configs", S_IFDIR))
		return strbuf_fail(err, -EINVAL,
			    "%s is not a kernel source tree for x86: no "
			    "arch/x86/configs/",
			    dir);
	if (exists_as(dir, ".config", S_IFREG) ||
	    exists_as(dir, "include/config", S_IFDIR))
		return strbuf_fail(err, -EINVAL,
			    "%s is not clean (it has a .config or "
			    "include/config/): Kbuild refuses out-of-tree "
			    "builds from it; run 'make mrproper' there or "
			    "use a clean copy",
			    dir);
	return 0;
}

bool ksrc_looks_like(const char *dir)
{
	return exists_as(dir, "Makefile", S_IFREG) &&
	       exists_as(dir, "Kconfig", S_IFREG) &&
	       exists_as(dir, "arch/x86/Kconfig", S_IFREG);
}

/* "VERSION = 6" -> "6" (trimmed), from the first lines of the Makefile. */
static bool makefile_var(const char *text, const char *var, char *out,
			 size_t outsz)
{
	size_t vlen = strlen(var);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = l;
		size_t n = 0;

		if (strncmp(p, var, vlen))
			continue;
		p += vlen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '=')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		while (p[n] && p[n] != '\n' && n + 1 < outsz)
			n++;
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' ||
			     p[n - 1] == '\r'))
			n--;
		memcpy(out, p, n);
		out[n] = '\0';
		return true;
	}
	return false;
}

int ksrc_release(const char *dir, char **ret)
{
	_cleanup_free_ char *mk = path_join(dir, "Makefile");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char v[32], p[32], s[32], e[64];
	char *out;
	long r;

	r = strbuf_read_file(&sb, mk, 1 << 20);
	if (r < 0)
		return (int)r;
	if (!makefile_var(sb.buf, "VERSION", v, sizeof(v)) ||
	    !makefile_var(sb.buf, "PATCHLEVEL", p, sizeof(p)) ||
	    !makefile_var(sb.buf, "SUBLEVEL", s, sizeof(s)))
		return -EINVAL;
	if (!makefile_var(sb.buf, "EXTRAVERSION", e, sizeof(e)))
		e[0] = '\0';
	if (asprintf(&out, "%s.%s.%s%s", v, p, s, e) < 0)
		return -ENOMEM;
	*ret = out;
	return 0;
}

char *ksrc_unpack_dir(const char *cache, const char *tarball)
{
	const char *b = strrchr(tarball, '/');
	_cleanup_free_ char *name = NULL;
	_cleanup_free_ char *src = NULL;
	char *dot;

	b = b ? b + 1 : tarball;
	name = strdup(b);
	if (!name)
		return NULL;
	dot = strstr(name, ".tar");
	if (dot && dot != name)
		*dot = '\0';
	src = path_join(cache, "src");
	return path_join(src, name);
}

static char *marker_path(const char *dir)
{
	char *m;

	if (asprintf(&m, "%s.unpacked", dir) < 0)
		return NULL;
	return m;
}

/* What the marker records about the tarball. */
static int marker_text(const char *tarball, struct strbuf *sb)
{
	struct stat st;

	if (stat(tarball, &st) < 0)
		return -errno;
	strbuf_addf(sb, "%s size=%lld mtime=%lld\n", tarball,
		    (long long)st.st_size, (long long)st.st_mtime);
	return 0;
}

bool ksrc_is_unpacked(const char *tarball, const char *dir)
{
	_cleanup_free_ char *m = marker_path(dir);
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf have = STRBUF_INIT;
	struct stat st;

	if (!m || marker_text(tarball, &want) < 0)
		return false;
	if (strbuf_read_file(&have, m, 4096) < 0)
		return false;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	return !strcmp(want.buf, have.buf);
}

static void archive_readp(struct archive **a)
{
	if (*a)
		archive_read_free(*a);
}

static void archive_writep(struct archive **a)
{
	if (*a)
		archive_write_free(*a);
}

/* An archive member's path is acceptable: relative, no "..". */
static bool safe_member(const char *p)
{
	if (!p || !*p || p[0] == '/')
		return false;
	for (const char *s = p; s; s = strchr(s, '/'), s = s ? s + 1 : NULL)
		if (s[0] == '.' && s[1] == '.' && (s[2] == '/' || !s[2]))
			return false;
	return true;
}

/* Extract every member of tarball under tmp.  Top-level names go to
 * *ret_top (the first one seen). */
static int extract(const char *tarball, const char *tmp, char **ret_top,
		   struct strbuf *err)
{
	_cleanup_(archive_readp) struct archive *a = archive_read_new();
	_cleanup_(archive_writep) struct archive *w = archive_write_disk_new();
	_cleanup_free_ char *top = NULL;
	struct archive_entry *e;
	int r;

	if (!a || !w)
		return -ENOMEM;
	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	archive_write_disk_set_options(w, ARCHIVE_EXTRACT_TIME |
						  ARCHIVE_EXTRACT_PERM |
						  ARCHIVE_EXTRACT_SECURE_NODOTDOT |
						  ARCHIVE_EXTRACT_SECURE_SYMLINKS);
	if (archive_read_open_filename(a, tarball, 1 << 16) != ARCHIVE_OK)
		return strbuf_fail(err, -EIO, "%s: %s", tarball,
			    archive_error_string(a));
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *path = archive_entry_pathname(e);
		const char *hl = archive_entry_hardlink(e);
		_cleanup_free_ char *dst = NULL;
		_cleanup_free_ char *dst_hl = NULL;
		const void *buf;
		size_t size;
		la_int64_t off;
		size_t toplen;

		if (!safe_member(path) || (hl && !safe_member(hl)))
			return strbuf_fail(err, -EINVAL,
				    "%s: unsafe member path '%s'", tarball,
				    path ? path : "");
		toplen = strcspn(path, "/");
		if (!top) {
			top = strndup(path, toplen);
			if (!top)
				return -ENOMEM;
		} else if (strlen(top) != toplen || strncmp(top, path, toplen))
			return strbuf_fail(err, -EINVAL,
				    "%s: more than one top-level directory "
				    "('%s' and '%.*s')",
				    tarball, top, (int)toplen, path);
		dst = path_join(tmp, path);
		archive_entry_set_pathname(e, dst);
		if (hl) {
			dst_hl = path_join(tmp, hl);
			archive_entry_set_hardlink(e, dst_hl);
		}
		if (archive_write_header(w, e) != ARCHIVE_OK)
			return strbuf_fail(err, -EIO, "%s: %s", dst,
				    archive_error_string(w));
		while ((r = archive_read_data_block(a, &buf, &size, &off)) ==
		       ARCHIVE_OK)
			if (archive_write_data_block(w, buf, size, off) !=
			    ARCHIVE_OK)
				return strbuf_fail(err, -EIO, "%s: %s", dst,
					    archive_error_string(w));
		if (r != ARCHIVE_EOF)
			return strbuf_fail(err, -EIO, "%s: %s", tarball,
				    archive_error_string(a));
		if (archive_write_finish_entry(w) != ARCHIVE_OK)
			return strbuf_fail(err, -EIO, "%s: %s", dst,
				    archive_error_string(w));
	}
	if (r != ARCHIVE_EOF)
		return strbuf_fail(err, -EIO, "%s: %s", tarball,
			    archive_error_string(a));
	if (archive_write_close(w) != ARCHIVE_OK)
		return strbuf_fail(err, -EIO, "%s: %s", tmp, archive_error_string(w));
	if (!top)
		return strbuf_fail(err, -EINVAL, "%s: empty archive", tarball);
	*ret_top = TAKE_PTR(top);
	return 0;
}

int ksrc_unpack(const char *tarball, const char *dir, struct strbuf *err)
{
	_cleanup_free_ char *parent = NULL;
	_cleanup_free_ char *tmp = NULL;
	_cleanup_free_ char *top = NULL;
	_cleanup_free_ char *from = NULL;
	_cleanup_free_ char *marker = marker_path(dir);
	_cleanup_strbuf_ struct strbuf mtext = STRBUF_INIT;
	char *slash;
	int r;

	if (!marker)
		return -ENOMEM;
	r = marker_text(tarball, &mtext);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", tarball, strerror(-r));
	parent = strdup(dir);
	if (!parent)
		return -ENOMEM;
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = '\0';
	r = mkdir_p(parent, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", parent, strerror(-r));
	if (asprintf(&tmp, "%s.unpack.XXXXXX", dir) < 0)
		return -ENOMEM;
	if (!mkdtemp(tmp))
		return strbuf_fail(err, -errno, "%s: %s", tmp, strerror(errno));

	unlink(marker);
	r = extract(tarball, tmp, &top, err);
	if (r == 0) {
		from = path_join(tmp, top);
		r = rm_rf(dir);
		if (r == 0 && rename(from, dir) < 0)
			r = strbuf_fail(err, -errno, "rename %s to %s: %s", from, dir,
				 strerror(errno));
	}
	rm_rf(tmp);
	if (r < 0)
		return r;
	r = write_file_atomic(marker, mtext.buf, mtext.len, 0644);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", marker, strerror(-r));
	return 0;
}

/*
 * Remove <dir>.unpack.* left by an unpack that was killed: only called with
 * the lock held, when nobody else can be unpacking.
 */
static void remove_leftovers(const char *dir)
{
	_cleanup_free_ char *parent = strdup(dir);
	_cleanup_closedir_ DIR *d = NULL;
	const char *base;
	struct dirent *de;
	char *slash;
	size_t blen;

	if (!parent || !(slash = strrchr(parent, '/')))
		return;
	*slash = '\0';
	base = slash + 1;
	blen = strlen(base);
	d = opendir(parent);
	if (!d)
		return;
	while ((de = readdir(d))) {
		_cleanup_free_ char *p = NULL;

		if (strncmp(de->d_name, base, blen) ||
		    strncmp(de->d_name + blen, ".unpack.", 8))
			continue;
		p = path_join(parent, de->d_name);
		rm_rf(p);
	}
}

int ksrc_resolve(const char *arg, const char *cache, char **ret,
		 struct strbuf *err)
{
	return ksrc_resolve_from(arg, KSRC_DEFAULT_TARBALL, cache, ret, err);
}

int ksrc_resolve_from(const char *arg, const char *tarball, const char *cache,
		      char **ret, struct strbuf *err)
{
	_cleanup_free_ char *dir = NULL;
	int r;

	if (arg) {
		char buf[PATH_MAX];

		if (!realpath(arg, buf))
			return strbuf_fail(err, -errno, "--ksrc %s: %s", arg,
				    strerror(errno));
		dir = strdup(buf);
		if (!dir)
			return -ENOMEM;
	} else {
		_cleanup_free_ char *src = path_join(cache, "src");
		_cleanup_free_ char *lock = path_join(src, ".lock");
		_cleanup_close_ int fd = -1;

		if (access(tarball, R_OK) < 0)
			return strbuf_fail(err, -ENOENT,
				    "no kernel tree: --ksrc not given and %s "
				    "is missing (Debian package "
				    "linux-source-6.12; make setup installs it)",
				    tarball);
		dir = ksrc_unpack_dir(cache, tarball);
		if (!dir)
			return -ENOMEM;
		r = mkdir_p(src, 0755);
		if (r < 0)
			return strbuf_fail(err, r, "%s: %s", src, strerror(-r));
		fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			return strbuf_fail(err, -errno, "%s: %s", lock,
				    strerror(errno));
		while (flock(fd, LOCK_EX) < 0)
			if (errno != EINTR)
				return strbuf_fail(err, -errno, "%s: %s", lock,
					    strerror(errno));
		if (!ksrc_is_unpacked(tarball, dir)) {
			remove_leftovers(dir);
			r = ksrc_unpack(tarball, dir, err);
			if (r < 0)
				return r;
		}
	}
	r = ksrc_check(dir, err);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(dir);
	return 0;
}

/* ------------------------------------------------------------ state */

static int by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

static bool under(const char *rel, const char *dir)
{
	return !strncmp(rel, dir, strlen(dir));
}

/* Does the config stage read rel (make *config, merge_config.sh)? */
static bool kconfig_input(const char *rel, const char *name)
{
	return !strncmp(name, "Kconfig", 7) || !strcmp(rel, "Makefile") ||
	       under(rel, "arch/x86/configs/") ||
	       under(rel, "kernel/configs/") || under(rel, "scripts/kconfig/");
}

static bool own_unpack(const char *dir, const char *cache)
{
	_cleanup_free_ char *src = path_join(cache, "src");
	size_t n = strlen(src);

	return !strncmp(dir, src, n) && dir[n] == '/';
}

static int walk(const char *dir, struct ksrc_state *st, struct strbuf *err)
{
	_cleanup_(sha256_done) struct sha256 all = SHA256_INIT;
	_cleanup_(sha256_done) struct sha256 kc = SHA256_INIT;
	char *const roots[] = { (char *)dir, NULL };
	size_t skip = strlen(dir) + 1;
	FTS *f;
	FTSENT *e;
	int r = sha256_begin(&all);

	if (r >= 0)
		r = sha256_begin(&kc);
	if (r < 0)
		return r;
	f = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, by_name);
	if (!f)
		return strbuf_fail(err, -errno, "%s: %s", dir, strerror(errno));
	while ((e = fts_read(f))) {
		char line[64];
		const char *rel = e->fts_pathlen > skip ? e->fts_path + skip : "";

		switch (e->fts_info) {
		case FTS_D:
			if (e->fts_level > 0 && !strcmp(e->fts_name, ".git"))
				fts_set(f, e, FTS_SKIP);
			continue;
		case FTS_F:
		case FTS_SL:
		case FTS_SLNONE:
			break;
		case FTS_DNR:
		case FTS_ERR:
		case FTS_NS:
			r = strbuf_fail(err, -e->fts_errno, "%s: %s", e->fts_path,
					strerror(e->fts_errno));
			fts_close(f);
			return r;
		default:
			continue;
		}
		snprintf(line, sizeof(line), "\t%lld\t%lld.%09ld",
			 (long long)e->fts_statp->st_size,
			 (long long)e->fts_statp->st_mtim.tv_sec,
			 e->fts_statp->st_mtim.tv_nsec);
		sha256_add_str(&all, rel);
		sha256_add_str(&all, line);
		if (kconfig_input(rel, e->fts_name)) {
			sha256_add_str(&kc, rel);
			sha256_add_str(&kc, line);
		}
		st->n_files++;
	}
	r = errno ? -errno : 0;
	fts_close(f);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", dir, strerror(-r));
	r = sha256_end_hex(&all, st->files);
	if (r >= 0)
		r = sha256_end_hex(&kc, st->kconfig);
	return r;
}

int ksrc_state(const char *dir, const char *cache, struct ksrc_state *ret,
	       struct strbuf *err)
{
	double t0 = clock_mono_s();
	int r;

	*ret = (struct ksrc_state){ 0 };
	if (own_unpack(dir, cache))
		return 0;
	ret->tracked = true;
	r = walk(dir, ret, err);
	ret->seconds = clock_mono_s() - t0;
	return r;
}
