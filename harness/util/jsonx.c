// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/jsonx.h"

json_object *jsonx_get(json_object *o, const char *key)
{
	json_object *m;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &m))
		return NULL;
	return m;
}

const char *jsonx_str(json_object *o, const char *key)
{
	json_object *m = jsonx_get(o, key);

	return m && json_object_is_type(m, json_type_string)
		       ? json_object_get_string(m)
		       : NULL;
}

size_t jsonx_len(json_object *o, const char *key)
{
	json_object *m = jsonx_get(o, key);

	return m && json_object_is_type(m, json_type_array)
		       ? json_object_array_length(m)
		       : 0;
}

json_object *jsonx_at(json_object *o, const char *key, size_t i)
{
	json_object *m = jsonx_get(o, key);

	if (!m || !json_object_is_type(m, json_type_array) ||
	    i >= json_object_array_length(m))
		return NULL;
	return json_object_array_get_idx(m, i);
}

bool jsonx_num(json_object *o, const char *key, double *ret)
{
	json_object *m = jsonx_get(o, key);

	if (!m || !(json_object_is_type(m, json_type_int) ||
		    json_object_is_type(m, json_type_double)))
		return false;
	*ret = json_object_get_double(m);
	return true;
}

bool jsonx_bool(json_object *o, const char *key, bool dflt)
{
	json_object *m = jsonx_get(o, key);

	if (!m || !json_object_is_type(m, json_type_boolean))
		return dflt;
	return json_object_get_boolean(m);
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
