#!/usr/bin/python3
"""The bootproof commands of a CI file of docs/ci/, as shell scripts.

usage: ci-commands.py github|gitlab FILE OUTDIR

Reads FILE with a real YAML parser (python3-yaml) and writes, into
OUTDIR, one shell script per job run: shard-K.sh for each shard of the
matrix (GitHub: strategy.matrix.shard; GitLab: parallel: N with
CI_NODE_INDEX/CI_NODE_TOTAL) and merge.sh for the merge job.  Each script
sets the variables the file sets (env: / variables:, the matrix's, the
CI's own for the paths) and runs the job's commands that start with
./bootproof (or "test ... || ./bootproof"), as the CI would: GitHub runs
a step after a failed one only with "if: always()", GitLab stops its
script at the first failure and always runs after_script; the script's
exit code is the job's.  What else a job does (make setup, make, the CI's
own actions for checkout and artifacts) is listed as a comment: the test
has its own build and one working directory where the artifacts already
are.  A ${{ ... }} expression this does not know is an error (exit 1):
the test would not run what the file says.
"""
import os
import re
import shlex
import sys

import yaml


def fail(msg):
    print("ci-commands: " + msg, file=sys.stderr)
    sys.exit(1)


def github_expr(text, ctx):
    def sub(m):
        key = m.group(1).strip()
        if key not in ctx:
            fail("unknown expression ${{ %s }}" % key)
        return str(ctx[key])
    return re.sub(r"\$\{\{([^}]*)\}\}", sub, text)


def write(outdir, name, env, commands, skipped):
    """commands: (command, always) in order: a command runs when nothing
    failed before it, or always; the first failure's code is the exit
    code."""
    lines = ["#!/bin/sh", "set -u"]
    for s in skipped:
        lines.append("# not run here: " + s.replace("\n", " "))
    for k, v in env.items():
        lines.append("export %s=%s" % (k, shlex.quote(str(v))))
    lines.append("rc=0")
    for c, always in commands:
        guard = "" if always else '[ "$rc" = 0 ] && '
        lines.append('%s{ %s; } || { r=$?; [ "$rc" = 0 ] && rc=$r; }' % (guard, c))
    lines.append("exit $rc")
    with open(os.path.join(outdir, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def ours(line):
    return re.match(r"\s*(test [^|]*\|\|\s*)?\./bootproof ", line) is not None


def split(cmds, always=False):
    """The ./bootproof commands (with always), and the rest."""
    run, skipped = [], []
    for c in cmds:
        for line in c.strip().splitlines():
            if ours(line):
                run.append((line.strip(), always))
            else:
                skipped.append(line)
    return run, skipped


def github(doc, outdir, cwd):
    env0 = dict(doc.get("env") or {})
    jobs = doc["jobs"]
    shard, merge = jobs["shard"], jobs["merge"]
    values = shard["strategy"]["matrix"]["shard"]
    base_ctx = {"github.workspace": cwd}
    env = {k: github_expr(str(v), base_ctx) for k, v in env0.items()}
    if str(len(values)) != str(env.get("SHARDS")):
        fail("SHARDS=%s but the matrix has %d shards" % (env.get("SHARDS"), len(values)))
    for k in values:
        ctx = dict(base_ctx, **{"matrix.shard": k})
        cmds = []
        skipped = []
        for st in shard["steps"]:
            if "run" in st:
                r, s = split([github_expr(st["run"], ctx)],
                             "always()" in str(st.get("if", "")))
                cmds += r
                skipped += s
            else:
                skipped.append("uses: " + st["uses"])
        write(outdir, "shard-%s.sh" % k, env, cmds, skipped)
    cmds, skipped = [], []
    for st in merge["steps"]:
        if "run" in st:
            r, s = split([github_expr(st["run"], base_ctx)],
                         "always()" in str(st.get("if", "")))
            cmds += r
            skipped += s
        else:
            skipped.append("uses: " + st["uses"])
    write(outdir, "merge.sh", env, cmds, skipped)
    return len(values)


def gitlab(doc, outdir, cwd):
    env = {"CI_PROJECT_DIR": cwd}
    for k, v in (doc.get("variables") or {}).items():
        env[k] = str(v).replace("$CI_PROJECT_DIR", cwd)
    shard, merge = doc["shard"], doc["merge"]
    n = int(shard["parallel"])
    if merge.get("needs") != ["shard"]:
        fail("the merge job does not need the shard jobs")
    for k in range(1, n + 1):
        e = dict(env, CI_NODE_INDEX=k, CI_NODE_TOTAL=n)
        cmds, skipped = split(shard["script"])
        write(outdir, "shard-%d.sh" % k, e, cmds, skipped)
    cmds, skipped = split(merge["script"])
    after, skipped2 = split(merge.get("after_script") or [], True)
    write(outdir, "merge.sh", env, cmds + after, skipped + skipped2)
    return n


def main(argv):
    if len(argv) != 4 or argv[1] not in ("github", "gitlab"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[2]) as f:
        doc = yaml.safe_load(f)
    os.makedirs(argv[3], exist_ok=True)
    n = (github if argv[1] == "github" else gitlab)(doc, argv[3], os.getcwd())
    print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
