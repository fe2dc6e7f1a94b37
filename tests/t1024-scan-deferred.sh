#!/bin/sh
# Files that cannot define an allocator wait for those that can
# (analyzer/learn.c): a caller of a wrapper is analysed once, with the
# wrapper known, instead of once without it and again in a learned pass.
# The rows must be those of every caller, wrappers of wrappers included.
. "$(dirname "$0")/lib.sh"

tree=$TMP/tree
mkdir -p "$tree/include/linux" "$tree/lib" "$tree/drivers"
cp "$MINIKERNEL/Makefile" "$tree/"
cp "$MINIKERNEL/include/linux/gfp.h" "$tree/include/linux/"
# A wrapper function, a wrapper of it (no builtin allocator in its file),
# and an allocator macro in a header.
printf '%s\n' \
	'void *wrap_alloc(size_t n, gfp_t gfp)' \
	'{' \
	'	return kmalloc(n, gfp);' \
	'}' >"$tree/lib/wrap.c"
printf '%s\n' \
	'void *wrap2_alloc(size_t n, gfp_t gfp)' \
	'{' \
	'	return wrap_alloc(n, gfp);' \
	'}' >"$tree/lib/wrap2.c"
printf '%s\n' \
	'#define tmp_alloc(sz) kmalloc(sz, GFP_TEMPORARY)' \
	>"$tree/include/linux/tmp.h"
# Callers: with a builtin allocator too (deferred by the main pass), with
# only the wrapper (no prefilter name: analysed by a pass), and of the
# wrapper of the wrapper and the macro.
printf '%s\n' \
	'static void *a(void)' \
	'{' \
	'	kfree(kmalloc(4, GFP_KERNEL));' \
	'	return wrap_alloc(8, GFP_TEMPORARY);' \
	'}' >"$tree/drivers/user.c"
printf '%s\n' \
	'static void *b(void)' \
	'{' \
	'	return wrap_alloc(16, GFP_TEMPORARY);' \
	'}' >"$tree/drivers/user2.c"
printf '%s\n' \
	'static void *c(void)' \
	'{' \
	'	kfree(tmp_alloc(2));' \
	'	return wrap2_alloc(32, GFP_TEMPORARY);' \
	'}' >"$tree/drivers/user3.c"

# A static wrapper called in its own file: that file is analysed again.
printf '%s\n' \
	'static void *self_alloc(size_t n, gfp_t gfp)' \
	'{' \
	'	return kmalloc(n, gfp);' \
	'}' \
	'static void *d(void)' \
	'{' \
	'	return self_alloc(64, GFP_TEMPORARY);' \
	'}' >"$tree/drivers/self.c"

ok "scan" "$GFPAUDIT" scan --no-progress --db "$TMP/t.db" "$tree"
is "$(sql "$TMP/t.db" "SELECT path, line, api, api_origin, flags FROM sites
	WHERE path LIKE 'drivers/%' ORDER BY path, line")" \
"drivers/self.c	3	kmalloc	builtin	gfp
drivers/self.c	7	self_alloc	learned	GFP_TEMPORARY
drivers/user.c	3	kmalloc	builtin	GFP_KERNEL
drivers/user.c	4	wrap_alloc	learned	GFP_TEMPORARY
drivers/user2.c	3	wrap_alloc	learned	GFP_TEMPORARY
drivers/user3.c	3	tmp_alloc	learned	
drivers/user3.c	4	wrap2_alloc	learned	GFP_TEMPORARY" \
	"every caller's sites, wrappers of wrappers and macros included"
is "$(sql "$TMP/t.db" "SELECT path, parse_mode FROM files
	WHERE path LIKE 'drivers/%' ORDER BY path")" \
"drivers/self.c	single_file
drivers/user.c	single_file
drivers/user2.c	single_file
drivers/user3.c	single_file" "the callers were parsed"
# The passes re-analyse lib/wrap2.c (the main pass knew none of its
# names, then it teaches one) and drivers/self.c (it calls the wrapper it
# defines), not the files that name what they teach only where they
# define it; the callers the main pass deferred are analysed once.
like "$(cat "$TMP/.out")" ", 2 re-analysed" \
	"only the files that had to be are re-analysed"
done_testing
