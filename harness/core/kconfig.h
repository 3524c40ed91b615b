/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kconfig: .config files and fragments, and what became of a request.
 *
 * The line forms are those scripts/kconfig/confdata.c reads and writes:
 *
 *	CONFIG_NAME=y | m | n
 *	CONFIG_NAME="string"	("\"" and "\\" escaped, as the kernel writes)
 *	CONFIG_NAME=123 | -5	(decimal)
 *	CONFIG_NAME=0x1f	(hex; 0x or 0X prefix required)
 *	# CONFIG_NAME is not set
 *	# any other comment, and blank lines
 *
 * Trailing whitespace and CRLF line ends are accepted.  Anything else is a
 * parse error, although the kernel merely warns about some of those lines:
 * it then ignores them, so a fragment holding one does not do what its
 * author meant.  NAME is [A-Za-z0-9_]+ and must not start with a lower
 * case letter (real symbols such as SND_SOC_AMD_ACP3x do contain some).
 *
 * Nothing here evaluates Kconfig dependencies; that is the kernel's job.
 * Pure module: no I/O except on a FILE * handed in, never logs.
 */
#ifndef BP_KCONFIG_H
#define BP_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/cleanup.h"
#include "util/strbuf.h"

enum kconfig_kind {
	KCONFIG_NO,	 /* "# CONFIG_X is not set" or CONFIG_X=n */
	KCONFIG_YES,	 /* =y */
	KCONFIG_MODULE,	 /* =m */
	KCONFIG_STRING,	 /* ="..." */
	KCONFIG_DECIMAL, /* =123, =-5 */
	KCONFIG_HEX,	 /* =0x1f */
};

/*
 * One definition of a symbol.  Every pointer in it is owned by the struct
 * kconfig it came from and lives as long as that set.
 */
struct kconfig_option {
	const char *name; /* without the CONFIG_ prefix */
	enum kconfig_kind kind;
	/*
	 * "n", "y" or "m" for the first three kinds; the unescaped contents
	 * for a string; the digits as written for numbers ("-5", "0x1f").
	 */
	const char *value;
	size_t value_len; /* strlen(value) */
	const char *file; /* where this definition was read */
	unsigned line;	  /* 1-based */
	/*
	 * The definition this one replaced (the same fragment defining the
	 * symbol twice, or an earlier fragment of a merge), or NULL.  It chains
	 * back to the first definition, so a caller can say
	 * "a.config:7: CONFIG_X=y overridden by b.config:12".
	 */
	const struct kconfig_option *overrides;
};

/*
 * A set of options, one (latest) definition per symbol, kept in the order
 * in which each symbol was first defined.  Lookups are by hash.
 */
struct kconfig;

/* Returns 0 and a new empty set in *ret (allocation aborts on failure). */
int kconfig_new(struct kconfig **ret);
/* Frees the set and every option, name and file name in it.  NULL is ok. */
void kconfig_free(struct kconfig *kc);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct kconfig *, kconfig_free)
#define _cleanup_kconfig_ _cleanup_(kconfig_freep)

/*
 * A parse error.  Initialise with KCONFIG_ERROR_INIT, release with
 * kconfig_error_done() (or declare it _cleanup_kconfig_error_).  msg is the
 * whole message, "file:line: expected ...", ready to print.
 */
struct kconfig_error {
	unsigned line; /* 1-based line of the error, 0 when none */
	struct strbuf msg;
};
#define KCONFIG_ERROR_INIT                                                     \
	{                                                                      \
		.line = 0, .msg = STRBUF_INIT                                  \
	}
void kconfig_error_done(struct kconfig_error *err);
#define _cleanup_kconfig_error_ _cleanup_(kconfig_error_done)

/*
 * Parse len bytes of buf (need not be NUL-terminated) as the .config or
 * fragment named file (a copy of the name is kept, for provenance and
 * messages) and add its options to kc: a symbol already in kc, or defined
 * again later in buf, takes the new value and the earlier definition is
 * kept in ->overrides.  Parsing stops at the first malformed line.
 *
 * Returns the number of definitions read (>= 0), -EINVAL on a malformed
 * line with *err filled (err may be NULL), -E2BIG past INT_MAX lines or
 * definitions.  On error kc is left
 * as it was.  Time is linear in len.
 */
int kconfig_parse(struct kconfig *kc, const char *file, const char *buf,
		  size_t len, struct kconfig_error *err);

/*
 * Merge src into dst as if src's fragment had been parsed after dst's: each
 * option of src is copied (with its own override chain, which then continues
 * into dst's earlier definition).  src is unchanged.  0, or -EINVAL when
 * either is NULL.
 */
int kconfig_merge(struct kconfig *dst, const struct kconfig *src);

/* Number of distinct symbols in kc. */
size_t kconfig_count(const struct kconfig *kc);
/* The i-th symbol's latest definition in first-definition order, or NULL. */
const struct kconfig_option *kconfig_at(const struct kconfig *kc, size_t i);
/*
 * Latest definition of name ("FOO" or "CONFIG_FOO"), or NULL when kc has
 * none.  The pointer stays valid as long as kc: when the symbol is defined
 * again it stays reachable through the new definition's ->overrides.
 */
const struct kconfig_option *kconfig_find(const struct kconfig *kc,
					  const char *name);

/*
 * True when a and b give their symbols the same value.  Kinds must match;
 * hex compares as a number ("0x1F" == "0x01f"), decimals as written (the
 * kernel keeps them as text), strings byte for byte.
 */
bool kconfig_value_equal(const struct kconfig_option *a,
			 const struct kconfig_option *b);

/*
 * Append the value as it appears in a .config: y, m, n, a quoted and
 * escaped string, a number as written.
 */
void kconfig_format_value(struct strbuf *sb, const struct kconfig_option *o);
/*
 * Append the option's .config line, with "\n", exactly as the kernel
 * writes it: "CONFIG_X=value" or "# CONFIG_X is not set" for n.
 */
void kconfig_format_option(struct strbuf *sb, const struct kconfig_option *o);
/*
 * Write every option of kc, one line each in kconfig_at() order, to f.
 * Returns 0 or -errno (-EIO when the stream reports an error).
 */
int kconfig_write(const struct kconfig *kc, FILE *f);

/* What became of one requested option in a final .config. */
enum kconfig_verdict {
	KCONFIG_KEPT,	 /* same value, or n requested and symbol absent */
	KCONFIG_CHANGED, /* another value (n requested: final y or m) */
	KCONFIG_ABSENT,	 /* y/m/value requested, symbol not in final */
	KCONFIG_DEMOTED, /* y requested, final m */
	KCONFIG_VERDICT_MAX,
};
/* "KEPT", "CHANGED", "ABSENT", "DEMOTED"; "?" when out of range. */
const char *kconfig_verdict_to_string(enum kconfig_verdict v);

struct kconfig_check {
	enum kconfig_verdict verdict;
	/* The latest requested definition (its file:line, ->overrides). */
	const struct kconfig_option *requested;
	/* The final definition; NULL when the final set has none. */
	const struct kconfig_option *final;
};

/*
 * The per-option outcome of a request.  checks[] borrows pointers into
 * the requested and final sets: free the report before them.
 */
struct kconfig_report {
	size_t n_checks;
	struct kconfig_check *checks; /* in kconfig_at() order of requested */
	size_t count[KCONFIG_VERDICT_MAX];
};

/*
 * Check every option of requested (typically the merge of the fragments)
 * against final (the .config kconfig produced).  Returns the number of
 * options not KEPT (>= 0) with the report in *ret, or -EINVAL when an
 * argument is NULL.
 */
int kconfig_verify(const struct kconfig *requested, const struct kconfig *final,
		   struct kconfig_report **ret);
/* NULL is ok. */
void kconfig_report_free(struct kconfig_report *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct kconfig_report *, kconfig_report_free)
#define _cleanup_kconfig_report_ _cleanup_(kconfig_report_freep)

#endif
