// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

void agent_params_init(struct agent_params *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->scenarios[0], sizeof(p->scenarios[0]), "boot");
	p->n_scenarios = 1;
	p->timeout_s = AGENT_DEFAULT_TIMEOUT;
	p->kgdb_wait_s = AGENT_DEFAULT_KGDB_WAIT;
	p->cpus = -1;
	p->mem_mib = -1;
}

__attribute__((format(printf, 2, 3)))
static void problem(struct agent_params *p, const char *fmt, ...)
{
	va_list ap;

	if (p->n_problems >= AGENT_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(p->problems[p->n_problems++], AGENT_PROBLEM_MAX, fmt, ap);
	va_end(ap);
}

/* Kernel parameter names treat '-' and '_' alike. */
static bool name_eq(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen && b[i]; i++) {
		char x = a[i] == '-' ? '_' : a[i];
		char y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return i == alen && !b[i];
}

/* A decimal number in [min, max]; false when it is not one. */
static bool parse_num(const char *s, long min, long max, long *ret)
{
	char *end;
	long v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*ret = v;
	return true;
}

static void add_scenarios(struct agent_params *p, const char *val)
{
	const char *s = val;

	p->n_scenarios = 0;
	while (*s) {
		size_t n = strcspn(s, ",");

		if (n == 0) {
			s++;
			continue;
		}
		if (n >= AGENT_NAME_MAX)
			problem(p, BP_PARAM_SCENARIOS ": name '%.*s' too long",
				(int)(n > 40 ? 40 : n), s);
		else if (p->n_scenarios >= AGENT_MAX_SCENARIOS)
			problem(p, BP_PARAM_SCENARIOS ": more than %d names, "
				"'%.*s' and later ignored", AGENT_MAX_SCENARIOS,
				(int)n, s);
		else
			snprintf(p->scenarios[p->n_scenarios++],
				 AGENT_NAME_MAX, "%.*s", (int)n, s);
		s += n;
	}
}

static void set_scenarios(struct agent_params *p, const char *val)
{
	if (!val || !*val) {
		problem(p, BP_PARAM_SCENARIOS ": empty list, running boot");
		return;
	}
	add_scenarios(p, val);
	if (p->n_scenarios == 0) {
		problem(p, BP_PARAM_SCENARIOS "=%s: no names, running boot",
			val);
		snprintf(p->scenarios[0], AGENT_NAME_MAX, "boot");
		p->n_scenarios = 1;
	}
}

/* A number in [min, max] for parameter name, or a problem saying what was
 * expected (what) and false. */
static bool number(struct agent_params *p, const char *name, const char *val,
		   long min, long max, const char *what, long *ret)
{
	if (val && parse_num(val, min, max, ret))
		return true;
	problem(p, "%s=%s: expected %s", name, val ? val : "", what);
	return false;
}

/* Seconds in [min, 86400]; a bad value keeps *ret and says so. */
static void seconds(struct agent_params *p, const char *name, const char *val,
		    long min, unsigned *ret)
{
	char what[64];
	long v;

	snprintf(what, sizeof(what), "seconds %ld..86400, using %u", min,
		 *ret);
	if (number(p, name, val, min, 86400, what, &v))
		*ret = (unsigned)v;
}

static void set_timeout(struct agent_params *p, const char *val)
{
	seconds(p, BP_PARAM_TIMEOUT, val, 1, &p->timeout_s);
}

static void set_kgdb_wait(struct agent_params *p, const char *val)
{
	seconds(p, BP_PARAM_KGDB_WAIT, val, 0, &p->kgdb_wait_s);
}

static void set_kgdb(struct agent_params *p, const char *val)
{
	if (!val || !*val || strlen(val) >= AGENT_NAME_MAX || strchr(val, '/'))
		problem(p, BP_PARAM_KGDB "=%s: expected a tty name such as "
			BP_KGDB_TTY, val ? val : "");
	else
		snprintf(p->kgdb_port, sizeof(p->kgdb_port), "%s", val);
}

static void set_cpus(struct agent_params *p, const char *val)
{
	long v;

	if (number(p, BP_PARAM_CPUS, val, 1, 8192, "a CPU count", &v))
		p->cpus = (int)v;
}

static void set_mem_mib(struct agent_params *p, const char *val)
{
	long v;

	if (number(p, BP_PARAM_MEM_MIB, val, 1, 1L << 30, "MiB", &v))
		p->mem_mib = v;
}

static void set_shell(struct agent_params *p, const char *val)
{
	if (!val || !strcmp(val, "1") || !strcmp(val, "y"))
		p->shell = true;
	else if (!strcmp(val, "0") || !strcmp(val, "n"))
		p->shell = false;
	else
		problem(p, BP_PARAM_SHELL "=%s: expected 0 or 1", val);
}

/* The parameters of the contract and what each sets; val is NULL for a
 * bare name. */
static const struct {
	const char *name;
	void (*set)(struct agent_params *p, const char *val);
} params[] = {
	{ BP_PARAM_SCENARIOS, set_scenarios },
	{ BP_PARAM_TIMEOUT, set_timeout },
	{ BP_PARAM_KGDB, set_kgdb },
	{ BP_PARAM_KGDB_WAIT, set_kgdb_wait },
	{ BP_PARAM_CPUS, set_cpus },
	{ BP_PARAM_MEM_MIB, set_mem_mib },
	{ BP_PARAM_SHELL, set_shell },
};

static void set_param(struct agent_params *p, const char *name, size_t nlen,
		      const char *val)
{
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		if (name_eq(name, nlen, params[i].name)) {
			params[i].set(p, val);
			return;
		}
	problem(p, "unknown parameter %.*s ignored", (int)nlen, name);
}

/*
 * One word of the command line, as the kernel's next_arg() splits it: a
 * space ends it unless inside double quotes.  Returns the length of the
 * word starting at s.
 */
static size_t word_len(const char *s)
{
	bool quoted = false;
	size_t i;

	for (i = 0; s[i]; i++) {
		if ((s[i] == ' ' || s[i] == '\t' || s[i] == '\n') && !quoted)
			break;
		if (s[i] == '"')
			quoted = !quoted;
	}
	return i;
}

/* root=V and init=V into p (a later word wins); true when w is one. */
static bool kernel_param(struct agent_params *p, const char *w, size_t n)
{
	static const struct {
		const char *name;
		size_t off, size;
	} kp[] = {
		{ "root=", offsetof(struct agent_params, root),
		  sizeof(p->root) },
		{ "init=", offsetof(struct agent_params, init),
		  sizeof(p->init) },
	};

	for (size_t i = 0; i < sizeof(kp) / sizeof(kp[0]); i++) {
		size_t l = strlen(kp[i].name);
		char *dst = (char *)p + kp[i].off;

		const char *v = w + l;
		size_t vlen;

		if (n < l || strncmp(w, kp[i].name, l))
			continue;
		/* "root=V" (its first quote already dropped) or root="V" */
		vlen = n - l;
		if (vlen && *v == '"') {
			v++;
			vlen--;
		}
		if (vlen && v[vlen - 1] == '"')
			vlen--;
		if (vlen < kp[i].size)
			snprintf(dst, kp[i].size, "%.*s", (int)vlen, v);
		else
			dst[0] = '\0';
		return true;
	}
	return false;
}

unsigned agent_params_parse(struct agent_params *p, const char *cmdline)
{
	const char *s = cmdline;

	while (*s) {
		const char *w, *eq;
		size_t n, nlen;
		char val[1024];

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		w = s;
		n = word_len(w);
		s += n;
		if (*w == '"') {
			/* A quoted word: drop the quotes around it. */
			w++;
			n--;
		}
		if (kernel_param(p, w, n))
			continue;
		if (n < strlen(BP_PARAM_PREFIX) ||
		    strncmp(w, BP_PARAM_PREFIX, strlen(BP_PARAM_PREFIX)) != 0)
			continue;
		eq = memchr(w, '=', n);
		nlen = eq ? (size_t)(eq - w) : n;
		if (eq) {
			const char *v = eq + 1;
			size_t vlen = n - nlen - 1;

			if (vlen && *v == '"') {
				v++;
				vlen--;
			}
			if (vlen && v[vlen - 1] == '"')
				vlen--;
			if (vlen >= sizeof(val)) {
				problem(p, "%.*s: value too long, ignored",
					(int)nlen, w);
				continue;
			}
			memcpy(val, v, vlen);
			val[vlen] = '\0';
		} else if (n && w[n - 1] == '"') {
			nlen--;
		}
		set_param(p, w, nlen, eq ? val : NULL);
	}
	return p->n_problems;
}
