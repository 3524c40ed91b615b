/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yamljson: YAML text as json-c objects, through libyaml's parser (pure).
 *
 * What bootproof reads of LAVA is YAML: the job definitions it wrote, a
 * job's log (one flow mapping per line), the REST API's YAML exports.  A
 * mapping becomes an object, a sequence an array, every scalar a string
 * (YAML's own typing of "1024" or "no" is not applied: the readers know
 * which members are numbers), an empty plain scalar or "~"/"null" a JSON
 * null.  Anchors and aliases are refused: LAVA writes none.
 */
#ifndef BP_YAMLJSON_H
#define BP_YAMLJSON_H

#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

/*
 * Parse the first document of len bytes of buf into *ret (a new object
 * owned by the caller).  Returns 0; -EINVAL for text that is not YAML,
 * with err (may be NULL) saying where ("line L column C: what"), or for an
 * empty stream; -ENOMEM.
 */
int yamljson_parse(const char *buf, size_t len, json_object **ret,
		   struct strbuf *err);

#endif
