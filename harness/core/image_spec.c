// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/image_spec.h"

#include <archive.h>
#include <archive_entry.h>
#include <elf.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/sha256.h"

void image_marker_fill(uint8_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = image_marker_byte(i);
}

/* ------------------------------------------------------------- ELF */

static unsigned le16(const uint8_t *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int image_check_elf(const void *buf, size_t len, enum bp_arch arch,
		    const char **ret_why)
{
	const struct bp_arch_info *want = bp_arch_info(arch);
	const uint8_t *b = buf;
	bool is64 = want && want->is_64bit;
	unsigned machine, type, phentsize, phnum;
	uint64_t phoff;

	*ret_why = NULL;
	if (!want) {
		*ret_why = "no such guest architecture";
		return -ENOEXEC;
	}
	if (len < EI_NIDENT || memcmp(b, ELFMAG, SELFMAG)) {
		*ret_why = "not an ELF file";
		return -ENOEXEC;
	}
	if (b[EI_DATA] != ELFDATA2LSB ||
	    (b[EI_CLASS] != ELFCLASS32 && b[EI_CLASS] != ELFCLASS64)) {
		*ret_why = "an ELF file for another machine";
		return -ENOEXEC;
	}
	if (len < (b[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr)
					      : sizeof(Elf32_Ehdr))) {
		*ret_why = "a truncated ELF file";
		return -ENOEXEC;
	}
	/* e_type and e_machine sit at the same offsets in both classes. */
	type = le16(b + 16);
	machine = le16(b + 18);
	if (b[EI_CLASS] == ELFCLASS64 && machine == EM_X86_64 && !is64) {
		*ret_why = "an x86_64 (64-bit) binary, not i386";
		return -ENOEXEC;
	}
	if (b[EI_CLASS] == ELFCLASS32 && machine == EM_386 && is64) {
		*ret_why = "an i386 (32-bit) binary, not x86_64";
		return -ENOEXEC;
	}
	if (b[EI_CLASS] != want->elf_class || machine != want->elf_machine) {
		*ret_why = "an ELF file for another machine";
		return -ENOEXEC;
	}
	if (type != ET_EXEC && type != ET_DYN) {
		*ret_why = "not an executable (ELF type is not EXEC or DYN)";
		return -ENOEXEC;
	}
	if (is64) {
		phoff = le64(b + offsetof(Elf64_Ehdr, e_phoff));
		phentsize = le16(b + offsetof(Elf64_Ehdr, e_phentsize));
		phnum = le16(b + offsetof(Elf64_Ehdr, e_phnum));
	} else {
		phoff = le32(b + offsetof(Elf32_Ehdr, e_phoff));
		phentsize = le16(b + offsetof(Elf32_Ehdr, e_phentsize));
		phnum = le16(b + offsetof(Elf32_Ehdr, e_phnum));
	}
	if (phentsize != (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) ||
	    phoff > len || (uint64_t)phnum * phentsize > len - phoff) {
		*ret_why = "a truncated ELF file (program headers)";
		return -ENOEXEC;
	}
	for (unsigned i = 0; i < phnum; i++)
		/* p_type is the first word in both classes. */
		if (le32(b + phoff + (uint64_t)i * phentsize) == PT_INTERP) {
			*ret_why = "dynamically linked (it names a program "
				   "interpreter; the image has no libc: link "
				   "it with -static)";
			return -ENOEXEC;
		}
	return 0;
}

/* ---------------------------------------------------------- layout */

void image_layout_done(struct image_layout *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->entries[i].path);
		free(l->entries[i].target);
		free(l->entries[i].data);
	}
	free(l->entries);
	free(l->applets_of);
	*l = (struct image_layout)IMAGE_LAYOUT_INIT;
}

static bool path_ok(const char *p)
{
	const char *c;

	if (!p || p[0] != '/' || !p[1] || p[strlen(p) - 1] == '/')
		return false;
	for (c = p; *c; c++) {
		if (*c != '/')
			continue;
		if (c[1] == '/')
			return false;
		if (c[1] == '.' && (c[2] == '/' || !c[2]))
			return false;
		if (c[1] == '.' && c[2] == '.' && (c[3] == '/' || !c[3]))
			return false;
	}
	return true;
}

static struct image_entry *find_n(const struct image_layout *l,
				  const char *path, size_t n)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strncmp(l->entries[i].path, path, n) &&
		    !l->entries[i].path[n])
			return &l->entries[i];
	return NULL;
}

const struct image_entry *image_layout_find(const struct image_layout *l,
					    const char *path)
{
	return find_n(l, path, strlen(path));
}

static struct image_entry *push(struct image_layout *l,
				enum image_entry_kind kind, const char *path,
				size_t n, unsigned mode)
{
	struct image_entry *e;

	if (l->n == l->alloc) {
		size_t alloc = l->alloc ? 2 * l->alloc : 64;
		void *p = realloc(l->entries, alloc * sizeof(*e));
		if (!p)
			return NULL;
		l->entries = p;
		l->alloc = alloc;
	}
	e = &l->entries[l->n];
	*e = (struct image_entry){ .kind = kind, .mode = mode };
	e->path = strndup(path, n);
	if (!e->path)
		return NULL;
	l->n++;
	return e;
}

/* mkdir -p for the parents of path; path is known to be normal. */
static int add_parents(struct image_layout *l, const char *path)
{
	for (const char *c = strchr(path + 1, '/'); c; c = strchr(c + 1, '/')) {
		size_t n = (size_t)(c - path);
		struct image_entry *e = find_n(l, path, n);

		if (e && e->kind != IMAGE_ENTRY_DIR)
			return -ENOTDIR;
		if (!e && !push(l, IMAGE_ENTRY_DIR, path, n, 0755))
			return -ENOMEM;
	}
	return 0;
}

/* Checks common to every add: a new, normal path under directories. */
static int prepare(struct image_layout *l, const char *path, unsigned mode)
{
	struct image_entry *e;

	if (!path_ok(path) || (mode & ~07777u))
		return -EINVAL;
	e = find_n(l, path, strlen(path));
	if (e)
		return -EEXIST;
	return add_parents(l, path);
}

int image_layout_add_dir(struct image_layout *l, const char *path,
			 unsigned mode)
{
	struct image_entry *e;
	int r;

	if (path_ok(path) && !(mode & ~07777u)) {
		e = find_n(l, path, strlen(path));
		if (e && e->kind == IMAGE_ENTRY_DIR) {
			e->mode = mode;
			return 0;
		}
	}
	r = prepare(l, path, mode);
	if (r < 0)
		return r;
	return push(l, IMAGE_ENTRY_DIR, path, strlen(path), mode) ? 0
								  : -ENOMEM;
}

int image_layout_add_file(struct image_layout *l, const char *path,
			  unsigned mode, const void *data, size_t len)
{
	_cleanup_free_ uint8_t *copy = NULL;
	struct image_entry *e;
	int r;

	r = prepare(l, path, mode);
	if (r < 0)
		return r;
	if (len) {
		copy = malloc(len);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, data, len);
	}
	e = push(l, IMAGE_ENTRY_FILE, path, strlen(path), mode);
	if (!e)
		return -ENOMEM;
	e->data = TAKE_PTR(copy);
	e->len = len;
	return 0;
}

int image_layout_add_symlink(struct image_layout *l, const char *path,
			     const char *target)
{
	_cleanup_free_ char *t = NULL;
	struct image_entry *e;
	int r;

	if (!target || !*target)
		return -EINVAL;
	r = prepare(l, path, 0777);
	if (r < 0)
		return r;
	t = strdup(target);
	if (!t)
		return -ENOMEM;
	e = push(l, IMAGE_ENTRY_SYMLINK, path, strlen(path), 0777);
	if (!e)
		return -ENOMEM;
	e->target = TAKE_PTR(t);
	return 0;
}

int image_layout_add_chardev(struct image_layout *l, const char *path,
			     unsigned mode, unsigned major, unsigned minor)
{
	struct image_entry *e;
	int r = prepare(l, path, mode);

	if (r < 0)
		return r;
	e = push(l, IMAGE_ENTRY_CHARDEV, path, strlen(path), mode);
	if (!e)
		return -ENOMEM;
	e->major = major;
	e->minor = minor;
	return 0;
}

static const struct {
	const char *path;
	unsigned mode;
} base_dirs[] = {
	{ "/bin", 0755 },	 { "/sbin", 0755 },
	{ "/etc", 0755 },	 { "/lib", 0755 },
	{ "/usr", 0755 },	 { "/root", 0700 },
	{ "/proc", 0555 },	 { "/sys", 0555 },
	/* Shadowed by sysfs once it is mounted; there for a guest that
	 * mounts these before (or without) sysfs. */
	{ "/sys/fs/cgroup", 0755 }, { "/sys/fs/bpf", 0755 },
	{ "/sys/kernel/debug", 0755 }, { "/sys/kernel/tracing", 0755 },
	{ "/dev", 0755 },	 { "/dev/pts", 0755 },
	{ "/dev/shm", 01777 },	 { "/tmp", 01777 },
	{ "/run", 0755 },	 { "/mnt", 0755 },
	{ "/var", 0755 },	 { "/var/tmp", 01777 },
	{ "/bootproof", 0755 },
};

static const struct {
	const char *path;
	const char *text;
} base_files[] = {
	{ "/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"
			 "nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n" },
	{ "/etc/group", "root:x:0:\nnogroup:x:65534:\n" },
	{ "/etc/hostname", "bootproof\n" },
	{ "/etc/hosts", "127.0.0.1\tlocalhost\n127.0.1.1\tbootproof\n"
			"::1\tlocalhost\n" },
};

int image_layout_add_base(struct image_layout *l)
{
	_cleanup_free_ uint8_t *marker = NULL;
	int r;

	if (l->n)
		return -EEXIST;
	for (size_t i = 0; i < ELEMENTSOF(base_dirs); i++) {
		r = image_layout_add_dir(l, base_dirs[i].path,
					 base_dirs[i].mode);
		if (r < 0)
			return r;
	}
	/* Merged /usr: scripts that say #!/usr/bin/env find busybox. */
	r = image_layout_add_symlink(l, "/usr/bin", "../bin");
	if (r >= 0)
		r = image_layout_add_symlink(l, "/usr/sbin", "../sbin");
	/* The kernel opens /dev/console for init before anything mounts
	 * devtmpfs when CONFIG_DEVTMPFS_MOUNT is off. */
	if (r >= 0)
		r = image_layout_add_chardev(l, "/dev/console", 0600, 5, 1);
	if (r >= 0)
		r = image_layout_add_chardev(l, "/dev/null", 0666, 1, 3);
	for (size_t i = 0; r >= 0 && i < ELEMENTSOF(base_files); i++)
		r = image_layout_add_file(l, base_files[i].path, 0644,
					  base_files[i].text,
					  strlen(base_files[i].text));
	if (r < 0)
		return r;
	marker = malloc(IMAGE_MARKER_SIZE);
	if (!marker)
		return -ENOMEM;
	image_marker_fill(marker, IMAGE_MARKER_SIZE);
	return image_layout_add_file(l, IMAGE_MARKER_PATH, 0644, marker,
				     IMAGE_MARKER_SIZE);
}

int image_layout_add_busybox(struct image_layout *l, const void *data,
			     size_t len)
{
	int r = image_layout_add_file(l, IMAGE_BUSYBOX_PATH, 0755, data, len);

	if (r < 0)
		return r;
	free(l->applets_of);
	l->applets_of = strdup(IMAGE_BUSYBOX_PATH);
	return l->applets_of ? 0 : -ENOMEM;
}

int image_applet_links(const char *list, size_t len,
		       const struct image_layout *have,
		       struct image_layout *ret)
{
	static const struct {
		const char *prefix, *dir, *target;
	} dirs[] = {
		{ "bin/", "/bin/", "busybox" },
		{ "usr/bin/", "/bin/", "busybox" },
		{ "sbin/", "/sbin/", "../bin/busybox" },
		{ "usr/sbin/", "/sbin/", "../bin/busybox" },
	};
	const char *p = list, *end = list + len;
	int count = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), i;
		_cleanup_free_ char *line = NULL, *path = NULL;
		const char *name = NULL;
		int r;

		while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' ||
			     p[n - 1] == '\t'))
			n--;
		line = strndup(p, n);
		p = nl ? nl + 1 : end;
		if (!line)
			return -ENOMEM;
		if (!*line)
			continue;
		for (i = 0; i < ELEMENTSOF(dirs); i++)
			if (!strncmp(line, dirs[i].prefix,
				     strlen(dirs[i].prefix))) {
				name = line + strlen(dirs[i].prefix);
				break;
			}
		if (!name)
			continue;	/* "linuxrc": not an applet link */
		if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
		    !strcmp(name, ".."))
			return -EINVAL;
		if (asprintf(&path, "%s%s", dirs[i].dir, name) < 0)
			return -ENOMEM;
		if ((have && image_layout_find(have, path)) ||
		    image_layout_find(ret, path))
			continue;
		r = image_layout_add_symlink(ret, path, dirs[i].target);
		if (r < 0)
			return r;
		count++;
	}
	return count;
}

uint64_t image_layout_content_bytes(const struct image_layout *l)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < l->n; i++)
		sum += l->entries[i].len;
	return sum;
}

uint64_t image_disk_size(uint64_t content_bytes)
{
	const uint64_t mib = 1024 * 1024;
	uint64_t size = content_bytes + content_bytes / 2 + 64 * mib;

	size = (size + 16 * mib - 1) / (16 * mib) * (16 * mib);
	return size < 128 * mib ? 128 * mib : size;
}

/* ------------------------------------------------------------ hash */

static void put_u64(struct sha256 *h, uint64_t v)
{
	uint8_t b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	sha256_add(h, b, sizeof(b));
}

static void put_str(struct sha256 *h, const char *s)
{
	sha256_add_str(h, s ? s : "");
}

static int cmp_entry_path(const void *a, const void *b)
{
	const struct image_entry *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

int image_layout_hash(const struct image_layout *l, enum bp_arch arch,
		      char *ret)
{
	_cleanup_(sha256_done) struct sha256 c = SHA256_INIT;
	_cleanup_free_ const struct image_entry **sorted = NULL;

	if (sha256_begin(&c) < 0)
		return -ENOMEM;
	sorted = calloc(l->n ? l->n : 1, sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++)
		sorted[i] = &l->entries[i];
	qsort(sorted, l->n, sizeof(*sorted), cmp_entry_path);

	put_str(&c, "bootproof-image");
	put_u64(&c, IMAGE_RECIPE_VERSION);
	put_str(&c, bp_arch_name(arch));
	put_u64(&c, image_disk_size(image_layout_content_bytes(l)));
	put_str(&c, IMAGE_LABEL);
	put_str(&c, l->applets_of);
	put_u64(&c, l->n);
	for (size_t i = 0; i < l->n; i++) {
		const struct image_entry *e = sorted[i];

		put_u64(&c, e->kind);
		put_str(&c, e->path);
		put_u64(&c, e->mode);
		put_str(&c, e->target);
		put_u64(&c, e->major);
		put_u64(&c, e->minor);
		put_u64(&c, e->len);
		if (e->len)
			sha256_add(&c, e->data, e->len);
	}
	return sha256_end_hex(&c, ret);
}

/* ------------------------------------------------------------- tar */

DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive *, archive_write_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive_entry *, archive_entry_free)

static int tar_fail(struct archive *a, const char *what, const char *path,
		    struct strbuf *err)
{
	if (err)
		strbuf_addf(err, "archive: %s%s%s: %s", what, path ? " " : "",
			    path ? path : "",
			    archive_error_string(a) ? archive_error_string(a)
						    : "unknown error");
	return -EIO;
}

/* The layout as an archive of the format libarchive's set_format makes. */
static int write_archive(const struct image_layout *l, FILE *f,
			 int (*set_format)(struct archive *), struct strbuf *err)
{
	_cleanup_(archive_write_freep) struct archive *a = archive_write_new();
	_cleanup_(archive_entry_freep) struct archive_entry *ae =
		archive_entry_new();
	static const unsigned types[] = {
		[IMAGE_ENTRY_DIR] = AE_IFDIR,
		[IMAGE_ENTRY_FILE] = AE_IFREG,
		[IMAGE_ENTRY_SYMLINK] = AE_IFLNK,
		[IMAGE_ENTRY_CHARDEV] = AE_IFCHR,
	};

	if (!a || !ae)
		return -ENOMEM;
	if (set_format(a) != ARCHIVE_OK ||
	    archive_write_open_FILE(a, f) != ARCHIVE_OK)
		return tar_fail(a, "open", NULL, err);
	for (size_t i = 0; i < l->n; i++) {
		const struct image_entry *e = &l->entries[i];
		size_t done = 0;

		archive_entry_clear(ae);
		archive_entry_set_pathname(ae, e->path + 1);
		archive_entry_set_filetype(ae, types[e->kind]);
		archive_entry_set_perm(ae, e->mode);
		archive_entry_set_uid(ae, 0);
		archive_entry_set_gid(ae, 0);
		archive_entry_set_uname(ae, "root");
		archive_entry_set_gname(ae, "root");
		archive_entry_set_mtime(ae, IMAGE_MTIME, 0);
		/* cpio wants a size on every entry */
		archive_entry_set_size(ae, e->kind == IMAGE_ENTRY_FILE
						   ? (la_int64_t)e->len
						   : 0);
		if (e->kind == IMAGE_ENTRY_SYMLINK)
			archive_entry_set_symlink(ae, e->target);
		if (e->kind == IMAGE_ENTRY_CHARDEV) {
			archive_entry_set_rdevmajor(ae, e->major);
			archive_entry_set_rdevminor(ae, e->minor);
		}
		if (archive_write_header(a, ae) != ARCHIVE_OK)
			return tar_fail(a, "header", e->path, err);
		while (done < e->len) {
			la_ssize_t w = archive_write_data(a, e->data + done,
							  e->len - done);
			if (w <= 0)
				return tar_fail(a, "data", e->path, err);
			done += (size_t)w;
		}
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		return tar_fail(a, "close", NULL, err);
	return 0;
}

int image_layout_write_tar(const struct image_layout *l, FILE *f,
			   struct strbuf *err)
{
	return write_archive(l, f, archive_write_set_format_pax_restricted, err);
}

int image_layout_write_cpio(const struct image_layout *l, FILE *f,
			    struct strbuf *err)
{
	return write_archive(l, f, archive_write_set_format_cpio_newc, err);
}

/* --------------------------------------------------------- modules */

const char *const image_default_modules[] = {
	"virtio_net", "virtio_rng", "virtio_console", "virtio_pci",
	"virtio_blk", "ext4",	    "pvpanic_pci",    "pvpanic_mmio",
	NULL,
};

const char *const image_root_modules[] = {
	"virtio_pci", "virtio_blk", "ext4", NULL,
};

#define MODNAME_MAX 64

int image_module_name(const char *path, char *ret, size_t n)
{
	static const char *const exts[] = { ".ko", ".ko.gz", ".ko.xz",
					    ".ko.zst" };
	const char *base = strrchr(path, '/');
	size_t len, i;

	base = base ? base + 1 : path;
	len = strlen(base);
	for (i = 0; i < ELEMENTSOF(exts); i++) {
		size_t el = strlen(exts[i]);
		if (len > el && !strcmp(base + len - el, exts[i])) {
			len -= el;
			break;
		}
	}
	if (i == ELEMENTSOF(exts) || len >= n)
		return -EINVAL;
	for (i = 0; i < len; i++)
		ret[i] = base[i] == '-' ? '_' : base[i];
	ret[len] = '\0';
	return 0;
}

static void normalize(const char *s, size_t len, char *ret, size_t n)
{
	size_t i;

	for (i = 0; i < len && i < n - 1; i++)
		ret[i] = s[i] == '-' ? '_' : s[i];
	ret[i] = '\0';
}

void image_modsel_done(struct image_modsel *s)
{
	char **lists[] = { s->paths, s->builtin, s->missing };
	size_t ns[] = { s->n_paths, s->n_builtin, s->n_missing };

	for (size_t k = 0; k < ELEMENTSOF(lists); k++) {
		for (size_t i = 0; i < ns[k]; i++)
			free(lists[k][i]);
		free(lists[k]);
	}
	*s = (struct image_modsel)IMAGE_MODSEL_INIT;
}

static int list_add(char ***list, size_t *n, const char *s, size_t len)
{
	char **p = realloc(*list, (*n + 1) * sizeof(**list));

	if (!p)
		return -ENOMEM;
	*list = p;
	p[*n] = strndup(s, len);
	if (!p[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static bool list_has(char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

struct dep {
	char name[MODNAME_MAX];
	const char *line;	/* "path: dep dep" */
	size_t path_len, line_len;
	bool selected;
};

struct selector {
	struct dep *deps;
	size_t n_deps, alloc_deps;
	char **queue, **seen;
	size_t n_queue, n_seen;
	const struct image_moddir *d;
};

static void selector_done(struct selector *s)
{
	for (size_t i = 0; i < s->n_queue; i++)
		free(s->queue[i]);
	for (size_t i = 0; i < s->n_seen; i++)
		free(s->seen[i]);
	free(s->queue);
	free(s->seen);
	free(s->deps);
}

/* Next line of text at *p (without '\n'); false at the end. */
static bool next_line(const char **p, const char **ret, size_t *ret_len)
{
	const char *s = *p, *nl;

	if (!s || !*s)
		return false;
	nl = strchr(s, '\n');
	*ret = s;
	*ret_len = nl ? (size_t)(nl - s) : strlen(s);
	*p = nl ? nl + 1 : s + *ret_len;
	return true;
}

/* Whitespace-separated field k (0-based) of a line. */
static bool field(const char *line, size_t len, unsigned k, const char **ret,
		  size_t *ret_len)
{
	size_t i = 0;

	for (unsigned f = 0;; f++) {
		size_t start;
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			return false;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		if (f == k) {
			*ret = line + start;
			*ret_len = i - start;
			return true;
		}
	}
}

static struct dep *find_dep(struct selector *s, const char *name)
{
	for (size_t i = 0; i < s->n_deps; i++)
		if (!strcmp(s->deps[i].name, name))
			return &s->deps[i];
	return NULL;
}

static int parse_dep(struct selector *s, struct strbuf *err)
{
	const char *p = s->d->dep, *line;
	size_t len, lineno = 0;

	while (next_line(&p, &line, &len)) {
		const char *colon = memchr(line, ':', len);
		struct dep *d;
		char path[4096];

		lineno++;
		if (!len || line[0] == '#')
			continue;
		if (!colon || (size_t)(colon - line) >= sizeof(path)) {
			if (err)
				strbuf_addf(err,
					    "modules.dep:%zu: expected "
					    "'path.ko: dependencies'",
					    lineno);
			return -EBADMSG;
		}
		memcpy(path, line, (size_t)(colon - line));
		path[colon - line] = '\0';
		if (s->n_deps == s->alloc_deps) {
			size_t alloc = s->alloc_deps ? 2 * s->alloc_deps : 256;
			d = realloc(s->deps, alloc * sizeof(*d));
			if (!d)
				return -ENOMEM;
			s->deps = d;
			s->alloc_deps = alloc;
		}
		d = &s->deps[s->n_deps];
		if (image_module_name(path, d->name, sizeof(d->name)) < 0) {
			if (err)
				strbuf_addf(err,
					    "modules.dep:%zu: '%s' is not a "
					    "kernel module path",
					    lineno, path);
			return -EBADMSG;
		}
		d->line = line;
		d->path_len = (size_t)(colon - line);
		d->line_len = len;
		d->selected = false;
		s->n_deps++;
	}
	return 0;
}

static int enqueue(struct selector *s, const char *name)
{
	if (list_has(s->seen, s->n_seen, name) ||
	    list_has(s->queue, s->n_queue, name))
		return 0;
	return list_add(&s->queue, &s->n_queue, name, strlen(name));
}

/* A softdep names a module or an alias of one (crypto-crc32c). */
static int enqueue_soft(struct selector *s, const char *tok, size_t len)
{
	char name[MODNAME_MAX], pat[512], alias[512];
	const char *p = s->d->alias, *line, *f;
	size_t ll, fl;
	int r;

	normalize(tok, len, name, sizeof(name));
	if (find_dep(s, name))
		return enqueue(s, name);
	if (len >= sizeof(alias))
		return 0;
	memcpy(alias, tok, len);
	alias[len] = '\0';
	while (next_line(&p, &line, &ll)) {
		if (!field(line, ll, 0, &f, &fl) || fl != 5 ||
		    memcmp(f, "alias", 5) || !field(line, ll, 1, &f, &fl) ||
		    fl >= sizeof(pat))
			continue;
		memcpy(pat, f, fl);
		pat[fl] = '\0';
		if (fnmatch(pat, alias, 0) || !field(line, ll, 2, &f, &fl))
			continue;
		normalize(f, fl, name, sizeof(name));
		r = enqueue(s, name);
		if (r < 0)
			return r;
	}
	return 0;
}

static int enqueue_needs(struct selector *s, const struct dep *d)
{
	const char *p = s->d->softdep, *line, *f;
	size_t ll, fl;
	char name[MODNAME_MAX];
	int r;

	/* modules.dep lists the whole closure; recursing costs nothing. */
	for (unsigned k = 0; field(d->line + d->path_len + 1,
				   d->line_len - d->path_len - 1, k, &f, &fl);
	     k++) {
		char path[4096];
		if (fl >= sizeof(path))
			continue;
		memcpy(path, f, fl);
		path[fl] = '\0';
		if (image_module_name(path, name, sizeof(name)) < 0)
			continue;
		r = enqueue(s, name);
		if (r < 0)
			return r;
	}
	while (next_line(&p, &line, &ll)) {
		if (!field(line, ll, 0, &f, &fl) || fl != 7 ||
		    memcmp(f, "softdep", 7) || !field(line, ll, 1, &f, &fl))
			continue;
		normalize(f, fl, name, sizeof(name));
		if (strcmp(name, d->name))
			continue;
		for (unsigned k = 2; field(line, ll, k, &f, &fl); k++) {
			if ((fl == 4 && !memcmp(f, "pre:", 4)) ||
			    (fl == 5 && !memcmp(f, "post:", 5)))
				continue;
			r = enqueue_soft(s, f, fl);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static bool is_builtin(const char *builtin, const char *name)
{
	const char *p = builtin, *line;
	size_t len;

	while (next_line(&p, &line, &len)) {
		char path[4096], n[MODNAME_MAX];
		if (len >= sizeof(path))
			continue;
		memcpy(path, line, len);
		path[len] = '\0';
		if (!image_module_name(path, n, sizeof(n)) && !strcmp(n, name))
			return true;
	}
	return false;
}

int image_modules_select(const struct image_moddir *d,
			 const char *const *wanted, struct image_modsel *ret,
			 struct strbuf *err)
{
	_cleanup_(selector_done) struct selector s = { .d = d };
	struct image_modsel sel = IMAGE_MODSEL_INIT;
	char name[MODNAME_MAX];
	int r;

	if (!d->dep)
		return -EINVAL;
	r = parse_dep(&s, err);
	if (r < 0)
		return r;
	for (size_t i = 0; wanted && wanted[i]; i++) {
		normalize(wanted[i], strlen(wanted[i]), name, sizeof(name));
		r = enqueue(&s, name);
		if (r < 0)
			return r;
	}
	while (s.n_queue) {
		char *n = s.queue[--s.n_queue];
		struct dep *dp;

		r = list_add(&s.seen, &s.n_seen, n, strlen(n));
		free(n);
		if (r < 0)
			return r;
		dp = find_dep(&s, s.seen[s.n_seen - 1]);
		if (!dp || dp->selected)
			continue;
		dp->selected = true;
		r = enqueue_needs(&s, dp);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < s.n_deps && r >= 0; i++)
		if (s.deps[i].selected)
			r = list_add(&sel.paths, &sel.n_paths, s.deps[i].line,
				     s.deps[i].path_len);
	for (size_t i = 0; wanted && wanted[i] && r >= 0; i++) {
		normalize(wanted[i], strlen(wanted[i]), name, sizeof(name));
		if (find_dep(&s, name))
			continue;
		if (d->builtin && is_builtin(d->builtin, name))
			r = list_add(&sel.builtin, &sel.n_builtin, name,
				     strlen(name));
		else
			r = list_add(&sel.missing, &sel.n_missing, name,
				     strlen(name));
	}
	if (r < 0) {
		image_modsel_done(&sel);
		return r;
	}
	*ret = sel;
	return 0;
}

int image_modules_filter(const struct image_modsel *s, const char *file,
			 const char *text, struct strbuf *out)
{
	static const struct {
		const char *file;
		int field;	/* which field names the module; -1: a path */
	} kinds[] = {
		{ "modules.dep", -1 },	   { "modules.order", -1 },
		{ "modules.alias", 2 },	   { "modules.symbols", 2 },
		{ "modules.softdep", 1 },  { "modules.devname", 0 },
	};
	_cleanup_free_ char(*names)[MODNAME_MAX] = NULL;
	const char *p = text, *line, *f;
	size_t len, fl, k;
	int kept = 0;

	for (k = 0; k < ELEMENTSOF(kinds); k++)
		if (!strcmp(file, kinds[k].file))
			break;
	if (k == ELEMENTSOF(kinds))
		return -EINVAL;
	names = calloc(s->n_paths ? s->n_paths : 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_paths; i++)
		if (image_module_name(s->paths[i], names[i], sizeof(*names)))
			names[i][0] = '\0';
	while (next_line(&p, &line, &len)) {
		char name[MODNAME_MAX], buf[4096];
		bool keep = false;

		if (!len || line[0] == '#')
			continue;
		if (kinds[k].field < 0) {
			const char *colon = memchr(line, ':', len);
			size_t pl = colon ? (size_t)(colon - line) : len;
			if (pl >= sizeof(buf))
				continue;
			memcpy(buf, line, pl);
			buf[pl] = '\0';
			for (size_t i = 0; i < s->n_paths && !keep; i++)
				keep = !strcmp(s->paths[i], buf);
		} else if (field(line, len, (unsigned)kinds[k].field, &f,
				 &fl)) {
			normalize(f, fl, name, sizeof(name));
			for (size_t i = 0; i < s->n_paths && !keep; i++)
				keep = !strcmp(names[i], name);
		}
		if (keep) {
			strbuf_add(out, line, len);
			strbuf_addch(out, '\n');
			kept++;
		}
	}
	return kept;
}
