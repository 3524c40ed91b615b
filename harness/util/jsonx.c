// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/jsonx.h"

json_object *jsonx_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

const char *jsonx_str(json_object *o, const char *key)
{
	json_object *v = jsonx_get(o, key);

	return v && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : NULL;
}

const char *jsonx_text(json_object *o, const char *key)
{
	json_object *v = jsonx_get(o, key);

	return v ? json_object_get_string(v) : NULL;
}

json_object *jsonx_new_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}
