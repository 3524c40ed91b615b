/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A verb's command-line options as a table, after git's parse-options.h:
 * one entry per option says its names, what argument it takes, where the
 * value goes and its help line; the parser and the usage text both come
 * from that table, so a verb has no getopt loop of its own.
 *
 *	static const char *kernel;
 *	static unsigned timeout;
 *	const struct opt table[] = {
 *		OPT_STRING_REQUIRED(0, "kernel", &kernel, "PATH",
 *				    "the kernel image"),
 *		OPT_UINT(0, "timeout", &timeout, "S", "seconds", 0, 1000000,
 *			 "whole-boot limit"),
 *		OPT_END(),
 *	};
 *	const struct opts_cmd cmd = { .name = "boot",
 *		.synopsis = "bootproof boot --kernel PATH [options]",
 *		.opts = table, .max_args = 0 };
 *	int argi = opts_parse(&cmd, argc, argv);
 *	if (argi < 0)
 *		return opts_exit_code(argi);
 *
 * Accepted forms: --name VALUE, --name=VALUE, an unambiguous prefix of a
 * long name (--verb for --verbose, as getopt_long), -x VALUE, -xVALUE,
 * bundled short flags (-jv), "--" ending the options.  Options and
 * positional arguments may be mixed; -h and --help are always there.
 */
#ifndef BP_UTIL_OPTS_H
#define BP_UTIL_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_kind {
	OPT_KIND_END,
	OPT_KIND_FLAG,	 /* no argument; sets a bool to true */
	OPT_KIND_STRING, /* one argument; a const char *, the last one wins */
	OPT_KIND_LIST,	 /* one argument, repeatable; appended to a struct opt_list */
	OPT_KIND_UINT,	 /* an unsigned decimal number within [min, max] */
};

/* The values of a repeatable option, in command-line order.  The strings
 * are argv's; v is malloc'd: opt_list_done() frees it. */
struct opt_list {
	const char **v;
	size_t n;
};

void opt_list_done(struct opt_list *l);

struct opt {
	enum opt_kind kind;
	char short_name;	/* 0: none */
	const char *long_name;	/* without the dashes */
	void *value;		/* bool *, const char **, struct opt_list *, unsigned * */
	const char *argh;	/* the argument's name in the usage: PATH, N */
	const char *help;	/* may hold '\n' for more lines */
	const char *unit;	/* OPT_KIND_UINT: "seconds", for the messages */
	unsigned min, max;	/* OPT_KIND_UINT: the accepted range */
	bool required;		/* an error when the command line lacks it */
};

#define OPT_END() { .kind = OPT_KIND_END }
#define OPT_FLAG(s, l, v, h)                                                   \
	{ .kind = OPT_KIND_FLAG, .short_name = (s), .long_name = (l),          \
	  .value = (v), .help = (h) }
#define OPT_STRING(s, l, v, a, h)                                              \
	{ .kind = OPT_KIND_STRING, .short_name = (s), .long_name = (l),        \
	  .value = (v), .argh = (a), .help = (h) }
/* A string option the verb cannot do without: its variable starts NULL,
 * and is still NULL only when the command line lacks the option. */
#define OPT_STRING_REQUIRED(s, l, v, a, h)                                     \
	{ .kind = OPT_KIND_STRING, .short_name = (s), .long_name = (l),        \
	  .value = (v), .argh = (a), .help = (h), .required = true }
#define OPT_LIST(s, l, v, a, h)                                                \
	{ .kind = OPT_KIND_LIST, .short_name = (s), .long_name = (l),          \
	  .value = (v), .argh = (a), .help = (h) }
#define OPT_UINT(s, l, v, a, u, lo, hi, h)                                     \
	{ .kind = OPT_KIND_UINT, .short_name = (s), .long_name = (l),          \
	  .value = (v), .argh = (a), .help = (h), .unit = (u), .min = (lo),    \
	  .max = (hi) }

/* A verb: its name (for messages), its usage text around the table. */
struct opts_cmd {
	const char *name;	/* "boot": messages read "boot: --kernel: ..." */
	const char *synopsis;	/* after "usage: "; may hold '\n' for more lines */
	const char *intro;	/* paragraph between synopsis and options, or NULL */
	const char *epilog;	/* text after the options (exit codes), or NULL */
	const struct opt *opts; /* ended by OPT_END() */
	int max_args;		/* positional arguments allowed; < 0: any number */
};

/*
 * Parse argv[1..argc-1] (argv[0] is the verb) and store each option's
 * value.  Returns the index in argv of the first positional argument:
 * argv is permuted as GNU getopt does, the options first, then the
 * positional arguments in their order ("--" itself dropped from them).
 *
 * Returns a negative value when the verb is done; opts_exit_code() turns
 * it into the verb's exit code: BP_EXIT_OK after -h/--help printed the
 * usage on stdout, BP_EXIT_USAGE after an error naming the option (an
 * unknown option, a missing or malformed value, an out-of-range number,
 * a required option not given, more positional arguments than max_args)
 * was logged and the usage printed on stderr.
 */
int opts_parse(const struct opts_cmd *cmd, int argc, char **argv);

static inline int opts_exit_code(int r)
{
	return -1 - r;
}

/* The other way round, for a verb's own checks of its options: the
 * negative value opts_exit_code() turns into code. */
static inline int opts_done(int code)
{
	return -1 - code;
}

/* The usage text generated from the table. */
void opts_usage(const struct opts_cmd *cmd, FILE *f);

#endif
