// SPDX-License-Identifier: GPL-2.0-or-later
/* The KTAP test tree: building it within the limits, and the queries of
 * ktap.h over it (see ktap_impl.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ktap_impl.h"

/* ------------------------------------------------------------ tree */

void ktap_tree_free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void ktap_tree_free(struct ktap_test *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_children; i++)
		ktap_tree_free(t->children[i]);
	ktap_tree_free_strv(t->diags, t->n_diags);
	free(t->children);
	free(t->name);
	free(t->reason);
	free(t);
}

/* A copy of at most max bytes of s[0..n), counting truncation. */
char *ktap_tree_copy(struct ktap *k, const char *s, size_t n, size_t max)
{
	char *r;

	if (n > max) {
		n = max;
		k->stats.truncated++;
	}
	r = malloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* A name: "\#" is '#', "\\" is '\'. */
char *ktap_tree_copy_name(struct ktap *k, const char *s, size_t n)
{
	char *r = ktap_tree_copy(k, s, n, k->lim.max_name);
	char *w;

	if (!r)
		return NULL;
	w = r;
	for (char *p = r; *p; p++) {
		if (*p == '\\' && (p[1] == '#' || p[1] == '\\'))
			p++;
		*w++ = *p;
	}
	*w = '\0';
	return r;
}

int ktap_tree_set_reason(struct ktap *k, struct ktap_test *t, const char *s)
{
	char *r = ktap_tree_copy(k, s, strlen(s), k->lim.max_name);

	if (!r)
		return -ENOMEM;
	free(t->reason);
	t->reason = r;
	return 0;
}

/*
 * Make room for element n of the array *pv (elements of size elem, grown in
 * powers of two from 4).  0 or -ENOMEM.
 */
int ktap_tree_grow(void *pv, size_t n, size_t elem)
{
	void **p = pv;
	void *nv;
	size_t a;

	if (n == 0)
		a = 4;
	else if (n >= 4 && !(n & (n - 1)))
		a = 2 * n;
	else
		return 0;
	nv = realloc(*p, a * elem);
	if (!nv)
		return -ENOMEM;
	*p = nv;
	return 0;
}

/*
 * Append a test to parent.  Returns 0 and *ret (NULL when over max_tests or
 * when there is no parent: the caller counts what is lost) or -ENOMEM.
 */
int ktap_tree_new_test(struct ktap *k, struct ktap_test *parent,
		    struct ktap_test **ret)
{
	struct ktap_test *t;

	*ret = NULL;
	if (!parent || k->n_tests >= k->lim.max_tests)
		return 0;
	if (ktap_tree_grow(&parent->children, parent->n_children,
		 sizeof(*parent->children)) < 0)
		return -ENOMEM;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->name = strdup("");
	if (!t->name) {
		free(t);
		return -ENOMEM;
	}
	t->parent = parent;
	t->depth = parent->depth + 1;
	parent->children[parent->n_children++] = t;
	k->n_tests++;
	*ret = t;
	return 0;
}

/*
 * Append a diagnostic to a list within the limits.  Takes s (malloc'd)
 * in all cases.
 */
int ktap_tree_push_diag(struct ktap *k, char ***v, size_t *n, size_t *dropped,
		     char *s)
{
	size_t cost = strlen(s) + 1;

	if (*n >= k->lim.max_diags ||
	    k->diag_bytes + cost > k->lim.max_diag_bytes) {
		free(s);
		(*dropped)++;
		k->stats.dropped_diags++;
		return 0;
	}
	if (ktap_tree_grow(v, *n, sizeof(**v)) < 0) {
		free(s);
		return -ENOMEM;
	}
	(*v)[(*n)++] = s;
	k->diag_bytes += cost;
	return 0;
}

int ktap_tree_add_diag(struct ktap *k, struct ktap_test *t, char *s)
{
	if (!t) {
		free(s);
		k->stats.dropped_diags++;
		return 0;
	}
	return ktap_tree_push_diag(k, &t->diags, &t->n_diags, &t->dropped_diags, s);
}

/* ------------------------------------------------------------ queries */

const struct ktap_test *ktap_test_find(const struct ktap_test *t,
				       const char *path)
{
	if (!t || !path)
		return NULL;
	if (!*path)
		return t;
	for (size_t i = 0; i < t->n_children; i++) {
		const struct ktap_test *c = t->children[i];
		size_t n = strlen(c->name);
		const struct ktap_test *found;

		if (!n || strncmp(path, c->name, n))
			continue;
		if (!path[n])
			return c;
		/* "x/" is a name ending in '/', not x */
		if (path[n] != '/' || !path[n + 1])
			continue;
		found = ktap_test_find(c, path + n + 1);
		if (found)
			return found;
	}
	return NULL;
}

/* Where a test of each status is counted. */
static const size_t counter_of[] = {
	[KTAP_PENDING] = offsetof(struct ktap_totals, pending),
	[KTAP_PASS] = offsetof(struct ktap_totals, passed),
	[KTAP_FAIL] = offsetof(struct ktap_totals, failed),
	[KTAP_SKIP] = offsetof(struct ktap_totals, skipped),
	[KTAP_XFAIL] = offsetof(struct ktap_totals, xfailed),
	[KTAP_ERROR] = offsetof(struct ktap_totals, errors),
};

/* Returns how many failures and errors the subtree accounts for. */
static size_t totals(const struct ktap_test *t, bool count_self,
		     struct ktap_totals *tot)
{
	bool failed = t->status == KTAP_FAIL || t->status == KTAP_ERROR;
	size_t bad = 0;

	for (size_t i = 0; i < t->n_children; i++)
		bad += totals(t->children[i], true, tot);
	if (!count_self || (t->n_children && bad) ||
	    (unsigned)t->status >= ELEMENTSOF(counter_of))
		return bad;
	/* A test with subtests counts itself only for a failure or an
	 * error none of them explains. */
	if (failed || !t->n_children)
		(*(size_t *)((char *)tot + counter_of[t->status]))++;
	return bad + failed;
}

void ktap_test_totals(const struct ktap_test *t, struct ktap_totals *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (t)
		totals(t, t->depth > 0, ret);
}

void ktap_test_path(const struct ktap_test *t, struct strbuf *out)
{
	if (!t || !t->parent)
		return;
	if (t->parent->parent) {
		ktap_test_path(t->parent, out);
		strbuf_addch(out, '/');
	}
	strbuf_addstr(out, t->name);
}

static const char *const ktap_status_names[] = {
	[KTAP_PENDING] = "pending", [KTAP_PASS] = "pass",
	[KTAP_FAIL] = "fail", [KTAP_SKIP] = "skip",
	[KTAP_XFAIL] = "xfail", [KTAP_ERROR] = "error",
};

const char *ktap_status_name(enum ktap_status s)
{
	return ENUM_NAME(ktap_status_names, s, "?");
}

static const char *const ktap_directive_names[] = {
	[KTAP_DIR_NONE] = "", [KTAP_DIR_SKIP] = "SKIP",
	[KTAP_DIR_TODO] = "TODO", [KTAP_DIR_XFAIL] = "XFAIL",
	[KTAP_DIR_TIMEOUT] = "TIMEOUT", [KTAP_DIR_ERROR] = "ERROR",
};

const char *ktap_directive_name(enum ktap_directive d)
{
	return ENUM_NAME(ktap_directive_names, d, "?");
}
