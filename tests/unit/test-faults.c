// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A host that fails, at unit level (docs/reliability.md): a kernel file cut
 * off, a cached image damaged after it was built, a results disk that
 * fills during a boot, staging directories of killed runs.  The same
 * faults for real (libvirtd, QEMU, tmpfs, SIGKILL) are in
 * tests/integration/faults-*.sh.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/image.h"
#include "core/bzimage.h"
#include "engine/boot.h"
#include "boot_fixture.h"
#include "fake_domain.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

static char tmp[] = "/tmp/bp-test-faults-XXXXXX";

static int setup(void **state)
{
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	return 0;
}

/* ------------------------------------------------------------ kernel */

static void header(unsigned char *b, size_t len, unsigned proto,
		   unsigned setup_sects, unsigned syssize)
{
	memset(b, 0, len);
	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = proto & 0xff;
	b[0x207] = proto >> 8;
	b[0x20e] = 0x00;
	b[0x20f] = 0x03;
	b[0x1f1] = (unsigned char)setup_sects;
	b[0x1f4] = syssize & 0xff;
	b[0x1f5] = (syssize >> 8) & 0xff;
	b[0x1f6] = (syssize >> 16) & 0xff;
	b[0x1f7] = (syssize >> 24) & 0xff;
	memcpy(b + 0x500, "6.12.0 #1", 10);
}

/* A kernel file cut off (a copy that ran out of space, a download that
 * stopped) is told by its own header: setup sectors + syssize. */
static void test_kernel_cut_off(void **state)
{
	unsigned char b[0x1000];
	struct bzimage_info bi;

	header(b, sizeof(b), 0x020f, 3, 0x12345);
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_int_equal(bi.min_size, 4 * 512 + 0x12345ull * 16);
	/* setup_sects 0 means 4. */
	header(b, sizeof(b), 0x020f, 0, 0x100);
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_int_equal(bi.min_size, 5 * 512 + 0x100 * 16);
	/* Protocol 2.03 has no syssize of 32 bits: nothing to say. */
	header(b, sizeof(b), 0x0203, 3, 0x100);
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_int_equal(bi.min_size, 0);
}

/* Real kernels are at least as long as their header says, and not much
 * longer (a signature at most); their first MiB is not. */
static void test_real_kernels_complete(void **state)
{
	DIR *d = opendir("/boot");
	struct dirent *de;
	int seen = 0;

	if (!d)
		skip();
	while ((de = readdir(d))) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		_cleanup_free_ char *p = NULL;
		struct bzimage_info bi;

		if (strncmp(de->d_name, "vmlinuz-", 8))
			continue;
		p = path_join("/boot", de->d_name);
		if (strbuf_read_file(&sb, p, 256 << 20) < 0)
			continue;
		assert_int_equal(bzimage_inspect(sb.buf, sb.len, &bi), 0);
		assert_true(bi.min_size > 0);
		assert_true(bi.min_size <= sb.len);
		assert_true(sb.len - bi.min_size < 64 * 1024);
		assert_true(bi.min_size > (1u << 20));
		seen++;
	}
	closedir(d);
	if (!seen)
		skip();
}

/* ------------------------------------------------------- the image */

struct fake_builder {
	int calls;
	char fill;
};

static int fake_build(void *userdata, const struct image_build *b,
		      struct strbuf *err)
{
	struct fake_builder *f = userdata;
	_cleanup_free_ char *buf = malloc(b->size);
	int e;

	f->calls++;
	assert_non_null(buf);
	memset(buf, f->fill, b->size);
	e = write_file_atomic(b->path, buf, b->size, 0644);
	if (e < 0)
		strbuf_addf(err, "fake: %s", strerror(-e));
	return e;
}

static const struct image_ops fake_ops = { .build = fake_build };

/* A static x86_64 ELF as the image checks want (agent and busybox). */
static char *write_elf(const char *name)
{
	uint8_t b[512] = { 0 };
	Elf64_Ehdr *h = (Elf64_Ehdr *)b;
	char *p = path_join(tmp, name);

	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = ELFCLASS64;
	b[EI_DATA] = ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	h->e_type = ET_EXEC;
	h->e_machine = EM_X86_64;
	h->e_phoff = sizeof(*h);
	h->e_phentsize = sizeof(Elf64_Phdr);
	h->e_phnum = 1;
	((Elf64_Phdr *)(b + sizeof(*h)))[0].p_type = PT_LOAD;
	memcpy(b + 300, name, strlen(name));
	assert_int_equal(write_file_atomic(p, b, sizeof(b), 0755), 0);
	return p;
}

static int ensure(struct image_request *req, struct fake_builder *f,
		  struct image_result *res)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int r;

	image_result_done(res);
	memset(res, 0, sizeof(*res));
	r = image_ensure_with(&fake_ops, f, req, res, &err);
	if (r < 0)
		print_error("image_ensure_with: %s\n", err.buf);
	return r;
}

static void overwrite(const char *path, off_t off, const char *what)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, what, strlen(what), off),
			 (ssize_t)strlen(what));
	close(fd);
}

/*
 * The cached image is used only as it was built: a file truncated,
 * overwritten (same size) or whose manifest lost its hash is built again
 * rather than booted (a damaged root filesystem would look like a kernel
 * that cannot mount root).
 */
static void test_damaged_image_is_rebuilt(void **state)
{
	_cleanup_free_ char *agent = write_elf("agent");
	_cleanup_free_ char *busybox = write_elf("busybox");
	_cleanup_free_ char *cdir = path_join(tmp, "cache");
	_cleanup_(image_result_done) struct image_result res = { 0 };
	_cleanup_strbuf_ struct strbuf man = STRBUF_INIT;
	struct fake_builder f = { .fill = 'A' };
	struct image_request req = {
		.arch = BP_ARCH_X86_64,
		.agent = agent,
		.busybox = busybox,
		.cache_dir = cdir,
	};
	char first[IMAGE_HASH_HEX_LEN + 1];
	struct stat st;

	/* Built, then found. */
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 1);
	assert_false(res.cached);
	assert_int_equal(strlen(res.image_sha256), IMAGE_HASH_HEX_LEN);
	memcpy(first, res.image_sha256, sizeof(first));
	assert_true(strbuf_read_file(&man, res.manifest, 0) > 0);
	assert_non_null(strstr(man.buf, first));
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 1);
	assert_true(res.cached);
	assert_string_equal(res.image_sha256, first);

	/* Overwritten with garbage, same size: built again. */
	overwrite(res.path, 4096, "garbage from a stray dd");
	f.fill = 'B';
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 2);
	assert_false(res.cached);
	assert_string_not_equal(res.image_sha256, first);
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 2);
	assert_true(res.cached);

	/* Truncated. */
	assert_int_equal(truncate(res.path, 1 << 20), 0);
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 3);
	assert_int_equal(stat(res.path, &st), 0);
	assert_int_equal((uint64_t)st.st_size, res.size);

	/* Missing. */
	assert_int_equal(unlink(res.path), 0);
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 4);
	assert_int_equal(access(res.path, F_OK), 0);

	/* The manifest lost, or one from before images had their hash
	 * recorded: the image cannot be checked, so it is not used. */
	assert_int_equal(unlink(res.manifest), 0);
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 5);
	assert_int_equal(write_file_atomic(res.manifest, "{\"hash\":\"x\"}\n",
					   13, 0644),
			 0);
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 6);
	assert_int_equal(ensure(&req, &f, &res), 0);
	assert_int_equal(f.calls, 6);
	assert_true(res.cached);
}

/* ------------------------------------------------------------ a boot */


/*
 * The results disk fills during the boot: console.log cannot be written.
 * The guest is destroyed at once (INFRA, exit 3), the message names the
 * file and the error; the record still has what the console said.
 */
static void test_console_log_disk_full(void **state)
{
	_cleanup_free_ char *run = path_join(tmp, "full-run");
	_cleanup_free_ char *stage = path_join(tmp, "stage/bootproof-full");
	_cleanup_free_ char *kernel = path_join(tmp, "bzImage");
	_cleanup_free_ char *log = path_join(run, "console.log");
	_cleanup_free_ char *src = NULL, *want = NULL;
	struct fake_domain f = { .chunk = 8192, .end = GUEST_SHUTOFF };
	struct boot_request r = boot_test_req("bootproof-faults", run, stage, kernel);
	struct boot_outcome o;

	if (access("/dev/full", W_OK) < 0)
		skip();
	assert_true(asprintf(&src, "%s/console/debian61-boot.log", TEST_DATA) > 0);
	assert_true(asprintf(&want, "cannot write %s: %s", log,
			     strerror(ENOSPC)) > 0);
	f.log = src;
	assert_int_equal(mkdir_p(run, 0755), 0);
	assert_int_equal(write_file_atomic(kernel, "k", 1, 0644), 0);
	/* A file system with no room left: every write says ENOSPC. */
	assert_int_equal(symlink("/dev/full", log), 0);
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_INFRA);
	assert_int_equal(o.exit_code, 3);
	assert_string_equal(jsonx_text(o.record, "reason"), want);
	assert_string_equal(
		jsonx_text(json_object_object_get(o.record, "end"), "how"), "infra");
	/* Stopped at the first write, not at the end of the log. */
	assert_int_equal(f.destroyed, 1);
	assert_true(f.bytes <= 8192);
	assert_int_equal(access(stage, F_OK), -1);
	json_object_put(o.record);
	free(f.xml);
}

static void mkstage(const char *parent, const char *name, bool with_lock,
		    int *ret_locked_fd)
{
	_cleanup_free_ char *d = path_join(parent, name);
	_cleanup_free_ char *f = path_join(d, "vmlinuz");
	_cleanup_free_ char *lock = NULL;

	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(write_file_atomic(f, "staged", 6, 0644), 0);
	if (!with_lock)
		return;
	assert_true(asprintf(&lock, "%s.lock", d) > 0);
	assert_int_equal(write_file_atomic(lock, "", 0, 0644), 0);
	if (ret_locked_fd) {
		*ret_locked_fd = open(lock, O_RDWR | O_CLOEXEC);
		assert_true(*ret_locked_fd >= 0);
		assert_int_equal(flock(*ret_locked_fd, LOCK_EX), 0);
	}
}

static bool there(const char *parent, const char *name)
{
	_cleanup_free_ char *p = path_join(parent, name);

	return access(p, F_OK) == 0;
}

/*
 * bootproof killed with SIGKILL cannot remove its staging directory
 * (kernel, initrd, overlay: tens of MiB a run).  The next boot removes
 * those nobody holds the lock of, and no other.
 */
static void test_stale_stages_swept(void **state)
{
	_cleanup_free_ char *run = path_join(tmp, "sweep-run");
	_cleanup_free_ char *parent = path_join(tmp, "runs");
	_cleanup_free_ char *stage = path_join(parent, "bootproof-new");
	_cleanup_free_ char *kernel = path_join(tmp, "bzImage");
	_cleanup_free_ char *src = NULL;
	struct fake_domain f = { .end = GUEST_SHUTOFF };
	struct boot_request r = boot_test_req("bootproof-faults", run, stage, kernel);
	struct boot_outcome o;
	int alive = -1;

	assert_true(asprintf(&src, "%s/console/debian61-boot.log", TEST_DATA) > 0);
	f.log = src;
	assert_int_equal(mkdir_p(run, 0755), 0);
	assert_int_equal(write_file_atomic(kernel, "k", 1, 0644), 0);
	mkstage(parent, "bootproof-killed", true, NULL);
	mkstage(parent, "bootproof-running", true, &alive);
	mkstage(parent, "bootproof-starting", false, NULL);
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_false(there(parent, "bootproof-killed"));
	assert_false(there(parent, "bootproof-killed.lock"));
	assert_true(there(parent, "bootproof-running/vmlinuz"));
	assert_true(there(parent, "bootproof-running.lock"));
	assert_true(there(parent, "bootproof-starting/vmlinuz"));
	/* Its own: gone at the end. */
	assert_false(there(parent, "bootproof-new"));
	assert_false(there(parent, "bootproof-new.lock"));
	close(alive);
	json_object_put(o.record);
	free(f.xml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_cut_off),
		cmocka_unit_test(test_real_kernels_complete),
		cmocka_unit_test(test_damaged_image_is_rebuilt),
		cmocka_unit_test(test_console_log_disk_full),
		cmocka_unit_test(test_stale_stages_swept),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
