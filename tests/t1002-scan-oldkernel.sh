#!/bin/sh
# 2.6.24-era flag evaluation: __GFP_WAIT, __GFP_RECLAIMABLE 0x80000u, no
# ___GFP_ layer, allocflags_to_migratetype() numbering from mmzone.h.
. "$(dirname "$0")/lib.sh"

tree=$SRC_DIR/examples/oldkernel
db=$TMP/old.db
ok "scan of the 2.6.24 fixture succeeds" "$GFPAUDIT" scan --db "$db" "$tree"
mask() {
	sql "$db" "SELECT printf('0x%x', gfp_mask) || ' ' || migratetype FROM sites WHERE $1"
}
is "$(sql "$db" "SELECT kernel_version FROM runs")" 2.6.24-rc1 "version from the Makefile"
is "$(mask "function = 'follow_link_buf'")" "0x800d0 reclaimable" \
	"GFP_TEMPORARY = __GFP_WAIT|IO|FS|RECLAIMABLE (0x80000u)"
is "$(mask "function = 'alloc_user_page'")" "0x1200d2 movable" \
	"GFP_HIGHUSER_MOVABLE: MIGRATE_MOVABLE is 2 in 2.6.24"
is "$(mask "function = 'alloc_odd_page'")" "0x1800d0 reserve" \
	"both mobility bits: index 3, MIGRATE_RESERVE in 2.6.24"
is "$(mask "path = 'arch/powerpc/kernel/rtas.c' AND flags = 'GFP_KERNEL'")" \
	"0xd0 unmovable" "GFP_KERNEL of 2.6.24"
is "$(sql "$db" "SELECT in_disabled_branch FROM sites WHERE path = 'arch/powerpc/kernel/rtas.c' ORDER BY line")" \
	"1
0" "#ifdef CONFIG_PPC64 branch inactive without a config"
is "$(mask "api = 'kmem_cache_create'")" "0x60000 reclaimable" \
	"2.6.24 slab flags: SLAB_RECLAIM_ACCOUNT 0x00020000UL"
is "$(sql "$db" "SELECT api || ' ' || macro FROM sites WHERE path = 'fs/namei.c' AND line = 4")" \
	"kmem_cache_alloc __getname" "__getname() macro body is a site"
is "$(mask "function = 'getname'")" "0x800d0 reclaimable" \
	"__getname() use evaluated through the macro"
is "$(sql "$db" "SELECT context FROM flag_uses WHERE flag = 'set_migrateflags' ORDER BY path")" "declaration
comment
call_arg" \
	"set_migrateflags: definition, a comment, a use"
is "$(sql "$db" "SELECT context FROM flag_uses WHERE flag = 'GFP_TEMPORARY' AND path = 'include/linux/gfp.h'")" \
	declaration "the old GFP_TEMPORARY definition"

# The 4.x minikernel maps the same bits the 4.x way (movable = 1).
ok "scan of the 4.x minikernel" "$GFPAUDIT" scan --db "$TMP/new.db" "$MINIKERNEL"
is "$(sql "$TMP/new.db" "SELECT printf('0x%x', gfp_mask) || ' ' || migratetype FROM sites WHERE function = 'alloc_ldt_page'")" \
	"0x24000c8 movable" "4.x: ___GFP_MOVABLE 0x08 via GFP_MOVABLE_SHIFT"
done_testing
