# Independent oracle for the kconfig golden .verify files (see README.md).
# usage: awk -f oracle.awk FINAL REQUESTED...  (later REQUESTED files win)
# Prints one line per requested option that is not kept:
#   VERDICT NAME file:line requested VALUE[ final VALUE]
function parse(line,   m) {
	if (line ~ /^CONFIG_[A-Za-z0-9_]+=/) { n = line; sub(/^CONFIG_/, "", n); v = n; sub(/=.*/, "", n); sub(/^[^=]*=/, "", v); NAME = n; VAL = v; return 1 }
	if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) { n = line; sub(/^# CONFIG_/, "", n); sub(/ is not set$/, "", n); NAME = n; VAL = "n"; return 1 }
	return 0
}
FNR == NR { if (parse($0)) final[NAME] = VAL; next }
{ if (parse($0)) { req[NAME] = VAL; where[NAME] = FILENAME ":" FNR; if (!(NAME in seen)) { order[++cnt] = NAME; seen[NAME] = 1 } } }
END {
	for (i = 1; i <= cnt; i++) {
		k = order[i]; r = req[k]
		if (!(k in final)) { if (r == "n") continue; printf "ABSENT %s %s requested %s\n", k, where[k], r; continue }
		f = final[k]
		if (f == r) continue
		if (r == "y" && f == "m") printf "DEMOTED %s %s requested y final m\n", k, where[k]
		else printf "CHANGED %s %s requested %s final %s\n", k, where[k], r, f
	}
}
