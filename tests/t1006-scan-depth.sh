#!/bin/sh
# The parse tiers: lexical, single (default) and full (the real TU with
# synthesized flags, kbuild flags, or compile_commands.json).
. "$(dirname "$0")/lib.sh"

core="SELECT path, line, col, api, flags, ifnull(gfp_mask, ''), in_disabled_branch
	FROM sites ORDER BY 1, 2, 3"
uses="SELECT path, line, col, flag, context FROM flag_uses ORDER BY 1, 2, 3"
for d in lexical single full; do
	ok "scan --depth $d" "$GFPAUDIT" scan --depth $d --db "$TMP/$d.db" "$MINIKERNEL"
done
is "$(sql "$TMP/lexical.db" "$core")" "$(sql "$TMP/single.db" "$core")" \
	"lexical and single find the same sites"
# Function wrappers are learned from tokens (check_wrapper.c), at every tier.
is "$(sql "$TMP/lexical.db" "SELECT function FROM sites WHERE api = 'drm_malloc_gfp'")" \
	drm_use "lexical: the learned wrapper's caller is a site"
is "$(sql "$TMP/full.db" "$core")" "$(sql "$TMP/single.db" "$core")" \
	"full and single find the same sites"
is "$(sql "$TMP/full.db" "$uses")" "$(sql "$TMP/lexical.db" "$uses")" \
	"every tier finds the same flag uses"
is "$(sql "$TMP/lexical.db" "SELECT DISTINCT confidence FROM sites")" lexical \
	"lexical: confidence lexical"
is "$(sql "$TMP/lexical.db" "SELECT DISTINCT parse_mode FROM files WHERE path LIKE '%.c'")" \
	lexical "lexical: parse_mode lexical"
is "$(sql "$TMP/full.db" "SELECT DISTINCT parse_mode FROM files WHERE path LIKE '%.c'")" \
	synthesized "full, unconfigured tree: synthesized flags"
is "$(sql "$TMP/full.db" "SELECT parse_mode FROM files WHERE path = 'include/linux/gfp.h'")" \
	single_file "full: headers get a single-file parse"
is "$(sql "$TMP/full.db" "SELECT function FROM sites WHERE path = 'mm/shmem.c'")" \
	sys_memfd_create "full: the name clang gives the SYSCALL_DEFINE2 body"
is "$(sql "$TMP/full.db" "SELECT confidence FROM sites WHERE function = 'environ_buf'")" \
	full_ast "full: a call in a function has the full AST"
is "$(sql "$TMP/full.db" "SELECT confidence FROM sites WHERE function = 'getname_old'")" \
	lexical "full: a call under #if 0 has only tokens"
is "$(sql "$TMP/full.db" "SELECT sum(diagnostics) FROM files WHERE path IN ('fs/seq_file.c', 'fs/proc/base.c', 'mm/shmem.c')")" \
	0 "full: files that include what they use parse without errors"

# compile_commands.json: its flags for the files it lists.
t=$TMP/tree
cp -r "$MINIKERNEL" "$t"
cat >"$TMP/cc.json" <<EOF2
[ { "directory": "$t", "file": "fs/seq_file.c",
    "command": "cc -c -Iinclude -D__KERNEL__ -o fs/seq_file.o fs/seq_file.c" },
  { "directory": "$t", "file": "$t/mm/shmem.c",
    "arguments": ["cc", "-c", "-I", "include", "mm/shmem.c"] } ]
EOF2
ok "scan --compile-commands" "$GFPAUDIT" scan --depth full \
	--compile-commands "$TMP/cc.json" --db "$TMP/cc.db" "$t"
is "$(sql "$TMP/cc.db" "SELECT path || ' ' || parse_mode || ' ' || diagnostics FROM files WHERE parse_mode = 'compile_commands' ORDER BY 1")" \
	"fs/seq_file.c compile_commands 0
mm/shmem.c compile_commands 0" "listed files parsed with their own flags"
is "$(sql "$TMP/cc.db" "SELECT parse_mode FROM files WHERE path = 'kernel/fork.c'")" \
	synthesized "unlisted files fall back to synthesized flags"
echo "{ not json" >"$TMP/bad.json"
exit_is 2 "a broken compile_commands.json is refused" "$GFPAUDIT" scan \
	--compile-commands "$TMP/bad.json" --db "$TMP/bad.db" "$t"
like "$(cat "$TMP/.out")" "bad.json" "the error names the file"
exit_is 2 "a missing compile_commands.json is refused" "$GFPAUDIT" scan \
	--compile-commands "$TMP/none.json" --db "$TMP/bad.db" "$t"

# PATH arguments restrict the scan.
ok "scan TREE fs mm/shmem.c" "$GFPAUDIT" scan --db "$TMP/part.db" "$MINIKERNEL" fs mm/shmem.c
is "$(sql "$TMP/part.db" "SELECT count(*) FROM files WHERE path NOT LIKE 'fs/%' AND path != 'mm/shmem.c'")" \
	0 "only the given paths are scanned"
exit_is 2 "a PATH outside the tree is refused" "$GFPAUDIT" scan --db "$TMP/part.db" "$MINIKERNEL" ../etc
done_testing
