#!/bin/sh
# report.html in a real browser, and the report / diff verbs on recorded runs
# (tests/data/runs/, README.md there says how each was made).
#
# Debian's chromium, headless, loads each page from file:// and dumps the DOM
# it built; xmllint (libxml2-utils) queries that DOM:
#  - the matrix page has one cell per group x arch of the plan, each showing
#    the verdict, colour and stage of its record in the run.json rendered
#    (which must hold the verdicts the README of tests/data/runs/ lists),
#    and each boot section the verdict of its boot record; the page renders
#    (a screenshot is taken);
#  - on the hostile pages (a synthetic matrix whose guest-, kernel- and
#    user-controlled strings are markup, and a real boot whose kernel command
#    line the kernel and the agent echoed), the DOM has no element or event
#    attribute that came from those strings, and the strings are there as
#    text.
# Then `bootproof diff` exit codes and messages, and bad input for both verbs.
# SKIP (77) only when chromium is not installed.
set -u
BP=${BOOTPROOF:-./bootproof}
D=tests/data/runs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

CHROMIUM=$(command -v chromium || command -v chromium-browser) || {
	echo "chromium is not installed (harness/setup.sh installs Debian's chromium)"
	exit 77
}
command -v xmllint >/dev/null || { echo "FAIL: no xmllint (libxml2-utils): run make setup"; exit 1; }

# chromium as root: no sandbox; nothing from the network; a fresh profile.
browse() { # NAME MODE(dom|png) FILE
	timeout 180 nice "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --disable-extensions \
		--user-data-dir="$T/profile-$1-$2" --window-size=1300,2000 \
		$([ "$2" = png ] && echo "--screenshot=$T/$1.png" || echo --dump-dom) \
		"file://$3" >"$T/$1.$2.out" 2>"$T/$1.$2.log"
}

# xpath on a dumped DOM: prints the result.
xp() { xmllint --html --xpath "$2" "$T/$1.dom.out" 2>/dev/null; }
want() { # NAME XPATH VALUE WHAT
	got=$(xp "$1" "$2")
	[ "$got" = "$3" ] || no "$1: $4: $2 = '$got', want '$3'"
}

# The report of each recorded run, written by the verb.
for r in matrix-synthetic matrix-hostile-synthetic boot-debian61 \
	boot-debian61-crash boot-debian61-hostile-cmdline; do
	cp -r "$D/$r" "$T/$r"
	rm -f "$T/$r/expected-report.html"
	out=$("$BP" report "$T/$r" 2>"$T/err"); rc=$?
	[ $rc = 0 ] || no "report $r: exit $rc: $(cat "$T/err")"
	[ "$out" = "$T/$r/report.html" ] || no "report $r: printed '$out'"
	[ -s "$T/$r/report.html" ] || no "report $r: no report.html"
done

page() { # NAME: dump the DOM chromium built for its report.html
	if ! browse "$1" dom "$T/$1/report.html" || ! [ -s "$T/$1.dom.out" ]; then
		no "$1: chromium did not load the page: $(tail -n 5 "$T/$1.dom.log")"
		return 1
	fi
	grep -qi '<html' "$T/$1.dom.out" || { no "$1: chromium dumped no DOM"; return 1; }
}

# Nothing that came from a string became markup.
no_injection() { # NAME
	for el in script img iframe svg object embed link form input base \
		frame video audio; do
		want "$1" "count(//$el)" 0 "no <$el> element"
	done
	want "$1" 'count(//@*[starts-with(name(), "on")])' 0 "no event attribute"
	want "$1" 'count(//@href[not(starts-with(., "#")) and not(starts-with(., "./"))])' 0 \
		"only relative links"
}

# An XPath string literal for S (quoted with whichever quote S lacks).
xq() {
	case $1 in
	*'"'*) printf "'%s'" "$1" ;;
	*) printf '"%s"' "$1" ;;
	esac
}

# records NAME: each group verdict of $T/NAME/run.json as a line
# "group<TAB>arch<TAB>verdict<TAB>stage" (stage "-" when none), in the order
# of the file; then each boot verdict as "boot<TAB>N<TAB>verdict" ("not
# booted" for a null verdict), N counted from 1.
records() {
	python3 - "$T/$1/run.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d.get("groups") or []:
    print("\t".join((g["group"], g["arch"], g["verdict"], g["stage"] or "-")))
for i, b in enumerate(d["boots"], 1):
    print("boot\t%d\t%s" % (i, b["verdict"] or "not booted"))
EOF
}

# verdicts NAME: the page shows, for every group x arch cell and boot
# section, exactly the verdict (and stage, and colour) of its record.
verdicts() {
	records "$1" >"$T/$1.records" || { no "$1: cannot read its run.json"; return; }
	ncells=$(grep -vc '^boot	' "$T/$1.records")
	nboots=$(grep -c '^boot	' "$T/$1.records")
	want "$1" 'count(//td[contains(@class, "cell")])' "$ncells" "cells"
	want "$1" 'count(//section[@class="boot"])' "$nboots" "boot sections"
	tab=$(printf '\t')
	while IFS=$tab read -r g a v st; do
		if [ "$g" = boot ]; then
			want "$1" "string((//section[@class=\"boot\"])[$a]/h3/span[contains(@class, \"badge\")])" \
				"$v" "verdict of boot section $a"
			continue
		fi
		cell="//td[contains(@class, \"cell\")][@data-group=$(xq "$g")][@data-arch=\"$a\"]"
		want "$1" "count($cell)" 1 "one cell $g/$a"
		want "$1" "string($cell/div[@class=\"verdict\"])" "$v" "verdict of $g/$a"
		want "$1" "string($cell/@class)" "cell v-$(echo "$v" | tr A-Z a-z)" "colour of $g/$a"
		if [ "$st" = - ]; then
			want "$1" "count($cell/div[@class=\"stage\"])" 0 "no stage in $g/$a"
		else
			want "$1" "string($cell/div[@class=\"stage\"])" "at $st" "stage of $g/$a"
		fi
	done <"$T/$1.records"
}

# --- the matrix: every group x arch cell and boot, with its verdict
# The verdicts the README of tests/data/runs/ gives matrix-synthetic (group
# cells, then the ten boot records in file order): the input is what it is
# said to be, so a renderer that agreed with a wrong reader cannot pass.
cat >"$T/matrix-synthetic.known" <<'EOF'
demo-bpf	x86_64	PASS	-
demo-cgroups	x86_64	PARTIAL	-
demo-bpf	i386	PASS	-
demo-cgroups	i386	PARTIAL	-
demo-userfaultfd	x86_64	FAIL	build
demo-userfaultfd	i386	SKIP	scenario
demo-kgdb	x86_64	FAIL	boot
demo-kgdb	i386	FAIL	scenario
boot	1	BOOTED
boot	2	BOOTED
boot	3	BOOTED
boot	4	not booted
boot	5	PANIC
boot	6	BOOTED
boot	7	BOOTED
boot	8	BOOTED
boot	9	BOOTED
boot	10	BOOTED
EOF
if page matrix-synthetic; then
	verdicts matrix-synthetic
	diff -u "$T/matrix-synthetic.known" "$T/matrix-synthetic.records" ||
		no "matrix-synthetic: run.json does not hold the verdicts its README lists"
	want matrix-synthetic 'count(//td[contains(@class, "cell")])' 8 "cells"
	echo "ok matrix: 4 groups x 2 arches and 10 boots rendered with their verdicts"
fi
if browse matrix-synthetic png "$T/matrix-synthetic/report.html" &&
	[ "$(wc -c <"$T/matrix-synthetic.png")" -gt 20000 ]; then
	echo "ok matrix: screenshot $(wc -c <"$T/matrix-synthetic.png") bytes"
else
	no "matrix: no screenshot: $(tail -n 3 "$T/matrix-synthetic.png.log")"
fi

# --- the costs of a real cost run as charts: bars as wide as the numbers,
# in the DOM and on the screenshot (tests/tools/chart-check.py)
n=cost-x86_64
cp -r "$D/$n" "$T/$n"
rm -f "$T/$n/expected-report.html"
"$BP" report "$T/$n" >/dev/null 2>"$T/err" || no "report $n: $(cat "$T/err")"
if page $n; then
	want $n 'count(//section[@id="costs"]//figure[@class="cost"])' 14 "cost figures"
	want $n 'count(//section[@id="costs"]//figure[@data-figure="bzImage (KiB)"]//*[local-name()="rect"][@class="bar"])' 2 \
		"one bar per group in the bzImage figure"
	if browse $n png "$T/$n/report.html" && [ "$(wc -c <"$T/$n.png")" -gt 20000 ]; then
		python3 "$(dirname "$0")/../tools/chart-check.py" "$T/$n/run.json" \
			"$T/$n.dom.out" "$T/$n.png" || no "$n: the charts do not show the costs"
	else
		no "$n: no screenshot: $(tail -n 3 "$T/$n.png.log")"
	fi
fi

# --- hostile strings everywhere (synthetic matrix)
if page matrix-hostile-synthetic; then
	n=matrix-hostile-synthetic
	no_injection $n
	verdicts $n
	want $n 'count(//td[contains(@class, "cell")])' 4 "cells"
	want $n 'count(//td[starts-with(@data-group, "evil")][contains(@data-group, "><script>alert(5)</script>")])' \
		2 "hostile group name as an attribute value"
	want $n 'string(//p[@class="ptitle"])' \
		'WARNING: CPU: 0 PID: 1 at <script>alert(1)</script>' "problem title as text"
	for s in '<script>alert(1)</script>' '<img src=x onerror=alert(2)>' \
		'</pre></td></table><iframe src=javascript:alert(3)></iframe>' \
		'&amp; &lt;tag&gt;' '<svg onload=alert(4)>'; do
		want $n "count(//pre[@class=\"console\"][contains(., \"$s\")])" 1 "console end shows $s"
		[ "$(xp $n "count(//body[contains(., \"$s\")])")" = 1 ] || no "$n: no text $s"
	done
	want $n 'count(//td[contains(., "<b onmouseover=alert(6)>host</b>")])' 1 "host name as text"
	echo "ok hostile matrix: no injected element or attribute, strings shown as text"
fi

# --- real boots: the verdict of each (BOOTED, PANIC) is the one shown
for n in boot-debian61 boot-debian61-crash; do
	page $n && verdicts $n
done
grep -qx 'boot	1	PANIC' "$T/boot-debian61-crash.records" ||
	no "boot-debian61-crash: run.json does not record the PANIC its README lists"
echo "ok boots: each page shows the verdict of its boot"

# --- a real boot whose command line the kernel and the agent printed
if page boot-debian61-hostile-cmdline; then
	n=boot-debian61-hostile-cmdline
	verdicts $n
	s='<script>alert(1)</script> x=<img/src=x/onerror=alert(2)> </pre>&amp;'
	no_injection $n
	want $n "count(//pre[@class=\"console\"][contains(., \"$s\")])" 1 "console end"
	want $n "count(//div[@class=\"diag\"][contains(., \"command line:\")][contains(., \"$s\")])" \
		1 "the agent's KTAP diagnostic"
	want $n "count(//code[contains(., \"$s\")])" 2 "command line in the page"
	echo "ok hostile boot: the guest's echo of the command line is text"
fi

# --- diff: exit codes and what it says
A=$T/boot-debian61 B=$T/boot-debian61-crash
"$BP" diff "$A" "$B" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 1 ] || no "diff clean crash: exit $rc, want 1 ($(cat "$T/err"))"
grep -q '^  boot      x86_64: BOOTED -> PANIC  (Kernel panic - not syncing: sysrq triggered crash)$' "$T/out" ||
	no "diff clean crash: no boot regression: $(cat "$T/out")"
grep -q '^2 regressions, 0 fixes, 5 other changes$' "$T/out" || no "diff clean crash: $(tail -n 1 "$T/out")"
"$BP" diff "$B" "$A" >"$T/out" 2>&1; rc=$?
[ $rc = 0 ] || no "diff crash clean: exit $rc, want 0"
grep -q '^fixes (2):$' "$T/out" || no "diff crash clean: $(cat "$T/out")"
"$BP" diff --json "$A" "$B" >"$T/out" 2>&1; rc=$?
[ $rc = 1 ] || no "diff --json: exit $rc"
grep -q '"regressions":2' "$T/out" || no "diff --json: $(cat "$T/out")"
"$BP" diff "$T/matrix-synthetic" "$T/matrix-synthetic/run.json" >"$T/out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^0 regressions, 0 fixes, 0 other changes$' "$T/out" || no "diff same: exit $rc $(cat "$T/out")"
echo "ok diff: regression exit 1, fix and unchanged exit 0"

# --- bad input: exit 2, the message names the file and what is wrong
bad() { # WHAT WANT_MESSAGE_REGEX ARGS...
	what=$1 re=$2
	shift 2
	"$BP" "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 2 ] || no "$what: exit $rc, want 2"
	grep -Eq "$re" "$T/err" || no "$what: message '$(cat "$T/err")' !~ $re"
}
mkdir -p "$T/empty" "$T/v2" "$T/badval"
sed 's|"bootproof-run/1"|"bootproof-run/2"|' "$A/run.json" >"$T/v2/run.json"
sed 's|"verdict": *"BOOTED"|"verdict":"GREEN"|' "$A/run.json" >"$T/badval/run.json"
bad "diff: not a run directory" "$T/empty: not a run directory \(it has no run.json\)" diff "$A" "$T/empty"
bad "diff: missing" "$T/nope: no such run directory or run.json" diff "$T/nope" "$A"
bad "diff: other schema" "$T/v2/run.json: schema: 'bootproof-run/2' is not supported" diff "$A" "$T/v2"
bad "diff: bad verdict" "$T/badval/run.json: boots\[0\]\.verdict: 'GREEN' is not one of" diff "$A" "$T/badval"
bad "diff: matrix vs boot" "is a matrix run \(bootproof run\) and .* a single boot" diff "$T/matrix-synthetic" "$A"
bad "diff: one argument" "diff: expected two runs" diff "$A"
printf '{"schema": "bootproof-run/1",' >"$T/empty/run.json"
bad "report: truncated" "$T/empty/run.json:1:[0-9]+: not valid JSON: unexpected end of file" report "$T/empty"
bad "report: not a run" "$T/v2/run.json: schema" report "$T/v2/run.json"
[ -e "$T/v2/report.html" ] && no "report: wrote a page for an invalid run.json"
echo "ok bad input: exit 2 with the file and the member named"

[ $fail = 0 ] && echo "report-chromium: all passed"
exit $fail
