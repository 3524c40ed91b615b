// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * userfaultfd: the syscall and /dev/userfaultfd, the UFFDIO_API handshake,
 * missing faults on an anonymous range resolved by a handler thread with
 * UFFDIO_COPY (every page's content checked), and write-protect faults
 * resolved by lifting the protection, where the kernel offers them.
 *
 * The handler thread is never waited for with pthread_join(): glibc (2.36)
 * on i386 waits on a futex with the 32-bit-time futex syscall (nr 240)
 * whenever the timeout fits in 32 bits, and aborts ("The futex facility
 * returned an unexpected error code.") when it fails with ENOSYS, which it
 * does on a kernel without CONFIG_COMPAT_32BIT_TIME (tinyconfig), where only
 * futex_time64 exists.  The handler is stopped through a pipe and reaped
 * with pthread_tryjoin_np(), which never sleeps on a futex; the handler
 * itself takes no glibc lock (no malloc, no stdio), so no glibc futex wait
 * can happen in this scenario.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent.h"

#define NPAGES 16
/* How long the main thread waits for the handler thread to exit. */
#define REAP_TIMEOUT_MS 15000

static long page_size;

static int uffd_open(int flags)
{
	return (int)syscall(__NR_userfaultfd, flags);
}

/* UFFDIO_API handshake; the features the kernel offers in *ret. */
static int uffd_api(int fd, uint64_t *ret)
{
	struct uffdio_api api = { .api = UFFD_API, .features = 0 };

	if (ioctl(fd, UFFDIO_API, &api) < 0)
		return -errno;
	*ret = api.features;
	return 0;
}

static uint8_t pattern(size_t page, size_t i)
{
	return (uint8_t)(page * 31 + i * 7 + 1);
}

struct handler {
	int uffd;
	char *base;
	char *src;		/* one page, UFFDIO_COPY's source */
	int stop[2];		/* pipe: a byte makes the handler return */
	bool wp;		/* resolve write-protect faults */
	unsigned faults, wp_faults;
	int err;		/* first error, -errno */
	char errmsg[128];
};

/* Runs in the handler thread: no malloc, no stdio (see the top). */
static void *handler_main(void *arg)
{
	struct handler *h = arg;
	char *src = h->src;
	unsigned expected = NPAGES;

	while (h->faults + h->wp_faults < expected) {
		struct pollfd p[2] = {
			{ .fd = h->uffd, .events = POLLIN },
			{ .fd = h->stop[0], .events = POLLIN },
		};
		struct uffd_msg msg;
		uint64_t addr;
		size_t page;
		ssize_t r;

		r = poll(p, 2, 10000);
		if (r <= 0) {
			h->err = r == 0 ? -ETIMEDOUT : -errno;
			snprintf(h->errmsg, sizeof(h->errmsg), "poll");
			return NULL;
		}
		if (p[1].revents)
			return NULL;
		r = read(h->uffd, &msg, sizeof(msg));
		if (r < 0 && errno == EAGAIN)
			continue;
		if (r != sizeof(msg)) {
			h->err = r < 0 ? -errno : -EIO;
			snprintf(h->errmsg, sizeof(h->errmsg), "read uffd_msg");
			return NULL;
		}
		if (msg.event != UFFD_EVENT_PAGEFAULT) {
			h->err = -EPROTO;
			snprintf(h->errmsg, sizeof(h->errmsg),
				 "unexpected event 0x%x", msg.event);
			return NULL;
		}
		addr = msg.arg.pagefault.address & ~((uint64_t)page_size - 1);
		page = (size_t)(addr - (uint64_t)(uintptr_t)h->base) /
		       (size_t)page_size;
		if (msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP) {
			struct uffdio_writeprotect wp = {
				.range = { addr, (uint64_t)page_size },
				.mode = 0,
			};

			h->wp_faults++;
			if (ioctl(h->uffd, UFFDIO_WRITEPROTECT, &wp) < 0) {
				h->err = -errno;
				snprintf(h->errmsg, sizeof(h->errmsg),
					 "UFFDIO_WRITEPROTECT clear");
				return NULL;
			}
		} else {
			struct uffdio_copy c = {
				.dst = addr,
				.src = (uint64_t)(uintptr_t)src,
				.len = (uint64_t)page_size,
			};

			for (size_t i = 0; i < (size_t)page_size; i++)
				src[i] = (char)pattern(page, i);
			h->faults++;
			if (ioctl(h->uffd, UFFDIO_COPY, &c) < 0 &&
			    errno != EEXIST) {
				h->err = -errno;
				snprintf(h->errmsg, sizeof(h->errmsg),
					 "UFFDIO_COPY");
				return NULL;
			}
		}
	}
	return NULL;
}

/*
 * A handler for uffd over base, its thread started.  Returns NULL with
 * *err set (and the failed step in *what) when it cannot be started.
 */
static struct handler *handler_start(int uffd, char *base, bool wp,
				     pthread_t *th, const char **what, int *err)
{
	struct handler *h = calloc(1, sizeof(*h));

	*what = "calloc";
	*err = -ENOMEM;
	if (!h)
		return NULL;
	h->uffd = uffd;
	h->base = base;
	h->wp = wp;
	h->src = malloc((size_t)page_size);
	if (!h->src)
		goto out_free;
	*what = "pipe";
	if (pipe2(h->stop, O_CLOEXEC) < 0) {
		*err = -errno;
		goto out_free;
	}
	*what = "pthread_create";
	*err = -pthread_create(th, NULL, handler_main, h);
	if (*err == 0)
		return h;
	close(h->stop[0]);
	close(h->stop[1]);
out_free:
	free(h->src);
	free(h);
	return NULL;
}

/*
 * Wait for the handler thread to return (telling it to stop first when
 * stop is set) and reap it with pthread_tryjoin_np(), never pthread_join()
 * (see the top).  0 when reaped; -ETIMEDOUT when the thread is still
 * running after REAP_TIMEOUT_MS, in which case h stays allocated (the thread
 * may still use it) and must be leaked.
 */
static int handler_reap(struct handler *h, pthread_t th, bool stop)
{
	double deadline = now_s() + REAP_TIMEOUT_MS / 1000.0;
	int r;

	if (stop && write(h->stop[1], "x", 1) != 1)
		return -errno;
	while ((r = pthread_tryjoin_np(th, NULL)) == EBUSY) {
		if (now_s() > deadline)
			return -ETIMEDOUT;
		sleep_ms(1);
	}
	return -r;
}

static void handler_free(struct handler *h)
{
	close(h->stop[0]);
	close(h->stop[1]);
	free(h->src);
	free(h);
}

/*
 * Whether the futex syscall with a 32-bit timespec answers (FUTEX_WAKE on a
 * private word: no side effect).  Only i386 has the two; x86_64's futex is
 * the 64-bit one.
 */
static bool futex_time32_missing(void)
{
#ifdef __NR_futex_time64
	uint32_t word = 0;

	return syscall(__NR_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL,
		       0) < 0 && errno == ENOSYS;
#else
	return false;
#endif
}

static uint64_t features;
static bool api_ok;

/* fd from uffd_open() (the call's errno when < 0): the UFFDIO_API
 * handshake, *ret the offered features; CHECK_FAIL said why. */
static enum check_result uffd_ready(struct tctx *t, int fd, uint64_t *ret)
{
	int r;

	if (fd < 0)
		return fail(t, "userfaultfd(): %s", errname(errno));
	r = uffd_api(fd, ret);
	if (r < 0)
		return fail(t, "UFFDIO_API: %s", errname(r));
	return CHECK_PASS;
}

static enum check_result check_syscall(struct tctx *t)
{
	_cleanup_close_ int fd = uffd_open(O_CLOEXEC | O_NONBLOCK);
	long unpriv;

	if (fd < 0)
		return fail(t, "userfaultfd(): %s", errname(errno));
	if (read_long("/proc/sys/vm/unprivileged_userfaultfd", &unpriv) == 0)
		diag(t, "vm.unprivileged_userfaultfd=%ld", unpriv);
	return CHECK_PASS;
}

static enum check_result check_dev_userfaultfd(struct tctx *t)
{
	_cleanup_close_ int dev = -1, fd = -1;
	uint64_t f;
	int r;

	dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	if (dev < 0 && errno == ENOENT)
		return skip(t, "no /dev/userfaultfd (kernel before 6.1)");
	if (dev < 0)
		return fail(t, "open /dev/userfaultfd: %s", errname(errno));
	fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fail(t, "USERFAULTFD_IOC_NEW: %s", errname(errno));
	r = uffd_api(fd, &f);
	if (r < 0)
		return fail(t, "UFFDIO_API on a /dev/userfaultfd fd: %s",
			    errname(r));
	return CHECK_PASS;
}

static enum check_result check_api(struct tctx *t)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} names[] = {
		{ UFFD_FEATURE_PAGEFAULT_FLAG_WP, "pagefault_flag_wp" },
		{ UFFD_FEATURE_EVENT_FORK, "event_fork" },
		{ UFFD_FEATURE_EVENT_REMAP, "event_remap" },
		{ UFFD_FEATURE_MISSING_HUGETLBFS, "missing_hugetlbfs" },
		{ UFFD_FEATURE_MISSING_SHMEM, "missing_shmem" },
		{ UFFD_FEATURE_THREAD_ID, "thread_id" },
		{ UFFD_FEATURE_MINOR_SHMEM, "minor_shmem" },
		{ UFFD_FEATURE_EXACT_ADDRESS, "exact_address" },
		{ UFFD_FEATURE_WP_HUGETLBFS_SHMEM, "wp_hugetlbfs_shmem" },
	};
	_cleanup_close_ int fd = uffd_open(O_CLOEXEC | O_NONBLOCK);
	char list[512] = "";

	if (uffd_ready(t, fd, &features) != CHECK_PASS)
		return CHECK_FAIL;
	api_ok = true;
	for (size_t i = 0; i < ELEMENTSOF(names); i++) {
		size_t used = strlen(list);

		if (features & names[i].bit)
			snprintf(list + used, sizeof(list) - used, "%s%s",
				 used ? " " : "", names[i].name);
	}
	diag(t, "features 0x%llx: %s", (unsigned long long)features, list);
	return CHECK_PASS;
}

static int region_register(int uffd, char *base, size_t len, uint64_t mode,
			   uint64_t *ioctls)
{
	struct uffdio_register reg = {
		.range = { (uint64_t)(uintptr_t)base, len },
		.mode = mode,
	};

	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0)
		return -errno;
	*ioctls = reg.ioctls;
	return 0;
}

static enum check_result check_missing_copy(struct tctx *t)
{
	_cleanup_close_ int fd = uffd_open(O_CLOEXEC | O_NONBLOCK);
	size_t len = NPAGES * (size_t)page_size;
	enum check_result res = CHECK_PASS;
	uint64_t f, ioctls = 0;
	struct handler *h;
	const char *what;
	bool bad = false;
	pthread_t th;
	char *base;
	int r;

	if (uffd_ready(t, fd, &f) != CHECK_PASS)
		return CHECK_FAIL;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return fail(t, "mmap: %s", errname(errno));
	r = region_register(fd, base, len, UFFDIO_REGISTER_MODE_MISSING,
			    &ioctls);
	if (r < 0) {
		munmap(base, len);
		return fail(t, "UFFDIO_REGISTER missing: %s", errname(r));
	}
	if (!(ioctls & (1ULL << _UFFDIO_COPY))) {
		munmap(base, len);
		return fail(t, "UFFDIO_COPY not offered for the range");
	}
	if (futex_time32_missing())
		diag(t, "futex() with 32-bit time_t: ENOSYS "
			"(CONFIG_COMPAT_32BIT_TIME off); the handler is reaped "
			"with pthread_tryjoin_np(), not pthread_join()");
	h = handler_start(fd, base, false, &th, &what, &r);
	if (!h) {
		munmap(base, len);
		return fail(t, "%s: %s", what, errname(r));
	}
	/* Each first touch faults; the handler fills the page. */
	for (size_t p = 0; p < NPAGES && !bad; p++) {
		const uint8_t *pg = (const uint8_t *)base + p * (size_t)page_size;

		for (size_t i = 0; i < (size_t)page_size && !bad; i++) {
			if (pg[i] != pattern(p, i)) {
				diag(t, "page %zu byte %zu = 0x%02x, "
					"expected 0x%02x", p, i, pg[i],
				     pattern(p, i));
				bad = true;
			}
		}
	}
	r = handler_reap(h, th, bad);
	if (r < 0) {
		fd = -1;	/* the thread may still use it, h and base */
		return fail(t, "handler thread not reaped within %d ms%s: "
			       "%s", REAP_TIMEOUT_MS,
			    bad ? " after a wrong page" : "", errname(r));
	}
	munmap(base, len);
	if (bad)
		res = fail(t, "content of a UFFDIO_COPY page is wrong");
	else if (h->err)
		res = fail(t, "handler: %s: %s", h->errmsg, errname(h->err));
	else if (h->faults != NPAGES)
		res = fail(t, "%u missing faults for %d pages", h->faults,
			   NPAGES);
	else
		diag(t, "%u missing faults resolved with UFFDIO_COPY, "
			"content verified", h->faults);
	handler_free(h);
	return res;
}

static enum check_result check_write_protect(struct tctx *t)
{
	_cleanup_close_ int fd = uffd_open(O_CLOEXEC | O_NONBLOCK);
	size_t len = NPAGES * (size_t)page_size;
	struct uffdio_api api = { .api = UFFD_API };
	enum check_result res = CHECK_PASS;
	struct uffdio_writeprotect wp;
	uint64_t ioctls = 0;
	struct handler *h;
	const char *what;
	size_t bad = NPAGES;	/* the page that reads wrong, if any */
	unsigned char bad_val = 0;
	pthread_t th;
	char *base;
	int r;

	if (!api_ok)
		return fail(t, "UFFDIO_API failed earlier");
	if (!(features & UFFD_FEATURE_PAGEFAULT_FLAG_WP))
		return skip(t, "UFFD_FEATURE_PAGEFAULT_FLAG_WP not offered "
			       "(no write-protect support on this "
			       "architecture or kernel)");
	if (fd < 0)
		return fail(t, "userfaultfd(): %s", errname(errno));
	api.features = UFFD_FEATURE_PAGEFAULT_FLAG_WP;
	if (ioctl(fd, UFFDIO_API, &api) < 0)
		return fail(t, "UFFDIO_API with PAGEFAULT_FLAG_WP: %s",
			    errname(errno));
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (base == MAP_FAILED)
		return fail(t, "mmap: %s", errname(errno));
	memset(base, 0x5a, len);
	r = region_register(fd, base, len, UFFDIO_REGISTER_MODE_WP, &ioctls);
	if (r < 0) {
		munmap(base, len);
		return fail(t, "UFFDIO_REGISTER write-protect: %s",
			    errname(r));
	}
	wp.range.start = (uint64_t)(uintptr_t)base;
	wp.range.len = len;
	wp.mode = UFFDIO_WRITEPROTECT_MODE_WP;
	if (ioctl(fd, UFFDIO_WRITEPROTECT, &wp) < 0) {
		r = -errno;
		munmap(base, len);
		return fail(t, "UFFDIO_WRITEPROTECT: %s", errname(r));
	}
	h = handler_start(fd, base, true, &th, &what, &r);
	if (!h) {
		munmap(base, len);
		return fail(t, "%s: %s", what, errname(r));
	}
	/* Reading is allowed without a fault; each write faults once. */
	for (size_t p = 0; p < NPAGES; p++) {
		volatile char *c = base + p * (size_t)page_size;

		if (*c != 0x5a) {
			bad = p;
			bad_val = (unsigned char)*c;
			break;
		}
		*c = (char)p;
	}
	r = handler_reap(h, th, bad < NPAGES);
	if (r < 0) {
		fd = -1;	/* the thread may still use it, h and base */
		return fail(t, "handler thread not reaped within %d ms: %s",
			    REAP_TIMEOUT_MS, errname(r));
	}
	if (bad < NPAGES)
		res = fail(t, "write-protected page %zu reads 0x%02x", bad,
			   bad_val);
	else if (h->err)
		res = fail(t, "handler: %s: %s", h->errmsg, errname(h->err));
	for (size_t p = 0; p < NPAGES && res == CHECK_PASS; p++)
		if (base[p * (size_t)page_size] != (char)p)
			res = fail(t, "page %zu lost its write", p);
	if (res == CHECK_PASS && (h->wp_faults != NPAGES || h->faults))
		res = fail(t, "%u write-protect and %u missing faults for %d "
			      "written pages, expected %d and 0",
			   h->wp_faults, h->faults, NPAGES, NPAGES);
	if (res == CHECK_PASS)
		diag(t, "%u write-protect faults resolved", h->wp_faults);
	munmap(base, len);
	handler_free(h);
	return res;
}

static const struct check userfaultfd_checks[] = {
	CHECK(syscall), CHECK(dev_userfaultfd), CHECK(api),
	CHECK(missing_copy), CHECK(write_protect),
};

static bool uffd_missing(char *reason, size_t n)
{
	page_size = sysconf(_SC_PAGESIZE);
	return probe_missing(uffd_open(O_CLOEXEC | O_NONBLOCK), "USERFAULTFD",
			     "userfaultfd_unmap_prep", "userfaultfd()", reason,
			     n);
}

SCENARIO_DEFINE(userfaultfd,
	.summary = "userfaultfd: missing faults with UFFDIO_COPY, "
		   "write-protect",
	.missing = uffd_missing);
