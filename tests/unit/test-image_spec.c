// SPDX-License-Identifier: GPL-2.0-or-later
/* image_spec: layout, cache key, tar stream, input checks, modules. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "core/image_spec.h"
#include "util/strbuf.h"

static void test_marker_pattern(void **state)
{
	/* Byte i = (uint8_t)((i * 2654435761u) >> 24), worked out by hand
	 * for a few i (the guest's check uses the same formula). */
	static const struct {
		uint64_t i;
		uint8_t v;
	} known[] = { { 0, 0 },	    { 1, 158 },	 { 2, 60 },   { 3, 218 },
		      { 255, 153 }, { 256, 55 }, { 1048575, 252 } };
	uint8_t buf[4];

	for (size_t k = 0; k < ELEMENTSOF(known); k++)
		assert_int_equal(image_marker_byte(known[k].i), known[k].v);
	image_marker_fill(buf, sizeof(buf));
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], 158);
	assert_int_equal(buf[3], 218);
}

/* A minimal ELF: header + program headers, as a linker would lay out. */
static size_t make_elf(uint8_t *buf, size_t n, int cls, unsigned machine,
		       unsigned type, bool interp)
{
	memset(buf, 0, n);
	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = (uint8_t)cls;
	buf[EI_DATA] = ELFDATA2LSB;
	buf[EI_VERSION] = EV_CURRENT;
	if (cls == ELFCLASS64) {
		Elf64_Ehdr *h = (Elf64_Ehdr *)buf;
		Elf64_Phdr *p = (Elf64_Phdr *)(buf + sizeof(*h));
		h->e_type = (uint16_t)type;
		h->e_machine = (uint16_t)machine;
		h->e_phoff = sizeof(*h);
		h->e_phentsize = sizeof(*p);
		h->e_phnum = 2;
		p[0].p_type = PT_LOAD;
		p[1].p_type = interp ? PT_INTERP : PT_GNU_STACK;
		return sizeof(*h) + 2 * sizeof(*p);
	} else {
		Elf32_Ehdr *h = (Elf32_Ehdr *)buf;
		Elf32_Phdr *p = (Elf32_Phdr *)(buf + sizeof(*h));
		h->e_type = (uint16_t)type;
		h->e_machine = (uint16_t)machine;
		h->e_phoff = sizeof(*h);
		h->e_phentsize = sizeof(*p);
		h->e_phnum = 2;
		p[0].p_type = PT_LOAD;
		p[1].p_type = interp ? PT_INTERP : PT_GNU_STACK;
		return sizeof(*h) + 2 * sizeof(*p);
	}
}

static void test_check_elf(void **state)
{
	uint8_t b[512];
	const char *why;
	size_t n;

	n = make_elf(b, sizeof(b), ELFCLASS64, EM_X86_64, ET_EXEC, false);
	assert_int_equal(image_check_elf(b, n, BP_ARCH_X86_64, &why), 0);
	assert_null(why);
	/* static-pie is ET_DYN without an interpreter: fine */
	n = make_elf(b, sizeof(b), ELFCLASS64, EM_X86_64, ET_DYN, false);
	assert_int_equal(image_check_elf(b, n, BP_ARCH_X86_64, &why), 0);
	/* the right binary for the other arch */
	assert_int_equal(image_check_elf(b, n, BP_ARCH_I386, &why),
			 -ENOEXEC);
	assert_non_null(strstr(why, "x86_64 (64-bit)"));
	n = make_elf(b, sizeof(b), ELFCLASS32, EM_386, ET_EXEC, false);
	assert_int_equal(image_check_elf(b, n, BP_ARCH_I386, &why), 0);
	assert_int_equal(image_check_elf(b, n, BP_ARCH_X86_64, &why),
			 -ENOEXEC);
	assert_non_null(strstr(why, "i386 (32-bit)"));
	/* dynamically linked */
	n = make_elf(b, sizeof(b), ELFCLASS32, EM_386, ET_EXEC, true);
	assert_int_equal(image_check_elf(b, n, BP_ARCH_I386, &why),
			 -ENOEXEC);
	assert_non_null(strstr(why, "dynamically linked"));
	/* another machine, an object file, truncated, not ELF at all */
	n = make_elf(b, sizeof(b), ELFCLASS64, EM_AARCH64, ET_EXEC, false);
	assert_int_equal(image_check_elf(b, n, BP_ARCH_X86_64, &why),
			 -ENOEXEC);
	assert_non_null(strstr(why, "another machine"));
	n = make_elf(b, sizeof(b), ELFCLASS64, EM_X86_64, ET_REL, false);
	assert_int_equal(image_check_elf(b, n, BP_ARCH_X86_64, &why),
			 -ENOEXEC);
	n = make_elf(b, sizeof(b), ELFCLASS64, EM_X86_64, ET_EXEC, false);
	assert_int_equal(image_check_elf(b, n - 1, BP_ARCH_X86_64, &why),
			 -ENOEXEC);
	assert_non_null(strstr(why, "truncated"));
	assert_int_equal(image_check_elf("#!/bin/sh\necho hi\n", 18,
					 BP_ARCH_X86_64, &why),
			 -ENOEXEC);
	assert_string_equal(why, "not an ELF file");
	assert_int_equal(image_check_elf("", 0, BP_ARCH_X86_64, &why),
			 -ENOEXEC);
}

static void test_check_elf_real(void **state)
{
	_cleanup_strbuf_ struct strbuf self = STRBUF_INIT;
	const char *why;

	/* This test program is linked against libc dynamically. */
	assert_true(strbuf_read_file(&self, "/proc/self/exe", 0) > 0);
	assert_int_equal(image_check_elf(self.buf, self.len,
					 BP_ARCH_X86_64, &why),
			 -ENOEXEC);
	assert_non_null(strstr(why, "dynamically linked"));
}

static void test_layout_paths(void **state)
{
	_cleanup_layout_ struct image_layout l = IMAGE_LAYOUT_INIT;
	const struct image_entry *e;

	assert_int_equal(image_layout_add_file(&l, "/a/b/c", 0644, "x", 1),
			 0);
	/* parents were added, in order, as 0755 directories */
	assert_int_equal(l.n, 3);
	assert_string_equal(l.entries[0].path, "/a");
	assert_string_equal(l.entries[1].path, "/a/b");
	assert_int_equal(l.entries[1].kind, IMAGE_ENTRY_DIR);
	assert_int_equal(l.entries[1].mode, 0755);
	/* an existing dir only gets its mode */
	assert_int_equal(image_layout_add_dir(&l, "/a/b", 0700), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(image_layout_find(&l, "/a/b")->mode, 0700);
	assert_int_equal(image_layout_add_dir(&l, "/a/b/c", 0755), -EEXIST);
	assert_int_equal(image_layout_add_file(&l, "/a/b/c", 0644, "", 0),
			 -EEXIST);
	assert_int_equal(image_layout_add_file(&l, "/a/b/c/d", 0644, "", 0),
			 -ENOTDIR);
	assert_int_equal(image_layout_add_symlink(&l, "/l", "a"), 0);
	assert_int_equal(image_layout_add_file(&l, "/l/x", 0644, "", 0),
			 -ENOTDIR);
	static const char *const bad[] = { "",	   "/",	   "rel",  "/a//b",
					   "/a/",  "/./a", "/a/.", "/a/../b",
					   "/.." };
	for (size_t i = 0; i < ELEMENTSOF(bad); i++)
		assert_int_equal(image_layout_add_dir(&l, bad[i], 0755),
				 -EINVAL);
	assert_int_equal(image_layout_add_dir(&l, "/m", 010000), -EINVAL);
	assert_int_equal(image_layout_add_symlink(&l, "/s", ""), -EINVAL);
	/* names that merely start with dots are fine */
	assert_int_equal(image_layout_add_dir(&l, "/..x/.y", 0755), 0);
	e = image_layout_find(&l, "/a/b/c");
	assert_non_null(e);
	assert_int_equal(e->len, 1);
	assert_memory_equal(e->data, "x", 1);
	assert_null(image_layout_find(&l, "/a/b/"));
	assert_null(image_layout_find(&l, "/a/bc"));
}

static void test_base_layout(void **state)
{
	_cleanup_layout_ struct image_layout l = IMAGE_LAYOUT_INIT;
	const struct image_entry *e;
	static const struct {
		const char *path;
		unsigned mode;
	} dirs[] = {
		{ "/bin", 0755 },     { "/sbin", 0755 },    { "/etc", 0755 },
		{ "/proc", 0555 },    { "/sys", 0555 },	    { "/dev", 0755 },
		{ "/tmp", 01777 },    { "/run", 0755 },	    { "/mnt", 0755 },
		{ "/root", 0700 },    { "/bootproof", 0755 },
		{ "/sys/fs/cgroup", 0755 },
	};

	assert_int_equal(image_layout_add_base(&l), 0);
	for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
		e = image_layout_find(&l, dirs[i].path);
		assert_non_null(e);
		assert_int_equal(e->kind, IMAGE_ENTRY_DIR);
		assert_int_equal(e->mode, dirs[i].mode);
	}
	e = image_layout_find(&l, "/etc/passwd");
	assert_non_null(e);
	assert_int_equal(e->kind, IMAGE_ENTRY_FILE);
	assert_true(e->len > 11 && !memcmp(e->data, "root:x:0:0:", 11));
	assert_non_null(image_layout_find(&l, "/etc/group"));
	e = image_layout_find(&l, "/etc/hostname");
	assert_int_equal(e->len, 10);
	assert_memory_equal(e->data, "bootproof\n", 10);
	e = image_layout_find(&l, "/dev/console");
	assert_int_equal(e->kind, IMAGE_ENTRY_CHARDEV);
	assert_int_equal(e->major, 5);
	assert_int_equal(e->minor, 1);
	e = image_layout_find(&l, "/usr/bin");
	assert_int_equal(e->kind, IMAGE_ENTRY_SYMLINK);
	assert_string_equal(e->target, "../bin");
	e = image_layout_find(&l, IMAGE_MARKER_PATH);
	assert_non_null(e);
	assert_int_equal(e->len, IMAGE_MARKER_SIZE);
	assert_int_equal(e->mode, 0644);
	for (size_t i = 0; i < e->len; i += 4093)
		assert_int_equal(e->data[i], image_marker_byte(i));
	assert_int_equal(e->data[e->len - 1], 252);
	/* no agent, busybox or modules yet: those are the caller's */
	assert_null(image_layout_find(&l, IMAGE_AGENT_PATH));
	assert_null(l.applets_of);
	assert_int_equal(image_layout_add_base(&l), -EEXIST);

	assert_int_equal(image_layout_add_busybox(&l, "BB", 2), 0);
	assert_string_equal(l.applets_of, IMAGE_BUSYBOX_PATH);
	assert_int_equal(image_layout_find(&l, IMAGE_BUSYBOX_PATH)->mode,
			 0755);
}

static void test_applet_links(void **state)
{
	_cleanup_layout_ struct image_layout have = IMAGE_LAYOUT_INIT;
	_cleanup_layout_ struct image_layout l = IMAGE_LAYOUT_INIT;
	_cleanup_layout_ struct image_layout bad = IMAGE_LAYOUT_INIT;
	/* The head of Debian's `busybox --list-full` (1.35), plus a CRLF. */
	static const char list[] = "usr/bin/[\nusr/bin/[[\nsbin/acpid\n"
				   "bin/sh\nlinuxrc\nbin/sh\r\n"
				   "usr/sbin/chroot\nsbin/init\n\n";
	const struct image_entry *e;

	assert_int_equal(image_layout_add_file(&have, "/sbin/init", 0755,
					       "agent", 5),
			 0);
	assert_int_equal(image_applet_links(list, strlen(list), &have, &l), 5);
	e = image_layout_find(&l, "/bin/[");
	assert_int_equal(e->kind, IMAGE_ENTRY_SYMLINK);
	assert_string_equal(e->target, "busybox");
	assert_string_equal(image_layout_find(&l, "/bin/[[")->target,
			    "busybox");
	assert_string_equal(image_layout_find(&l, "/bin/sh")->target,
			    "busybox");
	assert_string_equal(image_layout_find(&l, "/sbin/acpid")->target,
			    "../bin/busybox");
	assert_string_equal(image_layout_find(&l, "/sbin/chroot")->target,
			    "../bin/busybox");
	/* linuxrc is not an applet link; /sbin/init is the image's own */
	assert_null(image_layout_find(&l, "/linuxrc"));
	assert_null(image_layout_find(&l, "/sbin/init"));
	assert_int_equal(image_applet_links("", 0, NULL, &bad), 0);
	assert_int_equal(image_applet_links("bin/../x\n", 9, NULL, &bad),
			 -EINVAL);
	assert_int_equal(image_applet_links("usr/bin/a/b\n", 12, NULL, &bad),
			 -EINVAL);
	assert_int_equal(image_applet_links("sbin/\n", 6, NULL, &bad),
			 -EINVAL);
}

static void test_disk_size(void **state)
{
	const uint64_t mib = 1024 * 1024;

	assert_int_equal(image_disk_size(0), 128 * mib);
	assert_int_equal(image_disk_size(40 * mib), 128 * mib);
	/* 100 MiB * 1.5 + 64 = 214 -> 224 */
	assert_int_equal(image_disk_size(100 * mib), 224 * mib);
	assert_int_equal(image_disk_size(100 * mib) % (16 * mib), 0);
}

/* A small complete layout, the way image_ensure assembles one. */
static void make_layout(struct image_layout *l, const char *agent,
			const char *busybox)
{
	assert_int_equal(image_layout_add_base(l), 0);
	assert_int_equal(image_layout_add_file(l, IMAGE_AGENT_PATH, 0755,
					       agent, strlen(agent)),
			 0);
	assert_int_equal(image_layout_add_busybox(l, busybox,
						  strlen(busybox)),
			 0);
}

static void hash_of(const struct image_layout *l, enum bp_arch a,
		    char *hex)
{
	assert_int_equal(image_layout_hash(l, a, hex), 0);
	assert_int_equal(strlen(hex), IMAGE_HASH_HEX_LEN);
}

static void test_hash_changes_with_content_only(void **state)
{
	char h0[IMAGE_HASH_HEX_LEN + 1], h[IMAGE_HASH_HEX_LEN + 1];
	struct image_layout l = IMAGE_LAYOUT_INIT;
	struct image_entry *e;

	make_layout(&l, "agent-v1", "busybox-v1");
	hash_of(&l, BP_ARCH_X86_64, h0);
	image_layout_done(&l);

	/* same inputs, again: same key */
	make_layout(&l, "agent-v1", "busybox-v1");
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_equal(h, h0);
	/* another arch */
	hash_of(&l, BP_ARCH_I386, h);
	assert_string_not_equal(h, h0);
	/* one byte of a file, a mode, a link target, a device number */
	e = (struct image_entry *)image_layout_find(&l, IMAGE_MARKER_PATH);
	e->data[12345] ^= 1;
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	e->data[12345] ^= 1;
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_equal(h, h0);
	e = (struct image_entry *)image_layout_find(&l, "/tmp");
	e->mode = 0777;
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	e->mode = 01777;
	e = (struct image_entry *)image_layout_find(&l, "/usr/bin");
	e->target[0] = 'X';
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	e->target[0] = '.';
	e = (struct image_entry *)image_layout_find(&l, "/dev/null");
	e->minor = 4;
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	e->minor = 3;
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_equal(h, h0);
	/* whether applet links are made */
	free(l.applets_of);
	l.applets_of = NULL;
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	image_layout_done(&l);

	/* the agent, the busybox */
	make_layout(&l, "agent-v2", "busybox-v1");
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	image_layout_done(&l);
	make_layout(&l, "agent-v1", "busybox-v1 ");
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	image_layout_done(&l);
	/* an added module file */
	make_layout(&l, "agent-v1", "busybox-v1");
	assert_int_equal(image_layout_add_file(&l, "/lib/modules/6.1/m.ko",
					       0644, "ko", 2),
			 0);
	hash_of(&l, BP_ARCH_X86_64, h);
	assert_string_not_equal(h, h0);
	image_layout_done(&l);
}

static void test_hash_ignores_add_order(void **state)
{
	_cleanup_layout_ struct image_layout a = IMAGE_LAYOUT_INIT;
	_cleanup_layout_ struct image_layout b = IMAGE_LAYOUT_INIT;
	char ha[IMAGE_HASH_HEX_LEN + 1], hb[IMAGE_HASH_HEX_LEN + 1];

	assert_int_equal(image_layout_add_file(&a, "/x/1", 0644, "1", 1), 0);
	assert_int_equal(image_layout_add_file(&a, "/x/2", 0644, "2", 1), 0);
	assert_int_equal(image_layout_add_file(&b, "/x/2", 0644, "2", 1), 0);
	assert_int_equal(image_layout_add_file(&b, "/x/1", 0644, "1", 1), 0);
	hash_of(&a, BP_ARCH_X86_64, ha);
	hash_of(&b, BP_ARCH_X86_64, hb);
	assert_string_equal(ha, hb);
	/* content moved from one file to the other is a change */
	a.entries[1].data[0] = '2';
	a.entries[2].data[0] = '1';
	hash_of(&a, BP_ARCH_X86_64, ha);
	assert_string_not_equal(ha, hb);
}

static void test_sha256(void **state)
{
	char hex[IMAGE_HASH_HEX_LEN + 1];

	/* FIPS 180-2 example: sha256("abc") */
	assert_int_equal(sha256_hex("abc", 3, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
				 "b00361a396177a9cb410ff61f20015ad");
}

/* Written by write, read back by libarchive with support: every entry as
 * the layout has it, in its order. */
static void roundtrip(int (*write)(const struct image_layout *, FILE *,
				   struct strbuf *),
		      int (*support)(struct archive *))
{
	_cleanup_layout_ struct image_layout l = IMAGE_LAYOUT_INIT;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct archive *a;
	struct archive_entry *ae;
	FILE *f = tmpfile();
	size_t i = 0;

	assert_non_null(f);
	make_layout(&l, "AGENT", "BUSYBOX");
	assert_int_equal(image_layout_add_file(
				 &l, "/lib/modules/6.12.0-long-release-name/"
				     "kernel/drivers/virtio/virtio_pci_modern_"
				     "dev.ko-with-a-path-past-100-bytes.ko",
				 0644, "KO", 2),
			 0);
	assert_int_equal(write(&l, f, &err), 0);
	rewind(f);

	a = archive_read_new();
	assert_int_equal(support(a), ARCHIVE_OK);
	assert_int_equal(archive_read_open_FILE(a, f), ARCHIVE_OK);
	while (archive_read_next_header(a, &ae) == ARCHIVE_OK) {
		const struct image_entry *e;
		char path[4096];

		assert_true(i < l.n);
		e = &l.entries[i++];
		snprintf(path, sizeof(path), "/%s",
			 archive_entry_pathname(ae));
		/* tar spells a directory "bin/" */
		if (e->kind == IMAGE_ENTRY_DIR &&
		    path[strlen(path) - 1] == '/')
			path[strlen(path) - 1] = '\0';
		assert_string_equal(path, e->path);
		assert_int_equal(archive_entry_perm(ae), e->mode);
		assert_int_equal(archive_entry_uid(ae), 0);
		assert_int_equal(archive_entry_gid(ae), 0);
		assert_int_equal(archive_entry_mtime(ae), IMAGE_MTIME);
		switch (e->kind) {
		case IMAGE_ENTRY_DIR:
			assert_int_equal(archive_entry_filetype(ae), AE_IFDIR);
			break;
		case IMAGE_ENTRY_SYMLINK:
			assert_int_equal(archive_entry_filetype(ae), AE_IFLNK);
			assert_string_equal(archive_entry_symlink(ae),
					    e->target);
			break;
		case IMAGE_ENTRY_CHARDEV:
			assert_int_equal(archive_entry_filetype(ae), AE_IFCHR);
			assert_int_equal(archive_entry_rdevmajor(ae), e->major);
			assert_int_equal(archive_entry_rdevminor(ae), e->minor);
			break;
		case IMAGE_ENTRY_FILE: {
			_cleanup_free_ uint8_t *buf = malloc(e->len + 1);
			assert_int_equal(archive_entry_filetype(ae), AE_IFREG);
			assert_int_equal(archive_entry_size(ae), e->len);
			assert_int_equal(archive_read_data(a, buf, e->len + 1),
					 e->len);
			assert_memory_equal(buf, e->data, e->len);
			break;
		}
		}
	}
	assert_int_equal(i, l.n);
	archive_read_free(a);
	fclose(f);
}

static void test_tar_roundtrip(void **state)
{
	roundtrip(image_layout_write_tar, archive_read_support_format_tar);
}

/* The initramfs format: every kind of entry, the long module path too. */
static void test_cpio_roundtrip(void **state)
{
	roundtrip(image_layout_write_cpio, archive_read_support_format_cpio);
}

/* Lines of Debian 6.1.0-57-amd64's modules.dep, modules.softdep and
 * modules.alias (/lib/modules/6.1.0-57-amd64), cut down to what the
 * selection touches plus neighbours it must leave alone. */
static const char dep_text[] =
	"kernel/arch/x86/crypto/crc32c-intel.ko:\n"
	"kernel/fs/mbcache.ko:\n"
	"kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko kernel/fs/mbcache.ko "
	"kernel/fs/jbd2/jbd2.ko\n"
	"kernel/fs/jbd2/jbd2.ko:\n"
	"kernel/fs/btrfs/btrfs.ko: kernel/lib/raid6/raid6_pq.ko "
	"kernel/crypto/xor.ko kernel/lib/libcrc32c.ko\n"
	"kernel/crypto/crc32c_generic.ko:\n"
	"kernel/lib/crc16.ko:\n"
	"kernel/drivers/virtio/virtio.ko: kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/virtio/virtio_ring.ko:\n"
	"kernel/drivers/virtio/virtio_pci.ko: "
	"kernel/drivers/virtio/virtio_pci_legacy_dev.ko "
	"kernel/drivers/virtio/virtio_pci_modern_dev.ko "
	"kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/virtio/virtio_pci_modern_dev.ko:\n"
	"kernel/drivers/virtio/virtio_pci_legacy_dev.ko:\n"
	"kernel/drivers/char/hw_random/virtio-rng.ko: "
	"kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/net/virtio_net.ko: kernel/drivers/net/net_failover.ko "
	"kernel/net/core/failover.ko kernel/drivers/virtio/virtio.ko "
	"kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/net/net_failover.ko: kernel/net/core/failover.ko\n"
	"kernel/net/core/failover.ko:\n"
	"kernel/drivers/misc/pvpanic/pvpanic.ko:\n"
	"kernel/drivers/misc/pvpanic/pvpanic-pci.ko: "
	"kernel/drivers/misc/pvpanic/pvpanic.ko\n"
	"kernel/drivers/misc/pvpanic/pvpanic-mmio.ko: "
	"kernel/drivers/misc/pvpanic/pvpanic.ko\n";
static const char softdep_text[] =
	"# Soft dependencies extracted from modules themselves.\n"
	"softdep ext4 pre: crypto-crc32c\n"
	"softdep jbd2 pre: crypto-crc32c\n"
	"softdep nfsd pre: crypto-md5\n";
static const char alias_text[] =
	"# Aliases extracted from modules themselves.\n"
	"alias crypto-crc32c-intel crc32c_intel\n"
	"alias crypto-crc32c crc32c_intel\n"
	"alias crypto-crc32c-generic crc32c_generic\n"
	"alias crypto-crc32c crc32c_generic\n"
	"alias virtio:d00000001v* virtio_net\n"
	"alias fs-btrfs btrfs\n";
static const char builtin_text[] = "kernel/drivers/block/virtio_blk.ko\n"
				   "kernel/fs/binfmt_script.ko\n";

static bool has(const struct image_modsel *s, const char *path)
{
	for (size_t i = 0; i < s->n_paths; i++)
		if (!strcmp(s->paths[i], path))
			return true;
	return false;
}

static void test_module_name(void **state)
{
	char n[64];

	assert_int_equal(image_module_name("kernel/drivers/char/hw_random/"
					   "virtio-rng.ko",
					   n, sizeof(n)),
			 0);
	assert_string_equal(n, "virtio_rng");
	assert_int_equal(image_module_name("a/ext4.ko.xz", n, sizeof(n)), 0);
	assert_string_equal(n, "ext4");
	assert_int_equal(image_module_name("a/ext4.ko.zst", n, sizeof(n)), 0);
	assert_int_equal(image_module_name("a/ext4.o", n, sizeof(n)),
			 -EINVAL);
	assert_int_equal(image_module_name("a/.ko", n, sizeof(n)), -EINVAL);
	assert_int_equal(image_module_name("a/abcdef.ko", n, 4), -EINVAL);
}

static void test_modules_select(void **state)
{
	_cleanup_(image_modsel_done) struct image_modsel s = IMAGE_MODSEL_INIT;
	struct image_moddir d = { .dep = dep_text,
				  .builtin = builtin_text,
				  .softdep = softdep_text,
				  .alias = alias_text };
	static const char *const expect[] = {
		"kernel/arch/x86/crypto/crc32c-intel.ko",
		"kernel/fs/mbcache.ko",
		"kernel/fs/ext4/ext4.ko",
		"kernel/fs/jbd2/jbd2.ko",
		"kernel/crypto/crc32c_generic.ko",
		"kernel/lib/crc16.ko",
		"kernel/drivers/virtio/virtio.ko",
		"kernel/drivers/virtio/virtio_ring.ko",
		"kernel/drivers/virtio/virtio_pci.ko",
		"kernel/drivers/virtio/virtio_pci_modern_dev.ko",
		"kernel/drivers/virtio/virtio_pci_legacy_dev.ko",
		"kernel/drivers/char/hw_random/virtio-rng.ko",
		"kernel/drivers/net/virtio_net.ko",
		"kernel/drivers/net/net_failover.ko",
		"kernel/net/core/failover.ko",
		"kernel/drivers/misc/pvpanic/pvpanic.ko",
		"kernel/drivers/misc/pvpanic/pvpanic-pci.ko",
		"kernel/drivers/misc/pvpanic/pvpanic-mmio.ko",
	};
	/* virtio_console is in neither list: it must come back missing */
	assert_int_equal(image_modules_select(&d, image_default_modules, &s,
					      NULL),
			 0);
	assert_int_equal(s.n_paths, ELEMENTSOF(expect));
	for (size_t i = 0; i < ELEMENTSOF(expect); i++)
		assert_string_equal(s.paths[i], expect[i]);	/* dep order */
	assert_false(has(&s, "kernel/fs/btrfs/btrfs.ko"));
	assert_false(has(&s, "kernel/lib/raid6/raid6_pq.ko"));
	assert_int_equal(s.n_builtin, 1);
	assert_string_equal(s.builtin[0], "virtio_blk");
	assert_int_equal(s.n_missing, 1);
	assert_string_equal(s.missing[0], "virtio_console");
}

static void test_modules_select_minimal(void **state)
{
	_cleanup_(image_modsel_done) struct image_modsel s = IMAGE_MODSEL_INIT;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct image_moddir d = { .dep = dep_text };
	static const char *const want[] = { "pvpanic-pci", NULL };

	/* no softdep/alias/builtin files: deps only, all else missing */
	assert_int_equal(image_modules_select(&d, want, &s, &err), 0);
	assert_int_equal(s.n_paths, 2);
	assert_string_equal(s.paths[0],
			    "kernel/drivers/misc/pvpanic/pvpanic.ko");
	image_modsel_done(&s);
	d.dep = "kernel/a.ko: kernel/b.ko\nno colon here\n";
	assert_int_equal(image_modules_select(&d, want, &s, &err), -EBADMSG);
	assert_string_equal(err.buf, "modules.dep:2: expected 'path.ko: "
				     "dependencies'");
	d.dep = NULL;
	assert_int_equal(image_modules_select(&d, want, &s, NULL), -EINVAL);
}

static void test_modules_filter(void **state)
{
	_cleanup_(image_modsel_done) struct image_modsel s = IMAGE_MODSEL_INIT;
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	struct image_moddir d = { .dep = dep_text,
				  .softdep = softdep_text,
				  .alias = alias_text };
	static const char *const want[] = { "ext4", "virtio_net", NULL };
	static const char symbols[] =
		"# Aliases for symbols, used by symbol_request().\n"
		"alias symbol:jbd2_journal_start jbd2\n"
		"alias symbol:btrfs_x btrfs\n";
	static const char order[] = "kernel/fs/ext4/ext4.ko\n"
				    "kernel/fs/btrfs/btrfs.ko\n";
	static const char devname[] =
		"# Device nodes to trigger on-demand module loading.\n"
		"btrfs char:10:234\nfuse char:10:229\n";

	assert_int_equal(image_modules_select(&d, want, &s, NULL), 0);
	assert_int_equal(image_modules_filter(&s, "modules.dep", dep_text,
					      &out),
			 (int)s.n_paths);
	assert_non_null(strstr(out.buf, "kernel/fs/ext4/ext4.ko: "
					"kernel/lib/crc16.ko "));
	assert_null(strstr(out.buf, "btrfs"));
	assert_null(strstr(out.buf, "pvpanic"));
	strbuf_reset(&out);
	assert_int_equal(image_modules_filter(&s, "modules.alias", alias_text,
					      &out),
			 5);
	assert_string_equal(out.buf,
			    "alias crypto-crc32c-intel crc32c_intel\n"
			    "alias crypto-crc32c crc32c_intel\n"
			    "alias crypto-crc32c-generic crc32c_generic\n"
			    "alias crypto-crc32c crc32c_generic\n"
			    "alias virtio:d00000001v* virtio_net\n");
	strbuf_reset(&out);
	assert_int_equal(image_modules_filter(&s, "modules.softdep",
					      softdep_text, &out),
			 2);
	assert_string_equal(out.buf, "softdep ext4 pre: crypto-crc32c\n"
				     "softdep jbd2 pre: crypto-crc32c\n");
	strbuf_reset(&out);
	assert_int_equal(image_modules_filter(&s, "modules.symbols", symbols,
					      &out),
			 1);
	strbuf_reset(&out);
	assert_int_equal(image_modules_filter(&s, "modules.order", order,
					      &out),
			 1);
	assert_string_equal(out.buf, "kernel/fs/ext4/ext4.ko\n");
	strbuf_reset(&out);
	assert_int_equal(image_modules_filter(&s, "modules.devname", devname,
					      &out),
			 0);
	assert_int_equal(out.len, 0);
	assert_int_equal(image_modules_filter(&s, "modules.builtin", order,
					      &out),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marker_pattern),
		cmocka_unit_test(test_check_elf),
		cmocka_unit_test(test_check_elf_real),
		cmocka_unit_test(test_layout_paths),
		cmocka_unit_test(test_base_layout),
		cmocka_unit_test(test_applet_links),
		cmocka_unit_test(test_disk_size),
		cmocka_unit_test(test_hash_changes_with_content_only),
		cmocka_unit_test(test_hash_ignores_add_order),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_tar_roundtrip),
		cmocka_unit_test(test_cpio_roundtrip),
		cmocka_unit_test(test_module_name),
		cmocka_unit_test(test_modules_select),
		cmocka_unit_test(test_modules_select_minimal),
		cmocka_unit_test(test_modules_filter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
