// SPDX-License-Identifier: GPL-2.0-only
/// Drop __GFP_RECLAIMABLE from kmalloc-family calls: before v4.20 kmalloc
/// ignored the mobility bits of its gfp mask, so the flag has no effect.
///
//# Only apply to trees older than v4.20 (the kmalloc-reclaimable caches
//# came with 4.20, commit 1291523f2c1d); gfpaudit's reclaimable-noop rule
//# decides per site from the scanned version.  Page allocator calls are
//# not matched: there the flag does pick the migratetype.
//
// Confidence: Moderate
// Copyright: (C) 2026 The gfpaudit authors.
// Comments: Companion of rules/reclaimable-noop.rule.
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@depends on patch@
identifier alloc =~ "^(kmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|kmemdup|kstrdup|kstrndup)$";
expression list es;
expression F;
@@

 alloc(es,
- F | __GFP_RECLAIMABLE
+ F
 )

@depends on patch@
identifier alloc =~ "^(kmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|kmemdup|kstrdup|kstrndup)$";
expression list es;
@@

 alloc(es,
- GFP_TEMPORARY
+ GFP_KERNEL
 )

@r depends on !patch@
identifier alloc =~ "^(kmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|kmemdup|kstrdup|kstrndup)$";
expression list es;
expression F;
position p;
@@

(
* alloc@p(es, F | __GFP_RECLAIMABLE)
|
* alloc@p(es, GFP_TEMPORARY)
)

@script:python depends on org@
p << r.p;
@@

coccilib.org.print_todo(p[0], "__GFP_RECLAIMABLE has no effect on kmalloc before v4.20")

@script:python depends on report@
p << r.p;
@@

coccilib.report.print_report(p[0], "__GFP_RECLAIMABLE has no effect on kmalloc before v4.20")
