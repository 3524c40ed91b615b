# Per-test link flags (GNUmakefile: LDFLAGS_test-<name>).

# runrec's atomic writes: rename(2) and write(2) wrapped to look at the
# files at the moment of the rename and to cut a write short.
LDFLAGS_test-runrec := -Wl,--wrap=rename -Wl,--wrap=write
