// SPDX-License-Identifier: GPL-2.0-or-later
/* bootproof image: build (or find in the cache) a guest disk image. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "engine/image.h"
#include "bootproof.h"
#include "core/arch.h"
#include "util/log.h"
#include "util/opts.h"

static const char image_intro[] =
	"Build the guest root image (raw ext4, no partition table) for an\n"
	"architecture with libguestfs, or find it in <cache>/images/, and\n"
	"print its path and hash.  docs/images.md describes its content.";

static const char image_epilog[] =
	"Exit: 0 ok, 2 bad arguments or inputs, 3 libguestfs or host failure.";

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object *, json_object_put)

static void print_json(const struct image_request *req,
		       const struct image_result *res)
{
	_cleanup_(json_object_putp) json_object *o = json_object_new_object();

	json_object_object_add(o, "arch", json_object_new_string(
						  bp_arch_name(
							  req->arch)));
	json_object_object_add(o, "path", json_object_new_string(res->path));
	json_object_object_add(o, "hash", json_object_new_string(res->hash));
	json_object_object_add(o, "size",
			       json_object_new_int64((int64_t)res->size));
	json_object_object_add(o, "cached",
			       json_object_new_boolean(res->cached));
	json_object_object_add(o, "build_seconds",
			       json_object_new_double(res->seconds));
	json_object_object_add(o, "manifest",
			       json_object_new_string(res->manifest));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
}

int verb_image(int argc, char **argv)
{
	_cleanup_(image_result_done) struct image_result res = { .path = NULL };
	struct image_request req = { .arch = BP_ARCH_X86_64 };
	const char *arch = NULL, *accel = NULL;
	bool json = false;
	int argi, r;
	const struct opt table[] = {
		OPT_STRING(0, "arch", &arch, "A", "x86_64 (default) or i386"),
		OPT_STRING(0, "agent", &req.agent, "PATH",
			   "the static agent binary (default:\n"
			   "<build>/guest/<arch>/bootproof-agent)"),
		OPT_STRING(0, "busybox", &req.busybox, "PATH",
			   "a static busybox for that arch (default:\n"
			   "/bin/busybox; i386:\n"
			   "<cache>/i386-busybox/bin/busybox)"),
		OPT_STRING(0, "modules", &req.modules, "DIR",
			   "/lib/modules/<release> of a modular kernel: copy\n"
			   "the modules the agent loads and what they need"),
		OPT_STRING(0, "cache", &req.cache_dir, "DIR",
			   "cache directory (default: $BOOTPROOF_CACHE,\n"
			   "/var/cache/bootproof as root)"),
		OPT_STRING(0, "accel", &accel, "A",
			   "how libguestfs runs its appliance: auto (= tcg),\n"
			   "tcg, or kvm"),
		OPT_FLAG(0, "force", &req.force,
			 "build even when the image is in the cache"),
		OPT_FLAG(0, "json", &json, "print a JSON object on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "image",
		.synopsis = "bootproof image [--arch x86_64|i386] [--agent PATH]\n"
			    "                [--busybox PATH] [--modules DIR] "
			    "[--cache DIR]\n"
			    "                [--accel auto|tcg|kvm] [--force] "
			    "[--json]",
		.intro = image_intro,
		.epilog = image_epilog,
		.opts = table,
		.max_args = 0,
	};

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (arch && bp_arch_from_name(arch, &req.arch) < 0) {
		log_error("image: unknown architecture '%s' (x86_64 or i386)",
			  arch);
		return BP_EXIT_USAGE;
	}
	if (accel && image_accel_from_string(accel, &req.accel) < 0) {
		log_error("image: unknown --accel '%s' (auto, tcg or kvm)",
			  accel);
		return BP_EXIT_USAGE;
	}

	r = image_ensure(&req, &res);
	if (r == -EINVAL)
		return BP_EXIT_USAGE;
	if (r < 0)
		return BP_EXIT_INFRA;
	if (json) {
		print_json(&req, &res);
	} else {
		printf("path: %s\nhash: %s\n", res.path, res.hash);
		if (res.cached)
			log_info("image: cached");
		else
			log_info("image: built in %.1f s", res.seconds);
	}
	return BP_EXIT_OK;
}
