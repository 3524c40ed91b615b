// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boot: what the kernel booted with and whether the virtio devices the
 * harness attached work: the root disk is virtio-blk and a known pattern
 * reads back from it with O_DIRECT; the virtio-net interface comes up with
 * carrier and transmits; virtio-rng gives bytes through /dev/hwrng; the
 * virtio console takes a line; the harness's virtio-serial channel is a
 * named port; the pvpanic device (PCI or ISA) is bound.
 * A device that was not attached is a SKIP; one attached but not working
 * is a failure.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent.h"

#define MARKER BP_MARKER_PATH
#define MARKER_SIZE BP_MARKER_SIZE

enum { VIRTIO_NET = 1, VIRTIO_BLK = 2, VIRTIO_CONSOLE = 3, VIRTIO_RNG = 4 };

/* ---------------------------------------------------------- devices */

static long sysfs_hex(const char *dir, const char *file)
{
	char path[512];
	long v;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return read_long(path, &v) == 0 ? v : -1;
}

/* Virtio device type of a PCI device (legacy/transitional or modern). */
static int pci_virtio_type(const char *dir)
{
	long dev;

	if (sysfs_hex(dir, "vendor") != 0x1af4)
		return -1;
	dev = sysfs_hex(dir, "device");
	if (dev >= 0x1000 && dev <= 0x103f)
		return (int)sysfs_hex(dir, "subsystem_device");
	if (dev >= 0x1040 && dev <= 0x107f)
		return (int)(dev - 0x1040);
	return -1;
}

/*
 * The first PCI device matching (virtio type, or vendor:device when
 * type < 0).  Returns true and its sysfs directory.
 */
static bool pci_find(int type, long vendor, long device, char *ret, size_t n)
{
	_cleanup_closedir_ DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;

	if (!d)
		return false;
	while ((e = readdir(d))) {
		char dir[300];

		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s",
			 e->d_name);
		if (type >= 0 ? pci_virtio_type(dir) == type :
				(sysfs_hex(dir, "vendor") == vendor &&
				 sysfs_hex(dir, "device") == device)) {
			snprintf(ret, n, "%s", dir);
			return true;
		}
	}
	return false;
}

/* Name of the driver bound to the virtio device under a PCI device. */
static bool virtio_driver(const char *pcidir, char *drv, size_t n)
{
	_cleanup_closedir_ DIR *d = opendir(pcidir);
	struct dirent *e;

	drv[0] = '\0';
	if (!d)
		return false;
	while ((e = readdir(d))) {
		char link[600];

		if (strncmp(e->d_name, "virtio", 6) != 0)
			continue;
		snprintf(link, sizeof(link), "%s/%s/driver", pcidir,
			 e->d_name);
		return link_basename(link, drv, n) == 0;
	}
	return false;
}

/* Wait up to ms for a virtio driver named want to bind. */
static bool wait_virtio_driver(const char *pcidir, const char *want,
			       unsigned ms, char *drv, size_t n)
{
	double end = now_s() + ms / 1000.0;

	do {
		if (virtio_driver(pcidir, drv, n) && !strcmp(drv, want))
			return true;
		sleep_ms(100);
	} while (now_s() < end);
	return false;
}

/*
 * An attached device without its driver: SKIP when the kernel lacks the
 * driver (config, or a module the image does not carry), else FAIL.
 */
static enum check_result driver_absent(struct tctx *t, const char *pcidir,
				       const char *cfg, const char *mod)
{
	char val[32], pcidrv[64] = "none", vdrv[64];
	enum kcfg st = kcfg_state(cfg, val, sizeof(val));
	const char *ms = module_status(mod);

	if (st == KCFG_UNSET)
		return skip(t, "CONFIG_%s not set", cfg);
	if (!strncmp(ms, "not loaded", 10) &&
	    (st == KCFG_UNKNOWN || !strcmp(val, "m")))
		return skip(t, "driver %s not available: module %s", mod, ms);
	{
		char link[400];

		snprintf(link, sizeof(link), "%s/driver", pcidir);
		link_basename(link, pcidrv, sizeof(pcidrv));
	}
	virtio_driver(pcidir, vdrv, sizeof(vdrv));
	return fail(t, "%s: PCI driver %s, virtio driver %s, expected %s "
		       "(CONFIG_%s%s%s, module %s)", pcidir, pcidrv,
		    vdrv[0] ? vdrv : "none", mod, cfg,
		    st == KCFG_SET ? "=" : " ", st == KCFG_SET ? val :
		    "unknown", ms);
}

/* ---------------------------------------------------------- checks */

static enum check_result check_kernel(struct tctx *t)
{
	char cmdline[4096], osrel[128], version[512];
	struct utsname u;

	if (uname(&u) < 0)
		return fail(t, "uname: %s", errname(errno));
	if (read_line("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return fail(t, "/proc/cmdline: %s", errname(errno));
	if (read_line("/proc/sys/kernel/osrelease", osrel, sizeof(osrel)) < 0 ||
	    strcmp(osrel, u.release))
		return fail(t, "kernel.osrelease '%s' differs from uname '%s'",
			    osrel, u.release);
	if (read_line("/proc/version", version, sizeof(version)) > 0)
		diag(t, "%s", version);
	diag(t, "release %s, machine %s", u.release, u.machine);
	diag(t, "command line: %s", cmdline);
	return CHECK_PASS;
}

/* Count CPUs in a list such as "0-3,5". */
static int cpu_list_count(const char *s)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		s = end + (*end == ',');
	}
	return n;
}

static enum check_result check_cpus(struct tctx *t)
{
	char online[256], possible[256] = "?";
	int n;

	if (read_line("/sys/devices/system/cpu/online", online,
		      sizeof(online)) < 0)
		return fail(t, "/sys/devices/system/cpu/online: %s",
			    errname(errno));
	read_line("/sys/devices/system/cpu/possible", possible,
		  sizeof(possible));
	n = cpu_list_count(online);
	diag(t, "%d online (%s), possible %s", n, online, possible);
	if (n < 1)
		return fail(t, "no online CPU in '%s'", online);
	if (agent_params->cpus > 0 && n != agent_params->cpus)
		return fail(t, "expected %d CPUs (bootproof.cpus), %d online",
			    agent_params->cpus, n);
	return CHECK_PASS;
}

static enum check_result check_memory(struct tctx *t)
{
	long total = 0, avail = 0;

	if (read_keyed("/proc/meminfo", "MemTotal", &total) < 0 || total <= 0)
		return fail(t, "no MemTotal in /proc/meminfo");
	read_keyed("/proc/meminfo", "MemAvailable", &avail);
	diag(t, "MemTotal %ld kB, MemAvailable %ld kB", total, avail);
	if (agent_params->mem_mib > 0) {
		long given = agent_params->mem_mib * 1024;

		/* The kernel keeps some for itself: at least 60% is seen. */
		if (total > given || total < given / 10 * 6)
			return fail(t, "MemTotal %ld kB for a guest given %ld "
				       "MiB (bootproof.mem_mib)", total,
				    agent_params->mem_mib);
	}
	return CHECK_PASS;
}

static enum check_result check_virtio_blk(struct tctx *t)
{
	char sysdev[128], drv[64] = "", devname[64] = "?", uevent[512];
	char pcidir[300];
	_cleanup_free_ uint8_t *buf = NULL;
	_cleanup_close_ int fd = -1;
	bool direct = true;
	struct stat st;
	uint32_t off = 0;
	double start;
	const char *p;

	if (stat("/", &st) < 0)
		return fail(t, "stat /: %s", errname(errno));
	snprintf(sysdev, sizeof(sysdev), "/sys/dev/block/%u:%u",
		 major(st.st_dev), minor(st.st_dev));
	snprintf(uevent, sizeof(uevent), "%s/uevent", sysdev);
	if (read_file(uevent, uevent, sizeof(uevent)) > 0 &&
	    (p = strstr(uevent, "DEVNAME=")))
		snprintf(devname, sizeof(devname), "%.*s",
			 (int)strcspn(p + 8, "\n"), p + 8);
	{
		char link[200];

		/* A partition's driver is its disk's. */
		snprintf(link, sizeof(link), "%s/device/driver", sysdev);
		if (link_basename(link, drv, sizeof(drv)) < 0) {
			snprintf(link, sizeof(link), "%s/../device/driver",
				 sysdev);
			link_basename(link, drv, sizeof(drv));
		}
	}
	if (strcmp(drv, "virtio_blk") != 0) {
		if (!pci_find(VIRTIO_BLK, 0, 0, pcidir, sizeof(pcidir)))
			return fail(t, "root /dev/%s (%u:%u) is on driver "
				       "'%s', and there is no virtio-blk PCI "
				       "device", devname, major(st.st_dev),
				    minor(st.st_dev), drv);
		return fail(t, "root /dev/%s is on driver '%s', not "
			       "virtio_blk", devname, drv);
	}
	if (posix_memalign((void **)&buf, 4096, 65536))
		return fail(t, "out of memory");
	fd = open(MARKER, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL) {
		/* No O_DIRECT here: drop the page cache instead. */
		direct = false;
		sync();
		write_file("/proc/sys/vm/drop_caches", "3");
		fd = open(MARKER, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return fail(t, "open %s: %s", MARKER, errname(errno));
	start = now_s();
	while (off < MARKER_SIZE) {
		ssize_t r = read(fd, buf, 65536);

		if (r < 0)
			return fail(t, "read %s at %u: %s", MARKER, off,
				    errname(errno));
		if (r == 0)
			break;
		for (ssize_t i = 0; i < r; i++)
			if (buf[i] != bp_marker_byte(off + (uint32_t)i))
				return fail(t, "%s byte %u is 0x%02x, "
					       "expected 0x%02x", MARKER,
					    off + (uint32_t)i, buf[i],
					    bp_marker_byte(off + (uint32_t)i));
		off += (uint32_t)r;
	}
	if (off != MARKER_SIZE)
		return fail(t, "%s has %u bytes, expected %u", MARKER, off,
			    MARKER_SIZE);
	diag(t, "root /dev/%s on virtio_blk: %s verified (%u bytes, %s, "
		"%.1f MiB/s)", devname, MARKER, off,
	     direct ? "O_DIRECT" : "after drop_caches",
	     off / 1048576.0 / (now_s() - start + 1e-6));
	return CHECK_PASS;
}

/* The network interface whose device is bound to virtio_net. */
static bool virtio_netif(char *ifname, size_t n)
{
	_cleanup_closedir_ DIR *d = opendir("/sys/class/net");
	struct dirent *e;

	if (!d)
		return false;
	while ((e = readdir(d))) {
		char link[300], drv[64];

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "/sys/class/net/%s/device/driver",
			 e->d_name);
		if (link_basename(link, drv, sizeof(drv)) == 0 &&
		    !strcmp(drv, "virtio_net")) {
			copy_str(ifname, n, e->d_name);
			return true;
		}
	}
	return false;
}

static long net_stat(const char *ifname, const char *what)
{
	char path[128];
	long v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s",
		 ifname, what);
	return read_long(path, &v) == 0 ? v : -1;
}

/* Send one broadcast frame; 0 when tx_packets rose, else -errno. */
static int net_transmit(const char *ifname)
{
	_cleanup_close_ int s = -1;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	unsigned char frame[60];
	long before, after = -1;
	double end;

	s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(0x88b5));
	if (s < 0)
		return -errno;
	sll.sll_ifindex = (int)if_nametoindex(ifname);
	sll.sll_protocol = htons(0x88b5);
	sll.sll_halen = ETH_ALEN;
	memset(sll.sll_addr, 0xff, ETH_ALEN);
	memset(frame, 0, sizeof(frame));
	memset(frame, 0xff, ETH_ALEN);
	/* Source MAC is filled by nobody for SOCK_RAW: zero is fine. */
	frame[12] = 0x88;
	frame[13] = 0xb5;
	memcpy(frame + 14, "bootproof-agent", 15);
	before = net_stat(ifname, "tx_packets");
	if (sendto(s, frame, sizeof(frame), 0, (struct sockaddr *)&sll,
		   sizeof(sll)) < 0)
		return -errno;
	end = now_s() + 2;
	do {
		after = net_stat(ifname, "tx_packets");
		if (after > before)
			return 0;
		sleep_ms(50);
	} while (now_s() < end);
	return -EIO;
}

static enum check_result check_virtio_net(struct tctx *t)
{
	char pcidir[300], ifname[IF_NAMESIZE] = "", path[128], drv[64];
	long carrier = 0;
	double end;
	int r;

	if (!pci_find(VIRTIO_NET, 0, 0, pcidir, sizeof(pcidir)))
		return skip(t, "no virtio-net device attached");
	if (!wait_virtio_driver(pcidir, "virtio_net", 3000, drv, sizeof(drv)))
		return driver_absent(t, pcidir, "VIRTIO_NET", "virtio_net");
	end = now_s() + 3;
	while (!virtio_netif(ifname, sizeof(ifname)) && now_s() < end)
		sleep_ms(100);
	if (!ifname[0])
		return fail(t, "virtio_net bound to %s but no interface "
			       "appeared", pcidir);
	r = netif_up(ifname);
	if (r < 0)
		return fail(t, "bringing %s up: %s", ifname, errname(r));
	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", ifname);
	end = now_s() + 5;
	while ((read_long(path, &carrier) < 0 || carrier != 1) &&
	       now_s() < end)
		sleep_ms(100);
	if (carrier != 1)
		return fail(t, "%s is up but has no carrier", ifname);
	r = net_transmit(ifname);
	if (r == -EAFNOSUPPORT) {
		diag(t, "%s up with carrier; transmit not proven (no "
			"AF_PACKET: CONFIG_PACKET not set)", ifname);
		return CHECK_PASS;
	}
	if (r < 0)
		return fail(t, "%s: a broadcast frame was not transmitted: %s",
			    ifname, errname(r));
	diag(t, "%s (%s) up, carrier 1, tx_packets %ld rx_packets %ld",
	     ifname, strrchr(pcidir, '/') + 1, net_stat(ifname, "tx_packets"),
	     net_stat(ifname, "rx_packets"));
	return CHECK_PASS;
}

#define HWRNG "/sys/class/misc/hw_random/"

static enum check_result check_virtio_rng(struct tctx *t)
{
	char pcidir[300], drv[64], avail[256] = "", cur[64] = "";
	unsigned char buf[64];
	_cleanup_close_ int fd = -1;
	size_t got = 0;
	bool varied = false;

	if (!pci_find(VIRTIO_RNG, 0, 0, pcidir, sizeof(pcidir)))
		return skip(t, "no virtio-rng device attached");
	if (!wait_virtio_driver(pcidir, "virtio_rng", 3000, drv, sizeof(drv)))
		return driver_absent(t, pcidir, "HW_RANDOM_VIRTIO",
				     "virtio_rng");
	read_line(HWRNG "rng_available", avail, sizeof(avail));
	read_line(HWRNG "rng_current", cur, sizeof(cur));
	if (!strstr(avail, "virtio_rng"))
		return fail(t, "virtio_rng bound but not among hw_random "
			       "sources: '%s'", avail);
	if (strncmp(cur, "virtio_rng", 10) != 0) {
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(
				 strstr(avail, "virtio_rng"), " "),
			 strstr(avail, "virtio_rng"));
		if (write_file(HWRNG "rng_current", name) < 0)
			return fail(t, "selecting %s in rng_current (was %s): "
				       "%s", name, cur, errname(errno));
		read_line(HWRNG "rng_current", cur, sizeof(cur));
	}
	fd = open("/dev/hwrng", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(t, "open /dev/hwrng: %s", errname(errno));
	while (got < sizeof(buf)) {
		ssize_t r = read(fd, buf + got, sizeof(buf) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return fail(t, "read /dev/hwrng: %s",
				    r < 0 ? errname(errno) : "EOF");
		got += (size_t)r;
	}
	for (size_t i = 1; i < got; i++)
		varied |= buf[i] != buf[0];
	if (!varied)
		return fail(t, "64 bytes from /dev/hwrng are all 0x%02x",
			    buf[0]);
	diag(t, "rng_current %s: 64 bytes, first %02x%02x%02x%02x%02x%02x%02x%02x",
	     cur, buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6],
	     buf[7]);
	return CHECK_PASS;
}

/*
 * Write "<prefix><release><eol>" to dev without
 * blocking.  maybe_closed: the host side may not be connected; a write
 * that would block then means it is not (virtio_console returns EAGAIN
 * for a port whose host side is closed), and nothing is written, which is
 * not a failure.
 */
static enum check_result write_ok_line(struct tctx *t, const char *dev,
				       const char *prefix, const char *eol,
				       bool maybe_closed)
{
	_cleanup_close_ int fd = -1;
	struct utsname u;
	char line[160];
	size_t len;
	ssize_t w;

	fd = open(dev, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(t, "open %s: %s", dev, errname(errno));
	uname(&u);
	len = (size_t)snprintf(line, sizeof(line), "%s%s%s", prefix, u.release,
			       eol);
	w = write(fd, line, len);
	if (w < 0 && errno == EAGAIN && maybe_closed) {
		diag(t, "host side of %s not connected (a write would block): "
			"nothing written", dev);
		return CHECK_PASS;
	}
	if (w < 0)
		return fail(t, "write to %s: %s (host side not reading?)", dev,
			    errname(errno));
	if ((size_t)w != len)
		return fail(t, "short write to %s: %zd of %zu", dev, w, len);
	diag(t, "wrote '%.*s' to %s", (int)(len - strlen(eol)), line, dev);
	return CHECK_PASS;
}

static enum check_result check_virtio_console(struct tctx *t)
{
	char pcidir[300], drv[64], dev[32] = "";
	double end;

	if (!pci_find(VIRTIO_CONSOLE, 0, 0, pcidir, sizeof(pcidir)))
		return skip(t, "no virtio-serial/virtio-console device "
			       "attached");
	if (!wait_virtio_driver(pcidir, "virtio_console", 3000, drv,
				sizeof(drv)))
		return driver_absent(t, pcidir, "VIRTIO_CONSOLE",
				     "virtio_console");
	/* Ports are added asynchronously after the driver binds. */
	end = now_s() + 5;
	do {
		if (path_exists("/sys/class/tty/hvc0"))
			snprintf(dev, sizeof(dev), "/dev/hvc0");
		else
			sleep_ms(100);
	} while (!dev[0] && now_s() < end);
	if (!dev[0])
		return fail(t, "virtio_console bound but no hvc0 appeared "
			       "(no virtconsole port attached?)");
	return write_ok_line(t, dev, "bootproof-agent: hvc0 ok ", "\r\n",
			     false);
}

/*
 * The virtio-serial channel the harness attaches (domxml: a <channel> of
 * type virtio named org.bootproof.agent.0): the guest must see a port of
 * that name with its device node, and writes one line to it when the host
 * side is connected (a non-blocking write finds out).  bootproof boot puts a file behind the channel, always
 * connected, and checks the line arrived (the host half of this check);
 * a host side nobody opened (a pty) gets nothing, and the diagnostic says
 * so.
 */
#define AGENT_CHANNEL BP_CHANNEL_NAME

static enum check_result check_virtio_channel(struct tctx *t)
{
	char pcidir[300], drv[64], port[256] = "", dev[300];
	double end;

	if (!pci_find(VIRTIO_CONSOLE, 0, 0, pcidir, sizeof(pcidir)))
		return skip(t, "no virtio-serial device attached");
	if (!wait_virtio_driver(pcidir, "virtio_console", 3000, drv,
				sizeof(drv)))
		return driver_absent(t, pcidir, "VIRTIO_CONSOLE",
				     "virtio_console");
	/* Ports are added asynchronously after the driver binds. */
	end = now_s() + 5;
	while (!virtio_port_find(AGENT_CHANNEL, port, sizeof(port)) && now_s() < end)
		sleep_ms(100);
	if (!port[0])
		return skip(t, "no virtio-serial port named " AGENT_CHANNEL
			       " (the host attached no such channel)");
	snprintf(dev, sizeof(dev), "/dev/%s", port);
	while (!path_exists(dev) && now_s() < end)
		sleep_ms(100);
	if (!path_exists(dev))
		return fail(t, "port %s is %s but %s did not appear",
			    AGENT_CHANNEL, port, dev);
	diag(t, "%s is %s", AGENT_CHANNEL, dev);
	return write_ok_line(t, dev, BP_CHANNEL_LINE, "\n", true);
}

/*
 * The pvpanic device, whichever way it is attached: as a PCI device
 * (1b36:0011, driver pvpanic-pci), or on the ISA bus (libvirt's
 * <panic model="isa"/>, QEMU's "pvpanic" at port 0x505), which the guest
 * finds through ACPI as QEMU0001 and binds to pvpanic-mmio.
 */
struct pvpanic_kind {
	const char *what, *driver, *config, *module;
};

static const struct pvpanic_kind pvpanic_pci = {
	"pvpanic-pci", "pvpanic-pci", "PVPANIC_PCI", "pvpanic_pci",
};
static const struct pvpanic_kind pvpanic_isa = {
	"pvpanic ISA (ACPI QEMU0001)", "pvpanic-mmio", "PVPANIC_MMIO",
	"pvpanic_mmio",
};

#define PVPANIC_ACPI "/sys/bus/acpi/devices/QEMU0001:00"
#define PVPANIC_PLATFORM "/sys/bus/platform/devices/QEMU0001:00"

static const struct pvpanic_kind *pvpanic_find(char *dir, size_t n)
{
	if (pci_find(-1, 0x1b36, 0x0011, dir, n))
		return &pvpanic_pci;
	if (path_exists(PVPANIC_ACPI)) {
		snprintf(dir, n, "%s", PVPANIC_PLATFORM);
		return &pvpanic_isa;
	}
	return NULL;
}

static enum check_result check_pvpanic(struct tctx *t)
{
	char dir[300], link[400], drv[64] = "", events[64] = "";
	char path[400];
	const struct pvpanic_kind *k = pvpanic_find(dir, sizeof(dir));
	double end;

	if (!k && !path_exists("/sys/firmware/acpi"))
		return skip(t, "no pvpanic device found: no PCI 1b36:0011, and "
			       "this kernel has no ACPI (CONFIG_ACPI not set), "
			       "through which an ISA pvpanic is found");
	if (!k)
		return skip(t, "no pvpanic device attached (neither PCI "
			       "1b36:0011 nor ACPI QEMU0001)");
	snprintf(link, sizeof(link), "%s/driver", dir);
	end = now_s() + 3;
	while ((link_basename(link, drv, sizeof(drv)) < 0 ||
		strcmp(drv, k->driver)) && now_s() < end)
		sleep_ms(100);
	if (strcmp(drv, k->driver) != 0) {
		char val[32];
		enum kcfg st = kcfg_state(k->config, val, sizeof(val));
		const char *ms = module_status(k->module);

		if (st == KCFG_UNSET)
			return skip(t, "%s attached but CONFIG_%s not set",
				    k->what, k->config);
		if (!strncmp(ms, "not loaded", 10) &&
		    (st == KCFG_UNKNOWN || !strcmp(val, "m")))
			return skip(t, "driver %s not available: module %s",
				    k->module, ms);
		return fail(t, "%s: %s bound to '%s', expected %s "
			       "(module %s)", k->what, dir,
			    drv[0] ? drv : "none", k->driver, ms);
	}
	snprintf(path, sizeof(path), "%s/events", dir);
	read_line(path, events, sizeof(events));
	diag(t, "%s %s bound to %s%s%s", k->what, strrchr(dir, '/') + 1,
	     k->driver, events[0] ? ", events " : "", events);
	return CHECK_PASS;
}

static const struct check boot_checks[] = {
	CHECK(kernel), CHECK(cpus), CHECK(memory), CHECK(virtio_blk),
	CHECK(virtio_net), CHECK(virtio_rng), CHECK(virtio_console),
	CHECK(virtio_channel), CHECK(pvpanic),
};

SCENARIO_DEFINE(boot,
	.summary = "kernel, CPUs, memory, virtio-blk/net/rng/console, "
		   "the agent's virtio-serial channel, pvpanic",
	.flags = SC_GUEST_ONLY);
