#!/bin/sh
# gfpaudit validate proves, or says inconclusive (issue 17): a file that
# cannot compile as checked (as many errors before the series as after)
# is not a pass; the exit status and the per-file summary say so, and a
# real failure in such a file still fails.  A .c that another .c
# #includes is checked through its includer.
. "$(dirname "$0")/lib.sh"

command -v clang >/dev/null 2>&1 || skip_all "clang is not installed"
T=$TMP/t
cp -R "$MINIKERNEL" "$T"
cp -R "$SRC_DIR/tests/fixtures/validate/." "$T"
rm -f "$T/README"
db=$TMP/v.db
"$TOOLS/mkdb" "$db"

# series NAME FILE SED...: a one-patch series editing FILE of the tree.
git_id="-c user.name=T -c user.email=t@example.org"
series() {
	s_name=$1 s_file=$2
	shift 2
	rm -rf "$TMP/r"
	mkdir -p "$TMP/r/$(dirname "$s_file")"
	cp "$T/$s_file" "$TMP/r/$s_file"
	(cd "$TMP/r" && git init -q && git add -A &&
		git $git_id commit -qm base && sed -i "$@" "$s_file" &&
		git $git_id commit -qam "$s_name" &&
		git format-patch -q -o "$TMP/$s_name" HEAD~1)
}

# 1. A file written against an API the headers lack.
series old drivers/misc/oldapi.c 's/GFP_TEMPORARY/GFP_KERNEL/'
"$GFPAUDIT" validate --db "$db" --no-checkpatch --no-sparse "$TMP/old" "$T" \
	>"$TMP/out" 2>"$TMP/err"
is "$?" 4 "a file with as many errors before as after: exit 4, not 0"
out=$(cat "$TMP/out")
like "$out" "drivers/misc/oldapi.c +compile +inconclusive +no new errors, but the file does not compile as checked \\(([0-9]+) errors before the series, \\1 after; shimmed headers\\)" \
	"its compile check is inconclusive, not pass"
like "$out" "^files: 0 pass, 0 fail, 1 inconclusive, 0 not checked$" \
	"the summary counts it per file"
like "$(cat "$TMP/err")" "validate: [0-9]+ checks, 0 failed, 1 inconclusive" \
	"stderr counts it"
is "$(sql "$db" "SELECT result FROM validations WHERE path = 'drivers/misc/oldapi.c' AND check_name = 'compile' AND detail NOT LIKE 'names:%'")" \
	inconclusive "and stores it"

# 2. A new error in such a file is still a failure.
series oldbad drivers/misc/oldapi.c 's/GFP_TEMPORARY/GFP_KENREL/'
"$GFPAUDIT" validate --db "$db" --no-checkpatch --no-sparse "$TMP/oldbad" "$T" \
	>"$TMP/out" 2>"$TMP/err"
is "$?" 1 "a typo in it fails: exit 1"
like "$(cat "$TMP/out")" "drivers/misc/oldapi.c +compile +fail +1 new error\\(s\\): 7: use of undeclared identifier 'GFP_KENREL'" \
	"naming the new error"
like "$(cat "$TMP/out")" "^files: 0 pass, 1 fail, 0 inconclusive, 0 not checked$" \
	"the summary counts the failure"

# 2b. A tool that dies proves nothing either (a sparse that segfaults).
mkdir "$TMP/bin"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$TMP/bin/sparse"
chmod +x "$TMP/bin/sparse"
PATH=$TMP/bin:$PATH "$GFPAUDIT" validate --db "$db" --no-checkpatch \
	--no-compile "$TMP/old" "$T" >"$TMP/out" 2>"$TMP/err"
is "$?" 4 "a sparse killed by a signal: exit 4"
like "$(cat "$TMP/out")" "drivers/misc/oldapi.c +sparse +inconclusive +sparse was killed by signal 11 \(before the series\)" \
	"its sparse check is inconclusive"

# 3. A file that compiles passes; a header is not checked (see impact).
series good drivers/misc/tmpbuf.c 's/GFP_TEMPORARY)/GFP_KERNEL)/'
"$GFPAUDIT" validate --db "$db" --no-checkpatch --no-sparse "$TMP/good" "$T" \
	>"$TMP/out" 2>"$TMP/err"
is "$?" 0 "a file that compiles before and after passes: exit 0"
like "$(cat "$TMP/out")" "^files: 1 pass, 0 fail, 0 inconclusive, 0 not checked$" \
	"the summary counts the pass"
# 4. A .c that another .c #includes (4.13's i915 selftests): alone it
# knows no type and no GFP_KERNEL, so GFP_TEMPORARY -> GFP_KERNEL was "a
# new error"; through its includer, with CONFIG_DRM_I915_SELFTEST (the
# #include's guard) defined, it compiles.
I=drivers/gpu/drm/i915/selftests/intel_uncore.c
series inc $I 's/GFP_TEMPORARY/GFP_KERNEL/'
"$GFPAUDIT" validate --db "$db" --no-checkpatch "$TMP/inc" "$T" \
	>"$TMP/out" 2>"$TMP/err"
is "$?" 0 "the upstream change to an #included .c validates"
out=$(cat "$TMP/out")
like "$out" "$I +compile +pass +no new errors \\(0 before, 0 after; shimmed headers; through drivers/gpu/drm/i915/intel_uncore.c\\)" \
	"it is compiled through its includer"
like "$out" "$I +compile +pass +names: every new identifier is declared: GFP_KERNEL" \
	"the names check sees the includer's headers"
like "$out" "$I +sparse +pass .*through drivers/gpu/drm/i915/intel_uncore.c" \
	"and so is sparse run"

series incbad $I 's/GFP_TEMPORARY/GFP_KENREL/'
"$GFPAUDIT" validate --db "$db" --no-checkpatch --no-sparse "$TMP/incbad" "$T" \
	>"$TMP/out" 2>"$TMP/err"
is "$?" 1 "a typo in it fails"
like "$(cat "$TMP/out")" "$I +compile +fail +1 new error\\(s\\); through drivers/gpu/drm/i915/intel_uncore.c: 9: use of undeclared identifier 'GFP_KENREL' \\(a line this patch changed\\)" \
	"through the includer, on the file's own line"

# An includer that does not compile it as checked proves nothing.
sed -i 's/^#if IS_ENABLED(CONFIG_DRM_I915_SELFTEST)/#if 0/' \
	"$T/drivers/gpu/drm/i915/intel_uncore.c"
"$GFPAUDIT" validate --db "$db" --no-checkpatch --no-sparse "$TMP/inc" "$T" \
	>"$TMP/out" 2>"$TMP/err"
is "$?" 4 "an #include its guard leaves out: exit 4"
like "$(cat "$TMP/out")" "$I +compile +inconclusive +it cannot be compiled alone, and drivers/gpu/drm/i915/intel_uncore.c, which #includes it at line 17, does not compile it as checked" \
	"inconclusive, naming the includer"
done_testing
