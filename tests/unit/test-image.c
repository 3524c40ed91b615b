// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * image_ensure: the image cache in front of a fake builder (struct
 * image_ops).  The fake records what it was asked to build and writes a
 * stand-in file; the real libguestfs builder is tested by
 * tests/integration/image.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "../scenarios/contract.h"
#include "engine/image.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/strbuf.h"

static char dir[] = "/tmp/bp-test-image-XXXXXX";
static char *cache, *agent64, *agent32, *busybox64, *busybox32;

struct fake {
	int calls;
	int fail;		/* build returns this when not 0 */
	unsigned sleep_ms;
	const char *log;	/* a line per build is appended here */
	struct image_layout last;	/* a copy of the last layout */
	uint64_t size;
	enum image_accel accel;
	bool path_was_empty;
};

static void copy_layout(struct image_layout *dst,
			const struct image_layout *src)
{
	image_layout_done(dst);
	for (size_t i = 0; i < src->n; i++) {
		const struct image_entry *e = &src->entries[i];
		switch (e->kind) {
		case IMAGE_ENTRY_DIR:
			assert_int_equal(
				image_layout_add_dir(dst, e->path, e->mode), 0);
			break;
		case IMAGE_ENTRY_FILE:
			assert_int_equal(image_layout_add_file(dst, e->path,
							       e->mode, e->data,
							       e->len),
					 0);
			break;
		case IMAGE_ENTRY_SYMLINK:
			assert_int_equal(image_layout_add_symlink(dst, e->path,
								  e->target),
					 0);
			break;
		case IMAGE_ENTRY_CHARDEV:
			assert_int_equal(image_layout_add_chardev(
						 dst, e->path, e->mode,
						 e->major, e->minor),
					 0);
			break;
		}
	}
	dst->applets_of = src->applets_of ? strdup(src->applets_of) : NULL;
}

static int fake_build(void *userdata, const struct image_build *b,
		      struct strbuf *err)
{
	struct fake *f = userdata;
	struct stat st;
	int fd;

	f->calls++;
	copy_layout(&f->last, b->layout);
	f->size = b->size;
	f->accel = b->accel;
	f->path_was_empty = stat(b->path, &st) == 0 && st.st_size == 0;
	if (f->sleep_ms) {
		struct timespec ts = { .tv_sec = f->sleep_ms / 1000,
				       .tv_nsec = (long)(f->sleep_ms % 1000) *
						  1000000L };
		nanosleep(&ts, NULL);
	}
	if (f->log) {
		FILE *l = fopen(f->log, "a");
		assert_non_null(l);
		fprintf(l, "build %d\n", (int)getpid());
		fclose(l);
	}
	if (f->fail) {
		strbuf_addstr(err, "fake builder: qemu died");
		return f->fail;
	}
	fd = open(b->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "FAKE", 4) != 4 ||
	    ftruncate(fd, (off_t)b->size) < 0)
		return -errno;
	close(fd);
	return 0;
}

static const struct image_ops fake_ops = { .build = fake_build };

/* A minimal static executable image: ELF header, two program headers
 * (no PT_INTERP), then tail as "code". */
static void write_elf(const char *path, bool is64, const char *tail)
{
	uint8_t b[512] = { 0 };
	size_t n;

	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	b[EI_DATA] = ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	if (is64) {
		Elf64_Ehdr *h = (Elf64_Ehdr *)b;
		h->e_type = ET_EXEC;
		h->e_machine = EM_X86_64;
		h->e_phoff = sizeof(*h);
		h->e_phentsize = sizeof(Elf64_Phdr);
		h->e_phnum = 2;
		((Elf64_Phdr *)(b + sizeof(*h)))[0].p_type = PT_LOAD;
		n = sizeof(*h) + 2 * sizeof(Elf64_Phdr);
	} else {
		Elf32_Ehdr *h = (Elf32_Ehdr *)b;
		h->e_type = ET_EXEC;
		h->e_machine = EM_386;
		h->e_phoff = sizeof(*h);
		h->e_phentsize = sizeof(Elf32_Phdr);
		h->e_phnum = 2;
		((Elf32_Phdr *)(b + sizeof(*h)))[0].p_type = PT_LOAD;
		n = sizeof(*h) + 2 * sizeof(Elf32_Phdr);
	}
	memcpy(b + n, tail, strlen(tail));
	n += strlen(tail);
	assert_int_equal(write_file_atomic(path, b, n, 0755), 0);
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	cache = path_join(dir, "cache");
	agent64 = path_join(dir, "agent64");
	agent32 = path_join(dir, "agent32");
	busybox64 = path_join(dir, "busybox64");
	busybox32 = path_join(dir, "busybox32");
	write_elf(agent64, true, "agent v1");
	write_elf(agent32, false, "agent v1");
	write_elf(busybox64, true, "busybox");
	write_elf(busybox32, false, "busybox");
	unsetenv("BP_BUILD");
	return 0;
}

static int teardown(void **state)
{
	free(cache);
	free(agent64);
	free(agent32);
	free(busybox64);
	free(busybox32);
	return rm_rf(dir);
}

static struct image_request req64(void)
{
	return (struct image_request){
		.arch = BP_ARCH_X86_64,
		.agent = agent64,
		.busybox = busybox64,
		.cache_dir = cache,
		.accel = IMAGE_ACCEL_TCG,
	};
}

/* Files in cache/images whose name contains s. */
static int count_files(const char *s)
{
	_cleanup_free_ char *d = path_join(cache, "images");
	DIR *dd = opendir(d);
	struct dirent *de;
	int n = 0;

	while (dd && (de = readdir(dd)))
		if (strstr(de->d_name, s))
			n++;
	if (dd)
		closedir(dd);
	return n;
}

static void fake_done(struct fake *f)
{
	image_layout_done(&f->last);
}

static void test_build_then_cache_hit(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r1 = { .path = NULL };
	_cleanup_(image_result_done) struct image_result r2 = { .path = NULL };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, agent = STRBUF_INIT,
				       manifest = STRBUF_INIT;
	struct image_request req = req64();
	const struct image_entry *e;
	json_object *j, *v, *a;
	char base[64];
	struct stat st;

	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r1, &err), 0);
	assert_int_equal(f.calls, 1);
	assert_false(r1.cached);
	assert_true(f.path_was_empty);
	assert_int_equal(f.accel, IMAGE_ACCEL_TCG);
	assert_int_equal(strlen(r1.hash), IMAGE_HASH_HEX_LEN);
	snprintf(base, sizeof(base), "/images/bootproof-x86_64-%.16s.img",
		 r1.hash);
	assert_non_null(strstr(r1.path, base));
	assert_int_equal(strncmp(r1.path, dir, strlen(dir)), 0);
	/* the file the builder made, renamed into place, readable */
	assert_int_equal(stat(r1.path, &st), 0);
	assert_int_equal((uint64_t)st.st_size, r1.size);
	assert_int_equal(r1.size, f.size);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(count_files(".tmp."), 0);

	/* what the builder was given */
	assert_true(strbuf_read_file(&agent, agent64, 0) > 0);
	e = image_layout_find(&f.last, IMAGE_AGENT_PATH);
	assert_non_null(e);
	assert_int_equal(e->mode, 0755);
	assert_int_equal(e->len, agent.len);
	assert_memory_equal(e->data, agent.buf, agent.len);
	assert_non_null(image_layout_find(&f.last, IMAGE_BUSYBOX_PATH));
	assert_non_null(image_layout_find(&f.last, IMAGE_MARKER_PATH));
	assert_non_null(image_layout_find(&f.last, "/etc/passwd"));
	assert_null(image_layout_find(&f.last, "/lib/modules"));
	assert_string_equal(f.last.applets_of, IMAGE_BUSYBOX_PATH);

	/* the manifest beside it */
	assert_non_null(r1.manifest);
	assert_true(strbuf_read_file(&manifest, r1.manifest, 0) > 0);
	j = json_tokener_parse(manifest.buf);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "hash", &v));
	assert_string_equal(json_object_get_string(v), r1.hash);
	assert_true(json_object_object_get_ex(j, "agent", &a));
	assert_true(json_object_object_get_ex(a, "path", &v));
	assert_string_equal(json_object_get_string(v), agent64);
	json_object_put(j);

	/* again: found, not built */
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, &err), 0);
	assert_int_equal(f.calls, 1);
	assert_true(r2.cached);
	assert_string_equal(r2.path, r1.path);
	assert_string_equal(r2.hash, r1.hash);
	assert_int_equal(err.len, 0);
}

/* A cached image older than a few seconds is stamped when its hash is
 * checked and then not hashed again; a change of its bytes (same size)
 * after the stamp is still found, and the image built again. */
static void test_check_stamp(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r1 = { .path = NULL };
	_cleanup_(image_result_done) struct image_result r2 = { .path = NULL };
	_cleanup_free_ char *stamp = NULL;
	struct image_request req = req64();
	struct stat st;
	FILE *img;

	write_elf(agent64, true, "agent for the stamp");
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r1, NULL), 0);
	assert_true(asprintf(&stamp, "%s.checked", r1.path) > 0);
	/* just built: no stamp, and a check now writes none (too new) */
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, NULL), 0);
	assert_true(r2.cached);
	assert_int_equal(stat(stamp, &st), -1);
	image_result_done(&r2);

	sleep(3);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, NULL), 0);
	assert_true(r2.cached);
	assert_int_equal(stat(stamp, &st), 0);
	image_result_done(&r2);

	img = fopen(r1.path, "r+");
	assert_non_null(img);
	assert_int_equal(fputc('X', img), 'X');
	assert_int_equal(fclose(img), 0);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, NULL), 0);
	assert_false(r2.cached);
	assert_int_equal(f.calls, 2);
	write_elf(agent64, true, "agent v1");
}

static void test_key_follows_inputs(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r0 = { .path = NULL };
	_cleanup_(image_result_done) struct image_result r = { .path = NULL };
	_cleanup_free_ char *moved = path_join(dir, "elsewhere-agent");
	struct image_request req = req64();

	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r0, NULL), 0);
	f.calls = 0;

	/* the same bytes from another path: the same image */
	write_elf(moved, true, "agent v1");
	req.agent = moved;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, NULL), 0);
	assert_true(r.cached);
	assert_string_equal(r.hash, r0.hash);
	image_result_done(&r);

	/* one byte of the agent changes */
	write_elf(moved, true, "agent v2");
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, NULL), 0);
	assert_false(r.cached);
	assert_int_equal(f.calls, 1);
	assert_string_not_equal(r.hash, r0.hash);
	assert_string_not_equal(r.path, r0.path);
	image_result_done(&r);

	/* busybox changes */
	req = req64();
	write_elf(moved, true, "busybox!");
	req.busybox = moved;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, NULL), 0);
	assert_false(r.cached);
	assert_int_equal(f.calls, 2);
	assert_string_not_equal(r.hash, r0.hash);
	image_result_done(&r);

	/* the accelerator is how, not what: same image */
	req = req64();
	req.accel = IMAGE_ACCEL_KVM;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, NULL), 0);
	assert_true(r.cached);
	assert_string_equal(r.hash, r0.hash);
	image_result_done(&r);

	/* --force builds the same image again */
	req.force = true;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, NULL), 0);
	assert_false(r.cached);
	assert_int_equal(f.calls, 3);
	assert_int_equal(f.accel, IMAGE_ACCEL_KVM);
	assert_string_equal(r.hash, r0.hash);
	assert_string_equal(r.path, r0.path);
}

static void test_build_failure_leaves_nothing(void **state)
{
	_cleanup_(fake_done) struct fake f = { .fail = -EIO };
	_cleanup_(image_result_done) struct image_result r = { .path = NULL };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *other = path_join(dir, "agent-fail");
	struct image_request req = req64();

	write_elf(other, true, "agent that fails to build");
	req.agent = other;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EIO);
	assert_int_equal(f.calls, 1);
	assert_string_equal(err.buf, "fake builder: qemu died");
	assert_null(r.path);
	assert_int_equal(count_files(".tmp."), 0);
	/* the next attempt builds (nothing was cached) */
	f.fail = 0;
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err), 0);
	assert_int_equal(f.calls, 2);
	assert_false(r.cached);
}

static void test_stale_tmp_removed(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r = { .path = NULL };
	_cleanup_free_ char *stale = NULL, *other = NULL;
	struct image_request req = req64();
	char *slash;

	other = path_join(dir, "agent-stale");
	write_elf(other, true, "agent killed mid-build");
	req.agent = other;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, NULL), 0);
	/* as if a build of this image had been killed before its rename */
	assert_int_equal(unlink(r.path), 0);
	slash = strrchr(r.path, '/');
	*slash = '\0';
	assert_true(asprintf(&stale, "%s/.%s.tmp.dead01", r.path, slash + 1) >
		    0);
	*slash = '/';
	assert_int_equal(write_file_atomic(stale, "half", 4, 0644), 0);
	image_result_done(&r);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, NULL), 0);
	assert_int_equal(f.calls, 2);
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(count_files(".tmp."), 0);
}

static void test_bad_inputs(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r = { .path = NULL };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *missing = path_join(dir, "no-such-agent"),
			    *script = path_join(dir, "script");
	struct image_request req = req64();

	req.agent = missing;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, missing));
	assert_non_null(strstr(err.buf, "No such file"));

	assert_int_equal(write_file_atomic(script, "#!/bin/sh\n", 10, 0755),
			 0);
	req.agent = script;
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, script));
	assert_non_null(strstr(err.buf, "not an ELF file"));

	/* a 64-bit agent in an i386 image */
	req = req64();
	req.arch = BP_ARCH_I386;
	req.busybox = busybox32;
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, agent64));
	assert_non_null(strstr(err.buf, "not i386"));
	/* and a 32-bit busybox in an x86_64 one */
	req = req64();
	req.busybox = busybox32;
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "busybox"));
	assert_non_null(strstr(err.buf, busybox32));

	req = req64();
	req.arch = BP_ARCH_COUNT;
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EINVAL);
	assert_int_equal(f.calls, 0);
	assert_null(r.path);
}

static void test_i386_busybox_from_cache(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r = { .path = NULL };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, bb = STRBUF_INIT;
	_cleanup_free_ char *c2 = path_join(dir, "cache-i386"),
			    *bbdir = path_join(c2, "i386-busybox/bin"),
			    *bbpath = path_join(bbdir, "busybox");
	struct image_request req = {
		.arch = BP_ARCH_I386, .agent = agent32, .cache_dir = c2,
	};
	const struct image_entry *e;
	char *old = getenv("BOOTPROOF_CACHE") ? strdup(getenv("BOOTPROOF_CACHE"))
					      : NULL;

	/* Not in this cache (nor the default one, pointed here too). */
	setenv("BOOTPROOF_CACHE", c2, 1);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, bbpath));
	assert_non_null(strstr(err.buf, "apt-get download busybox-static:i386"));
	assert_non_null(strstr(err.buf, "dpkg-deb -x"));
	assert_non_null(strstr(err.buf, "--busybox"));
	assert_int_equal(f.calls, 0);

	/* where harness/setup.sh unpacks it */
	assert_int_equal(mkdir_p(bbdir, 0755), 0);
	write_elf(bbpath, false, "i386 busybox");
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err), 0);
	assert_int_equal(f.calls, 1);
	assert_non_null(strstr(r.path, "/bootproof-i386-"));
	assert_true(strbuf_read_file(&bb, bbpath, 0) > 0);
	e = image_layout_find(&f.last, IMAGE_BUSYBOX_PATH);
	assert_int_equal(e->len, bb.len);
	assert_memory_equal(e->data, bb.buf, bb.len);
	if (old)
		setenv("BOOTPROOF_CACHE", old, 1);
	else
		unsetenv("BOOTPROOF_CACHE");
	free(old);
}

static void test_default_agent_from_bp_build(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r = { .path = NULL };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *build = path_join(dir, "build"),
			    *gdir = path_join(build, "guest/x86_64"),
			    *agent = path_join(gdir, "bootproof-agent");
	struct image_request req = req64();
	const struct image_entry *e;

	req.agent = NULL;
	setenv("BP_BUILD", build, 1);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err),
			 -EINVAL);
	/* names the file and says how to make it */
	assert_non_null(strstr(err.buf, agent));
	assert_non_null(strstr(err.buf, "make guest"));
	assert_int_equal(mkdir_p(gdir, 0755), 0);
	write_elf(agent, true, "the built agent");
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r, &err), 0);
	e = image_layout_find(&f.last, IMAGE_AGENT_PATH);
	assert_non_null(memmem(e->data, e->len, "the built agent", 15));
	unsetenv("BP_BUILD");
}

static void write_text(const char *d, const char *name, const char *text)
{
	_cleanup_free_ char *p = path_join(d, name);
	_cleanup_free_ char *parent = strdup(p);

	*strrchr(parent, '/') = '\0';
	assert_int_equal(mkdir_p(parent, 0755), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text), 0644), 0);
}

static void test_modules(void **state)
{
	_cleanup_(fake_done) struct fake f = { .calls = 0 };
	_cleanup_(image_result_done) struct image_result r1 = { .path = NULL };
	_cleanup_(image_result_done) struct image_result r2 = { .path = NULL };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *md = path_join(dir, "lib/modules/6.1.0-test");
	struct image_request req = req64();
	const struct image_entry *e;
	const char *root = "/lib/modules/6.1.0-test/";

	write_text(md, "modules.dep",
		   "kernel/drivers/virtio/virtio.ko: "
		   "kernel/drivers/virtio/virtio_ring.ko\n"
		   "kernel/drivers/virtio/virtio_ring.ko:\n"
		   "kernel/drivers/net/virtio_net.ko: "
		   "kernel/drivers/virtio/virtio.ko "
		   "kernel/drivers/virtio/virtio_ring.ko\n"
		   "kernel/fs/btrfs/btrfs.ko:\n");
	write_text(md, "modules.alias", "alias virtio:d00000001v* virtio_net\n"
					"alias fs-btrfs btrfs\n");
	write_text(md, "modules.builtin", "kernel/fs/ext4/ext4.ko\n");
	write_text(md, "kernel/drivers/virtio/virtio.ko", "VIRTIO");
	write_text(md, "kernel/drivers/virtio/virtio_ring.ko", "RING");
	write_text(md, "kernel/drivers/net/virtio_net.ko", "NET");
	write_text(md, "kernel/fs/btrfs/btrfs.ko", "BTRFS");

	req.modules = md;
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r1, &err), 0);
	{
		char p[256];
		snprintf(p, sizeof(p), "%skernel/drivers/net/virtio_net.ko",
			 root);
		e = image_layout_find(&f.last, p);
		assert_non_null(e);
		assert_int_equal(e->mode, 0644);
		assert_memory_equal(e->data, "NET", 3);
		snprintf(p, sizeof(p), "%skernel/drivers/virtio/virtio_ring.ko",
			 root);
		assert_non_null(image_layout_find(&f.last, p));
		snprintf(p, sizeof(p), "%skernel/fs/btrfs/btrfs.ko", root);
		assert_null(image_layout_find(&f.last, p));
		snprintf(p, sizeof(p), "%smodules.dep", root);
		e = image_layout_find(&f.last, p);
		assert_non_null(e);
		assert_null(memmem(e->data, e->len, "btrfs", 5));
		assert_non_null(memmem(e->data, e->len,
				       "kernel/drivers/net/virtio_net.ko: ",
				       34));
		snprintf(p, sizeof(p), "%smodules.alias", root);
		e = image_layout_find(&f.last, p);
		assert_int_equal(e->len, strlen("alias virtio:d00000001v* "
						"virtio_net\n"));
		snprintf(p, sizeof(p), "%smodules.builtin", root);
		assert_non_null(image_layout_find(&f.last, p));
	}

	/* a module's bytes are part of the key */
	write_text(md, "kernel/drivers/virtio/virtio_ring.ko", "RING2");
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, &err), 0);
	assert_false(r2.cached);
	assert_string_not_equal(r2.hash, r1.hash);
	image_result_done(&r2);
	/* an unselected one is not */
	write_text(md, "kernel/fs/btrfs/btrfs.ko", "BTRFS2");
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, &err), 0);
	assert_true(r2.cached);
	image_result_done(&r2);

	/* not a modules directory */
	req.modules = dir;
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "no modules.dep"));
	req.modules = agent64;
	strbuf_reset(&err);
	assert_int_equal(image_ensure_with(&fake_ops, &f, &req, &r2, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "not a directory"));
}

/* One entry of a cpio file: its type and (for a file) its bytes. */
static bool cpio_entry(const char *cpio, const char *path, unsigned *ret_type,
		       struct strbuf *ret_data)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ae;
	bool found = false;

	assert_int_equal(archive_read_support_format_cpio(a), ARCHIVE_OK);
	assert_int_equal(archive_read_open_filename(a, cpio, 4096), ARCHIVE_OK);
	while (!found && archive_read_next_header(a, &ae) == ARCHIVE_OK) {
		char buf[4096];
		la_ssize_t n;

		if (strcmp(archive_entry_pathname(ae), path + 1))
			continue;
		found = true;
		*ret_type = archive_entry_filetype(ae);
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
			strbuf_add(ret_data, buf, (size_t)n);
	}
	archive_read_free(a);
	return found;
}

/* bootproof's initramfs: the agent as /init, the root's modules and what
 * they need (softdeps through aliases), their list, /dev/console; the
 * same layout is the same file, found again; another agent another. */
static void test_initramfs(void **state)
{
	_cleanup_(image_result_done) struct image_result r1 = { .path = NULL };
	_cleanup_(image_result_done) struct image_result r2 = { .path = NULL };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, data = STRBUF_INIT,
				       agent = STRBUF_INIT;
	_cleanup_free_ char *md = path_join(dir, "lib/modules/6.1.0-initrd");
	struct image_request req = req64();
	unsigned type = 0;

	write_text(md, "modules.dep",
		   "kernel/drivers/virtio/virtio.ko: "
		   "kernel/drivers/virtio/virtio_ring.ko\n"
		   "kernel/drivers/virtio/virtio_ring.ko:\n"
		   "kernel/drivers/virtio/virtio_pci.ko: "
		   "kernel/drivers/virtio/virtio.ko "
		   "kernel/drivers/virtio/virtio_ring.ko\n"
		   "kernel/drivers/block/virtio_blk.ko: "
		   "kernel/drivers/virtio/virtio.ko "
		   "kernel/drivers/virtio/virtio_ring.ko\n"
		   "kernel/fs/ext4/ext4.ko: kernel/fs/jbd2/jbd2.ko\n"
		   "kernel/fs/jbd2/jbd2.ko:\n"
		   "kernel/crypto/crc32c_generic.ko:\n"
		   "kernel/drivers/net/virtio_net.ko: "
		   "kernel/drivers/virtio/virtio.ko\n");
	write_text(md, "modules.softdep", "softdep ext4 pre: crc32c\n");
	write_text(md, "modules.alias", "alias crypto-crc32c crc32c_generic\n"
					"alias crc32c crc32c_generic\n");
	write_text(md, "kernel/drivers/virtio/virtio.ko", "VIRTIO");
	write_text(md, "kernel/drivers/virtio/virtio_ring.ko", "RING");
	write_text(md, "kernel/drivers/virtio/virtio_pci.ko", "PCI");
	write_text(md, "kernel/drivers/block/virtio_blk.ko", "BLK");
	write_text(md, "kernel/fs/ext4/ext4.ko", "EXT4");
	write_text(md, "kernel/fs/jbd2/jbd2.ko", "JBD2");
	write_text(md, "kernel/crypto/crc32c_generic.ko", "CRC32C");
	write_text(md, "kernel/drivers/net/virtio_net.ko", "NET");

	req.modules = md;
	assert_int_equal(image_initramfs_ensure(&req, &r1, &err), 0);
	assert_false(r1.cached);
	assert_non_null(strstr(r1.path, "/images/initramfs-x86_64-"));
	assert_true(cpio_entry(r1.path, BP_INITRAMFS_INIT, &type, &data));
	assert_int_equal(type, AE_IFREG);
	assert_true(strbuf_read_file(&agent, agent64, 1 << 20) > 0);
	assert_int_equal(data.len, agent.len);
	assert_memory_equal(data.buf, agent.buf, agent.len);
	strbuf_reset(&data);
	assert_true(cpio_entry(r1.path, "/dev/console", &type, &data));
	assert_int_equal(type, AE_IFCHR);
	assert_true(cpio_entry(r1.path, BP_INITRAMFS_MODULES, &type, &data));
	for (const char *m = "virtio.ko\0virtio_ring.ko\0virtio_pci.ko\0"
			     "virtio_blk.ko\0ext4.ko\0jbd2.ko\0"
			     "crc32c_generic.ko\0";
	     *m; m += strlen(m) + 1)
		assert_non_null(strstr(data.buf, m));
	assert_null(strstr(data.buf, "virtio_net"));
	strbuf_reset(&data);
	assert_true(cpio_entry(r1.path,
			       "/lib/modules/6.1.0-initrd/kernel/fs/ext4/ext4.ko",
			       &type, &data));
	assert_string_equal(data.buf, "EXT4");
	assert_false(cpio_entry(r1.path, "/lib/modules/6.1.0-initrd/"
					 "kernel/drivers/net/virtio_net.ko",
				&type, &data));

	assert_int_equal(image_initramfs_ensure(&req, &r2, &err), 0);
	assert_true(r2.cached);
	assert_string_equal(r2.path, r1.path);
	image_result_done(&r2);

	req.agent = agent32;
	req.arch = BP_ARCH_I386;
	assert_int_equal(image_initramfs_ensure(&req, &r2, &err), 0);
	assert_string_not_equal(r2.path, r1.path);
	image_result_done(&r2);

	req.modules = NULL;
	strbuf_reset(&err);
	assert_int_equal(image_initramfs_ensure(&req, &r2, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "no modules directory"));
}

/* Two processes want the same missing image at once: one builds, the
 * other waits on the lock and then finds it. */
static void test_concurrent_builders(void **state)
{
	_cleanup_free_ char *log = path_join(dir, "builds.log"),
			    *other = path_join(dir, "agent-concurrent");
	_cleanup_strbuf_ struct strbuf lines = STRBUF_INIT;
	struct image_request req = req64();
	pid_t pids[2];
	int status, n = 0;

	write_elf(other, true, "agent built by two at once");
	req.agent = other;
	for (int i = 0; i < 2; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			struct fake f = { .sleep_ms = 400, .log = log };
			struct image_result r = { .path = NULL };
			struct stat st;
			int e = image_ensure_with(&fake_ops, &f, &req, &r,
						  NULL);
			_exit(e == 0 && stat(r.path, &st) == 0 &&
					      (uint64_t)st.st_size == r.size
				      ? 0
				      : 1);
		}
	}
	for (int i = 0; i < 2; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_true(strbuf_read_file(&lines, log, 0) > 0);
	for (size_t i = 0; i < lines.len; i++)
		n += lines.buf[i] == '\n';
	assert_int_equal(n, 1);
	assert_int_equal(count_files(".tmp."), 0);
}

static void test_accel_names(void **state)
{
	enum image_accel a = IMAGE_ACCEL_KVM;

	assert_int_equal(image_accel_from_string("auto", &a), 0);
	assert_int_equal(a, IMAGE_ACCEL_AUTO);
	assert_int_equal(image_accel_from_string("tcg", &a), 0);
	assert_int_equal(a, IMAGE_ACCEL_TCG);
	assert_int_equal(image_accel_from_string("kvm", &a), 0);
	assert_int_equal(a, IMAGE_ACCEL_KVM);
	assert_int_equal(image_accel_from_string("hvf", &a), -EINVAL);
	assert_int_equal(image_accel_from_string(NULL, &a), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_then_cache_hit),
		cmocka_unit_test(test_key_follows_inputs),
		cmocka_unit_test(test_build_failure_leaves_nothing),
		cmocka_unit_test(test_stale_tmp_removed),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_i386_busybox_from_cache),
		cmocka_unit_test(test_default_agent_from_bp_build),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_initramfs),
		cmocka_unit_test(test_check_stamp),
		cmocka_unit_test(test_concurrent_builders),
		cmocka_unit_test(test_accel_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
