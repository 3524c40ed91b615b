// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bootargs.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "../scenarios/contract.h"
#include "core/arch.h"
#include "core/console.h"
#include "core/groups.h"
#include "core/verdict.h"

const char *const bootargs_test_scenarios[] = {
	BP_TEST_SCENARIOS(BP_SCENARIO_NAME) NULL,
};

static void add_list(struct strbuf *err, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		strbuf_addf(err, "%s%s", i ? ", " : "", list[i]);
}

int bootargs_check_scenarios(const char *list, struct strbuf *err)
{
	const char *p = list;

	if (!strcmp(list, "none"))
		return 0;
	for (;;) {
		size_t n = strcspn(p, ",");

		if (!n) {
			strbuf_addf(err, "--scenarios %s: an empty name", list);
			return -EINVAL;
		}
		if (!group_in_list(group_known_scenarios, p, n) &&
		    !group_in_list(bootargs_test_scenarios, p, n)) {
			strbuf_addf(err, "--scenarios %s: unknown scenario "
				    "'%.*s' (known: ", list, (int)n, p);
			add_list(err, group_known_scenarios);
			strbuf_addstr(err, "; or none)");
			return -EINVAL;
		}
		for (const char *q = list; q < p; q += strcspn(q, ",") + 1)
			if (strcspn(q, ",") == n && !memcmp(q, p, n)) {
				strbuf_addf(err, "--scenarios %s: '%.*s' twice",
					    list, (int)n, p);
				return -EINVAL;
			}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

int bootargs_check_allow(const char *list, struct strbuf *err)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ",");
		char kind[32];
		enum console_problem_kind k;

		if (!n || n >= sizeof(kind)) {
			strbuf_addf(err, "--allow %s: %s", list,
				    n ? "a name too long" : "an empty name");
			return -EINVAL;
		}
		memcpy(kind, p, n);
		kind[n] = '\0';
		if (!strcasecmp(kind, "panic")) {
			strbuf_addf(err, "--allow %s: a panic cannot be "
				    "allowed (it ends the boot)", list);
			return -EINVAL;
		}
		if (!verdict_allow_alias(kind) &&
		    console_problem_kind_from_string(kind, &k) < 0) {
			strbuf_addf(err, "--allow %s: unknown problem kind "
				    "'%s' (known:", list, kind);
			for (size_t i = 0; verdict_allow_aliases[i]; i++)
				strbuf_addf(err, "%s %s", i ? "," : "",
					    verdict_allow_aliases[i]);
			for (int i = 0; i < _CONSOLE_PROBLEM_MAX; i++)
				if (i != CONSOLE_PANIC)
					strbuf_addf(err, ", %s",
						    console_problem_kind_name(i));
			strbuf_addstr(err, "; any case)");
			return -EINVAL;
		}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* "CONFIG_<SYM>=..." or "# CONFIG_<SYM> is not set". */
static bool config_line(const char *p, size_t n)
{
	static const char unset[] = " is not set";
	bool comment = n > 2 && p[0] == '#' && p[1] == ' ';
	size_t i = comment ? 2 : 0, sym;

	if (n - i <= 7 || memcmp(p + i, "CONFIG_", 7))
		return false;
	i += 7;
	sym = i;
	while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_'))
		i++;
	if (i == sym)
		return false;
	if (!comment)
		return i < n && p[i] == '=';
	return n - i == sizeof(unset) - 1 && !memcmp(p + i, unset, n - i);
}

int bootargs_check_config(const char *path, const char *buf, size_t len,
			  struct strbuf *err)
{
	const char *p = buf, *end = buf + len;

	if (memchr(buf, '\0', len)) {
		strbuf_addf(err, "--config %s: not a kernel config (binary "
			    "data)", path);
		return -EINVAL;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (config_line(p, n))
			return 0;
		p += n + 1;
	}
	strbuf_addf(err, "--config %s: not a kernel config (no CONFIG_ "
		    "line)", path);
	return -EINVAL;
}

static const char *machine_name(unsigned m)
{
	for (unsigned a = 0; a < BP_ARCH_COUNT; a++)
		if (bp_arch_info(a)->elf_machine == m)
			return bp_arch_info(a)->elf_machine_name;
	switch (m) {
	case EM_ARM: return "ARM";
	case EM_AARCH64: return "AArch64";
	case EM_RISCV: return "RISC-V";
	default: return NULL;
	}
}

int bootargs_check_vmlinux(const char *path, const unsigned char *hdr,
			   size_t len, enum bp_arch arch, struct strbuf *err)
{
	const struct bp_arch_info *want = bp_arch_info(arch);
	unsigned cls, machine;
	const char *name;

	if (!want) {
		strbuf_addf(err, "--vmlinux %s: no such guest architecture "
			    "(%d)", path, (int)arch);
		return -EINVAL;
	}
	if (len < 20 || memcmp(hdr, "\177ELF", 4)) {
		strbuf_addf(err, "--vmlinux %s: not an ELF file (the "
			    "uncompressed kernel with symbols, not the "
			    "bzImage)", path);
		return -EINVAL;
	}
	cls = hdr[4];
	/* e_machine is at offset 18 in both classes; byte order from
	 * EI_DATA. */
	machine = hdr[5] == 2 ? (unsigned)hdr[18] << 8 | hdr[19]
			      : (unsigned)hdr[19] << 8 | hdr[18];
	if (machine != want->elf_machine || cls != want->elf_class) {
		name = machine_name(machine);
		strbuf_addf(err, "--vmlinux %s: an ELF%u file for ", path,
			    cls == 2 ? 64 : 32);
		if (name)
			strbuf_addstr(err, name);
		else
			strbuf_addf(err, "machine %u", machine);
		strbuf_addf(err, ", but the guest is %s", bp_arch_name(arch));
		return -EINVAL;
	}
	return 0;
}
