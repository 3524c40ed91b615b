// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/virtcaps.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "util/cleanup.h"
#include "util/xalloc.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(xmlDocPtr, xmlFreeDoc)

static void xml_freep(xmlChar **p)
{
	if (*p)
		xmlFree(*p);
}

static xmlNodePtr child(xmlNodePtr n, const char *name)
{
	for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    !xmlStrcmp(c->name, BAD_CAST name))
			return c;
	return NULL;
}

static bool text_is(xmlNodePtr n, const char *want)
{
	__attribute__((cleanup(xml_freep))) xmlChar *t =
		n ? xmlNodeGetContent(n) : NULL;

	return t && !xmlStrcmp(t, BAD_CAST want);
}

/* "+64055:+107" or "libvirt-qemu:kvm": two non-empty parts. */
static int split_label(const char *s, char **ret_user, char **ret_group)
{
	const char *colon = strchr(s, ':');
	_cleanup_free_ char *u = NULL;
	_cleanup_free_ char *g = NULL;

	if (!colon || colon == s || !colon[1] || strchr(colon + 1, ':'))
		return -EINVAL;
	u = xstrndup(s, (size_t)(colon - s));
	g = xstrdup(colon + 1);
	*ret_user = TAKE_PTR(u);
	*ret_group = TAKE_PTR(g);
	return 0;
}

int virtcaps_dac_label(const char *xml, size_t len, const char *virttype,
		       char **ret_user, char **ret_group)
{
	_cleanup_(xmlFreeDocp) xmlDocPtr doc = NULL;
	xmlNodePtr root, host;

	if (!xml || !virttype || len > INT_MAX)
		return -EINVAL;
	doc = xmlReadMemory(xml, (int)len, "capabilities.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	if (!doc)
		return -EINVAL;
	root = xmlDocGetRootElement(doc);
	if (!root || xmlStrcmp(root->name, BAD_CAST "capabilities"))
		return -EINVAL;
	host = child(root, "host");
	for (xmlNodePtr sm = host ? host->children : NULL; sm; sm = sm->next) {
		if (sm->type != XML_ELEMENT_NODE ||
		    xmlStrcmp(sm->name, BAD_CAST "secmodel") ||
		    !text_is(child(sm, "model"), "dac"))
			continue;
		for (xmlNodePtr b = sm->children; b; b = b->next) {
			__attribute__((cleanup(xml_freep))) xmlChar *type = NULL;
			__attribute__((cleanup(xml_freep))) xmlChar *label = NULL;

			if (b->type != XML_ELEMENT_NODE ||
			    xmlStrcmp(b->name, BAD_CAST "baselabel"))
				continue;
			type = xmlGetProp(b, BAD_CAST "type");
			if (!type || xmlStrcmp(type, BAD_CAST virttype))
				continue;
			label = xmlNodeGetContent(b);
			if (!label)
				return -EINVAL;
			return split_label((const char *)label, ret_user,
					   ret_group);
		}
	}
	return -ENOENT;
}
