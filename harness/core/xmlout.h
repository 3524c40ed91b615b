/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xmlout: an XML document written into memory with libxml2's text writer
 * (two-space indent), as domxml and junit write theirs (pure).
 *
 *	struct xmlout x;
 *	if (xmlout_open(&x) < 0)
 *		return -ENOMEM;
 *	... xmlTextWriter*(x.w, ...), remembering any failure in bad ...
 *	return xmlout_close(&x, bad, &text);
 */
#ifndef BP_XMLOUT_H
#define BP_XMLOUT_H

#include <stdbool.h>

#include <libxml/xmlwriter.h>

struct xmlout {
	xmlBufferPtr buf;
	xmlTextWriterPtr w;
};

/* 0, or -ENOMEM with nothing to close. */
int xmlout_open(struct xmlout *x);

/*
 * End the document and free the writer and buffer.  Unless bad (a write
 * failed) *ret gets the text (malloc'd).  0, or -ENOMEM when bad or the
 * document could not be ended (*ret untouched).
 */
int xmlout_close(struct xmlout *x, bool bad, char **ret);

#endif
