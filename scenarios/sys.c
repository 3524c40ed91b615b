// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

const char *errname(int err)
{
	static char buf[16];
	const char *s;

	if (err < 0)
		err = -err;
	s = strerrorname_np(err);
	if (s)
		return s;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

void copy_str(char *dst, size_t n, const char *src)
{
	size_t l = strlen(src);

	if (l >= n)
		l = n - 1;
	memcpy(dst, src, l);
	dst[l] = '\0';
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

long read_file(const char *path, char *buf, size_t n)
{
	_cleanup_close_ int fd = -1;
	size_t got = 0;

	if (n == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < n - 1) {
		ssize_t r = read(fd, buf + got, n - 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			buf[got] = '\0';
			return -errno;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	return (long)got;
}

long read_line(const char *path, char *buf, size_t n)
{
	long r = read_file(path, buf, n);

	if (r < 0)
		return r;
	while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' ' ||
			 buf[r - 1] == '\t'))
		buf[--r] = '\0';
	return r;
}

int read_long(const char *path, long *ret)
{
	char buf[64], *end;
	long r = read_line(path, buf, sizeof(buf));
	long v;

	if (r < 0)
		return (int)r;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EBADMSG;
	*ret = v;
	return 0;
}

int write_file(const char *path, const char *s)
{
	_cleanup_close_ int fd = -1;
	size_t len = strlen(s);
	ssize_t w;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		w = write(fd, s, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	if ((size_t)w != len)
		return -EIO;
	return 0;
}

int read_keyed(const char *path, const char *key, long *ret)
{
	static char buf[65536];
	size_t klen = strlen(key);
	long r = read_file(path, buf, sizeof(buf));

	if (r < 0)
		return (int)r;
	for (char *l = buf, *nl; *l; l = nl ? nl + 1 : l + strlen(l)) {
		nl = strchr(l, '\n');
		l += strspn(l, " \t");
		if (strncmp(l, key, klen) == 0 &&
		    (l[klen] == ' ' || l[klen] == ':' || l[klen] == '\t')) {
			char *v = l + klen + 1, *end;

			v += strspn(v, " \t:");
			errno = 0;
			*ret = strtol(v, &end, 10);
			if (errno || end == v)
				return -EBADMSG;
			return 0;
		}
	}
	return -ENOENT;
}

bool path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

bool virtio_port_find(const char *name, char *port, size_t n)
{
	_cleanup_closedir_ DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[300], have[128] = "";

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name",
			 e->d_name);
		if (read_line(path, have, sizeof(have)) >= 0 &&
		    !strcmp(have, name)) {
			snprintf(port, n, "%s", e->d_name);
			return true;
		}
	}
	return false;
}

int write_fd_all(int fd, const void *buf, size_t len, unsigned timeout_ms)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w > 0) {
			p += w;
			len -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = fd, .events = POLLOUT };
			int r = poll(&pfd, 1, (int)timeout_ms);

			if (r == 0)
				return -ETIMEDOUT;
			if (r < 0 && errno != EINTR)
				return -errno;
			continue;
		}
		return w < 0 ? -errno : -EIO;
	}
	return 0;
}

unsigned long fs_magic(const char *path)
{
	struct statfs sfs;

	if (statfs(path, &sfs) < 0)
		return 0;
	return (unsigned long)sfs.f_type;
}

int link_basename(const char *path, char *buf, size_t n)
{
	char target[PATH_MAX];
	ssize_t r = readlink(path, target, sizeof(target) - 1);
	const char *b;

	if (r < 0)
		return -errno;
	target[r] = '\0';
	b = strrchr(target, '/');
	snprintf(buf, n, "%s", b ? b + 1 : target);
	return 0;
}

const char *status_str(int status, char *buf, size_t n)
{
	if (WIFEXITED(status)) {
		snprintf(buf, n, "exit %d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		const char *ab = sigabbrev_np(WTERMSIG(status));

		if (ab)
			snprintf(buf, n, "killed by SIG%s", ab);
		else
			snprintf(buf, n, "killed by signal %d",
				 WTERMSIG(status));
	} else {
		snprintf(buf, n, "status 0x%x", status);
	}
	return buf;
}

int wait_timeout(pid_t pid, int *status, unsigned timeout_ms)
{
	double end = now_s() + timeout_ms / 1000.0;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (now_s() >= end)
			return -ETIMEDOUT;
		sleep_ms(10);
	}
}

pid_t fork_fn(int (*fn)(void *arg), void *arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg) & 0xff);
	return pid;
}

int run_argv(char *const argv[], char *out, size_t n, unsigned timeout_s)
{
	int pfd[2] = { -1, -1 };
	size_t got = 0;
	double end;
	int status;
	pid_t pid;

	if (out && n)
		out[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(pfd[0]);
		close(pfd[1]);
		return -e;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(pfd[1], 1);
		if (agent_out_fd != 2 && agent_out_fd >= 0)
			dup2(agent_out_fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	end = now_s() + timeout_s;
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		double left = end - now_s();
		char tmp[4096];
		ssize_t r;

		if (left <= 0) {
			kill(pid, SIGKILL);
			break;
		}
		if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		r = read(pfd[0], tmp, sizeof(tmp));
		if (r <= 0)
			break;
		if (out && got + 1 < n) {
			size_t take = (size_t)r;

			if (take > n - 1 - got)
				take = n - 1 - got;
			memcpy(out + got, tmp, take);
			got += take;
			out[got] = '\0';
		}
	}
	close(pfd[0]);
	if (wait_timeout(pid, &status, 5000) < 0) {
		kill(pid, SIGKILL);
		if (waitpid(pid, &status, 0) < 0)
			return -ECHILD;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}
