/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few json-c accessors every reader of run.json and build records
 * needs, once: json-c's own get_ex does not tell "absent" from "null" and
 * happily reads a number as a string.
 */
#ifndef BOOTPROOF_UTIL_JSONX_H
#define BOOTPROOF_UTIL_JSONX_H

#include <json-c/json.h>

/* Member key of o; NULL when o is not an object, lacks key, or it is null. */
json_object *jsonx_get(json_object *o, const char *key);

/* A string member; NULL when absent, null or not a string. */
const char *jsonx_str(json_object *o, const char *key);

/* Any scalar member as text (a number as json-c prints it); NULL when
 * absent or null. */
const char *jsonx_text(json_object *o, const char *key);

/* A new JSON string, or NULL (JSON null) for a NULL s. */
json_object *jsonx_new_str(const char *s);

#endif
