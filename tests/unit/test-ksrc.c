// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksrc: which kernel tree a config or build stage works on.  A --ksrc
 * directory is checked (a kernel tree for x86, clean) and made absolute;
 * otherwise a tarball is unpacked once under <cache>/src/ and unpacked
 * again only when it changed or an unpack was interrupted.  The tarballs
 * are tiny fake kernel trees written here with libarchive; the real
 * linux-source-6.12 is unpacked by tests/integration/config.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/ksrc.h"
#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/strbuf.h"

static char dir[64];

/* One member of a fake tarball: a directory when text is NULL. */
struct member {
	const char *path;
	const char *text;
};

#define MAKEFILE_TEXT                                                        \
	"# SPDX-License-Identifier: GPL-2.0\n"                               \
	"VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n"     \
	"NAME = Baby Opossum Posse\n"

/* The files ksrc_check looks for, under top/. */
#define TREE(top)                                                            \
	{ top "/", NULL }, { top "/Makefile", MAKEFILE_TEXT },               \
	{ top "/Kconfig", "mainmenu \"Linux\"\n" },                          \
	{ top "/arch/", NULL }, { top "/arch/x86/", NULL },                  \
	{ top "/arch/x86/Kconfig", "config X86\n\tdef_bool y\n" },           \
	{ top "/arch/x86/configs/", NULL },                                  \
	{ top "/arch/x86/configs/x86_64_defconfig", "CONFIG_SMP=y\n" },      \
	{ top "/scripts/", NULL }, { top "/scripts/kconfig/", NULL },        \
	{ top "/scripts/kconfig/Makefile", "# kconfig\n" },                  \
	{ top "/scripts/kconfig/merge_config.sh", "#!/bin/sh\n" }

static char *at(const char *rel)
{
	char *p = path_join(dir, rel);

	assert_non_null(p);
	return p;
}

static bool exists(const char *d, const char *rel)
{
	_cleanup_free_ char *p = rel ? path_join(d, rel) : strdup(d);
	struct stat st;

	return stat(p, &st) == 0;
}

static void put(const char *d, const char *rel, const char *text)
{
	_cleanup_free_ char *p = path_join(d, rel);
	_cleanup_free_ char *parent = strdup(p);

	*strrchr(parent, '/') = '\0';
	assert_int_equal(mkdir_p(parent, 0755), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text), 0644), 0);
}

/* A gzip'd tar of the n members at path. */
static void make_tarball(const char *path, const struct member *m, size_t n)
{
	struct archive *a = archive_write_new();

	assert_non_null(a);
	assert_int_equal(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
	assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		size_t len = m[i].text ? strlen(m[i].text) : 0;

		archive_entry_set_pathname(e, m[i].path);
		archive_entry_set_filetype(e, m[i].text ? AE_IFREG : AE_IFDIR);
		archive_entry_set_perm(e, m[i].text ? 0644 : 0755);
		archive_entry_set_size(e, (la_int64_t)len);
		archive_entry_set_mtime(e, 1700000000, 0);
		assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
		if (len)
			assert_int_equal(archive_write_data(a, m[i].text, len),
					 (la_ssize_t)len);
		archive_entry_free(e);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

static const struct member fake_tree[] = { TREE("linux-fake") };

/* A fake kernel tree as a directory (not a tarball) at dir/rel. */
static char *make_tree(const char *rel)
{
	char *t = at(rel);

	for (size_t i = 0; i < ELEMENTSOF(fake_tree); i++) {
		const char *p = fake_tree[i].path + strlen("linux-fake");

		if (fake_tree[i].text)
			put(t, p + 1, fake_tree[i].text);
		else {
			_cleanup_free_ char *d = path_join(t, p + 1);

			assert_int_equal(mkdir_p(d, 0755), 0);
		}
	}
	return t;
}

static void set_mtime(const char *path, time_t t)
{
	struct timespec ts[2] = { { .tv_sec = t }, { .tv_sec = t } };

	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/bp-test-ksrc-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	return rm_rf(dir) < 0;
}

/* --ksrc DIR must be a clean kernel tree for x86, each lack named. */
static void test_check(void **state)
{
	static const char *const needed[] = {
		"Makefile", "Kconfig", "arch/x86/Kconfig",
		"scripts/kconfig/Makefile", "scripts/kconfig/merge_config.sh",
	};
	_cleanup_free_ char *t = make_tree("check");
	_cleanup_free_ char *file = at("check/Makefile");
	_cleanup_free_ char *none = at("nonexistent");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(ksrc_check(t, &err), 0);
	assert_int_equal(ksrc_check(t, NULL), 0);

	assert_int_equal(ksrc_check(none, &err), -ENOENT);
	assert_non_null(strstr(err.buf, none));
	assert_int_equal(ksrc_check(file, &err), -ENOTDIR);
	assert_non_null(strstr(err.buf, "not a directory"));

	for (size_t i = 0; i < ELEMENTSOF(needed); i++) {
		_cleanup_free_ char *p = path_join(t, needed[i]);
		_cleanup_free_ char *saved = NULL;
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;

		assert_true(strbuf_read_file(&text, p, 1 << 16) >= 0);
		assert_int_equal(unlink(p), 0);
		assert_int_equal(ksrc_check(t, &err), -EINVAL);
		strbuf_addf(&want, "%s is not a kernel source tree for x86: no %s",
			    t, needed[i]);
		assert_string_equal(err.buf, want.buf);
		/* A directory of that name is no better than none. */
		assert_int_equal(mkdir(p, 0755), 0);
		assert_int_equal(ksrc_check(t, &err), -EINVAL);
		assert_string_equal(err.buf, want.buf);
		assert_int_equal(rmdir(p), 0);
		put(t, needed[i], text.buf);
		assert_int_equal(ksrc_check(t, &err), 0);
	}

	{
		_cleanup_free_ char *configs = path_join(t, "arch/x86/configs");
		_cleanup_free_ char *aside = path_join(t, "arch/x86/configs.aside");

		assert_int_equal(rename(configs, aside), 0);
		assert_int_equal(ksrc_check(t, &err), -EINVAL);
		assert_non_null(strstr(err.buf, "no arch/x86/configs/"));
		assert_int_equal(rename(aside, configs), 0);
	}

	/* A configured tree: Kbuild refuses O= builds from it. */
	put(t, ".config", "CONFIG_SMP=y\n");
	assert_int_equal(ksrc_check(t, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "is not clean"));
	assert_non_null(strstr(err.buf, "make mrproper"));
	{
		_cleanup_free_ char *c = path_join(t, ".config");
		_cleanup_free_ char *inc = path_join(t, "include/config");

		assert_int_equal(unlink(c), 0);
		assert_int_equal(ksrc_check(t, &err), 0);
		assert_int_equal(mkdir_p(inc, 0755), 0);
		assert_int_equal(ksrc_check(t, &err), -EINVAL);
		assert_non_null(strstr(err.buf, "is not clean"));
	}
}

static void release_of(const char *makefile, int want_r, const char *want)
{
	_cleanup_free_ char *t = at("rel");
	_cleanup_free_ char *got = NULL;

	put(t, "Makefile", makefile);
	assert_int_equal(ksrc_release(t, &got), want_r);
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
}

static void test_release(void **state)
{
	_cleanup_free_ char *none = at("no-makefile");
	char *got = NULL;

	release_of(MAKEFILE_TEXT, 0, "6.12.118");
	release_of("VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n", 0, "6.1.0");
	release_of("VERSION = 6\nPATCHLEVEL = 13\nSUBLEVEL = 0\nEXTRAVERSION = -rc3\n",
		   0, "6.13.0-rc3");
	/* Tabs, CRLF, a longer name with the same prefix first. */
	release_of("VERSIONX = 9\nVERSION\t=\t5 \r\nPATCHLEVEL=10\r\nSUBLEVEL = 7\t\n",
		   0, "5.10.7");
	release_of("VERSION = 6\nPATCHLEVEL = 12\n", -EINVAL, NULL);
	release_of("# not a kernel Makefile\nall:\n\ttrue\n", -EINVAL, NULL);
	assert_int_equal(mkdir_p(none, 0755), 0);
	assert_int_equal(ksrc_release(none, &got), -ENOENT);
	assert_null(got);
}

static void unpack_dir_is(const char *cache, const char *tarball,
			  const char *want)
{
	_cleanup_free_ char *got = ksrc_unpack_dir(cache, tarball);

	assert_non_null(got);
	assert_string_equal(got, want);
}

static void test_unpack_dir(void **state)
{
	unpack_dir_is("/var/cache/bootproof", KSRC_DEFAULT_TARBALL,
		      "/var/cache/bootproof/src/linux-source-6.12");
	unpack_dir_is("/c", "/x/linux-6.13.tar.gz", "/c/src/linux-6.13");
	unpack_dir_is("/c", "linux.tar", "/c/src/linux");
	unpack_dir_is("/c", "/x/tree.tgz", "/c/src/tree.tgz");
	unpack_dir_is("/c", "/x/.tar.xz", "/c/src/.tar.xz");
}

/* Unpacked to dir, marked, recognised; a changed tarball is not. */
static void test_unpack(void **state)
{
	_cleanup_free_ char *tb = at("linux-fake.tar.gz");
	_cleanup_free_ char *d = at("cache/src/linux-fake");
	_cleanup_free_ char *marker = at("cache/src/linux-fake.unpacked");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf mk = STRBUF_INIT;
	struct stat st;

	make_tarball(tb, fake_tree, ELEMENTSOF(fake_tree));
	assert_false(ksrc_is_unpacked(tb, d));
	assert_int_equal(ksrc_unpack(tb, d, &err), 0);
	assert_int_equal(ksrc_check(d, &err), 0);
	assert_true(strbuf_read_file(&mk, marker, 4096) > 0);
	assert_non_null(strstr(mk.buf, tb));
	assert_true(ksrc_is_unpacked(tb, d));
	/* The top-level directory became d: nothing else under src/. */
	assert_false(exists(d, "linux-fake"));
	{
		_cleanup_free_ char *mf = path_join(d, "Makefile");
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

		assert_true(strbuf_read_file(&text, mf, 4096) > 0);
		assert_string_equal(text.buf, MAKEFILE_TEXT);
	}

	/* A newer tarball (mtime), or another of the same mtime (size). */
	assert_int_equal(stat(tb, &st), 0);
	set_mtime(tb, st.st_mtime + 10);
	assert_false(ksrc_is_unpacked(tb, d));
	set_mtime(tb, st.st_mtime);
	assert_true(ksrc_is_unpacked(tb, d));
	{
		struct member more[ELEMENTSOF(fake_tree) + 1];

		memcpy(more, fake_tree, sizeof(fake_tree));
		more[ELEMENTSOF(fake_tree)] = (struct member){
			"linux-fake/README", "a longer tarball, with a README\n"
		};
		make_tarball(tb, more, ELEMENTSOF(more));
		set_mtime(tb, st.st_mtime);
		assert_false(ksrc_is_unpacked(tb, d));
		/* Unpacked again: the old tree is replaced, not merged. */
		put(d, "stray", "left from before\n");
		assert_int_equal(ksrc_unpack(tb, d, &err), 0);
		assert_true(ksrc_is_unpacked(tb, d));
		assert_true(exists(d, "README"));
		assert_false(exists(d, "stray"));
	}

	/* An unpack that fails takes the marker with it, even when the
	 * tarball looks the same (size and mtime) as the one unpacked. */
	assert_int_equal(stat(tb, &st), 0);
	{
		int fd = open(tb, O_WRONLY);
		static const char junk[16] = "0123456789abcdef";

		assert_true(fd >= 0);
		assert_int_equal(pwrite(fd, junk, sizeof(junk), st.st_size / 2),
				 (ssize_t)sizeof(junk));
		assert_int_equal(close(fd), 0);
	}
	set_mtime(tb, st.st_mtime);
	assert_true(ksrc_is_unpacked(tb, d));
	assert_int_equal(ksrc_unpack(tb, d, &err), -EIO);
	assert_non_null(strstr(err.buf, tb));
	assert_false(exists(marker, NULL));
	assert_false(ksrc_is_unpacked(tb, d));
	make_tarball(tb, fake_tree, ELEMENTSOF(fake_tree));
	assert_int_equal(ksrc_unpack(tb, d, &err), 0);

	/* No marker (an unpack that did not finish), or no tree. */
	assert_int_equal(unlink(marker), 0);
	assert_false(ksrc_is_unpacked(tb, d));
	assert_int_equal(ksrc_unpack(tb, d, &err), 0);
	assert_true(ksrc_is_unpacked(tb, d));
	assert_int_equal(rm_rf(d), 0);
	assert_false(ksrc_is_unpacked(tb, d));
	{
		_cleanup_free_ char *gone = at("nonexistent.tar.gz");

		assert_false(ksrc_is_unpacked(gone, d));
		assert_int_equal(ksrc_unpack(gone, d, &err), -ENOENT);
		assert_non_null(strstr(err.buf, gone));
	}
}

/* A bad tarball: refused with its name, nothing left behind. */
static void bad_tarball(const struct member *m, size_t n, int want_r,
			const char *want_msg)
{
	_cleanup_free_ char *tb = at("bad.tar.gz");
	_cleanup_free_ char *src = at("badcache/src");
	_cleanup_free_ char *d = at("badcache/src/bad");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf ls = STRBUF_INIT;

	if (m)
		make_tarball(tb, m, n);
	else
		put(dir, "bad.tar.gz", "this is not an archive\n");
	assert_int_equal(ksrc_unpack(tb, d, &err), want_r);
	assert_non_null(strstr(err.buf, want_msg));
	assert_false(ksrc_is_unpacked(tb, d));
	assert_false(exists(d, NULL));
	/* No <dir>.unpack.* and no marker: src/ is empty. */
	{
		DIR *dh = opendir(src);
		struct dirent *de;

		assert_non_null(dh);
		while ((de = readdir(dh)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				strbuf_addf(&ls, "%s ", de->d_name);
		closedir(dh);
	}
	assert_string_equal(ls.buf, "");
	assert_false(exists(dir, "evil"));
	assert_int_equal(rm_rf(src), 0);
}

static void test_unpack_refused(void **state)
{
	static const struct member dotdot[] = {
		{ "linux-fake/", NULL }, { "linux-fake/../../evil", "x\n" },
	};
	static const struct member abs[] = {
		{ "linux-fake/", NULL }, { "/tmp/bp-test-ksrc-evil", "x\n" },
	};
	static const struct member two[] = {
		{ "linux-a/", NULL }, { "linux-a/Makefile", "x\n" },
		{ "linux-b/", NULL }, { "linux-b/Makefile", "x\n" },
	};

	bad_tarball(dotdot, ELEMENTSOF(dotdot), -EINVAL,
		    "unsafe member path 'linux-fake/../../evil'");
	bad_tarball(abs, ELEMENTSOF(abs), -EINVAL, "unsafe member path");
	assert_false(exists("/tmp/bp-test-ksrc-evil", NULL));
	bad_tarball(two, ELEMENTSOF(two), -EINVAL,
		    "more than one top-level directory ('linux-a' and 'linux-b')");
	bad_tarball(two, 0, -EINVAL, "empty archive");
	bad_tarball(NULL, 0, -EIO, "bad.tar.gz");
}

/* --ksrc DIR: made absolute and checked; nothing is unpacked. */
static void test_resolve_arg(void **state)
{
	_cleanup_free_ char *t = make_tree("arg-tree");
	_cleanup_free_ char *cache = at("arg-cache");
	_cleanup_free_ char *none = at("nonexistent");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char cwd[PATH_MAX], want[PATH_MAX];
	char *got = NULL;

	assert_non_null(realpath(t, want));
	assert_int_equal(ksrc_resolve(t, cache, &got, &err), 0);
	assert_string_equal(got, want);
	free(got);
	got = NULL;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(ksrc_resolve("./arg-tree/../arg-tree", cache, &got, &err), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(got, want);
	free(got);
	got = NULL;
	assert_false(exists(cache, NULL));

	assert_int_equal(ksrc_resolve(none, cache, &got, &err), -ENOENT);
	assert_null(got);
	assert_non_null(strstr(err.buf, "--ksrc "));
	assert_non_null(strstr(err.buf, none));

	put(t, ".config", "CONFIG_SMP=y\n");
	assert_int_equal(ksrc_resolve(t, cache, &got, &err), -EINVAL);
	assert_null(got);
	assert_non_null(strstr(err.buf, "is not clean"));
}

/* No --ksrc: the tarball is unpacked on first use, then reused until it
 * changes or its unpack is found unfinished. */
static void test_resolve_tarball(void **state)
{
	_cleanup_free_ char *tb = at("linux-fake.tar.gz");
	_cleanup_free_ char *cache = at("rcache");
	_cleanup_free_ char *d = at("rcache/src/linux-fake");
	_cleanup_free_ char *marker = at("rcache/src/linux-fake.unpacked");
	_cleanup_free_ char *leftover = at("rcache/src/linux-fake.unpack.Ab12Cd");
	_cleanup_free_ char *other = at("rcache/src/linux-other.unpack.Ab12Cd");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct stat st;
	char *got = NULL;

	make_tarball(tb, fake_tree, ELEMENTSOF(fake_tree));
	assert_int_equal(ksrc_resolve_from(NULL, tb, cache, &got, &err), 0);
	assert_string_equal(got, d);
	free(got);
	got = NULL;
	assert_true(ksrc_is_unpacked(tb, d));
	assert_true(exists(cache, "src/.lock"));

	/* Used again: not unpacked again (a file put in the tree stays). */
	put(d, "sentinel", "unpacked once\n");
	assert_int_equal(ksrc_resolve_from(NULL, tb, cache, &got, &err), 0);
	assert_string_equal(got, d);
	free(got);
	got = NULL;
	assert_true(exists(d, "sentinel"));

	/* The tarball changed: unpacked again; a killed unpack's temporary
	 * directory goes, another tree's stays. */
	assert_int_equal(mkdir_p(leftover, 0755), 0);
	assert_int_equal(mkdir_p(other, 0755), 0);
	assert_int_equal(stat(tb, &st), 0);
	set_mtime(tb, st.st_mtime + 60);
	assert_int_equal(ksrc_resolve_from(NULL, tb, cache, &got, &err), 0);
	free(got);
	got = NULL;
	assert_false(exists(d, "sentinel"));
	assert_false(exists(leftover, NULL));
	assert_true(exists(other, NULL));
	assert_true(ksrc_is_unpacked(tb, d));

	/* An unpack that did not finish (no marker): done again. */
	put(d, "sentinel", "half an unpack\n");
	assert_int_equal(unlink(marker), 0);
	assert_int_equal(ksrc_resolve_from(NULL, tb, cache, &got, &err), 0);
	free(got);
	got = NULL;
	assert_false(exists(d, "sentinel"));
	assert_true(ksrc_is_unpacked(tb, d));

	/* The unpacked tree must be a kernel tree too. */
	{
		static const struct member half[] = {
			{ "linux-fake/", NULL },
			{ "linux-fake/Makefile", MAKEFILE_TEXT },
		};

		make_tarball(tb, half, ELEMENTSOF(half));
		assert_int_equal(ksrc_resolve_from(NULL, tb, cache, &got, &err),
				 -EINVAL);
		assert_null(got);
		assert_non_null(strstr(err.buf, "is not a kernel source tree"));
	}

	/* No tarball: -ENOENT naming it and what to install. */
	assert_int_equal(unlink(tb), 0);
	assert_int_equal(ksrc_resolve_from(NULL, tb, cache, &got, &err), -ENOENT);
	assert_null(got);
	assert_non_null(strstr(err.buf, tb));
	assert_non_null(strstr(err.buf, "--ksrc not given"));
	assert_non_null(strstr(err.buf, "make setup"));
}

/* The state of a tree: what a build from a user's tree is keyed by. */
static void state_of(const char *t, const char *cache, struct ksrc_state *st)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(ksrc_state(t, cache, st, &err), 0);
}

/* Editing a .c file changes the tree's state but not what Kconfig
 * reads; editing a Kconfig changes both; .git is not looked at; an
 * unchanged tree keeps its state; bootproof's own unpack has none. */
static void test_state(void **state)
{
	_cleanup_free_ char *t = make_tree("state-tree");
	_cleanup_free_ char *cache = at("state-cache");
	_cleanup_free_ char *c = path_join(t, "init/main.c");
	_cleanup_free_ char *own = at("state-cache/src/linux-source-6.12");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct ksrc_state a, b;

	put(t, "init/main.c", "int main;\n");
	put(t, ".git/HEAD", "ref: refs/heads/main\n");
	set_mtime(c, 1700000000);
	state_of(t, cache, &a);
	assert_true(a.tracked);
	assert_int_equal(a.n_files, 7);	/* TREE's six files and main.c */
	assert_int_equal(strlen(a.files), 64);
	state_of(t, cache, &b);
	assert_string_equal(a.files, b.files);
	assert_string_equal(a.kconfig, b.kconfig);

	put(t, ".git/HEAD", "ref: refs/heads/other\n");
	state_of(t, cache, &b);
	assert_string_equal(a.files, b.files);

	set_mtime(c, 1700000001);		/* touched */
	state_of(t, cache, &b);
	assert_string_not_equal(a.files, b.files);
	assert_string_equal(a.kconfig, b.kconfig);

	a = b;
	put(t, "init/main.c", "int main; int x;\n");	/* same second, new size */
	set_mtime(c, 1700000001);
	state_of(t, cache, &b);
	assert_string_not_equal(a.files, b.files);

	a = b;
	put(t, "init/Kconfig", "config FOO\n\tbool\n");
	state_of(t, cache, &b);
	assert_string_not_equal(a.files, b.files);
	assert_string_not_equal(a.kconfig, b.kconfig);

	/* A tree bootproof unpacked under its cache never changes. */
	assert_int_equal(mkdir_p(own, 0755), 0);
	state_of(own, cache, &b);
	assert_false(b.tracked);
	assert_string_equal(b.files, "");

	/* An unreadable directory is an error naming it. */
	if (geteuid() != 0) {
		_cleanup_free_ char *d = path_join(t, "init");

		assert_int_equal(chmod(d, 0), 0);
		assert_true(ksrc_state(t, cache, &b, &err) < 0);
		assert_non_null(strstr(err.buf, d));
		assert_int_equal(chmod(d, 0755), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_unpack_dir),
		cmocka_unit_test(test_unpack),
		cmocka_unit_test(test_unpack_refused),
		cmocka_unit_test(test_resolve_arg),
		cmocka_unit_test(test_resolve_tarball),
		cmocka_unit_test(test_state),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
