// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/elfsize.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* Sections counted at most: a vmlinux has about 40, a module hundreds. */
#define ELFSIZE_MAX_SECTIONS 65535u

struct elf_view {
	bool is64, big;
};

static uint64_t get(const unsigned char *p, size_t w, bool big)
{
	uint64_t v = 0;

	for (size_t i = 0; i < w; i++)
		v |= (uint64_t)p[big ? w - 1 - i : i] << (8 * i);
	return v;
}

static int view(const unsigned char *h, size_t n, struct elf_view *ret)
{
	if (!h || n < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG))
		return -ENOEXEC;
	if ((h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
		return -ENOEXEC;
	ret->is64 = h[EI_CLASS] == ELFCLASS64;
	ret->big = h[EI_DATA] == ELFDATA2MSB;
	if (n < (ret->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return -ENOEXEC;
	return 0;
}

int elfsize_table(const void *head, size_t n, uint64_t *ret_off,
		  uint64_t *ret_len)
{
	const unsigned char *h = head;
	struct elf_view v;
	uint64_t off, ent, num;
	int r = view(h, n, &v);

	if (r < 0)
		return r;
	if (v.is64) {
		off = get(h + offsetof(Elf64_Ehdr, e_shoff), 8, v.big);
		ent = get(h + offsetof(Elf64_Ehdr, e_shentsize), 2, v.big);
		num = get(h + offsetof(Elf64_Ehdr, e_shnum), 2, v.big);
	} else {
		off = get(h + offsetof(Elf32_Ehdr, e_shoff), 4, v.big);
		ent = get(h + offsetof(Elf32_Ehdr, e_shentsize), 2, v.big);
		num = get(h + offsetof(Elf32_Ehdr, e_shnum), 2, v.big);
	}
	/* e_shnum 0 with sections: the count is in section 0's sh_size
	 * (over 65279 sections); not a kernel's case. */
	if (!off || !num || num > ELFSIZE_MAX_SECTIONS ||
	    ent != (v.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return -ENOEXEC;
	*ret_off = off;
	*ret_len = ent * num;
	return 0;
}

int elfsize_sum(const void *head, size_t n, const void *table, size_t len,
		struct elfsize *ret)
{
	const unsigned char *t = table;
	uint64_t off, want;
	struct elf_view v;
	struct elfsize s = { 0 };
	size_t ent;
	int r = elfsize_table(head, n, &off, &want);

	if (r < 0)
		return r;
	if (!t || len < want)
		return -ENOEXEC;
	view(head, n, &v);
	ent = v.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	for (size_t i = 0; i + ent <= want; i += ent) {
		const unsigned char *sh = t + i;
		uint64_t type, flags, size;

		if (v.is64) {
			type = get(sh + offsetof(Elf64_Shdr, sh_type), 4, v.big);
			flags = get(sh + offsetof(Elf64_Shdr, sh_flags), 8, v.big);
			size = get(sh + offsetof(Elf64_Shdr, sh_size), 8, v.big);
		} else {
			type = get(sh + offsetof(Elf32_Shdr, sh_type), 4, v.big);
			flags = get(sh + offsetof(Elf32_Shdr, sh_flags), 4, v.big);
			size = get(sh + offsetof(Elf32_Shdr, sh_size), 4, v.big);
		}
		if (!(flags & SHF_ALLOC))
			continue;
		s.sections++;
		if ((flags & SHF_EXECINSTR) || !(flags & SHF_WRITE))
			s.text += size;
		else if (type != SHT_NOBITS)
			s.data += size;
		else
			s.bss += size;
	}
	*ret = s;
	return 0;
}
