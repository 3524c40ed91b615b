/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few json-c accessors every reader of run.json and build records
 * needs, once: json-c's own get_ex does not tell "absent" from "null" and
 * happily reads a number as a string.
 */
#ifndef BOOTPROOF_UTIL_JSONX_H
#define BOOTPROOF_UTIL_JSONX_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/*
 * o may be NULL; a missing member, a JSON null or (for the typed ones) a
 * member of another type gives NULL / 0 / false / the default.  Returned
 * pointers are borrowed from o.
 */
json_object *jsonx_get(json_object *o, const char *key);
const char *jsonx_str(json_object *o, const char *key);
/* Array member: its length (0 when missing); element i or NULL. */
size_t jsonx_len(json_object *o, const char *key);
json_object *jsonx_at(json_object *o, const char *key, size_t i);
/* A number member (int or double) into *ret: false when there is none. */
bool jsonx_num(json_object *o, const char *key, double *ret);
bool jsonx_bool(json_object *o, const char *key, bool dflt);

/* Any scalar member as text (a number as json-c prints it); NULL when
 * absent or null. */
const char *jsonx_text(json_object *o, const char *key);

/* A new JSON string, or NULL (JSON null) for a NULL s. */
json_object *jsonx_new_str(const char *s);

#endif
