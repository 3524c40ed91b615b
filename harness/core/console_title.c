// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Short, stable problem titles (see console.h, "Titles"): the kind's words
 * and the first function of the report that is not reporting machinery,
 * in the manner of syzkaller's report titles.
 */
#include <string.h>

#include "console.h"
#include "console_impl.h"

/*
 * Reporting machinery: the functions that print, check, allocate or lock on
 * the culprit's behalf.  A trailing '*' matches any rest of the name.
 */
static const char *const machinery[] = {
	/* stack dumps, WARN/BUG and trap plumbing */
	"dump_stack", "dump_stack_lvl", "show_stack", "show_trace_log_lvl",
	"__warn", "__warn_printk", "warn_slowpath_fmt", "warn_slowpath_null",
	"report_bug", "handle_bug", "exc_invalid_op", "asm_exc_invalid_op",
	"do_error_trap", "do_trap", "do_invalid_op", "die", "__die", "oops_end",
	"exc_general_protection", "asm_exc_general_protection",
	"page_fault_oops", "kernelmode_fixup_or_oops", "__bad_area_nosemaphore",
	"bad_area_nosemaphore", "do_user_addr_fault", "exc_page_fault",
	"asm_exc_page_fault", "no_context", "handle_stack_overflow",
	"exc_double_fault", "asm_exc_double_fault", "panic", "vpanic",
	"nmi_panic", "__stack_chk_fail",
	/* arm64 faults and breakpoints */
	"do_mem_abort", "el1_abort", "el1h_64_sync_handler", "el1h_64_sync",
	"__do_kernel_fault", "die_kernel_fault", "do_translation_fault",
	"do_page_fault", "do_bad_area", "arm64_notify_die", "bug_handler",
	"call_break_hook", "brk_handler", "do_debug_exception", "el1_dbg",
	/* sanitizers */
	"kasan_*", "__kasan_*", "__asan_*", "kmsan_*", "__msan_*", "kcsan_*", "__tsan_*",
	"kfence_*", "__kfence_*", "ubsan_*", "__ubsan_*", "instrument_*",
	/* lockdep and locks */
	"lock_acquire*", "lock_release", "__lock_acquire", "__lock_release",
	"lockdep_*", "validate_chain", "mark_lock*", "mark_usage",
	/* lockdep's checks and printers (kernel/locking/lockdep.c); not
	 * every check_* or print_* is machinery (kgdbts'
	 * check_and_rewind_pc is the culprit of its WARNING) */
	"check_noncircular", "check_prev_add", "check_prevs_add",
	"check_irq_usage", "check_deadlock", "check_usage*",
	"check_wait_context", "check_flags", "check_chain_key",
	"check_panic_on_warn", "print_circular_bug*", "print_deadlock_bug",
	"print_usage_bug", "print_unlock_imbalance_bug",
	"print_bad_irq_dependency", "print_irq_inversion_bug",
	"print_held_locks_bug", "print_freed_lock_bug", "print_lock*",
	"print_lockdep_off", "print_irqtrace_events", "print_stack_trace",
	"print_trailer", "print_tracking", "print_page_info",
	"print_section", "print_address_description*", "print_report",
	"print_bad_pte", "print_modules", "print_oops_end_marker",
	"register_lock_class", "lock_is_held*", "debug_check_no_locks_*",
	"mutex_lock*", "__mutex_lock*", "mutex_unlock*", "__mutex_unlock*",
	"_raw_spin_*",
	"_raw_read_*", "_raw_write_*", "do_raw_spin_*", "spin_bug",
	"down_read*", "down_write*", "up_read", "up_write", "rwsem_*",
	"__down_*", "__up_*",
	/* atomic context checks and the scheduler */
	"__might_sleep", "__might_resched", "__might_fault", "__schedule_bug",
	"__schedule", "schedule", "schedule_*", "io_schedule*",
	"preempt_schedule*", "msleep*", "usleep_range*", "ssleep",
	"debug_smp_processor_id",
	"check_preemption_disabled", "__this_cpu_preempt_check",
	/* allocation and freeing (kmemleak's backtrace starts there) */
	"kmalloc*", "__kmalloc*", "kmem_cache_alloc*", "__kmem_cache_alloc*",
	"kmemleak_alloc*", "kmemleak_vmalloc", "slab_post_alloc_hook",
	"slab_alloc_node", "pcpu_alloc*", "__alloc_percpu*", "alloc_percpu*",
	"kzalloc*", "kvmalloc*", "__kvmalloc*", "krealloc*", "kstrdup*",
	"kmemdup*", "__alloc_pages*", "alloc_pages*", "vmalloc*", "__vmalloc*",
	"kfree", "kvfree", "kmem_cache_free", "slab_free*", "__slab_free",
	"bad_page", "free_page_is_bad*", "free_pages_prepare",
	"free_unref_page*", "__free_pages*", "_copy_to_user", "_copy_from_user",
	"dump_header", "oom_kill_process", "out_of_memory",
	"__alloc_pages_slowpath*", "__alloc_pages_may_oom",
	/* refcount, list and debugobjects checks */
	"refcount_warn_saturate", "__refcount_*", "refcount_*",
	"__list_add_valid*", "__list_del_entry_valid*", "__list_add",
	"__list_del_entry", "list_add*", "list_del*", "debug_print_object",
	"debug_object_*", "debug_check_no_obj_freed",
	"__debug_check_no_obj_freed", "ref_tracker_*", "netdev_wait_allrefs*",
	"fortify_*", "__fortify_*", "usercopy_abort", "__check_object_size",
	"__check_heap_object", "check_heap_object",
	/* SLUB's own checks (slub_debug) */
	"slab_err", "__slab_err", "slab_bug", "object_err", "slab_fix",
	"free_to_partial_list", "free_debug_processing", "on_freelist",
	"check_object", "check_bytes_and_report", "slab_pad_check",
	"check_slab", "alloc_debug_processing", "free_consistency_checks",
	"validate_slab*", "list_slab_objects",
};

/* Is name[0..len) reporting machinery? */
static bool machinery_n(const char *name, size_t len)
{
	for (size_t i = 0; i < ELEMENTSOF(machinery); i++) {
		const char *m = machinery[i];
		size_t n = strlen(m);

		if (m[n - 1] == '*' ? len >= n - 1 && !strncmp(name, m, n - 1)
				    : len == n && !strncmp(name, m, n))
			return true;
	}
	return false;
}

bool console_title_machinery(const char *name)
{
	return machinery_n(name, strlen(name));
}

/* ------------------------------------------------------------ text */

/* The symbol before "+0x" at or after s: *ret_len its length without
 * compiler suffix (".isra.0"); NULL when none. */
static const char *symbol_at(const char *s, size_t *ret_len)
{
	for (const char *p = strstr(s, "+0x"); p; p = strstr(p + 1, "+0x")) {
		const char *b = p, *dot = NULL;

		while (b > s && (is_word(b[-1]) || b[-1] == '.'))
			b--;
		if (b == p || is_digit(*b))
			continue;
		for (const char *q = b; q < p; q++)
			if (*q == '.' && !dot)
				dot = q;
		*ret_len = (size_t)((dot ? dot : p) - b);
		return *ret_len ? b : NULL;
	}
	return NULL;
}

/*
 * Append s[0..len) to sb cleaned: "+0x1a/0x30" offsets and " [...]"
 * groups dropped, numbers made "N", trailing blanks, '.' and '!' cut.
 */
static void add_clean(struct strbuf *sb, const char *s, size_t len)
{
	_cleanup_strbuf_ struct strbuf tmp = STRBUF_INIT;
	size_t i = 0;

	while (i < len) {
		if (s[i] == '+' && s[i + 1] == '0' && s[i + 2] == 'x') {
			i++;
			while (i < len && (is_xdigit(s[i]) || s[i] == 'x' ||
					   s[i] == '/'))
				i++;
			continue;
		}
		if (s[i] == ' ' && s[i + 1] == '[') {
			const char *e = memchr(s + i, ']', len - i);

			if (e) {
				i = (size_t)(e - s) + 1;
				continue;
			}
		}
		strbuf_addch(&tmp, s[i++]);
	}
	console_normalise(sb, tmp.buf ? tmp.buf : "");
	while (sb->len && strchr(" \t.!", sb->buf[sb->len - 1]))
		strbuf_setlen(sb, sb->len - 1);
}

/* The length of s up to the first of the stops (after skip bytes). */
static size_t cut_len(const char *s, size_t skip, const char *const *stops)
{
	size_t len = strlen(s);

	if (skip > len)
		skip = len;
	for (size_t i = 0; stops[i]; i++) {
		const char *p = strstr(s + skip, stops[i]);

		if (p && (size_t)(p - s) < len)
			len = (size_t)(p - s);
	}
	return len;
}

static const char *const default_stops[] = { ": ", " at ", ", ", " - ",
					     " (", NULL };

/* header cut at the default stops after its "BUG: "-like prefix. */
static void add_cut(struct strbuf *sb, const char *h, size_t skip)
{
	add_clean(sb, h, cut_len(h, skip, default_stops));
}

/* The first line of report that starts (after blanks) with prefix, or
 * NULL; "kmemleak: " prefixes are looked through. */
static const char *report_line(const char *report, const char *prefix)
{
	for (const char *l = report; l && *l;) {
		const char *s = l;

		if (startswith(s, "kmemleak: "))
			s += strlen("kmemleak: ");
		while (*s == ' ' || *s == '\t')
			s++;
		if (startswith(s, prefix))
			return s;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return NULL;
}

static size_t line_len(const char *s)
{
	return strcspn(s, "\n");
}

/* ------------------------------------------------------------ kinds */

struct title_ctx {
	enum console_problem_kind kind;
	const char *header, *report;
	const char *const *frames;
	size_t n_frames;
	const char *fn;		/* a function named by the report's text */
	size_t fn_len;
};

/* The "unable to handle" family, x86 (all versions) and arm64 alike. */
static bool add_fault(struct strbuf *sb, const char *h)
{
	static const char *const stops[] = { " at ", ", ", ": ", NULL };
	const char *s = NULL;

	if (startswith(h, "BUG: kernel NULL pointer dereference"))
		s = "NULL pointer dereference";
	else if (startswith(h, "BUG: unable to handle page fault"))
		s = "paging request";
	else if (startswith(h, "BUG: unable to handle kernel "))
		s = h + strlen("BUG: unable to handle kernel ");
	else if (startswith(h, "Unable to handle kernel "))
		s = h + strlen("Unable to handle kernel ");
	if (!s)
		return false;
	strbuf_addstr(sb, "BUG: unable to handle kernel ");
	add_clean(sb, s, cut_len(s, 0, stops));
	return true;
}

static void add_oops(struct strbuf *sb, const char *h)
{
	if (startswith(h, "Internal error: "))
		h += strlen("Internal error: ");
	if (startswith(h, "Oops: ") && !is_xdigit(h[6]))
		h += strlen("Oops: ");
	if (is_xdigit(h[0]) && strstr(h, " [#"))
		strbuf_addstr(sb, "Oops");
	else
		add_cut(sb, h, 0);
}

/* "ODEBUG: free active (active state 0) object: ... object type:
 * timer_list hint: ..." -> "ODEBUG: free active timer_list". */
static void add_odebug(struct strbuf *sb, const char *report)
{
	static const char *const stops[] = { " (", " object", "\n", NULL };
	const char *l = report_line(report, "ODEBUG: ");
	const char *type;

	if (!l) {
		strbuf_addstr(sb, "ODEBUG bug");
		return;
	}
	add_clean(sb, l, cut_len(l, strlen("ODEBUG: "), stops));
	type = strstr(l, "object type: ");
	if (type && (size_t)(type - l) < line_len(l)) {
		type += strlen("object type: ");
		strbuf_addch(sb, ' ');
		add_clean(sb, type, strcspn(type, " \n"));
	}
}

static void add_list(struct strbuf *sb, const struct title_ctx *t)
{
	const char *op = "list";

	if (report_line(t->report, "list_add corruption") ||
	    report_line(t->report, "list_add double add"))
		op = "list_add";
	else if (report_line(t->report, "list_del corruption"))
		op = "list_del";
	for (size_t i = 0; !strcmp(op, "list") && i < t->n_frames; i++) {
		if (startswith(t->frames[i], "__list_add"))
			op = "list_add";
		else if (startswith(t->frames[i], "__list_del"))
			op = "list_del";
	}
	strbuf_addf(sb, "%s corruption", op);
}

/* Lockdep: its title without "WARNING: " / "[ INFO: ... ]" wrapping. */
static void add_lockdep(struct strbuf *sb, const char *h)
{
	static const char *const stops[] = { " detected", " ]", "\n", NULL };
	const char *s = h;

	if (strstr(h, "circular locking dependency")) {
		strbuf_addstr(sb, "possible deadlock");
		return;
	}
	if (strstr(h, " still has locks held")) {
		strbuf_addstr(sb, "still has locks held");
		return;
	}
	if (startswith(s, "[ "))
		s += 2;
	if (startswith(s, "WARNING: ") || startswith(s, "INFO: ") ||
	    startswith(s, "BUG: ")) {
		if (startswith(s, "BUG: MAX_") || startswith(s, "BUG: key ")) {
			add_clean(sb, s, cut_len(s, 0, stops));
			return;
		}
		s = strchr(s, ' ') + 1;
	}
	add_clean(sb, s, cut_len(s, 0, stops));
}

/* KASAN/KFENCE/KMSAN/KCSAN: "BUG: KASAN: use-after-free in f+0x1/0x2"
 * -> "KASAN: use-after-free Read"; KCSAN keeps its "in f1 / f2". */
static void add_sanitizer(struct strbuf *sb, const struct title_ctx *t)
{
	static const char *const stops[] = { " in ", NULL };
	const char *h = t->header;

	if (startswith(h, "BUG: "))
		h += strlen("BUG: ");
	if (t->kind == CONSOLE_KCSAN) {
		add_clean(sb, h, strlen(h));
		return;
	}
	add_clean(sb, h, cut_len(h, 0, stops));
	if (t->kind == CONSOLE_KASAN) {
		if (report_line(t->report, "Read of size"))
			strbuf_addstr(sb, " Read");
		else if (report_line(t->report, "Write of size"))
			strbuf_addstr(sb, " Write");
	}
}

static void add_no_root(struct strbuf *sb, const char *h)
{
	static const char *const stops[] = { " \"", ", ", ".", " or ", NULL };

	if (startswith(h, "ALERT!"))
		strbuf_addstr(sb, "ALERT! root device does not exist");
	else
		add_clean(sb, h, cut_len(h, 0, stops));
}

/* "VFS: Busy inodes after unmount of sda1 (ext4)": the file system type
 * names the problem (the stack is umount's); the device does not.  Before
 * 6.x the line had no type. */
static void add_busy_inodes(struct strbuf *sb, const char *report)
{
	const char *l = strstr(report, "Busy inodes after unmount of ");
	const char *open = NULL, *close = NULL;

	strbuf_addstr(sb, "VFS: Busy inodes after unmount");
	if (l) {
		open = strstr(l, " (");
		close = open ? strchr(open, ')') : NULL;
	}
	if (close && close > open + 2 && !memchr(l, '\n', (size_t)(close - l)) &&
	    !memchr(open + 2, ' ', (size_t)(close - open - 2))) {
		strbuf_addstr(sb, " of ");
		add_clean(sb, open + 2, (size_t)(close - open - 2));
	}
}

/* Kinds whose title words are always the same. */
static const char *const fixed_words[_CONSOLE_PROBLEM_MAX] = {
	[CONSOLE_GPF] = "general protection fault",
	[CONSOLE_WARNING] = "WARNING",
	[CONSOLE_SOFT_LOCKUP] = "BUG: soft lockup",
	[CONSOLE_HARD_LOCKUP] = "hard LOCKUP",
	[CONSOLE_RCU_STALL] = "INFO: rcu detected stall",
	[CONSOLE_OOM] = "out of memory",
	[CONSOLE_KMEMLEAK] = "memory leak",
	[CONSOLE_REFCOUNT] = "refcount bug",
	[CONSOLE_NETDEV_LEAK] = "unregister_netdevice: waiting for DEV to become free",
};

/* The words of the title before " in FUNCTION". */
static void add_words(struct strbuf *sb, const struct title_ctx *t)
{
	const char *h = t->header;

	if ((size_t)t->kind < ELEMENTSOF(fixed_words) && fixed_words[t->kind]) {
		strbuf_addstr(sb, fixed_words[t->kind]);
		return;
	}
	switch (t->kind) {
	case CONSOLE_PANIC: {
		const char *r = strstr(h, "not syncing");

		r = r ? r + strlen("not syncing") : h;
		r += strspn(r, ": ");
		strbuf_addstr(sb, "kernel panic: ");
		/* its first sentence: "IO-APIC + timer doesn't work!  Boot
		 * with apic=debug and..." */
		add_clean(sb, r, cut_len(r, 0, (const char *const[]){ "  ",
								      NULL }));
		return;
	}
	case CONSOLE_OOPS:
		add_oops(sb, h);
		return;
	case CONSOLE_BUG:
		if (startswith(h, "kernel BUG at ")) {
			strbuf_addstr(sb, "kernel BUG");
		} else if (startswith(h, "BUG ") && strstr(h, "): ")) {
			/* SLUB: "BUG kmalloc-64 (Not tainted): Object
			 * already free" */
			const char *m = strstr(h, "): ") + 3;

			strbuf_addstr(sb, "SLUB: ");
			add_clean(sb, m, strlen(m));
		} else if (!add_fault(sb, h)) {
			add_cut(sb, h, strlen("BUG: "));
		}
		return;
	case CONSOLE_UBSAN:
		add_clean(sb, h, cut_len(h, 0, (const char *const[]){
							      " in ", NULL }));
		return;
	case CONSOLE_KFENCE:
	case CONSOLE_KASAN:
	case CONSOLE_KCSAN:
	case CONSOLE_KMSAN:
		add_sanitizer(sb, t);
		return;
	case CONSOLE_HUNG_TASK:
		strbuf_addstr(sb, strstr(h, " can't die ") ? "INFO: task can't die"
							   : "INFO: task hung");
		return;
	case CONSOLE_NO_ROOT_FS:
		add_no_root(sb, h);
		return;
	case CONSOLE_LOCKDEP:
		add_lockdep(sb, h);
		return;
	case CONSOLE_ODEBUG:
		add_odebug(sb, t->report);
		return;
	case CONSOLE_LIST_CORRUPTION:
		add_list(sb, t);
		return;
	case CONSOLE_BAD_PAGE:
		add_clean(sb, h, cut_len(h, strlen("BUG: "),
					 (const char *const[]){ " in process",
								": ", NULL }));
		return;
	case CONSOLE_ATOMIC:
		add_cut(sb, h, strlen("BUG: "));
		return;
	case CONSOLE_BUSY_INODES:
		add_busy_inodes(sb, t->report);
		return;
	case CONSOLE_STACK:
		if (startswith(h, "traps: "))
			h += strlen("traps: ");
		add_cut(sb, h, startswith(h, "PANIC: ") ? strlen("PANIC: ")
			       : startswith(h, "BUG: ") ? strlen("BUG: ") : 0);
		return;
	default:	/* fixed_words */
		break;
	}
	add_cut(sb, h, 0);
}

/* Titles that name no function: the text says it all (a lockdep table
 * too small is nobody's function). */
static bool names_no_function(enum console_problem_kind kind, const char *h)
{
	return kind == CONSOLE_PANIC || kind == CONSOLE_KCSAN ||
	       kind == CONSOLE_NO_ROOT_FS || kind == CONSOLE_NETDEV_LEAK ||
	       kind == CONSOLE_BUSY_INODES ||
	       (kind == CONSOLE_LOCKDEP && startswith(h, "BUG: "));
}

/* A function the report's text names: the WARNING's location, the
 * sanitizer's "in f+0x..", lockdep's first "at: f+0x..". */
static void text_function(struct title_ctx *t)
{
	const char *s = NULL;

	switch (t->kind) {
	case CONSOLE_WARNING:
	case CONSOLE_REFCOUNT:
	case CONSOLE_LIST_CORRUPTION:
	case CONSOLE_ODEBUG:
		s = strstr(t->header, " at ");
		break;
	case CONSOLE_KASAN:
	case CONSOLE_KFENCE:
	case CONSOLE_KMSAN:
	case CONSOLE_UBSAN:
		s = strstr(t->header, " in ");
		break;
	case CONSOLE_LOCKDEP:
		/* the lock being taken, or the one left held */
		if (strstr(t->header, " locking ") ||
		    strstr(t->header, "lock state") ||
		    strstr(t->header, "lock inversion") ||
		    strstr(t->header, "lock order") ||
		    strstr(t->header, "still has locks held") ||
		    strstr(t->header, "returning to user space"))
			s = strstr(t->report, ", at: ");
		break;
	default:
		break;
	}
	if (s) {
		size_t end = line_len(s);
		const char *f = symbol_at(s, &t->fn_len);

		if (f && (size_t)(f - s) < end &&
		    !machinery_n(f, t->fn_len))
			t->fn = f;
	}
}

char *console_title(enum console_problem_kind kind, const char *header,
		    const char *report, const char *const *frames,
		    size_t n_frames)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct title_ctx t = {
		.kind = kind,
		.header = header ? header : "",
		.report = report ? report : "",
		.frames = frames,
		.n_frames = n_frames,
	};
	const char *fn = NULL;

	add_words(&sb, &t);
	if (!names_no_function(kind, t.header)) {
		text_function(&t);
		for (size_t i = 0; !t.fn && i < n_frames; i++)
			if (!console_title_machinery(frames[i])) {
				fn = frames[i];
				break;
			}
		if (t.fn) {
			strbuf_addstr(&sb, " in ");
			strbuf_add(&sb, t.fn, t.fn_len);
		} else if (fn) {
			strbuf_addf(&sb, " in %s", fn);
		}
	}
	if (!sb.len)
		strbuf_addstr(&sb, console_problem_kind_name(kind));
	return xstrndup_cut(sb.buf, sb.len, CONSOLE_TITLE_MAX);
}
