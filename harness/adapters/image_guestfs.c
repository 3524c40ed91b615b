// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/image_guestfs.h"

#include <errno.h>
#include <guestfs.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/cleanup.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(guestfs_h *, guestfs_close)

static int gfs_fail(guestfs_h *g, const struct image_build *b,
		    const char *step, struct strbuf *err)
{
	const char *m = g ? guestfs_last_error(g) : NULL;

	strbuf_addf(err,
		    "libguestfs: %s: %s (backend direct%s; "
		    "LIBGUESTFS_DEBUG=1 LIBGUESTFS_TRACE=1 show more)",
		    step, m ? m : "failed",
		    b->accel == IMAGE_ACCEL_KVM ? ""
						: ", backend setting force_tcg");
	return -EIO;
}

/* Unpack a layout into the mounted filesystem: one tar_in, through a
 * memfd the appliance reads as /dev/fd/N. */
static int gfs_tar_in(guestfs_h *g, const struct image_build *b,
		      const struct image_layout *l, struct strbuf *err)
{
	_cleanup_close_ int fd = memfd_create("bootproof-image.tar",
					      MFD_CLOEXEC);
	_cleanup_fclose_ FILE *f = NULL;
	char name[64];
	int r, wfd;

	if (fd < 0)
		return -errno;
	wfd = dup(fd);
	if (wfd < 0)
		return -errno;
	f = fdopen(wfd, "w");
	if (!f) {
		r = -errno;
		close(wfd);
		return r;
	}
	r = image_layout_write_tar(l, f, err);
	if (r < 0)
		return r;
	if (fflush(f) != 0) {
		r = -errno;
		strbuf_addf(err, "tar: writing to memory: %s", strerror(-r));
		return r;
	}
	snprintf(name, sizeof(name), "/dev/fd/%d", fd);
	if (guestfs_tar_in_opts(g, name, "/", -1) < 0)
		return gfs_fail(g, b, "tar-in", err);
	return 0;
}

/* Run the image's busybox inside the appliance (the host may not run an
 * i386 binary) and add its applet links. */
static int gfs_applets(guestfs_h *g, const struct image_build *b,
		       struct strbuf *err)
{
	_cleanup_layout_ struct image_layout links = IMAGE_LAYOUT_INIT;
	_cleanup_free_ char *list = NULL;
	char *argv[] = { b->layout->applets_of, (char *)"--list-full", NULL };
	int r;

	list = guestfs_command(g, argv);
	if (!list)
		return gfs_fail(g, b, "running busybox --list-full", err);
	r = image_applet_links(list, strlen(list), b->layout, &links);
	if (r <= 0) {
		strbuf_addf(err, "%s --list-full in the image: %s",
			    b->layout->applets_of,
			    r < 0 ? "unexpected output" : "no applets");
		return r < 0 ? r : -EIO;
	}
	return gfs_tar_in(g, b, &links, err);
}

static int gfs_build(void *userdata, const struct image_build *b,
		     struct strbuf *err)
{
	_cleanup_(guestfs_closep) guestfs_h *g = guestfs_create();
	int r;

	if (!g) {
		strbuf_addstr(err, "libguestfs: cannot create a handle");
		return -EIO;
	}
	/* Errors come back to us (guestfs_last_error), not on stderr. */
	guestfs_set_error_handler(g, NULL, NULL);
	if (guestfs_set_backend(g, "direct") < 0)
		return gfs_fail(g, b, "set-backend direct", err);
	if (b->accel != IMAGE_ACCEL_KVM &&
	    guestfs_set_backend_setting(g, "force_tcg", "1") < 0)
		return gfs_fail(g, b, "set-backend-setting force_tcg", err);
	if (guestfs_disk_create(g, b->path, "raw", (int64_t)b->size, -1) < 0)
		return gfs_fail(g, b, "disk-create", err);
	/* Nothing but us reads the file before we fsync and rename it. */
	if (guestfs_add_drive_opts(g, b->path, GUESTFS_ADD_DRIVE_OPTS_FORMAT,
				   "raw", GUESTFS_ADD_DRIVE_OPTS_CACHEMODE,
				   "unsafe", -1) < 0)
		return gfs_fail(g, b, "add-drive", err);
	if (guestfs_launch(g) < 0)
		return gfs_fail(g, b, "launch", err);
	if (guestfs_mkfs_opts(g, "ext4", "/dev/sda",
			      GUESTFS_MKFS_OPTS_LABEL, IMAGE_LABEL, -1) < 0)
		return gfs_fail(g, b, "mkfs ext4", err);
	if (guestfs_mount(g, "/dev/sda", "/") < 0)
		return gfs_fail(g, b, "mount", err);
	r = gfs_tar_in(g, b, b->layout, err);
	if (r < 0)
		return r;
	if (b->layout->applets_of) {
		r = gfs_applets(g, b, err);
		if (r < 0)
			return r;
	}
	if (guestfs_umount_all(g) < 0)
		return gfs_fail(g, b, "umount-all", err);
	/* shutdown reports what close would swallow: qemu failing to
	 * write the disk. */
	if (guestfs_shutdown(g) < 0)
		return gfs_fail(g, b, "shutdown", err);
	return 0;
}

const struct image_ops image_guestfs_ops = {
	.build = gfs_build,
};
