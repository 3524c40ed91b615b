// SPDX-License-Identifier: GPL-2.0-or-later
/* bootproof image: build (or find in the cache) a guest disk image. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "adapters/image_guestfs.h"
#include "bootproof.h"
#include "util/log.h"

static const char usage_text[] =
	"usage: bootproof image [--arch x86_64|i386] [--agent PATH]\n"
	"                       [--busybox PATH] [--modules DIR] [--cache DIR]\n"
	"                       [--accel auto|tcg|kvm] [--force] [--json]\n"
	"\n"
	"Build the guest root image (raw ext4, no partition table) for an\n"
	"architecture with libguestfs, or find it in <cache>/images/, and\n"
	"print its path and hash.  docs/images.md describes its content.\n"
	"\n"
	"  --arch A       x86_64 (default) or i386\n"
	"  --agent PATH   the static agent binary (default:\n"
	"                 <build>/guest/<arch>/bootproof-agent)\n"
	"  --busybox PATH a static busybox for that arch (default: /bin/busybox;\n"
	"                 i386: <cache>/i386-busybox/bin/busybox)\n"
	"  --modules DIR  /lib/modules/<release> of a modular kernel: copy the\n"
	"                 modules the agent loads and what they need\n"
	"  --cache DIR    cache directory (default: $BOOTPROOF_CACHE,\n"
	"                 /var/cache/bootproof as root)\n"
	"  --accel A      how libguestfs runs its appliance: auto (= tcg),\n"
	"                 tcg, or kvm\n"
	"  --force        build even when the image is in the cache\n"
	"  --json         print a JSON object on stdout\n"
	"\n"
	"Exit: 0 ok, 2 bad arguments or inputs, 3 libguestfs or host failure.\n";

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
	static const struct option opts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "agent", required_argument, NULL, 'A' },
		{ "busybox", required_argument, NULL, 'b' },
		{ "modules", required_argument, NULL, 'm' },
		{ "cache", required_argument, NULL, 'c' },
		{ "accel", required_argument, NULL, 'x' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	_cleanup_(image_result_done) struct image_result res = { .path = NULL };
	struct image_request req = { .arch = BP_ARCH_X86_64 };
	bool json = false;
	int c, r;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (bp_arch_from_name(optarg, &req.arch) < 0) {
				log_error("image: unknown architecture '%s' "
					  "(x86_64 or i386)",
					  optarg);
				return BP_EXIT_USAGE;
			}
			break;
		case 'A':
			req.agent = optarg;
			break;
		case 'b':
			req.busybox = optarg;
			break;
		case 'm':
			req.modules = optarg;
			break;
		case 'c':
			req.cache_dir = optarg;
			break;
		case 'x':
			if (image_accel_from_string(optarg, &req.accel) < 0) {
				log_error("image: unknown --accel '%s' "
					  "(auto, tcg or kvm)",
					  optarg);
				return BP_EXIT_USAGE;
			}
			break;
		case 'f':
			req.force = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return BP_EXIT_OK;
		default:
			fputs(usage_text, stderr);
			return BP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		log_error("image: unexpected argument '%s'", argv[optind]);
		fputs(usage_text, stderr);
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
