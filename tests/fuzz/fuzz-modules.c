// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The modules.* files of the kernel a user builds an image for: module
 * selection (modules.dep, .builtin, .softdep, .alias) and the filter that
 * cuts them down to the selection.
 *
 * Input: up to four texts separated by NUL bytes: modules.dep,
 * modules.builtin, modules.softdep, modules.alias.  The agent's default
 * modules are wanted.  Checks (image_spec.h): 0, -EBADMSG with a message
 * naming modules.dep, or -EINVAL; every selected path is a module path of
 * modules.dep, once; every wanted name is selected, built in or missing;
 * the filter keeps a subset of the lines, each ended by '\n'.
 */
#include "fuzz.h"

#include "core/image_spec.h"

static bool has_line_prefix(const char *text, const char *line, size_t n)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l == n && !memcmp(p, line, n))
			return true;
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {
		"modules.dep",	   "modules.order",   "modules.alias",
		"modules.symbols", "modules.softdep", "modules.devname",
	};
	char *part[4] = { NULL, NULL, NULL, NULL };
	struct image_modsel sel = IMAGE_MODSEL_INIT;
	struct image_moddir d;
	struct strbuf err = STRBUF_INIT;
	size_t pos = 0;
	int r;

	for (int i = 0; i < 4 && pos <= size; i++) {
		const uint8_t *z = memchr(data + pos, '\0', size - pos);
		size_t n = z ? (size_t)(z - data - pos) : size - pos;

		part[i] = fuzz_strndup(data + pos, n);
		pos += n + 1;
		if (!z)
			break;
	}
	d = (struct image_moddir){ .dep = part[0], .builtin = part[1],
				   .softdep = part[2], .alias = part[3] };
	r = image_modules_select(&d, image_default_modules, &sel, &err);
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -EINVAL);
	if (r == -EBADMSG)
		FUZZ_CHECK(strstr(err.buf, "modules.dep"));
	if (r == 0) {
		for (size_t i = 0; i < sel.n_paths; i++) {
			char name[256];

			FUZZ_CHECK(sel.paths[i] && *sel.paths[i]);
			FUZZ_CHECK(strstr(part[0], sel.paths[i]));
			FUZZ_CHECK(image_module_name(sel.paths[i], name,
						     sizeof(name)) == 0);
			for (size_t j = 0; j < i; j++)
				FUZZ_CHECK(strcmp(sel.paths[i], sel.paths[j]));
		}
		for (size_t i = 0; i < sel.n_builtin; i++)
			FUZZ_CHECK(sel.builtin[i]);
		for (size_t i = 0; i < sel.n_missing; i++)
			FUZZ_CHECK(sel.missing[i]);
		for (size_t f = 0; f < ELEMENTSOF(files); f++) {
			const char *text = part[f % 4] ? part[f % 4] : "";
			struct strbuf out = STRBUF_INIT;
			int kept = image_modules_filter(&sel, files[f], text,
							&out);

			FUZZ_CHECK(kept >= 0);
			for (const char *p = out.buf; *p;) {
				const char *nl = strchr(p, '\n');

				FUZZ_CHECK(nl);
				FUZZ_CHECK(has_line_prefix(text, p,
							   (size_t)(nl - p)));
				kept--;
				p = nl + 1;
			}
			FUZZ_CHECK(kept == 0);
			strbuf_release(&out);
		}
	}
	image_modsel_done(&sel);
	strbuf_release(&err);
	for (int i = 0; i < 4; i++)
		free(part[i]);
	return 0;
}
