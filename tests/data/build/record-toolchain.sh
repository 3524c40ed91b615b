#!/bin/sh
# Record real compiler, assembler and linker errors of this machine's
# toolchain (gcc, as, ld), each as the log of a real `make` run, for
# tests/unit/test-builderr.c.
# Usage: sh tests/data/build/record-toolchain.sh   (rewrites tests/data/build/*.log
# except the kernel build logs, which record-kernel.sh makes)
set -u
out=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/bp-builderr.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkdir -p kernel
printf 'extern int missing_symbol(void);\nint main(void)\n{\n\treturn missing_symbol();\n}\n' > kernel/undef.c
printf '#include <linux/not-there.h>\nint x;\n' > kernel/header.c
printf '\t.text\nfoo:\n\tmovq %%rax\n' > kernel/bad.S
cat > Makefile <<MK
MAP := -fdebug-prefix-map=$tmp/=
undef-g:
	@echo "  LD      \$@"
	@gcc -g \$(MAP) -o \$@ kernel/undef.c
undef:
	@echo "  LD      \$@"
	@gcc -o \$@ kernel/undef.c
header:
	@echo "  CC      kernel/header.o"
	@gcc -c -o header.o kernel/header.c
bad:
	@echo "  AS      kernel/bad.o"
	@gcc -c -o bad.o kernel/bad.S
driver:
	@gcc -mno-such-option -c -o header.o kernel/header.c
MK
rec() { make --no-print-directory "$1" > "$out/$2" 2>&1; }
rec undef-g ld-undefined-g.log     # linker, with debug info: file:line
rec undef ld-undefined.log         # linker, without: file:(.text+0x5)
rec header gcc-fatal-header.log    # compiler: fatal error file:line:col
rec bad as-error.log               # assembler: file:line: Error:
rec driver gcc-driver.log          # gcc's driver: no file:line
