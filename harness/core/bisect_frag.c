// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bisect.h"

void bisect_frag_text(const struct bisect_frag *f, struct strbuf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n_lines; i++)
		n += f->in[i];
	strbuf_addf(out, "# group: %s\n# arch: %s\n# scenarios: %s\n"
		    "# from: %s\n"
		    "# summary: %zu of the %zu requested option lines of the "
		    "failing candidate (bootproof bisect).\n",
		    f->name, f->arch, f->scenarios, f->from, n, f->n_lines);
	for (size_t i = 0; i < f->n_lines; i++) {
		if (!f->in[i])
			continue;
		strbuf_addf(out, "# line %s\n%s\n", f->lines[i].source,
			    f->lines[i].text);
	}
}
