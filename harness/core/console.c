// SPDX-License-Identifier: GPL-2.0-or-later
#include "console.h"
#include "console_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/strbuf.h"

/* Each name is its enumerator's, without the prefix. */
#define KIND(x) [CONSOLE_##x] = #x
#define MS(x) [CONSOLE_MS_##x] = #x
#define END(x) [CONSOLE_END_##x] = #x

static const char *const problem_names[_CONSOLE_PROBLEM_MAX] = {
	KIND(PANIC),	   KIND(OOPS),	      KIND(BUG),	 KIND(WARNING),
	KIND(GPF),	   KIND(UBSAN),	      KIND(KFENCE),	 KIND(KASAN),
	KIND(SOFT_LOCKUP), KIND(HARD_LOCKUP), KIND(HUNG_TASK),	 KIND(RCU_STALL),
	KIND(NO_ROOT_FS),  KIND(LOCKDEP),     KIND(KCSAN),	 KIND(KMSAN),
	KIND(OOM),	   KIND(KMEMLEAK),    KIND(ODEBUG),	 KIND(REFCOUNT),
	KIND(LIST_CORRUPTION), KIND(BAD_PAGE), KIND(ATOMIC),	 KIND(STACK),
	KIND(NETDEV_LEAK), KIND(BUSY_INODES),
};

static const char *const milestone_names[_CONSOLE_MS_MAX] = {
	MS(FIRMWARE),	MS(KERNEL_BANNER), MS(ROOT_MOUNTED), MS(INIT_STARTED),
	MS(KTAP_START), MS(POWER_OFF),	   MS(HALT),	     MS(REBOOT),
};

static const char *const end_names[_CONSOLE_END_MAX] = {
	END(MARKER), END(SHAPE), END(NEXT), END(STREAM),
};

/* names[i] for i < n, else NULL. */
static const char *name_of(const char *const *names, size_t n, unsigned i)
{
	return i < n ? names[i] : NULL;
}

/* The index of s in names[0..n) (any case), or -EINVAL. */
static int index_of(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcasecmp(s, names[i]))
			return (int)i;
	return -EINVAL;
}

const char *console_problem_kind_name(enum console_problem_kind k)
{
	return name_of(problem_names, _CONSOLE_PROBLEM_MAX, (unsigned)k);
}

const char *console_milestone_name(enum console_milestone m)
{
	return name_of(milestone_names, _CONSOLE_MS_MAX, (unsigned)m);
}

const char *console_end_name(enum console_end e)
{
	return name_of(end_names, _CONSOLE_END_MAX, (unsigned)e);
}

int console_problem_kind_from_string(const char *s,
				     enum console_problem_kind *ret)
{
	int i = index_of(problem_names, _CONSOLE_PROBLEM_MAX, s);

	if (i < 0)
		return i;
	*ret = (enum console_problem_kind)i;
	return 0;
}

int console_milestone_from_string(const char *s, enum console_milestone *ret)
{
	int i = index_of(milestone_names, _CONSOLE_MS_MAX, s);

	if (i < 0)
		return i;
	*ret = (enum console_milestone)i;
	return 0;
}

/* ------------------------------------------------------------ milestones */

static bool fs_mounted(const char *t)
{
	if (startswith(t, "EXT4-fs (") || startswith(t, "EXT3-fs (") ||
	    startswith(t, "EXT2-fs ("))
		return strstr(t, "): mounted filesystem") != NULL;
	if (startswith(t, "XFS ("))
		return strstr(t, "): Ending clean mount") != NULL;
	return false;
}

/* Milestones known by their start alone (none starts like the other
 * tests in milestone_of). */
static const struct prefix_rule milestone_lines[] = {
	{ "SeaBIOS (version", CONSOLE_MS_FIRMWARE },
	{ "iPXE (", CONSOLE_MS_FIRMWARE },
	{ "Booting from ", CONSOLE_MS_FIRMWARE },
	{ "BdsDxe: ", CONSOLE_MS_FIRMWARE },
	{ "EFI stub: ", CONSOLE_MS_FIRMWARE },
	{ "VFS: Mounted root (", CONSOLE_MS_ROOT_MOUNTED },
	{ "reboot: Power down", CONSOLE_MS_POWER_OFF },
	{ "reboot: System halted", CONSOLE_MS_HALT },
	{ "reboot: Restarting system", CONSOLE_MS_REBOOT },
};

static int milestone_of(const struct console *c, const char *t, double ts)
{
	const char *s = t;
	int m = prefix_match(milestone_lines, ELEMENTSOF(milestone_lines), t);

	if (m != NONE)
		return m;
	if (startswith(t, "Linux version ") &&
	    is_digit(t[strlen("Linux version ")]) &&
	    (ts >= 0 || !c->cycle_ts_seen))
		return CONSOLE_MS_KERNEL_BANNER;
	if ((c->cycle & (1u << CONSOLE_MS_INIT_STARTED)) && fs_mounted(t))
		return CONSOLE_MS_ROOT_MOUNTED;
	if (startswith(t, "Run ") && strstr(t, " as init process"))
		return CONSOLE_MS_INIT_STARTED;
	while (*s == ' ' || *s == '\t')
		s++;
	if (startswith(s, "KTAP version ") || startswith(s, "TAP version "))
		return CONSOLE_MS_KTAP_START;
	return NONE;
}

static void slot_set(struct milestone_slot *s,
		     const struct console_milestone_event *ev)
{
	free((char *)s->ev.text);
	s->ev = *ev;
	s->ev.text = xstrndup_cut(ev->text, strlen(ev->text),
				  CONSOLE_MILESTONE_TEXT_MAX);
	s->set = true;
}

static void milestone_emit(struct console *c, int m, const char *t,
			   double ts)
{
	struct console_milestone_event ev = {
		.milestone = m,
		.text = t,
		.lineno = c->lineno,
		.timestamp = ts,
	};

	c->reached |= 1u << m;
	c->cycle |= 1u << m;
	slot_set(&c->last, &ev);
	if (!c->first[m].set)
		slot_set(&c->first[m], &ev);
	if (c->ops.on_milestone)
		c->ops.on_milestone(&c->last.ev, c->userdata);
}

/* ------------------------------------------------------------ lines */

static size_t parse_digits(const char *s, size_t max, uint64_t *ret)
{
	size_t n = 0;
	uint64_t v = 0;

	while (n < max && is_digit(s[n]))
		v = v * 10 + (uint64_t)(s[n++] - '0');
	*ret = v;
	return n;
}

/* Length of the "<N>[  1.234567][ T1] " prefix, 0 if none; *ret_ts, and
 * *ret_caller: the caller id (T<n> even, C<n> odd, plus one), 0 if none. */
static size_t parse_timestamp(const char *s, double *ret_ts,
			      unsigned long *ret_caller)
{
	size_t i = 0, n, nf;
	uint64_t sec, frac, scale = 1;

	*ret_ts = -1;
	*ret_caller = 0;
	if (s[0] == '<') {
		n = 1;
		while (n <= 4 && is_digit(s[n]))
			n++;
		if (n == 1 || s[n] != '>')
			return 0;
		i = n + 1;
	}
	if (s[i] != '[')
		return 0;
	i++;
	while (s[i] == ' ')
		i++;
	n = parse_digits(s + i, 12, &sec);
	if (!n || s[i + n] != '.')
		return 0;
	i += n + 1;
	nf = parse_digits(s + i, 9, &frac);
	if (!nf || s[i + nf] != ']')
		return 0;
	i += nf + 1;
	for (size_t k = 0; k < nf; k++)
		scale *= 10;
	*ret_ts = (double)sec + (double)frac / (double)scale;
	/* printk caller id: "[    T123]" or "[     C0]" */
	if (s[i] == '[') {
		size_t j = i + 1;

		while (s[j] == ' ')
			j++;
		if ((s[j] == 'T' || s[j] == 'C') && is_digit(s[j + 1])) {
			unsigned long cpu = s[j] == 'C';
			uint64_t id;

			j++;
			j += parse_digits(s + j, 9, &id);
			if (s[j] == ']') {
				i = j + 1;
				*ret_caller = (unsigned long)id * 2 + cpu + 1;
			}
		}
	}
	if (s[i] == ' ')
		i++;
	return i;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid;
 * *ret_cp its code point. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *ret_cp)
{
	uint32_t cp;
	size_t len;

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret_cp = cp;
	return len;
}

/* raw → clean: valid UTF-8 without C1 controls, at most CONSOLE_LINE_MAX. */
static void clean_line(struct console *c)
{
	const unsigned char *s = (const unsigned char *)c->raw.buf;
	size_t n = c->raw.len, i = 0;
	struct strbuf *out = &c->clean;

	strbuf_reset(out);
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_seq(s + i, n - i, &cp);

		if (!k) {
			c->stats.invalid_utf8++;
			if (out->len + 3 > CONSOLE_LINE_MAX) {
				c->raw_truncated = true;
				break;
			}
			strbuf_add(out, "\xef\xbf\xbd", 3);
			i++;
			continue;
		}
		if (cp == 0xfffe || cp == 0xffff) {
			/* Noncharacters XML cannot carry (junit.xml). */
			c->stats.invalid_utf8++;
			if (out->len + 3 > CONSOLE_LINE_MAX) {
				c->raw_truncated = true;
				break;
			}
			strbuf_add(out, "\xef\xbf\xbd", 3);
		} else if (cp >= 0x80 && cp <= 0x9f) {
			c->stats.controls++;
		} else {
			if (out->len + k > CONSOLE_LINE_MAX) {
				c->raw_truncated = true;
				break;
			}
			strbuf_add(out, s + i, k);
		}
		i += k;
	}
}

/*
 * A kernel message that begins after other text on the same line (user
 * space wrote a partial line, then printk): "[%5lu.%06lu] " exactly.
 */
static size_t midline_timestamp(const char *s, size_t len)
{
	for (size_t k = 1; k < len; k++) {
		const char *p = s + k;
		size_t i = 1, width = 0, digits = 0;

		if (*p != '[')
			continue;
		for (; p[i] == ' '; i++)
			width++;
		for (; is_digit(p[i]); i++, width++)
			digits++;
		if (!digits || width < 5 || p[i] != '.')
			continue;
		for (digits = 0, i++; is_digit(p[i]); i++)
			digits++;
		if (digits == 6 && p[i] == ']' && p[i + 1] == ' ')
			return k;
	}
	return 0;
}

/*
 * The length of kdb's prompt ("[0]kdb> ", its default PROMPT "[%d]kdb> ")
 * at the start of s when more text follows it on the line, else 0.  kdb
 * prints the prompt without a newline and waits; when gdb takes over (its
 * first packet on the kgdb port), whatever is printed next, the agent's
 * KTAP included, lands behind the prompt.
 */
static size_t kdb_prompt(const char *s, size_t len)
{
	size_t i = 1;

	if (len < 8 || s[0] != '[' || !is_digit(s[1]))
		return 0;
	while (i < len && is_digit(s[i]))
		i++;
	if (len - i <= 6 || memcmp(s + i, "]kdb> ", 6))
		return 0;
	return i + 6;
}

static void process_line(struct console *c, const char *text, size_t len,
			 double ts, unsigned long caller, bool truncated)
{
	struct console_line line = {
		.text = text,
		.len = len,
		.lineno = c->lineno,
		.timestamp = ts,
		.truncated = truncated,
	};
	bool boundary;
	int m;

	if (ts >= 0)
		c->stats.timestamped++;
	if (c->ops.on_line)
		c->ops.on_line(&line, c->userdata);

	m = milestone_of(c, text, ts);
	/* Firmware or a second banner after a banner: the machine rebooted. */
	if ((m == CONSOLE_MS_FIRMWARE || m == CONSOLE_MS_KERNEL_BANNER) &&
	    (c->cycle & (1u << CONSOLE_MS_KERNEL_BANNER))) {
		c->cycle = 0;
		c->cycle_ts_seen = false;
		c->cycle_kmemleak_seen = false;
	}
	if ((m == CONSOLE_MS_FIRMWARE || m == CONSOLE_MS_KERNEL_BANNER) &&
	    !(c->cycle & ((1u << CONSOLE_MS_FIRMWARE) |
			  (1u << CONSOLE_MS_KERNEL_BANNER))))
		c->stats.boots++;
	if (ts >= 0)
		c->cycle_ts_seen = true;
	boundary = m == CONSOLE_MS_FIRMWARE || m == CONSOLE_MS_KERNEL_BANNER ||
		   m == CONSOLE_MS_POWER_OFF || m == CONSOLE_MS_HALT ||
		   m == CONSOLE_MS_REBOOT;

	console_report_line(c, text, len, ts, caller, boundary);

	if (m != NONE && !(c->cycle & (1u << m)))
		milestone_emit(c, m, text, ts);
	if (m == CONSOLE_MS_REBOOT) {
		c->cycle = 0;
		c->cycle_ts_seen = false;
		c->cycle_kmemleak_seen = false;
	}
}

static void end_line(struct console *c)
{
	char *s;
	size_t len, off, mid;
	double ts;
	unsigned long caller;
	bool truncated;

	clean_line(c);
	s = c->clean.buf;
	len = c->clean.len;
	truncated = c->raw_truncated;
	strbuf_reset(&c->raw);
	c->raw_any = false;
	c->raw_truncated = false;

	c->lineno++;
	c->stats.lines++;
	if (truncated)
		c->stats.lines_truncated++;
	off = parse_timestamp(s, &ts, &caller);
	/* kdb's prompt, then a kernel message after user space's text: each
	 * split off as a line of its own (the same line number) */
	for (int k = 0; k < 2; k++) {
		mid = off ? 0 : k ? midline_timestamp(s, len) : kdb_prompt(s, len);
		if (mid) {
			char save = s[mid];

			c->stats.lines_split++;
			s[mid] = '\0';
			process_line(c, s, mid, -1, 0, false);
			s[mid] = save;
			s += mid;
			len -= mid;
			off = parse_timestamp(s, &ts, &caller);
		}
	}
	process_line(c, s + off, len - off, ts, caller, truncated);
}

static void add_byte(struct console *c, unsigned char ch)
{
	if (c->raw.len < CONSOLE_LINE_MAX) {
		strbuf_addch(&c->raw, ch);
	} else {
		c->raw_truncated = true;
		c->stats.bytes_truncated++;
	}
}

static void feed_byte(struct console *c, unsigned char ch)
{
	c->raw_any = true;
	if (ch == '\n') {
		c->esc = ESC_NONE;
		end_line(c);
		return;
	}
	switch (c->esc) {
	case ESC_NONE:
		if (ch == 0x1b) {
			c->esc = ESC_START;
			c->stats.escapes++;
		} else if (ch == '\r') {
			/* dropped */
		} else if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			c->stats.controls++;
		} else {
			add_byte(c, ch);
		}
		break;
	case ESC_START:
		if (ch == '[')
			c->esc = ESC_CSI;
		else if (ch == ']' || ch == 'P' || ch == 'X' || ch == '^' ||
			 ch == '_')
			c->esc = ESC_STR;
		else if (ch >= 0x20 && ch <= 0x2f)
			c->esc = ESC_INTER;
		else if (ch != 0x1b)
			c->esc = ESC_NONE;	/* ESC c, ESC 7, ... */
		break;
	case ESC_CSI:
		if (ch >= 0x40 && ch <= 0x7e)
			c->esc = ESC_NONE;
		else if (ch == 0x1b)
			c->esc = ESC_START;
		else if (ch >= 0x7f)
			c->esc = ESC_NONE;	/* malformed: drop it */
		break;
	case ESC_INTER:
		if (ch == 0x1b)
			c->esc = ESC_START;
		else if (ch < 0x20 || ch > 0x2f)
			c->esc = ESC_NONE;
		break;
	case ESC_STR:
		if (ch == 0x07)
			c->esc = ESC_NONE;
		else if (ch == 0x1b)
			c->esc = ESC_STR_ESC;
		break;
	case ESC_STR_ESC:
		if (ch == '\\')
			c->esc = ESC_NONE;
		else if (ch != 0x1b)
			c->esc = ESC_STR;
		break;
	}
}

/* ------------------------------------------------------------ API */

struct console *console_new(const struct console_ops *ops, void *userdata)
{
	struct console *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (ops)
		c->ops = *ops;
	c->userdata = userdata;
	strbuf_init(&c->raw, 0);
	strbuf_init(&c->clean, 0);
	strbuf_init(&c->prev.text, 0);
	strbuf_init(&c->blk.report, 0);
	return c;
}

void console_free(struct console *c)
{
	if (!c)
		return;
	strbuf_release(&c->raw);
	strbuf_release(&c->clean);
	strbuf_release(&c->prev.text);
	strbuf_release(&c->blk.report);
	console_report_release(&c->blk.p);
	for (size_t i = 0; i < c->n_problems; i++)
		console_report_release(&c->problems[i]);
	for (int m = 0; m < _CONSOLE_MS_MAX; m++)
		free((char *)c->first[m].ev.text);
	free((char *)c->last.ev.text);
	free(c);
}

int console_feed(struct console *c, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	if (!c || (!buf && n) || c->finished)
		return -EINVAL;
	c->stats.bytes += n;
	for (size_t i = 0; i < n; i++) {
		/* Fast path for plain text. */
		if (c->esc == ESC_NONE && p[i] >= 0x20 && p[i] != 0x7f) {
			c->raw_any = true;
			add_byte(c, p[i]);
			continue;
		}
		feed_byte(c, p[i]);
	}
	return 0;
}

int console_finish(struct console *c)
{
	if (!c)
		return -EINVAL;
	if (c->finished)
		return 0;
	if (c->raw_any)
		end_line(c);
	c->esc = ESC_NONE;
	console_report_close(c, CONSOLE_END_STREAM);
	c->finished = true;
	return 0;
}

unsigned console_milestones(const struct console *c)
{
	return c->reached;
}

const struct console_milestone_event *
console_milestone_first(const struct console *c, enum console_milestone m)
{
	if ((unsigned)m >= _CONSOLE_MS_MAX || !c->first[m].set)
		return NULL;
	return &c->first[m].ev;
}

const struct console_milestone_event *
console_last_milestone(const struct console *c)
{
	return c->last.set ? &c->last.ev : NULL;
}

const char *console_banner(const struct console *c)
{
	const struct console_milestone_event *ev =
		console_milestone_first(c, CONSOLE_MS_KERNEL_BANNER);

	return ev ? ev->text : NULL;
}

size_t console_n_problems(const struct console *c)
{
	return c->n_problems;
}

const struct console_problem *console_problem(const struct console *c,
					      size_t i)
{
	return i < c->n_problems ? &c->problems[i] : NULL;
}

bool console_lockdep_off(const struct console *c, unsigned long *ret_lineno)
{
	if (!c || !c->lockdep_off)
		return false;
	if (ret_lineno)
		*ret_lineno = c->lockdep_off_lineno;
	return true;
}

bool console_in_report(const struct console *c)
{
	return c->blk.open;
}

void console_get_stats(const struct console *c, struct console_stats *ret)
{
	*ret = c->stats;
}
