// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the modules the scenarios need, for a modular kernel: the root
 * image carries /lib/modules/<release>/ with modules.dep.  finit_module()
 * directly (with MODULE_INIT_COMPRESSED_FILE for .ko.xz/.zst/.gz), falling
 * back on busybox modprobe when the kernel cannot decompress.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

#define DEP_MAX (16u << 20)

static const char *const wanted[] = {
	"virtio_pci", "virtio_blk", "virtio_net", "virtio_rng",
	"virtio_console", "pvpanic_pci", "pvpanic_mmio",
};

struct modstate {
	char name[AGENT_NAME_MAX];
	char status[160];
};
static struct modstate states[ELEMENTSOF(wanted)];

const char *module_status(const char *name)
{
	for (size_t i = 0; i < ELEMENTSOF(states); i++)
		if (!strcmp(states[i].name, name))
			return states[i].status;
	return "not requested";
}

/* "kernel/drivers/net/virtio_net.ko.xz" -> "virtio_net". */
static void mod_name(const char *path, size_t len, char *buf, size_t n)
{
	const char *b = path, *dot;
	size_t bl;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			b = path + i + 1;
	bl = len - (size_t)(b - path);
	dot = memchr(b, '.', bl);
	if (dot)
		bl = (size_t)(dot - b);
	if (bl >= n)
		bl = n - 1;
	for (size_t i = 0; i < bl; i++)
		buf[i] = b[i] == '-' ? '_' : b[i];
	buf[bl] = '\0';
}

/* The modules.dep line of a module: start of the line, or NULL. */
static const char *dep_line(const char *dep, const char *name)
{
	for (const char *l = dep; *l;) {
		size_t len = strcspn(l, ":\n");
		char n[AGENT_NAME_MAX];

		mod_name(l, len, n, sizeof(n));
		if (l[len] == ':' && !strcmp(n, name))
			return l;
		l += strcspn(l, "\n");
		if (*l)
			l++;
	}
	return NULL;
}

static bool in_builtin(const char *builtin, const char *name)
{
	for (const char *l = builtin; l && *l;) {
		size_t len = strcspn(l, "\n");
		char n[AGENT_NAME_MAX];

		mod_name(l, len, n, sizeof(n));
		if (!strcmp(n, name))
			return true;
		l += len;
		if (*l)
			l++;
	}
	return false;
}

static int load_file(const char *dir, const char *rel, size_t rlen)
{
	char path[512];
	_cleanup_close_ int fd = -1;
	bool compressed;
	int flags;

	snprintf(path, sizeof(path), "%s/%.*s", dir, (int)rlen, rel);
	compressed = rlen > 3 && strncmp(rel + rlen - 3, ".ko", 3) != 0;
	flags = compressed ? MODULE_INIT_COMPRESSED_FILE : 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(__NR_finit_module, fd, "", flags) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Load a module and what it depends on: 0, or -errno of the first failure. */
static int load_one(const char *dir, const char *dep, const char *name,
		    char *deps, size_t dn)
{
	const char *l = dep_line(dep, name), *colon, *end, *p;
	const char *words[64];
	size_t lens[64], nw = 0;
	int r;

	if (!l)
		return -ENOENT;
	colon = strchr(l, ':');
	end = l + strcspn(l, "\n");
	/* Dependencies are listed so that the last must be loaded first. */
	for (p = colon + 1; p < end && nw < ELEMENTSOF(words);) {
		p += strspn(p, " ");
		if (p >= end)
			break;
		words[nw] = p;
		lens[nw] = strcspn(p, " \n");
		p += lens[nw++];
	}
	for (size_t i = nw; i-- > 0;) {
		char dname[AGENT_NAME_MAX];
		size_t used = strlen(deps);

		r = load_file(dir, words[i], lens[i]);
		if (r < 0)
			return r;
		mod_name(words[i], lens[i], dname, sizeof(dname));
		snprintf(deps + used, dn - used, "%s%s", used ? "," : "",
			 dname);
	}
	return load_file(dir, l, (size_t)(colon - l));
}

void modules_load_needed(void)
{
	struct utsname u;
	char dir[sizeof(u.release) + 32], path[sizeof(dir) + 32];
	char builtin[65536], summary[KTAPFMT_LINE_MAX] = "";
	_cleanup_free_ char *dep = NULL;
	bool have_dep;
	long r;

	if (!path_exists("/proc/modules")) {
		for (size_t i = 0; i < ELEMENTSOF(wanted); i++) {
			snprintf(states[i].name, sizeof(states[i].name), "%s",
				 wanted[i]);
			snprintf(states[i].status, sizeof(states[i].status),
				 "kernel without module support");
		}
		out_note("modules: kernel has no module support, "
			 "drivers must be built in");
		return;
	}
	if (uname(&u) < 0)
		return;
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	dep = malloc(DEP_MAX);
	if (!dep)
		return;
	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	have_dep = read_file(path, dep, DEP_MAX) >= 0;
	if (!have_dep)
		dep[0] = '\0';
	snprintf(path, sizeof(path), "%s/modules.builtin", dir);
	if (read_file(path, builtin, sizeof(builtin)) < 0)
		builtin[0] = '\0';

	for (size_t i = 0; i < ELEMENTSOF(wanted); i++) {
		struct modstate *m = &states[i];
		char sysdir[AGENT_NAME_MAX + 32], deps[256] = "";
		size_t used = strlen(summary);

		copy_str(m->name, sizeof(m->name), wanted[i]);
		snprintf(sysdir, sizeof(sysdir), "/sys/module/%s/initstate",
			 wanted[i]);
		if (path_exists(sysdir)) {
			snprintf(m->status, sizeof(m->status),
				 "already loaded");
		} else if (in_builtin(builtin, m->name)) {
			snprintf(m->status, sizeof(m->status), "built-in");
		} else if (!dep_line(dep, m->name)) {
			snprintf(m->status, sizeof(m->status),
				 !have_dep ? "not loaded: no %s/modules.dep" :
					 "not loaded: not in %s/modules.dep",
				 dir);
		} else if ((r = load_one(dir, dep, m->name, deps,
					 sizeof(deps))) == 0) {
			snprintf(m->status, sizeof(m->status), "loaded%s%s%s",
				 deps[0] ? " (+" : "", deps,
				 deps[0] ? ")" : "");
		} else {
			char *argv[] = { "/bin/busybox", "modprobe", m->name,
					 NULL };
			int e = (int)r;

			if (path_exists(argv[0]) &&
			    run_argv(argv, NULL, 0, 30) == 0)
				snprintf(m->status, sizeof(m->status),
					 "loaded by busybox modprobe "
					 "(finit_module: %s)", errname(e));
			else
				snprintf(m->status, sizeof(m->status),
					 "failed: finit_module: %s",
					 errname(e));
		}
		snprintf(summary + used, sizeof(summary) - used, "%s%s=%.*s",
			 used ? "; " : "", wanted[i], (int)sizeof(m->status),
			 m->status);
	}
	out_note("modules: %s", summary);
}

unsigned modules_load_list(const char *dir, const char *list, char *report,
			   size_t n)
{
	const char *line[64];
	size_t len[64], nl = 0, left;
	int err[64];
	bool done[64] = { false };
	unsigned loaded = 0;
	bool progress = true;

	for (const char *l = list; *l && nl < ELEMENTSOF(line);) {
		size_t k = strcspn(l, "\n");

		if (k) {
			line[nl] = l;
			len[nl++] = k;
		}
		l += k;
		if (*l)
			l++;
	}
	/* A module whose dependencies are not in yet fails with ENOENT
	 * (unknown symbols): load what loads until nothing more does. */
	left = nl;
	while (left && progress) {
		progress = false;
		for (size_t i = 0; i < nl; i++) {
			if (done[i])
				continue;
			err[i] = load_file(dir, line[i], len[i]);
			if (!err[i]) {
				done[i] = true;
				loaded++;
				left--;
				progress = true;
			}
		}
	}
	if (report && n)
		report[0] = '\0';
	for (size_t i = 0; report && i < nl; i++) {
		char name[AGENT_NAME_MAX];
		size_t used = strlen(report);

		if (done[i])
			continue;
		mod_name(line[i], len[i], name, sizeof(name));
		snprintf(report + used, n - used, "%s%s: %s", used ? "; " : "",
			 name, errname(-err[i]));
	}
	return loaded;
}
