#!/bin/sh
# How the golden LAVA logs here were recorded (README.md): jobs written by
# `bootproof boot --lava-out`, run by lava-run against a local QEMU device,
# the files served on 127.0.0.1.  Run as root from the checkout:
#   K=<dir of a built kernel: bzImage, config> W=<work dir> sh tests/data/lava/record.sh
# then copy $W/<name>.log and $W/<name>.job.yaml here under their names.
set -u
BP=${BOOTPROOF:-./bootproof}
DEVICE=$(cd "$(dirname "$0")/../../lava" && pwd)/qemu-device.py
: "${K:?K=the built kernel's directory}" "${W:?W=a work directory}"
PUB=$W/pub
URL=http://127.0.0.1:8769/
mkdir -p "$W" "$PUB"
(cd "$PUB" && exec /usr/bin/python3 -m http.server 8769 --bind 127.0.0.1) > $W/http.log 2>&1 &
srv=$!
sleep 1
emit() { # NAME ARGS...
	n=$1; shift
	$BP boot --kernel $K/bzImage --config $K/config --results $W/runs --lava-out $PUB --lava-url $URL "$@" > $W/$n.emit
	sed -n 's/^LAVA job: //p' $W/$n.emit
}
run() { # NAME JOB [cancel-after]
	/usr/bin/python3 "$DEVICE" $2 > $W/$1.device.yaml
	lava-run --job-id rec-$1 --output-dir $W/$1.out --device $W/$1.device.yaml $2 > /dev/null 2> $W/$1.log &
	p=$!
	[ -n "${3:-}" ] && { sleep $3; kill -TERM $p; }
	wait $p
	echo "$1: lava-run exit $?"
}
J=$(emit all --scenarios boot,bpf,cgroups,userfaultfd,kgdb); cp $J $W/all.job.yaml; run all $J
J=$(emit crash --scenarios boot,crash); cp $J $W/crash.job.yaml; run crash $J
sed 's|\(url: .*/kernels/[0-9a-f]*/\)|\1missing-|' $W/all.job.yaml > $W/missing.job.yaml; run missing $W/missing.job.yaml
J=$(emit hang --scenarios boot,hang --timeout 30); cp $J $W/hang.job.yaml; run hang $J
# A lab whose QEMU does not end on a panic: the job without pvpanic, panic=0.
J=$(emit pt --scenarios boot,crash --timeout 30 --cmdline panic=0); grep -v "'-device pvpanic'" $J > $W/pt.job.yaml; run pt $W/pt.job.yaml
J=$(emit cancel --scenarios boot,hang); cp $J $W/cancel.job.yaml; run cancel $J 25
kill $srv
