// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpf: the bpf() syscall without libbpf.  An array map is created, updated
 * and read back; a socket-filter program assembled below (instructions
 * written out in C) counts every packet in a map and drops the UDP
 * datagrams whose payload starts with 'D'; it is attached to a loopback UDP
 * socket and proven on real packets, with a control datagram after
 * detaching.  Then: is the program JIT-compiled, can the map be pinned in
 * bpffs, and is "bpf" among the active LSMs (when BPF_LSM is configured).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent.h"

#ifndef SO_ATTACH_BPF
#define SO_ATTACH_BPF 50
#endif
#ifndef SO_DETACH_BPF
#define SO_DETACH_BPF SO_DETACH_FILTER
#endif
#define BPF_FS_MAGIC 0xcafe4a11
#define SECURITYFS_MAGIC 0x73636673

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static uint64_t ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static int map_create(unsigned entries)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = sizeof(uint32_t);
	a.value_size = sizeof(uint64_t);
	a.max_entries = entries;
	return (int)sys_bpf(BPF_MAP_CREATE, &a);
}

static int map_update(int fd, uint32_t key, uint64_t val)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = ptr(&key);
	a.value = ptr(&val);
	a.flags = BPF_ANY;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a) < 0 ? -errno : 0;
}

static int map_lookup(int fd, uint32_t key, uint64_t *val)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = ptr(&key);
	a.value = ptr(val);
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) < 0 ? -errno : 0;
}

/* ---------------------------------------------------------- assembler */

#define INSN(c, d, s, o, i)                                                    \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),       \
			    .off = (o), .imm = (i) })
#define MOV64_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define ST_W(d, o, i) INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define LDX_W(d, s, o) INSN(BPF_LDX | BPF_MEM | BPF_W, d, s, o, 0)
#define LDX_DW(d, s, o) INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX_DW(d, s, o) INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define LD_MAP_FD(d, fd)                                                       \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd),          \
		INSN(0, 0, 0, 0, 0)
#define LD_ABS_B(off) INSN(BPF_LD | BPF_ABS | BPF_B, 0, 0, 0, off)
#define JEQ_IMM(d, i, o) INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL(fn) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

enum { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

/*
 * Socket filter: count the packet in map[0], then drop it (return 0) when
 * the first payload byte is 'D', else keep all of it (return skb->len).
 * An AF_UNIX datagram is its payload, from offset 0 (no INET needed: the
 * demo kernel has none).  The count is a plain load/add/store: 32-bit
 * JITs lack 64-bit atomics, and one socket is fed serially here.
 */
static int prog_load(int map_fd, char *log, size_t logsz)
{
	struct bpf_insn insns[] = {
		MOV64_REG(R6, R1),
		ST_W(R10, -4, 0),
		MOV64_REG(R2, R10),
		ADD64_IMM(R2, -4),
		LD_MAP_FD(R1, map_fd),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(R0, 0, 3),
		LDX_DW(R1, R0, 0),
		ADD64_IMM(R1, 1),
		STX_DW(R0, R1, 0),
		LD_ABS_B(0),
		JEQ_IMM(R0, 'D', 2),
		LDX_W(R0, R6, (int16_t)offsetof(struct __sk_buff, len)),
		EXIT(),
		MOV64_IMM(R0, 0),
		EXIT(),
	};
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = ptr(insns);
	a.insn_cnt = ELEMENTSOF(insns);
	a.license = ptr("GPL");
	a.log_buf = ptr(log);
	a.log_size = (uint32_t)logsz;
	a.log_level = 1;
	snprintf(a.prog_name, sizeof(a.prog_name), "bootproof_filt");
	log[0] = '\0';
	return (int)sys_bpf(BPF_PROG_LOAD, &a);
}

/* Last lines of a verifier log, as diagnostics. */
static void diag_log(struct tctx *t, const char *log)
{
	const char *p = log + strlen(log);
	int lines = 0;

	while (p > log && lines < 6)
		if (*--p == '\n')
			lines++;
	while (*p) {
		size_t l = strcspn(p, "\n");

		if (l)
			diag(t, "verifier: %.*s", (int)l, p);
		p += l;
		if (*p)
			p++;
	}
}

/* ---------------------------------------------------------- checks */

/* Shared between checks (one child runs them in order). */
static int filter_prog = -1, filter_map = -1;

static enum check_result check_map_array(struct tctx *t)
{
	_cleanup_close_ int fd = map_create(4);
	uint64_t v = 0;
	long unpriv;
	int r;

	if (fd < 0)
		return fail(t, "BPF_MAP_CREATE array: %s", errname(errno));
	r = map_update(fd, 1, 0x1122334455667788ULL);
	if (r < 0)
		return fail(t, "BPF_MAP_UPDATE_ELEM: %s", errname(r));
	r = map_lookup(fd, 1, &v);
	if (r < 0)
		return fail(t, "BPF_MAP_LOOKUP_ELEM: %s", errname(r));
	if (v != 0x1122334455667788ULL)
		return fail(t, "map[1] = 0x%llx, expected 0x1122334455667788",
			    (unsigned long long)v);
	r = map_lookup(fd, 0, &v);
	if (r < 0 || v != 0)
		return fail(t, "map[0] should read 0, got %s 0x%llx",
			    r < 0 ? errname(r) : "value",
			    (unsigned long long)v);
	r = map_lookup(fd, 4, &v);
	if (r != -ENOENT)
		return fail(t, "lookup past max_entries: %s, expected ENOENT",
			    r ? errname(r) : "success");
	if (read_long("/proc/sys/kernel/unprivileged_bpf_disabled",
		      &unpriv) == 0)
		diag(t, "kernel.unprivileged_bpf_disabled=%ld (running as "
			"uid %d)", unpriv, (int)getuid());
	return CHECK_PASS;
}

/* Receive every datagram queued on fd: an AF_UNIX send queues it (or the
 * receiver's filter drops it) before sendto() returns, so what is not
 * there now never comes. */
static unsigned recv_all(int fd, char got[][16], unsigned max)
{
	unsigned n = 0;

	for (;;) {
		char buf[64];
		ssize_t r = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

		if (r < 0)
			break;
		buf[r] = '\0';
		if (n < max)
			copy_str(got[n], 16, buf);
		n++;
	}
	return n;
}

static enum check_result check_socket_filter(struct tctx *t)
{
	static const char *const sent[] = { "keep-1", "DROP-2", "keep-3" };
	int sv[2] = { -1, -1 };
	_cleanup_free_ char *log = malloc(65536);
	char got[8][16];
	uint64_t count = 0;
	unsigned n;
	int r;
	enum check_result res = CHECK_PASS;

	if (!log)
		return fail(t, "out of memory");
	filter_map = map_create(1);
	if (filter_map < 0)
		return fail(t, "BPF_MAP_CREATE: %s", errname(errno));
	filter_prog = prog_load(filter_map, log, 65536);
	if (filter_prog < 0) {
		r = -errno;
		diag_log(t, log);
		return fail(t, "BPF_PROG_LOAD socket filter: %s", errname(r));
	}
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return fail(t, "socketpair AF_UNIX: %s", errname(errno));
	/* sv[0] receives through the filter, sv[1] sends */
	if (setsockopt(sv[0], SOL_SOCKET, SO_ATTACH_BPF, &filter_prog,
		       sizeof(filter_prog)) < 0) {
		res = fail(t, "SO_ATTACH_BPF: %s", errname(errno));
		goto out;
	}
	for (size_t i = 0; i < ELEMENTSOF(sent); i++)
		if (send(sv[1], sent[i], strlen(sent[i]), 0) < 0) {
			res = fail(t, "send: %s", errname(errno));
			goto out;
		}
	n = recv_all(sv[0], got, ELEMENTSOF(got));
	if (n != 2 || strcmp(got[0], "keep-1") || strcmp(got[1], "keep-3")) {
		for (unsigned i = 0; i < n && i < ELEMENTSOF(got); i++)
			diag(t, "received '%s'", got[i]);
		res = fail(t, "sent keep-1, DROP-2, keep-3 through the filter: "
			      "received %u datagrams, expected keep-1 and "
			      "keep-3 only",
			   n);
		goto out;
	}
	r = map_lookup(filter_map, 0, &count);
	if (r < 0) {
		res = fail(t, "reading the packet counter: %s", errname(r));
		goto out;
	}
	if (count != ELEMENTSOF(sent)) {
		res = fail(t, "the program counted %llu packets, expected %zu",
			   (unsigned long long)count, ELEMENTSOF(sent));
		goto out;
	}
	/* Control: without the filter the same datagram gets through. */
	if (setsockopt(sv[0], SOL_SOCKET, SO_DETACH_BPF, &filter_prog,
		       sizeof(filter_prog)) < 0) {
		res = fail(t, "SO_DETACH_BPF: %s", errname(errno));
		goto out;
	}
	if (send(sv[1], "DROP-4", 6, 0) < 0) {
		res = fail(t, "send: %s", errname(errno));
		goto out;
	}
	n = recv_all(sv[0], got, ELEMENTSOF(got));
	if (n != 1 || strcmp(got[0], "DROP-4")) {
		res = fail(t, "after detaching, DROP-4 did not arrive (%u "
			      "datagrams)",
			   n);
		goto out;
	}
	diag(t, "kept 2 of 3 datagrams, counted 3, control datagram "
		"passed after detach");
out:
	close(sv[0]);
	close(sv[1]);
	return res;
}

static enum check_result check_jit(struct tctx *t)
{
	struct bpf_prog_info info;
	union bpf_attr a;
	long on;
	int r = read_long("/proc/sys/net/core/bpf_jit_enable", &on);

	if (r == -ENOENT)
		return skip(t, "CONFIG_BPF_JIT not set "
			       "(no net.core.bpf_jit_enable)");
	if (r < 0)
		return fail(t, "net.core.bpf_jit_enable: %s", errname(r));
	if (filter_prog < 0)
		return fail(t, "no program loaded (socket_filter failed)");
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)filter_prog;
	a.info.info_len = sizeof(info);
	a.info.info = ptr(&info);
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0)
		return fail(t, "BPF_OBJ_GET_INFO_BY_FD: %s", errname(errno));
	diag(t, "net.core.bpf_jit_enable=%ld, xlated %u bytes, jited %u "
		"bytes", on, info.xlated_prog_len, info.jited_prog_len);
	if (on == 0)
		return skip(t, "JIT disabled (net.core.bpf_jit_enable=0)");
	if (info.jited_prog_len == 0)
		return fail(t, "JIT enabled but the program was not "
			       "JIT-compiled");
	return CHECK_PASS;
}

static enum check_result check_bpffs_pin(struct tctx *t)
{
	char path[64];
	_cleanup_close_ int fd = -1;
	union bpf_attr a;
	uint64_t v = 0;
	int r;

	if (fs_magic("/sys/fs/bpf") != BPF_FS_MAGIC)
		return skip(t, "bpffs not mounted on /sys/fs/bpf");
	if (filter_map < 0)
		return fail(t, "no map (socket_filter failed)");
	snprintf(path, sizeof(path), "/sys/fs/bpf/bootproof-%d", (int)getpid());
	memset(&a, 0, sizeof(a));
	a.pathname = ptr(path);
	a.bpf_fd = (uint32_t)filter_map;
	if (sys_bpf(BPF_OBJ_PIN, &a) < 0)
		return fail(t, "BPF_OBJ_PIN %s: %s", path, errname(errno));
	memset(&a, 0, sizeof(a));
	a.pathname = ptr(path);
	fd = (int)sys_bpf(BPF_OBJ_GET, &a);
	r = fd < 0 ? -errno : 0;
	unlink(path);
	if (r < 0)
		return fail(t, "BPF_OBJ_GET %s: %s", path, errname(r));
	r = map_lookup(fd, 0, &v);
	if (r < 0 || v != 3)
		return fail(t, "pinned map reads %s %llu, expected the count 3",
			    r < 0 ? errname(r) : "value",
			    (unsigned long long)v);
	return CHECK_PASS;
}

static enum check_result check_lsm(struct tctx *t)
{
	char reason[KTAPFMT_REASON_MAX], list[512];
	long r;

	if (feature_missing("BPF_LSM", "bpf_lsm_file_open", 0, NULL, reason,
			    sizeof(reason)))
		return skip(t, "%s", reason);
	if (fs_magic("/sys/kernel/security") != SECURITYFS_MAGIC)
		return skip(t, "securityfs not mounted on /sys/kernel/security");
	r = read_line("/sys/kernel/security/lsm", list, sizeof(list));
	if (r < 0)
		return fail(t, "/sys/kernel/security/lsm: %s (securityfs "
			       "mounted?)", errname((int)r));
	diag(t, "active LSMs: %s; bpf %s", list,
	     strstr(list, "bpf") ? "active" : "not active (add it to lsm=)");
	return CHECK_PASS;
}

static const struct check bpf_checks[] = {
	CHECK(map_array), CHECK(socket_filter), CHECK(jit), CHECK(bpffs_pin),
	CHECK(lsm),
};

static bool bpf_missing(char *reason, size_t n)
{
	return probe_missing(map_create(1), "BPF_SYSCALL", "bpf_prog_get",
			     "bpf(BPF_MAP_CREATE)", reason, n);
}

SCENARIO_DEFINE(bpf,
	.summary = "bpf(): array map, socket filter on real packets, JIT, "
		   "bpffs, BPF LSM",
	.missing = bpf_missing);
