// SPDX-License-Identifier: GPL-2.0-only
/// GFP_TEMPORARY is GFP_KERNEL | __GFP_RECLAIMABLE and was removed in
/// v4.14 (commit 0ee931c4e31a, "treewide: remove GFP_TEMPORARY allocation
/// flag"): use GFP_KERNEL.
///
//# Nothing defines how "temporary" a GFP_TEMPORARY allocation is, and
//# none of its users provides a way to reclaim the memory that
//# __GFP_RECLAIMABLE promises.  This semantic patch converts the uses; the
//# flag's own #define and its flag-name table entries (tracepoints, perf
//# kmem) are removed by `gfpaudit patch --rule gfp-temporary`, which also
//# converts the uses inside macro bodies and comments that spatch does not
//# see.
//
// Confidence: High
// Copyright: (C) 2026 The gfpaudit authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Comments: Companion of rules/gfp-temporary.rule.
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@depends on patch@
@@

- GFP_TEMPORARY
+ GFP_KERNEL

@r depends on !patch@
position p;
@@

* GFP_TEMPORARY@p

@script:python depends on org@
p << r.p;
@@

coccilib.org.print_todo(p[0], "GFP_TEMPORARY was removed in v4.14; use GFP_KERNEL")

@script:python depends on report@
p << r.p;
@@

coccilib.report.print_report(p[0], "GFP_TEMPORARY was removed in v4.14; use GFP_KERNEL")
