// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bootrec.h"

#include <string.h>

#include "core/console.h"
#include "core/recjson.h"
#include "util/exitcode.h"

static const char *scenario_result(const struct ktap_test *t)
{
	switch (t ? t->status : KTAP_ERROR) {
	case KTAP_PASS:
	case KTAP_XFAIL:
		return "pass";
	case KTAP_SKIP:
		return "skip";
	case KTAP_FAIL:
		return "fail";
	default:
		return "error";
	}
}

static const struct ktap_test *find_scenario(const struct bootlog *bl,
					     const char *name)
{
	const struct ktap_test *root = ktap_root(bootlog_ktap(bl));

	for (size_t i = 0; i < root->n_children; i++)
		if (!strcmp(root->children[i]->name, name))
			return root->children[i];
	return NULL;
}

void bootrec_scenario_of(const struct bootlog *bl, const char *name,
			 bool final, struct bootrec_scenario *ret)
{
	const struct ktap_test *t = find_scenario(bl, name);

	ret->test = t;
	if (!t || (!final && t->status == KTAP_PENDING)) {
		ret->result = final ? "error" : "pending";
		ret->reason = final ? (bootlog_agent_said_done(bl)
					       ? "the agent did not report this scenario"
					       : "no result: the guest did not get this far")
				    : NULL;
		return;
	}
	ret->result = scenario_result(t);
	ret->reason = t->reason;
	if (!ret->reason && t->status == KTAP_FAIL) {
		/* The first failing check names the cause. */
		for (size_t i = 0; i < t->n_children; i++)
			if (t->children[i]->status == KTAP_FAIL) {
				ret->reason = t->children[i]->name;
				break;
			}
	}
}

bool bootrec_scenario_json(const char *name, const struct bootrec_scenario *s,
			   json_object *host, json_object **ret)
{
	json_object *o = json_object_new_object(), *checks;
	const struct ktap_test *t = s->test;

	recjson_add_str(o, "name", name);
	if (host)
		json_object_object_add(o, "host", host);
	recjson_add_str(o, "result", s->result);
	recjson_add_str(o, "reason", s->reason);
	checks = json_object_new_array();
	for (size_t i = 0; t && i < t->n_children; i++)
		json_object_array_add(checks, recjson_ktap_test(t->children[i]));
	json_object_object_add(o, "checks", checks);
	*ret = o;
	return !strcmp(s->result, "fail") || !strcmp(s->result, "error");
}

static json_object *seconds_or_null(double s)
{
	return s >= 0 ? recjson_seconds(s) : NULL;
}

json_object *bootrec_build(const struct bootlog *bl, const struct bootrec *r)
{
	const struct console *con = bootlog_console(bl);
	const struct console_milestone_event *last = console_last_milestone(con);
	const struct console_milestone_event *init =
		console_milestone_first(con, CONSOLE_MS_INIT_STARTED);
	const struct verdict *v = r->verdict;
	json_object *o = json_object_new_object(), *k, *pa;

	recjson_add_str(o, "name", r->name);
	recjson_add_str(o, "arch", r->arch);
	recjson_add_str(o, "accel", r->accel);
	recjson_add_str(o, "accel_reason", r->accel_reason);
	recjson_add_str(o, "machine", r->machine);
	k = json_object_new_object();
	recjson_add_str(k, "path", r->kernel);
	recjson_add_str(k, "initrd", r->initrd);
	recjson_add_str(k, "vmlinux", r->vmlinux);
	recjson_add_str(k, "config", r->config);
	recjson_add_str(k, "banner", console_banner(con));
	json_object_object_add(o, "kernel", k);
	recjson_add_str(o, "image", r->image);
	recjson_add_str(o, "cmdline", r->cmdline);
	json_object_object_add(o, "timeout_s", json_object_new_int((int)r->timeout_s));
	json_object_object_add(o, "heavy_debug_options", json_object_new_int((int)r->heavy));
	recjson_add_str(o, "started", r->started);
	/* /proc/loadavg's two decimals, not a binary double's tail. */
	json_object_object_add(o, "host_load",
			       r->host_load >= 0 ? recjson_seconds(r->host_load)
						 : NULL);
	json_object_object_add(o, "elapsed_s", seconds_or_null(r->elapsed_s));
	json_object_object_add(o, "time_to_init_s", seconds_or_null(r->time_to_init_s));
	json_object_object_add(o, "kernel_time_to_init_s",
			       init && init->timestamp >= 0
				       ? recjson_seconds(init->timestamp)
				       : NULL);
	json_object_object_add(o, "time_to_agent_end_s",
			       seconds_or_null(r->time_to_agent_end_s));
	json_object_object_add(o, "timeline", r->timeline);
	json_object_object_add(o, "memory", recjson_memory(bl));
	recjson_add_str(o, "verdict", v ? boot_verdict_name(v->verdict) : VERDICT_RUNNING_NAME);
	recjson_add_str(o, "reason", v ? v->reason : NULL);
	if (v) {
		json_object *e = json_object_new_object();
		recjson_add_str(e, "how", boot_end_name(r->end));
		recjson_add_str(e, "reason", r->end_reason && r->end_reason[0]
						     ? r->end_reason
						     : NULL);
		json_object_object_add(o, "end", e);
	}
	recjson_add_str(o, "last_milestone",
			last ? console_milestone_name(last->milestone) : NULL);
	json_object_object_add(o, "milestones", recjson_milestones(con));
	pa = json_object_new_array();
	for (size_t i = 0; i < console_n_problems(con); i++) {
		const struct console_problem *p = console_problem(con, i);
		json_object *pj = recjson_problem(p, true);
		json_object_object_add(
			pj, "allowed",
			json_object_new_boolean(verdict_kind_allowed(
				console_problem_kind_name(p->kind), r->allowed,
				r->n_allowed)));
		json_object_array_add(pa, pj);
	}
	json_object_object_add(o, "problems", pa);
	json_object_object_add(o, "scenarios",
			       r->scenarios ? r->scenarios : json_object_new_array());
	json_object_object_add(o, "ktap", recjson_ktap(bootlog_ktap(bl)));
	json_object_object_add(o, "debug", recjson_debug(bl));
	json_object_object_add(o, "files",
			       r->files ? r->files : json_object_new_object());
	json_object_object_add(o, "complete", json_object_new_boolean(
						      v && v->verdict != VERDICT_INCOMPLETE));
	return o;
}

int bootrec_exit_code(enum boot_verdict v, size_t failed)
{
	switch (v) {
	case VERDICT_INFRA:
		return BP_EXIT_INFRA;
	case VERDICT_INCOMPLETE:
		return BP_EXIT_INTERRUPTED;
	case VERDICT_BOOTED:
		return failed ? BP_EXIT_FAIL : BP_EXIT_OK;
	default:
		return BP_EXIT_FAIL;
	}
}
