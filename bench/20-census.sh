#!/bin/sh
# bench 20: the full-AST census.  `gfpaudit scan --depth full` over the
# translation units of a 6.1 x86_64 LLVM=1 defconfig against
# `clang -fsyntax-only` on the same TUs with the same argv, at the same -j,
# in one run (target: gfpaudit <= 1.1x clang, CPU time).
#
# The per-TU argv is kbuild's own: `make LLVM=1 -n DIR/...` prints the
# recipe of every object of those directories without compiling anything
# (the copy is only `make LLVM=1 defconfig prepare`d), and the compiler
# command is the first `;`-separated part of each `CC` recipe containing
# ` -c -o `.  scripts/clang-tools/gen_compile_commands.py would give the
# same argv, but it reads the .cmd files a build leaves, i.e. it needs the
# directories compiled first.  From each command `-Wp,-MMD,DEP` is dropped
# for both sides (it would make both write dependency files into the
# tree); clang gets `-fsyntax-only` instead of `-c -o OBJ`, gfpaudit the
# command as a compile_commands.json entry.
#
# Printed twice: over every TU of CENSUS_DIRS (gfpaudit's prefilter
# records the TUs with no tracked name and no allocator call without
# parsing them), and over the TUs it parsed in full (files.parse_mode =
# 'compile_commands'), both sides run again on just those; and once more
# with clang given -w, as gfpaudit parses with -w (no warnings, so none of
# clang's CFG-based warning analyses): for information, no target.
#
# A scan restricted to PATHs into an empty database first learns the
# allocator macros and wrappers of the rest of the tree (one thread, the
# lexical tier over all 55k files: 81.5 s wall for a single TU when
# measured); a whole-tree census pays that in its own passes instead.  So
# that the restricted scan costs what its TUs cost in a whole-tree scan,
# each timed scan starts from a copy of a database holding a complete
# whole-tree scan (`--depth lexical`, untimed; CENSUS_SEED=DB reuses one,
# it is copied and never written), which skips that learning.
. "$(dirname "$0")/lib.sh"
CENSUS_DIRS=${CENSUS_DIRS:-fs/proc kernel/sched mm}
CLANG=${CLANG:-clang}

for p in make "$CLANG" ld.lld flex bison bc; do
	command -v "$p" >/dev/null 2>&1 || {
		result census-vs-clang skipped "<=1.1x" "$p not installed"
		exit 0
	}
done
tree=$(linux61_copy linux-6.1-llvm sh -c \
	'make -s LLVM=1 defconfig >/dev/null && make -s LLVM=1 prepare >/dev/null') || {
	result census-vs-clang skipped "<=1.1x" "no 6.1 tree, or LLVM=1 defconfig prepare failed"
	exit 0
}

# kbuild's commands for the objects of CENSUS_DIRS: one line per TU,
# "SRC<TAB>COMMAND".
dirs=
for d in $CENSUS_DIRS; do
	dirs="$dirs ${d%/}/"
done
# shellcheck disable=SC2086
(cd "$tree" && make LLVM=1 -n $dirs) >"$TMP/make-n" 2>"$TMP/make-n.err" || {
	tail -5 "$TMP/make-n.err" >&2
	result census-vs-clang failed "<=1.1x" "make LLVM=1 -n$dirs failed"
	exit 0
}
awk -v dirs="$CENSUS_DIRS" '
	BEGIN { nd = split(dirs, d, " ") }
	/echo .  CC      / {
		n = split($0, part, ";")
		for (i = 1; i <= n; i++)
			if (part[i] ~ / -c -o /)
				break
		if (i > n)
			next
		cmd = part[i]
		sub(/^[ \t]+/, "", cmd)
		sub(/[ \t]+$/, "", cmd)
		src = cmd
		sub(/.* /, "", src)
		sub(/^\.\//, "", src)
		if (src !~ /\.c$/)
			next
		for (k = 1; k <= nd; k++) {
			p = d[k]
			sub(/\/$/, "", p)
			if (index(src, p "/") == 1 || src == p) {
				sub(/ -Wp,-MMD,[^ ]*/, "", cmd)
				print src "\t" cmd
				break
			}
		}
	}' "$TMP/make-n" | sort -u >"$TMP/tus"
ntu=$(wc -l <"$TMP/tus" | tr -d ' ')
[ "$ntu" -gt 0 ] || {
	result census-vs-clang failed "<=1.1x" "no CC command for $CENSUS_DIRS in make -n"
	exit 0
}

# compile_commands.json of a TU list (file of "SRC<TAB>COMMAND" lines).
ccjson() {
	awk -F'\t' -v dir="$tree" '
		function esc(s) { gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); return s }
		BEGIN { print "[" }
		{ printf "%s{\"directory\": \"%s\", \"file\": \"%s\", \"command\": \"%s\"}\n",
			(NR > 1 ? "," : ""), esc(dir), esc($1), esc($2) }
		END { print "]" }' "$1"
}
# clang_scripts TUS DIR [FLAG]: one shell script per TU running clang
# -fsyntax-only [FLAG] on it; a TU that clang rejects is named on stderr.
clang_scripts() {
	rm -rf "$2"
	mkdir "$2"
	awk -F'\t' -v out="$2" -v cc="$CLANG" -v extra="${3:-}" '{
		cmd = $2
		sub(/ -c -o [^ ]*/, " -fsyntax-only" (extra == "" ? "" : " " extra), cmd)
		sub(/^[^ ]+/, cc, cmd)
		f = sprintf("%s/%05d.sh", out, NR)
		printf "%s || echo \"clang failed: %s\" >&2\n", cmd, $1 >f
		close(f)
	}' "$1"
}
# "wall user+sys" of a command, children included (GNU time).
timed() {
	/usr/bin/time -f '%e %U %S' -o "$TMP/time" "$@"
	_rc=$?
	tail -1 "$TMP/time" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
	return $_rc
}
seed=${CENSUS_SEED:-}
if [ -z "$seed" ]; then
	seed=$TMP/seed.db
	echo "seed: gfpaudit scan --depth lexical of the whole tree (untimed)"
	"$GFPAUDIT" scan --depth lexical -j "$JOBS" --no-progress --db "$seed" \
		"$tree" 2>"$TMP/seed.err" || {
		tail -5 "$TMP/seed.err" >&2
		result census-vs-clang failed "<=1.1x" "seed scan failed"
		exit 0
	}
	sed 's/^/  /' "$TMP/seed.err" | tail -1
fi

# Both sides read the same headers: have them in the page cache first.
# shellcheck disable=SC2086
# (through cat: GNU tar reads nothing when its output is /dev/null)
(cd "$tree" && tar cf - include arch/x86/include $CENSUS_DIRS) 2>/dev/null | cat >/dev/null

# pair NAME TUS [FLAG]: clang [with FLAG] then gfpaudit on the TU list;
# sets t_clang t_scan ("wall cpu") and prints both.
pair() {
	ccjson "$2" >"$TMP/$1.json"
	clang_scripts "$2" "$TMP/$1.cc" "${3:-}"
	cp "$seed" "$TMP/$1.db"
	t_clang=$(timed sh -c 'run() { cd "$1" && ls "$2"/*.sh |
		xargs -P "$3" -n 1 sh; }; run "$@"' sh "$tree" "$TMP/$1.cc" "$JOBS" \
		2>"$TMP/$1.clang.err")
	# shellcheck disable=SC2046 # the TU paths are words
	t_scan=$(timed "$GFPAUDIT" scan --depth full -j "$JOBS" --force \
		--no-progress --db "$TMP/$1.db" --compile-commands "$TMP/$1.json" \
		"$tree" $(cut -f1 "$2") 2>"$TMP/$1.scan.err") ||
		sed "s/^/  scan: /" "$TMP/$1.scan.err" | tail -5
	bad=$(grep -c '^clang failed' "$TMP/$1.clang.err")
	n=$(wc -l <"$2" | tr -d ' ')
	printf '%s: %s TUs, -j %s\n' "$1" "$n" "$JOBS"
	printf '  clang -fsyntax-only%s: %s s wall, %s s CPU (%s TUs rejected)\n' \
		"${3:+ $3}" "${t_clang% *}" "${t_clang#* }" "$bad"
	printf '  gfpaudit scan --depth full: %s s wall, %s s CPU\n' \
		"${t_scan% *}" "${t_scan#* }"
	printf '  %s\n' "$(grep '^gfpaudit scan:' "$TMP/$1.scan.err" | tail -1)"
	cpu_ratio=$(awk -v a="${t_scan#* }" -v b="${t_clang#* }" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	wall_ratio=$(awk -v a="${t_scan% *}" -v b="${t_clang% *}" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	printf '  ratio gfpaudit/clang: %sx CPU, %sx wall\n' "$cpu_ratio" "$wall_ratio"
}

pair all "$TMP/tus"
sql "$TMP/all.db" "SELECT parse_mode, count(*) FROM files GROUP BY 1" |
	sed 's/^/  parse_mode /'
sql "$TMP/all.db" "SELECT path FROM files WHERE parse_mode = 'compile_commands'" |
	sort >"$TMP/full.paths"
nfull=$(wc -l <"$TMP/full.paths" | tr -d ' ')
ndiag=$(sql "$TMP/all.db" "SELECT count(*) FROM files WHERE parse_mode = 'compile_commands' AND diagnostics > 0")
printf '  %s of %s TUs parsed in full (%s with error diagnostics)\n' \
	"$nfull" "$ntu" "$ndiag"
result "census vs clang, $ntu TUs of $CENSUS_DIRS" "${cpu_ratio}x CPU" "<=1.1x" \
	"wall ${wall_ratio}x; clang ${t_clang#* }s, scan ${t_scan#* }s CPU; -j $JOBS"

if [ "$nfull" -gt 0 ] && [ "$nfull" -lt "$ntu" ]; then
	join -t '	' "$TMP/full.paths" "$TMP/tus" >"$TMP/tus.full"
	pair parsed "$TMP/tus.full"
	result "census vs clang, the $nfull TUs parsed in full" \
		"${cpu_ratio}x CPU" "<=1.1x" \
		"wall ${wall_ratio}x; clang ${t_clang#* }s, scan ${t_scan#* }s CPU; -j $JOBS"
	# gfpaudit parses with -w (no warnings): what the warnings cost clang.
	pair parsed-w "$TMP/tus.full" -w
	result "census vs clang -w, the $nfull TUs parsed in full" \
		"${cpu_ratio}x CPU" "-" \
		"wall ${wall_ratio}x; clang -w ${t_clang#* }s, scan ${t_scan#* }s CPU; -j $JOBS"
fi
