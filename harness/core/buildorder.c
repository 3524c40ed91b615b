// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/buildorder.h"

#include <string.h>

#include "util/xalloc.h"

/*
 * Options whose change recompiles (nearly) every object: they are in the
 * compiler's or objtool's command line of each object (Makefile,
 * scripts/Makefile.{debug,kasan,kcsan,kmsan,ubsan,kcov,gcc-plugins},
 * arch/x86/Makefile, scripts/Makefile.lib's objtool arguments), or in a
 * header almost every object includes (preemption, lockdep, the atomic
 * sleep checks).  A trailing '*' matches a prefix.  Missing one costs
 * only a less good order, never a wrong build: Kbuild decides what to
 * rebuild, this only decides when.
 */
static const char *const global_options[] = {
	/* sanitizers and coverage */
	"KASAN*", "KCSAN*", "KMSAN*", "UBSAN*", "KCOV*", "GCOV_KERNEL",
	"GCOV_PROFILE_ALL",
	/* tracing: -pg / -mfentry / -mrecord-mcount, patchable entries */
	"FUNCTION_TRACER", "DYNAMIC_FTRACE*", "FTRACE_MCOUNT*", "CALL_PADDING",
	"FUNCTION_ALIGNMENT*",
	/* debug info and code generation */
	"DEBUG_INFO*", "FRAME_POINTER", "READABLE_ASM", "DEBUG_SECTION_MISMATCH",
	"CC_OPTIMIZE_FOR_*", "LD_DEAD_CODE_DATA_ELIMINATION", "WERROR",
	"STACKPROTECTOR*", "INIT_STACK_*", "ZERO_CALL_USED_REGS", "GCC_PLUGIN*",
	"RANDSTRUCT*", "LTO*", "CFI_CLANG", "SHADOW_CALL_STACK", "MODVERSIONS",
	/* x86 code generation and objtool */
	"MITIGATION_RETPOLINE", "MITIGATION_RETHUNK", "MITIGATION_SLS",
	"MITIGATION_CALL_DEPTH_TRACKING", "X86_KERNEL_IBT", "FINEIBT",
	"UNWINDER_*", "NOINSTR_VALIDATION", "GENERIC_CPU", "MCORE2", "MATOM",
	"MK8", "MPSC", "X86_GENERIC", "X86_NATIVE_CPU",
	/* headers nearly every object includes */
	"SMP", "NR_CPUS", "PREEMPT*", "LOCKDEP", "PROVE_LOCKING",
	"DEBUG_LOCK_ALLOC", "DEBUG_SPINLOCK", "DEBUG_ATOMIC_SLEEP",
	"DEBUG_PREEMPT", "TRACE_IRQFLAGS", "HZ_*", "MODULES",
	NULL
};

bool buildorder_global_option(const char *name)
{
	if (!name)
		return false;
	for (size_t i = 0; global_options[i]; i++) {
		const char *p = global_options[i];
		size_t n = strlen(p);

		if (p[n - 1] == '*' ? !strncmp(name, p, n - 1) : !strcmp(name, p))
			return true;
	}
	return false;
}

static bool is_no(const struct kconfig_option *o)
{
	return !o || o->kind == KCONFIG_NO;
}

void buildorder_signature(const struct kconfig *config, struct strbuf *sb)
{
	size_t n = kconfig_count(config);

	for (size_t i = 0; i < n; i++) {
		const struct kconfig_option *o = kconfig_at(config, i);

		if (is_no(o) || !buildorder_global_option(o->name))
			continue;
		if (sb->len)
			strbuf_addch(sb, ' ');
		strbuf_addf(sb, "CONFIG_%s=", o->name);
		kconfig_format_value(sb, o);
	}
}

/* Options of a that b lacks or has with another value. */
static size_t one_way(const struct kconfig *a, const struct kconfig *b,
		      bool only_global, bool skip_common)
{
	size_t n = kconfig_count(a), d = 0;

	for (size_t i = 0; i < n; i++) {
		const struct kconfig_option *o = kconfig_at(a, i);
		const struct kconfig_option *p = kconfig_find(b, o->name);

		if (only_global && !buildorder_global_option(o->name))
			continue;
		if (is_no(o) && is_no(p))
			continue;
		if (p && !is_no(p) && skip_common)
			continue;	/* counted from the other side */
		if (!p || !kconfig_value_equal(o, p))
			d++;
	}
	return d;
}

static size_t distance(const struct kconfig *a, const struct kconfig *b,
		       bool only_global)
{
	/* Every symbol a defines (differences and a-only ones), then b's
	 * symbols that a does not set (b-only ones). */
	return one_way(a, b, only_global, false) +
	       one_way(b, a, only_global, true);
}

size_t buildorder_distance(const struct kconfig *a, const struct kconfig *b)
{
	return distance(a, b, false);
}

struct item {
	size_t index;
	char *sig;
	bool done;
};

/* The nearest remaining item of [from, to) to prev (global options only
 * when by_class, else the whole config), restricted to sig when given;
 * ties to the first in plan order. */
static struct item *nearest(const struct buildorder_item *items,
			    struct item *it, size_t from, size_t to,
			    const struct kconfig *prev, const char *sig,
			    bool by_class)
{
	struct item *best = NULL;
	size_t best_d = 0;

	for (size_t k = from; k < to; k++) {
		struct item *x = &it[k];
		size_t d;

		if (x->done || !x->sig || (sig && strcmp(x->sig, sig)))
			continue;
		d = prev ? distance(prev, items[x->index].config, by_class) : 0;
		if (!best || d < best_d) {
			best = x;
			best_d = d;
		}
	}
	return best;
}

/* Order the items it[from, to) of one arch into order, from *pos on. */
static void order_arch(const struct buildorder_item *items, struct item *it,
		       size_t from, size_t to, size_t *order, size_t *pos)
{
	const struct kconfig *prev = NULL;
	struct item *x = NULL;

	for (size_t k = from; k < to && !x; k++)
		if (it[k].sig && items[it[k].index].base)
			x = &it[k];
	for (;;) {
		const char *sig;

		if (!x)	/* a new class: nearest by global options */
			x = nearest(items, it, from, to, prev, NULL, true);
		if (!x)
			break;
		sig = x->sig;
		while (x) {	/* the class, nearest first */
			x->done = true;
			order[(*pos)++] = x->index;
			prev = items[x->index].config;
			x = nearest(items, it, from, to, prev, sig, false);
		}
	}
	for (size_t k = from; k < to; k++)
		if (!it[k].done) {	/* no final config */
			it[k].done = true;
			order[(*pos)++] = it[k].index;
		}
}

void buildorder_plan(const struct buildorder_item *items, size_t n,
		     size_t *order)
{
	struct item *it = xrealloc(NULL, (n ? n : 1) * sizeof(*it));
	size_t pos = 0, m = 0;

	/* Items grouped by arch, arches in order of first appearance, plan
	 * order kept inside an arch. */
	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t k = 0; k < m && !seen; k++)
			seen = !strcmp(items[it[k].index].arch, items[i].arch);
		if (seen)
			continue;
		for (size_t j = i; j < n; j++) {
			struct strbuf sb = STRBUF_INIT;

			if (strcmp(items[j].arch, items[i].arch))
				continue;
			it[m].index = j;
			it[m].done = false;
			it[m].sig = NULL;
			if (items[j].config) {
				buildorder_signature(items[j].config, &sb);
				it[m].sig = strbuf_detach(&sb, NULL);
			}
			m++;
		}
	}
	for (size_t a = 0; a < m;) {
		size_t b = a;

		while (b < m && !strcmp(items[it[b].index].arch,
					items[it[a].index].arch))
			b++;
		order_arch(items, it, a, b, order, &pos);
		a = b;
	}
	for (size_t k = 0; k < m; k++)
		free(it[k].sig);
	free(it);
}
