// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kbuild: ar archives (thin and regular, long names, symbol tables,
 * damage), .mod / modules.order words, ccache statistics logs; with the
 * real vmlinux.a and ccache log of a build (tests/data/cost/README.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/kbuild.h"
#include "util/strbuf.h"

struct names {
	struct strbuf all;	/* "name\n" each */
	int stop_at;		/* fn returns -ECANCELED at this call; -1 never */
	int calls;
};

static int collect(void *ud, const char *name, size_t len)
{
	struct names *n = ud;

	if (n->calls++ == n->stop_at)
		return -ECANCELED;
	strbuf_add(&n->all, name, len);
	strbuf_addch(&n->all, '\n');
	return 0;
}

/* An ar member header: name (16), date, uid, gid, mode, size, "`\n". */
static void hdr(struct strbuf *sb, const char *name, size_t size)
{
	char h[61];

	snprintf(h, sizeof(h), "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0",
		 "0", "0", "644", size);
	strbuf_add(sb, h, 60);
}

static void test_thin(void **state)
{
	_cleanup_strbuf_ struct strbuf a = STRBUF_INIT;
	struct names n = { STRBUF_INIT, -1, 0 };
	const char longnames[] = "arch/x86/kernel/cpu/common.o/\n"
				 "drivers/virtio/virtio_ring.o/\n";
	const char symtab[] = "\0\0\0\2xyz";	/* 7 bytes: padded to 8 */

	strbuf_addstr(&a, "!<thin>\n");
	hdr(&a, "/", 7);
	strbuf_add(&a, symtab, 7);
	strbuf_addch(&a, '\n');
	hdr(&a, "//", sizeof(longnames) - 1);
	strbuf_add(&a, longnames, sizeof(longnames) - 1);
	/* members: a short name, then both long ones; no data (thin) */
	hdr(&a, "main.o/", 123456);
	hdr(&a, "/0", 99999);
	hdr(&a, "/30", 5);
	assert_int_equal(kbuild_ar_members(a.buf, a.len, collect, &n), 3);
	assert_string_equal(n.all.buf, "main.o\n"
				       "arch/x86/kernel/cpu/common.o\n"
				       "drivers/virtio/virtio_ring.o\n");
	/* fn may stop the walk */
	strbuf_reset(&n.all);
	n.calls = 0;
	n.stop_at = 1;
	assert_int_equal(kbuild_ar_members(a.buf, a.len, collect, &n),
			 -ECANCELED);
	assert_string_equal(n.all.buf, "main.o\n");
	assert_int_equal(kbuild_ar_members(a.buf, a.len, NULL, NULL), 3);
	/* a long name past the table, or with no table */
	strbuf_setlen(&a, a.len - 60);
	hdr(&a, "/4000", 5);
	assert_int_equal(kbuild_ar_members(a.buf, a.len, NULL, NULL), -EINVAL);
	strbuf_release(&n.all);
}

static void test_regular(void **state)
{
	_cleanup_strbuf_ struct strbuf a = STRBUF_INIT;
	struct names n = { STRBUF_INIT, -1, 0 };

	strbuf_addstr(&a, "!<arch>\n");
	hdr(&a, "a.o/", 3);
	strbuf_add(&a, "abc\n", 4);	/* odd size: one byte of padding */
	hdr(&a, "bb.o/", 4);
	strbuf_add(&a, "wxyz", 4);
	assert_int_equal(kbuild_ar_members(a.buf, a.len, collect, &n), 2);
	assert_string_equal(n.all.buf, "a.o\nbb.o\n");
	/* data cut short */
	assert_int_equal(kbuild_ar_members(a.buf, a.len - 1, NULL, NULL),
			 -EINVAL);
	strbuf_release(&n.all);
}

static void test_damage(void **state)
{
	_cleanup_strbuf_ struct strbuf a = STRBUF_INIT;

	assert_int_equal(kbuild_ar_members(NULL, 0, NULL, NULL), -EINVAL);
	assert_int_equal(kbuild_ar_members("!<thin>", 7, NULL, NULL), -EINVAL);
	assert_int_equal(kbuild_ar_members("\177ELF\2\1\1\0", 8, NULL, NULL),
			 -EINVAL);
	/* an empty archive is fine */
	assert_int_equal(kbuild_ar_members("!<thin>\n", 8, NULL, NULL), 0);
	/* a header cut short; a bad size; a bad terminator */
	strbuf_addstr(&a, "!<thin>\n");
	hdr(&a, "x.o/", 1);
	assert_int_equal(kbuild_ar_members(a.buf, a.len - 1, NULL, NULL),
			 -EINVAL);
	a.buf[8 + 48] = 'z';
	assert_int_equal(kbuild_ar_members(a.buf, a.len, NULL, NULL), -EINVAL);
	a.buf[8 + 48] = '1';
	a.buf[8 + 58] = 'X';
	assert_int_equal(kbuild_ar_members(a.buf, a.len, NULL, NULL), -EINVAL);
	/* a symbol table bigger than the file */
	strbuf_reset(&a);
	strbuf_addstr(&a, "!<thin>\n");
	hdr(&a, "/", 1000);
	assert_int_equal(kbuild_ar_members(a.buf, a.len, NULL, NULL), -EINVAL);
	/* a size that does not fit */
	strbuf_reset(&a);
	strbuf_addstr(&a, "!<arch>\n");
	hdr(&a, "a.o/", 0);
	memcpy(a.buf + 8 + 48, "9999999999", 10);
	assert_int_equal(kbuild_ar_members(a.buf, a.len, NULL, NULL), -EINVAL);
}

static void test_words(void **state)
{
	struct names n = { STRBUF_INIT, -1, 0 };
	const char mod[] = "fs/fat/cache.o\nfs/fat/dir.o fs/fat/fatent.o\r\n\n"
			   "\t fs/fat/inode.o";

	assert_int_equal(kbuild_words(mod, sizeof(mod) - 1, collect, &n), 4);
	assert_string_equal(n.all.buf, "fs/fat/cache.o\nfs/fat/dir.o\n"
				       "fs/fat/fatent.o\nfs/fat/inode.o\n");
	assert_int_equal(kbuild_words("", 0, collect, &n), 0);
	assert_int_equal(kbuild_words(" \n\t", 3, NULL, NULL), 0);
	assert_int_equal(kbuild_words(NULL, 9, NULL, NULL), 0);
	n.calls = 0;
	n.stop_at = 0;
	assert_int_equal(kbuild_words(mod, sizeof(mod) - 1, collect, &n),
			 -ECANCELED);
	strbuf_release(&n.all);
}

static void test_ccache(void **state)
{
	/* As ccache 4.7 writes it (a miss, a direct hit, a preprocessed
	 * hit, one it could not cache, a record cut off) */
	const char log[] = "# a.c\ncache_miss\ndirect_cache_miss\n"
			   "local_storage_miss\npreprocessed_cache_miss\n"
			   "# a.c\ndirect_cache_hit\nlocal_storage_hit\n"
			   "# b.c\ndirect_cache_miss\npreprocessed_cache_hit\n"
			   "# c.S\nunsupported_source_language\n"
			   "# d.c\ncache_mi";
	struct kbuild_ccache c;

	kbuild_ccache_log(log, sizeof(log) - 1, &c);
	assert_int_equal(c.misses, 1);
	assert_int_equal(c.hits, 2);
	assert_int_equal(c.other, 2);
	kbuild_ccache_log(NULL, 0, &c);
	assert_true(!c.hits && !c.misses && !c.other);
	kbuild_ccache_log("cache_miss\n", 11, &c);	/* no record header */
	assert_int_equal(c.misses, 0);
}

struct real_names {
	size_t n, not_o;
	char first[64], last[64];
};

static int real_name(void *ud, const char *name, size_t len)
{
	struct real_names *r = ud;

	if (len < 2 || memcmp(name + len - 2, ".o", 2) || memchr(name, ' ', len))
		r->not_o++;
	if (!r->n++)
		snprintf(r->first, sizeof(r->first), "%.*s", (int)len, name);
	snprintf(r->last, sizeof(r->last), "%.*s", (int)len, name);
	return 0;
}

/* The real archives and ccache log of a build (tests/data/cost/). */
static void test_real(void **state)
{
	static const struct {
		const char *file;
		int members;
		const char *first, *last;
	} ar[] = {
		{ "vmlinux.a", 1257, "init/main.o", "arch/x86/pci/amd_bus.o" },
		{ "lib-lib.a", 35, "argv_split.o", NULL },
		{ "arch-x86-lib-lib.a", 25, NULL, NULL },
	};
	_cleanup_strbuf_ struct strbuf log = STRBUF_INIT;
	struct kbuild_ccache c;

	for (size_t i = 0; i < ELEMENTSOF(ar); i++) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf p = STRBUF_INIT;
		struct real_names r = { 0 };

		strbuf_addf(&p, "%s/cost/%s", TEST_DATA, ar[i].file);
		if (strbuf_read_file(&sb, p.buf, 0) < 0)
			fail_msg("%s: cannot read", p.buf);
		assert_int_equal(kbuild_ar_members(sb.buf, sb.len, real_name, &r),
				 ar[i].members);
		assert_int_equal(r.n, ar[i].members);
		assert_int_equal(r.not_o, 0);
		if (ar[i].first)
			assert_string_equal(r.first, ar[i].first);
		if (ar[i].last)
			assert_string_equal(r.last, ar[i].last);
	}
	if (strbuf_read_file(&log, TEST_DATA "/cost/ccache-stats.log", 0) < 0)
		fail_msg("ccache-stats.log: cannot read");
	kbuild_ccache_log(log.buf, log.len, &c);
	assert_int_equal(c.hits, 134);
	assert_int_equal(c.misses, 59);
	assert_int_equal(c.other, 123);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thin),
		cmocka_unit_test(test_regular),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_ccache),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
