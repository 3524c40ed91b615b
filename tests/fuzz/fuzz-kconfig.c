// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .config files and fragments (a user's, or a kernel tree's).
 *
 * Input: one fragment, or two separated by the first NUL byte (the second
 * is merged over the first).  Checks (kconfig.h): a parse either succeeds
 * with a count or fails with -EINVAL, a "file:line: " message and the set
 * left as it was; a parsed set written with kconfig_write reads back to
 * the same values (the kernel's own format round-trips); merging and
 * verifying a set against itself keeps everything; every override chain
 * ends.
 */
#include "fuzz.h"

#include "core/kconfig.h"

/*
 * Look a symbol up by its full "CONFIG_NAME": a bare name that itself
 * starts with "CONFIG_" (CONFIG_CONFIG_X=y defines "CONFIG_X") is read
 * as prefixed by kconfig_find, as its header says.
 */
static const struct kconfig_option *find(const struct kconfig *kc,
					 const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const struct kconfig_option *o;

	strbuf_addf(&sb, "CONFIG_%s", name);
	o = kconfig_find(kc, sb.buf);
	strbuf_release(&sb);
	return o;
}

static void check_set(const struct kconfig *kc)
{
	size_t n = kconfig_count(kc);

	for (size_t i = 0; i < n; i++) {
		const struct kconfig_option *o = kconfig_at(kc, i), *p;
		size_t chain = 0;

		FUZZ_CHECK(o && o->name && *o->name && o->value && o->file);
		FUZZ_CHECK(strlen(o->value) == o->value_len);
		FUZZ_CHECK(find(kc, o->name) == o);
		for (p = o->overrides; p; p = p->overrides) {
			FUZZ_CHECK(!strcmp(p->name, o->name));
			FUZZ_CHECK(++chain < 1u << 24);
		}
	}
	FUZZ_CHECK(!kconfig_at(kc, n));
}

/* Write kc as a .config and read it back: the same symbols and values. */
static void round_trip(const struct kconfig *kc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct kconfig *back = NULL;
	struct kconfig_error err = KCONFIG_ERROR_INIT;
	int r;

	FUZZ_CHECK(f);
	FUZZ_CHECK(kconfig_write(kc, f) == 0);
	fclose(f);
	FUZZ_CHECK(kconfig_new(&back) == 0);
	r = kconfig_parse(back, "written.config", buf, len, &err);
	if (r < 0)
		fprintf(stderr, "%s\n", err.msg.buf);
	FUZZ_CHECK(r == (int)kconfig_count(kc));
	FUZZ_CHECK(kconfig_count(back) == kconfig_count(kc));
	for (size_t i = 0; i < kconfig_count(kc); i++) {
		const struct kconfig_option *a = kconfig_at(kc, i);
		const struct kconfig_option *b = find(back, a->name);

		FUZZ_CHECK(b && b->kind == a->kind);
		FUZZ_CHECK(kconfig_value_equal(a, b));
		FUZZ_CHECK(b == kconfig_at(back, i));
	}
	kconfig_free(back);
	kconfig_error_done(&err);
	free(buf);
}

static int parse(struct kconfig *kc, const char *name, const uint8_t *p,
		 size_t n)
{
	struct kconfig_error err = KCONFIG_ERROR_INIT;
	size_t before = kconfig_count(kc);
	int r = kconfig_parse(kc, name, (const char *)p, n, &err);

	FUZZ_CHECK(r >= 0 || r == -EINVAL);
	if (r == -EINVAL) {
		/* "On error kc is left as it was"; the message names the
		 * file and line. */
		FUZZ_CHECK(kconfig_count(kc) == before);
		FUZZ_CHECK(err.line >= 1);
		FUZZ_CHECK(!strncmp(err.msg.buf, name, strlen(name)));
		FUZZ_CHECK(err.msg.buf[strlen(name)] == ':');
	}
	kconfig_error_done(&err);
	check_set(kc);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memchr(data, '\0', size);
	size_t na = sep ? (size_t)(sep - data) : size;
	struct kconfig *a = NULL, *b = NULL, *m = NULL;
	struct kconfig_report *rep = NULL;
	int ra, rb = -EINVAL;

	FUZZ_CHECK(kconfig_new(&a) == 0 && kconfig_new(&b) == 0 &&
		   kconfig_new(&m) == 0);
	ra = parse(a, "a.config", data, na);
	if (sep)
		rb = parse(b, "b.config", sep + 1, size - na - 1);
	if (ra >= 0) {
		round_trip(a);
		FUZZ_CHECK(kconfig_verify(a, a, &rep) == 0);
		FUZZ_CHECK(rep->n_checks == kconfig_count(a));
		FUZZ_CHECK(rep->count[KCONFIG_KEPT] == kconfig_count(a));
		kconfig_report_free(rep);
		rep = NULL;
	}
	if (ra >= 0 && rb >= 0) {
		int nv;

		FUZZ_CHECK(kconfig_merge(m, a) == 0);
		FUZZ_CHECK(kconfig_merge(m, b) == 0);
		check_set(m);
		/* b wins where both define a symbol. */
		for (size_t i = 0; i < kconfig_count(b); i++) {
			const struct kconfig_option *o = kconfig_at(b, i);
			const struct kconfig_option *x = find(m, o->name);

			FUZZ_CHECK(x && x->kind == o->kind &&
				   kconfig_value_equal(x, o));
		}
		for (size_t i = 0; i < kconfig_count(a); i++)
			FUZZ_CHECK(find(m, kconfig_at(a, i)->name));
		round_trip(m);
		nv = kconfig_verify(a, b, &rep);
		FUZZ_CHECK(nv >= 0 && (size_t)nv <= kconfig_count(a));
		FUZZ_CHECK((size_t)nv == kconfig_count(a) -
						 rep->count[KCONFIG_KEPT]);
		for (size_t i = 0; i < rep->n_checks; i++) {
			const struct kconfig_check *c = &rep->checks[i];

			FUZZ_CHECK(c->verdict < KCONFIG_VERDICT_MAX);
			FUZZ_CHECK(c->requested);
			FUZZ_CHECK((c->verdict == KCONFIG_ABSENT) <=
				   (c->final == NULL));
		}
		kconfig_report_free(rep);
	}
	kconfig_free(a);
	kconfig_free(b);
	kconfig_free(m);
	return 0;
}
