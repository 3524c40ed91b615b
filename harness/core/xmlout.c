// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/xmlout.h"

#include <errno.h>

#include "util/xalloc.h"

int xmlout_open(struct xmlout *x)
{
	x->buf = xmlBufferCreate();
	if (!x->buf)
		return -ENOMEM;
	x->w = xmlNewTextWriterMemory(x->buf, 0);
	if (!x->w) {
		xmlBufferFree(x->buf);
		return -ENOMEM;
	}
	xmlTextWriterSetIndent(x->w, 1);
	xmlTextWriterSetIndentString(x->w, BAD_CAST "  ");
	return 0;
}

int xmlout_close(struct xmlout *x, bool bad, char **ret)
{
	if (xmlTextWriterEndDocument(x->w) < 0)
		bad = true;
	xmlFreeTextWriter(x->w);
	if (!bad)
		*ret = xstrdup((const char *)xmlBufferContent(x->buf));
	xmlBufferFree(x->buf);
	x->w = NULL;
	x->buf = NULL;
	return bad ? -ENOMEM : 0;
}
