// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elfsize: text/data/bss as binutils' size counts them, for both classes
 * and byte orders, and bad headers; with the header and section table of
 * a real vmlinux against `size`'s own output (tests/data/cost/README.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/elfsize.h"
#include "util/strbuf.h"

struct sec {
	uint32_t type;
	uint64_t flags, size;
};

/* The sections every test file has: what `size` puts where. */
static const struct sec secs[] = {
	{ SHT_NULL, 0, 0 },
	{ SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 1000 },	/* text */
	{ SHT_PROGBITS, SHF_ALLOC, 200 },			/* text (ro) */
	{ SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 30 },		/* data */
	{ SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 4000 },		/* bss */
	{ SHT_PROGBITS, 0, 99999 },				/* not loaded */
	{ SHT_NOBITS, SHF_ALLOC, 7 },				/* text (ro) */
	{ SHT_PROGBITS, SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR, 5 }, /* text */
};

static void put(unsigned char *p, uint64_t v, size_t w, bool big)
{
	for (size_t i = 0; i < w; i++)
		p[big ? w - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* head (ELFSIZE_HEAD bytes) and table of a file of that class/order. */
static size_t make(bool is64, bool big, unsigned char *head,
		   unsigned char *table)
{
	size_t ent = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);

	memset(head, 0, ELFSIZE_HEAD);
	memcpy(head, ELFMAG, SELFMAG);
	head[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	head[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	if (is64) {
		put(head + offsetof(Elf64_Ehdr, e_shoff), 4096, 8, big);
		put(head + offsetof(Elf64_Ehdr, e_shentsize), ent, 2, big);
		put(head + offsetof(Elf64_Ehdr, e_shnum), ELEMENTSOF(secs), 2, big);
	} else {
		put(head + offsetof(Elf32_Ehdr, e_shoff), 4096, 4, big);
		put(head + offsetof(Elf32_Ehdr, e_shentsize), ent, 2, big);
		put(head + offsetof(Elf32_Ehdr, e_shnum), ELEMENTSOF(secs), 2, big);
	}
	memset(table, 0, ent * ELEMENTSOF(secs));
	for (size_t i = 0; i < ELEMENTSOF(secs); i++) {
		unsigned char *s = table + i * ent;

		if (is64) {
			put(s + offsetof(Elf64_Shdr, sh_type), secs[i].type, 4, big);
			put(s + offsetof(Elf64_Shdr, sh_flags), secs[i].flags, 8, big);
			put(s + offsetof(Elf64_Shdr, sh_size), secs[i].size, 8, big);
		} else {
			put(s + offsetof(Elf32_Shdr, sh_type), secs[i].type, 4, big);
			put(s + offsetof(Elf32_Shdr, sh_flags), secs[i].flags, 4, big);
			put(s + offsetof(Elf32_Shdr, sh_size), secs[i].size, 4, big);
		}
	}
	return ent * ELEMENTSOF(secs);
}

static void test_synthetic(void **state)
{
	unsigned char head[ELFSIZE_HEAD], table[64 * 16];

	for (int cls = 0; cls < 2; cls++)
		for (int big = 0; big < 2; big++) {
			size_t len = make(cls, big, head, table);
			uint64_t off, want;
			struct elfsize s;

			assert_int_equal(elfsize_table(head, sizeof(head), &off,
						       &want), 0);
			assert_true(off == 4096 && want == len);
			assert_int_equal(elfsize_sum(head, sizeof(head), table,
						     len, &s), 0);
			assert_true(s.text == 1000 + 200 + 7 + 5);
			assert_true(s.data == 30);
			assert_true(s.bss == 4000);
			assert_int_equal(s.sections, 6);
			/* the table cut short */
			assert_int_equal(elfsize_sum(head, sizeof(head), table,
						     len - 1, &s), -ENOEXEC);
		}
}

static void test_bad(void **state)
{
	unsigned char head[ELFSIZE_HEAD], table[64 * 16], h2[ELFSIZE_HEAD];
	uint64_t off, len;
	struct elfsize s;

	make(true, false, head, table);
	assert_int_equal(elfsize_table(NULL, 0, &off, &len), -ENOEXEC);
	assert_int_equal(elfsize_table(head, 10, &off, &len), -ENOEXEC);
	assert_int_equal(elfsize_table(head, 63, &off, &len), -ENOEXEC);
	memcpy(h2, head, sizeof(h2));
	h2[0] = 'X';
	assert_int_equal(elfsize_table(h2, sizeof(h2), &off, &len), -ENOEXEC);
	memcpy(h2, head, sizeof(h2));
	h2[EI_CLASS] = 9;
	assert_int_equal(elfsize_table(h2, sizeof(h2), &off, &len), -ENOEXEC);
	memcpy(h2, head, sizeof(h2));
	h2[EI_DATA] = 0;
	assert_int_equal(elfsize_table(h2, sizeof(h2), &off, &len), -ENOEXEC);
	/* no section table; a foreign entry size */
	memcpy(h2, head, sizeof(h2));
	put(h2 + offsetof(Elf64_Ehdr, e_shoff), 0, 8, false);
	assert_int_equal(elfsize_table(h2, sizeof(h2), &off, &len), -ENOEXEC);
	memcpy(h2, head, sizeof(h2));
	put(h2 + offsetof(Elf64_Ehdr, e_shentsize), 40, 2, false);
	assert_int_equal(elfsize_table(h2, sizeof(h2), &off, &len), -ENOEXEC);
	assert_int_equal(elfsize_sum(h2, sizeof(h2), table, 512, &s), -ENOEXEC);
	assert_int_equal(elfsize_sum(head, sizeof(head), NULL, 512, &s),
			 -ENOEXEC);
	/* a 32-bit header is 52 bytes: enough for it */
	make(false, false, head, table);
	assert_int_equal(elfsize_table(head, sizeof(Elf32_Ehdr), &off, &len), 0);
}

/* The real vmlinux of the cost plan's base (README.md: recorded with
 * `size`, its header and section table extracted). */
static void test_real(void **state)
{
	_cleanup_strbuf_ struct strbuf f = STRBUF_INIT, sz = STRBUF_INIT;
	unsigned long long text, data, bss;
	uint64_t off, len;
	struct elfsize s;

	if (strbuf_read_file(&f, TEST_DATA "/cost/vmlinux-base.shdr", 0) < 0 ||
	    strbuf_read_file(&sz, TEST_DATA "/cost/vmlinux-base.size", 0) < 0)
		fail_msg("tests/data/cost: vmlinux-base.{shdr,size} missing");
	/* "   text	   data	    bss	    dec	    hex	filename\n" then
	 * the numbers */
	assert_int_equal(sscanf(strchr(sz.buf, '\n') + 1, "%llu %llu %llu",
				&text, &data, &bss), 3);
	assert_int_equal(elfsize_table(f.buf, f.len, &off, &len), 0);
	assert_true(off + len <= f.len);
	assert_int_equal(elfsize_sum(f.buf, f.len, f.buf + off, len, &s), 0);
	assert_true(s.text == text);
	assert_true(s.data == data);
	assert_true(s.bss == bss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
