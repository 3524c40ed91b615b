// SPDX-License-Identifier: GPL-2.0-or-later
#include "opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bootproof.h"
#include "util/bug.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define HELP_COLUMN 25

static const struct opt help_opt =
	OPT_FLAG('h', "help", NULL, "print this help and exit");

void opt_list_done(struct opt_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* "  -a, --arch A     help": the short name's column is always there,
 * since -h is. */
static void usage_line(const struct opt *o, FILE *f)
{
	_cleanup_strbuf_ struct strbuf left = STRBUF_INIT;
	const char *h = o->help ? o->help : "";
	int col;

	strbuf_addstr(&left, "  ");
	if (o->short_name)
		strbuf_addf(&left, "-%c, ", o->short_name);
	else
		strbuf_addstr(&left, "    ");
	strbuf_addf(&left, "--%s", o->long_name);
	if (o->argh)
		strbuf_addf(&left, " %s", o->argh);
	fputs(left.buf, f);
	col = (int)left.len;
	if (col + 2 > HELP_COLUMN) {
		fputc('\n', f);
		col = 0;
	}
	/* The help, each of its lines in the help column. */
	for (;;) {
		const char *nl = strchr(h, '\n');
		int n = nl ? (int)(nl - h) : (int)strlen(h);

		fprintf(f, "%*s%.*s%s\n", HELP_COLUMN - col, "", n, h,
			!nl && o->required ? " (required)" : "");
		if (!nl)
			break;
		h = nl + 1;
		col = 0;
	}
}

void opts_usage(const struct opts_cmd *cmd, FILE *f)
{
	const char *s = cmd->synopsis;

	/* Later synopsis lines line up under the first one's "bootproof". */
	fputs("usage: ", f);
	for (const char *nl; (nl = strchr(s, '\n')); s = nl + 1)
		fprintf(f, "%.*s\n       ", (int)(nl - s), s);
	fprintf(f, "%s\n", s);
	if (cmd->intro)
		fprintf(f, "\n%s\n", cmd->intro);
	fputc('\n', f);
	for (const struct opt *o = cmd->opts; o->kind != OPT_KIND_END; o++)
		usage_line(o, f);
	usage_line(&help_opt, f);
	if (cmd->epilog)
		fprintf(f, "\n%s\n", cmd->epilog);
}

/* Log the error, print the usage on stderr, and end the parse. */
static int _printf_(2, 3) bad(const struct opts_cmd *cmd, const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	log_error("%s: %s", cmd->name, msg.buf);
	opts_usage(cmd, stderr);
	return opts_done(BP_EXIT_USAGE);
}

static int parse_uint(const struct opts_cmd *cmd, const struct opt *o,
		      const char *shown, const char *arg)
{
	unsigned long long v = 0;
	const char *p = arg;

	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > o->max)
			break;
	}
	if (!*arg || (*p && (*p < '0' || *p > '9')))
		return bad(cmd, "%s: expected a number of %s, got '%s'", shown,
			   o->unit, arg);
	if (*p || v < o->min)
		return bad(cmd, "%s: expected %u to %u %s, got '%s'", shown,
			   o->min, o->max, o->unit, arg);
	*(unsigned *)o->value = (unsigned)v;
	return 0;
}

/* Store arg (NULL for a flag) into o's value; 0 or a negative "done". */
static int store(const struct opts_cmd *cmd, const struct opt *o,
		 const char *shown, const char *arg)
{
	struct opt_list *l;

	switch (o->kind) {
	case OPT_KIND_FLAG:
		*(bool *)o->value = true;
		return 0;
	case OPT_KIND_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_KIND_LIST:
		l = o->value;
		l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
		l->v[l->n++] = arg;
		return 0;
	case OPT_KIND_UINT:
		return parse_uint(cmd, o, shown, arg);
	case OPT_KIND_END:
		break;
	}
	BUG("option --%s of kind %d", o->long_name, (int)o->kind);
}

/* The option named by the long name name[0..len-1]: exact, else the one
 * it is a prefix of.  NULL with *ret_ambiguous when several are. */
static const struct opt *find_long(const struct opt *opts, const char *name,
				   size_t len, bool *ret_ambiguous)
{
	const struct opt *found = NULL;
	int n = 0;

	*ret_ambiguous = false;
	if (!len)
		return NULL;
	if (!strncmp(help_opt.long_name, name, len) && !help_opt.long_name[len])
		return &help_opt;
	for (const struct opt *o = opts; o->kind != OPT_KIND_END; o++) {
		if (strncmp(o->long_name, name, len))
			continue;
		if (!o->long_name[len])
			return o;
		found = o;
		n++;
	}
	if (!strncmp(help_opt.long_name, name, len)) {
		found = &help_opt;
		n++;
	}
	*ret_ambiguous = n > 1;
	return n == 1 ? found : NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	if (c == help_opt.short_name)
		return &help_opt;
	for (const struct opt *o = opts; o->kind != OPT_KIND_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static int help(const struct opts_cmd *cmd)
{
	opts_usage(cmd, stdout);
	return opts_done(BP_EXIT_OK);
}

/*
 * argv[*i] is "--name[=value]": take it (and its value from argv[*i + 1]
 * when it needs one), appending what it took to out.
 */
static int parse_long(const struct opts_cmd *cmd, int argc, char **argv,
		      int *i, char **out, int *n_out)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt *o;
	bool ambiguous;
	char shown[80];

	o = find_long(cmd->opts, name, len, &ambiguous);
	if (ambiguous)
		return bad(cmd, "ambiguous option '--%.*s'", (int)len, name);
	if (!o)
		return bad(cmd, "unknown option '--%.*s'", (int)len, name);
	snprintf(shown, sizeof(shown), "--%s", o->long_name);
	out[(*n_out)++] = argv[*i];
	if (o == &help_opt)
		return help(cmd);
	if (o->kind == OPT_KIND_FLAG) {
		if (eq)
			return bad(cmd, "%s takes no value", shown);
		return store(cmd, o, shown, NULL);
	}
	if (eq)
		return store(cmd, o, shown, eq + 1);
	if (*i + 1 >= argc)
		return bad(cmd, "%s: expected %s after it", shown, o->argh);
	out[(*n_out)++] = argv[++*i];
	return store(cmd, o, shown, argv[*i]);
}

/* argv[*i] is "-abc": flags, the last (or one with its value attached)
 * perhaps taking a value. */
static int parse_short(const struct opts_cmd *cmd, int argc, char **argv,
		       int *i, char **out, int *n_out)
{
	out[(*n_out)++] = argv[*i];
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct opt *o = find_short(cmd->opts, *p);
		char shown[3] = { '-', *p, '\0' };
		int r;

		if (!o)
			return bad(cmd, "unknown option '-%c'", *p);
		if (o == &help_opt)
			return help(cmd);
		if (o->kind == OPT_KIND_FLAG) {
			r = store(cmd, o, shown, NULL);
			if (r < 0)
				return r;
			continue;
		}
		if (p[1])
			return store(cmd, o, shown, p + 1);
		if (*i + 1 >= argc)
			return bad(cmd, "%s: expected %s after it", shown,
				   o->argh);
		out[(*n_out)++] = argv[++*i];
		return store(cmd, o, shown, argv[*i]);
	}
	return 0;
}

int opts_parse(const struct opts_cmd *cmd, int argc, char **argv)
{
	_cleanup_free_ char **out = xcalloc((size_t)argc + 1, sizeof(char *));
	_cleanup_free_ char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int n_out = 0, n_pos = 0, r = 0;

	for (int i = 1; i < argc && r >= 0; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			out[n_out++] = argv[i];
			while (++i < argc)
				pos[n_pos++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1])
			pos[n_pos++] = argv[i];
		else if (a[1] == '-')
			r = parse_long(cmd, argc, argv, &i, out, &n_out);
		else
			r = parse_short(cmd, argc, argv, &i, out, &n_out);
	}
	if (r < 0)
		return r;
	if (cmd->max_args >= 0 && n_pos > cmd->max_args)
		return bad(cmd, "unexpected argument '%s'", pos[cmd->max_args]);
	for (const struct opt *o = cmd->opts; o->kind != OPT_KIND_END; o++)
		if (o->required && !*(const char **)o->value)
			return bad(cmd, "--%s %s is required", o->long_name,
				   o->argh);
	/* Options (and "--") first, then the positional arguments, as getopt
	 * leaves them. */
	memcpy(argv + 1, out, (size_t)n_out * sizeof(char *));
	memcpy(argv + 1 + n_out, pos, (size_t)n_pos * sizeof(char *));
	return 1 + n_out;
}
