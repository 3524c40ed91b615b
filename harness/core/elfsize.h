/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elfsize: the text, data and bss sizes of an ELF file, as binutils'
 * `size` prints them by default (its "berkeley" format), from the ELF
 * header and the section header table alone (pure: buffers in, numbers
 * out).  A vmlinux with debug info is hundreds of MiB; the caller reads
 * only the two pieces, in two steps:
 *
 *	elfsize_table(head, n, &off, &len);	head: the file's first bytes
 *	elfsize_sum(head, n, table, len, &sizes);	table: len bytes at off
 *
 * Every allocated section counts (SHF_ALLOC): executable or read-only
 * ones are text, other ones with contents data, the rest (SHT_NOBITS,
 * writable) bss.  Both classes and both byte orders are read.
 */
#ifndef BP_ELFSIZE_H
#define BP_ELFSIZE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of the file's head elfsize_table needs (an ELF64 header). */
#define ELFSIZE_HEAD 64

struct elfsize {
	uint64_t text, data, bss;
	unsigned sections;	/* allocated sections counted */
};

/*
 * Where the section header table is: *ret_off and *ret_len (bytes).
 * head is the file's first n bytes (n >= ELFSIZE_HEAD, or the whole file
 * when shorter).  0, or -ENOEXEC when head is not an ELF header or has no
 * sane section header table.
 */
int elfsize_table(const void *head, size_t n, uint64_t *ret_off,
		  uint64_t *ret_len);

/* Sum the sections of table (len bytes, as elfsize_table said).  0, or
 * -ENOEXEC (as above, or len too short). */
int elfsize_sum(const void *head, size_t n, const void *table, size_t len,
		struct elfsize *ret);

#endif
