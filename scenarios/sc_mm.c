// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mm: KSM merges identical anonymous pages (MADV_MERGEABLE, pages_sharing
 * rises, contents survive, copy-on-write unshares), a MADV_HUGEPAGE region
 * is backed by transparent huge pages (AnonHugePages in smaps), and the
 * multi-gen LRU is enabled and has generations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agent.h"

#define KSM "/sys/kernel/mm/ksm/"
#define THP "/sys/kernel/mm/transparent_hugepage/"
#define KSM_PAGES 64

static enum check_result check_ksm(struct tctx *t)
{
	char reason[KTAPFMT_REASON_MAX];
	long ps = sysconf(_SC_PAGESIZE), sharing = 0, shared = 0;
	size_t len = KSM_PAGES * (size_t)ps;
	double start;
	char *p;
	int r;

	if (!path_exists(KSM "run")) {
		if (feature_missing("KSM", "ksm_madvise", 0, NULL, reason,
				    sizeof(reason)))
			return skip(t, "%s", reason);
		return fail(t, "no " KSM "run although KSM is built in");
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return fail(t, "mmap: %s", errname(errno));
	for (size_t i = 0; i < len; i++)
		p[i] = (char)(i % (size_t)ps * 13 + 5);
	if (madvise(p, len, MADV_MERGEABLE) < 0) {
		r = -errno;
		munmap(p, len);
		return fail(t, "madvise(MADV_MERGEABLE): %s", errname(r));
	}
	write_file(KSM "pages_to_scan", "4096");
	write_file(KSM "sleep_millisecs", "10");
	r = write_file(KSM "run", "1");
	if (r < 0) {
		munmap(p, len);
		return fail(t, "ksm/run=1: %s", errname(r));
	}
	start = now_s();
	do {
		sleep_ms(200);
		read_long(KSM "pages_sharing", &sharing);
		read_long(KSM "pages_shared", &shared);
	} while (sharing < KSM_PAGES / 2 && now_s() - start < 40);
	if (sharing < KSM_PAGES / 2) {
		long scans = -1;

		read_long(KSM "full_scans", &scans);
		write_file(KSM "run", "2");
		munmap(p, len);
		return fail(t, "%d identical pages: pages_sharing=%ld "
			       "pages_shared=%ld after %.0f s (full_scans "
			       "%ld)", KSM_PAGES, sharing, shared,
			    now_s() - start, scans);
	}
	diag(t, "%d identical pages merged in %.1f s: pages_shared=%ld "
		"pages_sharing=%ld", KSM_PAGES, now_s() - start, shared,
	     sharing);
	/* Merged pages still read right; a write unshares only its page. */
	p[0] = 'X';
	for (size_t i = 1; i < len; i++)
		if (p[i] != (char)(i % (size_t)ps * 13 + 5)) {
			write_file(KSM "run", "2");
			munmap(p, len);
			return fail(t, "byte %zu of a merged page changed", i);
		}
	write_file(KSM "run", "2");
	munmap(p, len);
	return CHECK_PASS;
}

/* AnonHugePages (kB) of the smaps entry that contains addr. */
static long smaps_anon_huge(const void *addr)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/smaps", "re");
	unsigned long a = (unsigned long)(uintptr_t)addr;
	bool in = false;
	char line[256];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		long kb;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = a >= lo && a < hi;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			return kb;
	}
	return -ENOENT;
}

static enum check_result check_thp(struct tctx *t)
{
	char reason[KTAPFMT_REASON_MAX], enabled[128], defrag[128];
	long hsize = 0, kb;
	size_t len;
	uintptr_t al;
	char *raw, *p;

	if (!path_exists(THP "enabled")) {
		if (feature_missing("TRANSPARENT_HUGEPAGE",
				    "hugepage_madvise", 0, NULL, reason,
				    sizeof(reason)))
			return skip(t, "%s", reason);
		return fail(t, "no " THP "enabled although THP is built in");
	}
	read_line(THP "enabled", enabled, sizeof(enabled));
	read_line(THP "defrag", defrag, sizeof(defrag));
	if (strstr(enabled, "[never]")) {
		diag(t, "enabled was '%s': setting madvise", enabled);
		write_file(THP "enabled", "madvise");
	}
	if (read_long(THP "hpage_pmd_size", &hsize) < 0 || hsize <= 0)
		hsize = 2L << 20;
	/* Two huge pages, aligned: map three and align inside. */
	len = 3 * (size_t)hsize;
	raw = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return fail(t, "mmap %zu: %s", len, errname(errno));
	al = ((uintptr_t)raw + (uintptr_t)hsize - 1) &
	     ~((uintptr_t)hsize - 1);
	p = (char *)al;
	if (madvise(p, 2 * (size_t)hsize, MADV_HUGEPAGE) < 0) {
		int e = errno;

		munmap(raw, len);
		return fail(t, "madvise(MADV_HUGEPAGE): %s", errname(e));
	}
	for (size_t i = 0; i < 2 * (size_t)hsize; i += 4096)
		p[i] = 1;
	kb = smaps_anon_huge(p);
	munmap(raw, len);
	diag(t, "enabled '%s', defrag '%s', huge page %ld kB, "
		"AnonHugePages %ld kB", enabled, defrag, hsize >> 10, kb);
	if (kb < 0)
		return fail(t, "cannot find the region in /proc/self/smaps: %s",
			    errname((int)kb));
	if (kb < hsize >> 10) {
		long alloc = -1, fallback = -1;

		read_keyed("/proc/vmstat", "thp_fault_alloc", &alloc);
		read_keyed("/proc/vmstat", "thp_fault_fallback", &fallback);
		return fail(t, "a touched MADV_HUGEPAGE region has "
			       "AnonHugePages %ld kB, expected >= %ld kB "
			       "(thp_fault_alloc %ld, thp_fault_fallback %ld)",
			    kb, hsize >> 10, alloc, fallback);
	}
	return CHECK_PASS;
}

static enum check_result check_mglru(struct tctx *t)
{
	char reason[KTAPFMT_REASON_MAX];
	static char gens[65536];
	long v = 0, before;
	unsigned lines = 0;

	if (!path_exists("/sys/kernel/mm/lru_gen/enabled")) {
		if (feature_missing("LRU_GEN", "lru_gen_look_around", 0, NULL,
				    reason, sizeof(reason)))
			return skip(t, "%s", reason);
		return fail(t, "no /sys/kernel/mm/lru_gen/enabled although "
			       "LRU_GEN is built in");
	}
	if (read_long("/sys/kernel/mm/lru_gen/enabled", &v) < 0)
		return fail(t, "reading lru_gen/enabled: %s", errname(errno));
	before = v;
	if (v == 0) {
		int r = write_file("/sys/kernel/mm/lru_gen/enabled", "y");

		if (r < 0)
			return fail(t, "lru_gen/enabled is 0 and writing y "
				       "failed: %s", errname(r));
		read_long("/sys/kernel/mm/lru_gen/enabled", &v);
		if (v == 0)
			return fail(t, "lru_gen/enabled stays 0 after "
				       "writing y");
	}
	diag(t, "lru_gen/enabled 0x%04lx%s", v,
	     before ? "" : " (was 0x0000: CONFIG_LRU_GEN_ENABLED not set; "
			   "enabled at run time)");
	/* The generations themselves, through debugfs. */
	if (read_file("/sys/kernel/debug/lru_gen", gens, sizeof(gens)) > 0) {
		for (char *l = gens; (l = strchr(l, '\n')); l++)
			lines++;
		if (!strstr(gens, "memcg") || !strstr(gens, "node"))
			return fail(t, "/sys/kernel/debug/lru_gen has no "
				       "memcg/node generations");
		diag(t, "/sys/kernel/debug/lru_gen: %u lines of generations",
		     lines);
	} else {
		diag(t, "/sys/kernel/debug/lru_gen not readable (debugfs "
			"not mounted?): generations not inspected");
	}
	return CHECK_PASS;
}

static const struct check mm_checks[] = {
	CHECK(ksm), CHECK(thp), CHECK(mglru),
};

SCENARIO_DEFINE(mm,
	.summary = "KSM merging, transparent huge pages, multi-gen LRU",
	.flags = SC_GUEST_ONLY);
