#!/bin/sh
# Project rules a compiler does not check.  Exit 1 on any violation.
# The rules of docs/architecture.md, on every .c and .h file:
#  1. no shell-invoking (system, popen) or unbounded string functions
#     (sprintf, vsprintf, strcpy, strcat, stpcpy, gets) anywhere: harness/,
#     scenarios/ (the agent) and the tests' own C; nor an argv of "sh",
#     "-c" in harness/ or scenarios/ (tests/unit/test-proc.c runs shell
#     scripts as the subjects of the proc adapter);
#  2. no libvirt or libguestfs header outside harness/adapters/;
#  3. no process spawned outside harness/adapters/ and scenarios/ (the
#     agent, guest code, starts its scenarios' processes);
#  4. harness/core/ does no file I/O: it takes buffers or a FILE * it is
#     given; it opens, reads, writes, lists, stats and removes nothing by
#     name or descriptor (nor through json-c, libxml2 or libarchive).
# A call is a name followed by "(" that is not a member (x.f(), p->f());
# lines that start a comment are not looked at.
set -u
rc=0
bad() { echo "lint: $*"; rc=1; }

# srcs DIR...: the C sources and headers under DIR, sorted.
srcs() { find "$@" -type f -name '*.[ch]' 2>/dev/null | LC_ALL=C sort; }
# not_under DIR: drop the files under DIR from a list on stdin.
not_under() { grep -v "^$1/"; }
# calls NAMES FILE...: the lines of FILE that call a function of NAMES
# (an extended regex alternation), as file:line:text.
calls() {
	names=$1
	shift
	[ $# -gt 0 ] || return 0
	grep -nE "(^|[^._>[:alnum:]])($names)[[:space:]]*\(" /dev/null "$@" |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/\*|\*|//)'
}
# includes HEADERS FILE...: the lines of FILE including one of HEADERS.
includes() {
	hdrs=$1
	shift
	[ $# -gt 0 ] || return 0
	grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($hdrs)" /dev/null "$@"
}

all=$(srcs harness scenarios tests/unit tests/fuzz tests/bench)
shipped=$(srcs harness scenarios)
host=$(srcs harness)
not_adapters=$(srcs harness scenarios | not_under harness/adapters)
not_spawners=$(printf '%s\n' "$host" | not_under harness/adapters)
core=$(srcs harness/core)
if [ -z "$core" ] || [ -z "$not_spawners" ]; then
	bad "no sources found: run from the top of the tree"
fi

# 1. Paths and options reach subprocesses as argv elements, never a shell;
# strings are built with bounds (strbuf, snprintf).
# shellcheck disable=SC2086
hits=$(calls 'system|popen|sprintf|vsprintf|strcpy|strcat|stpcpy|gets' $all
	grep -nE '"(/bin/|/usr/bin/)?(ba|da)?sh"[[:space:]]*,[[:space:]]*"-c"' /dev/null $shipped)
[ -z "$hits" ] || bad "banned function (shell or unbounded string):
$hits"

# 2. Only adapters include libvirt/guestfs headers.
# shellcheck disable=SC2086
hits=$(includes 'libvirt/|guestfs' $not_adapters)
[ -z "$hits" ] || bad "libvirt/guestfs headers outside harness/adapters:
$hits"

# 3. Processes are started by the proc adapter (and hostcheck's
# libguestfs child), never by the engine, core, verbs or util.
# shellcheck disable=SC2086
hits=$(calls 'fork|vfork|clone|clone3|execl|execle|execlp|execv|execve|execvp|execvpe|fexecve|posix_spawn|posix_spawnp|system|popen' $not_spawners
	includes 'spawn\.h|sys/wait\.h' $not_spawners)
[ -z "$hits" ] || bad "process spawned outside harness/adapters and the agent:
$hits"

# 4. The pure core does no file I/O of its own.
# shellcheck disable=SC2086
hits=$(calls 'fopen|freopen|fdopen|open|openat|creat|read|write|pread|pwrite|readv|writev|close|opendir|fdopendir|readdir|scandir|closedir|nftw|ftw|glob|stat|lstat|fstat|fstatat|statx|access|faccessat|unlink|unlinkat|remove|rename|renameat|renameat2|mkdir|mkdirat|rmdir|mkstemp|mkostemp|mkdtemp|tmpfile|realpath|readlink|symlink|link|chmod|fchmod|chown|fchown|truncate|ftruncate|fsync|fdatasync|dup|dup2|dup3|pipe|pipe2|socket|ioctl|mmap|json_object_from_file|json_object_from_fd|json_object_to_file|json_object_to_file_ext|json_object_to_fd|xmlReadFile|xmlParseFile|xmlCtxtReadFile|htmlReadFile|htmlParseFile|htmlCtxtReadFile|xmlSaveFile|xmlSaveFormatFile|xmlSaveFormatFileEnc|xmlSaveFileEnc|htmlSaveFile|htmlSaveFileEnc|htmlSaveFileFormat|xmlNewTextWriterFilename|archive_read_open_filename|archive_read_open_filenames|archive_read_open_fd|archive_write_open_filename|archive_write_open_fd' $core
	includes 'fcntl\.h|dirent\.h|unistd\.h|ftw\.h|glob\.h|sys/stat\.h|sys/mman\.h|sys/socket\.h' $core)
[ -z "$hits" ] || bad "file I/O in the pure core (harness/core takes buffers or a FILE *):
$hits"

# Nothing built or recorded by a run is tracked.
if git rev-parse --git-dir >/dev/null 2>&1; then
	hits=$(git ls-files | grep -E '(^|/)(bzImage|vmlinux|vmlinuz[^/]*|[^/]*\.qcow2|[^/]*\.img)$')
	[ -z "$hits" ] || bad "build artifacts tracked: $hits"
	hits=$(git ls-files results | grep -vE '^results/(README\.md|\.gitignore)$')
	[ -z "$hits" ] || bad "run output tracked: $hits"
fi
[ $rc -eq 0 ] && echo "lint: ok"
exit $rc
