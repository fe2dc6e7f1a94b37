// SPDX-License-Identifier: GPL-2.0-only
/// A function that takes a gfp_t from its caller should allocate with it,
/// not with a hard-coded mask of its own: pass the parameter on.
///
//# 4.13's kstrdup_quotable_cmdline(task, gfp) allocated its buffer with
//# GFP_TEMPORARY whatever gfp said, so a GFP_ATOMIC caller could sleep.
//# The base mask (GFP_KERNEL, GFP_TEMPORARY, ...) is replaced; __GFP_
//# modifiers written beside it are kept.  A hard-coded mask may be a
//# deliberate restriction (GFP_NOIO under a block device's own I/O):
//# review each change.  gfpaudit's gfp-param rule finds the same calls
//# from its allocator database (learned wrappers included) and
//# sites.gfp_param.
//
// Confidence: Moderate
// Copyright: (C) 2026 The gfpaudit authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Comments: Companion of rules/gfp-param.rule.
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@depends on patch@
identifier fn, gfp;
identifier alloc =~ "^(kmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|kmemdup|kstrdup|kstrndup|kvmalloc|kvzalloc|kmalloc_node|kzalloc_node|kmem_cache_alloc|kmem_cache_zalloc|__vmalloc|__get_free_pages|get_zeroed_page|alloc_pages)$";
expression list es1, es2;
@@

fn(..., gfp_t gfp, ...)
{
<...
(
 alloc(es1,
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 ,es2)
|
 alloc(es1,
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 )
|
 alloc(
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 ,es2)
|
 alloc(
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 )
)
...>
}

@depends on patch@
identifier fn, gfp;
identifier alloc =~ "^(kmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|kmemdup|kstrdup|kstrndup|kvmalloc|kvzalloc|kmalloc_node|kzalloc_node|kmem_cache_alloc|kmem_cache_zalloc|__vmalloc|__get_free_pages|get_zeroed_page|alloc_pages)$";
expression list es1, es2;
expression E;
@@

fn(..., gfp_t gfp, ...)
{
<...
(
 alloc(es1,
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 | E ,es2)
|
 alloc(es1,
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 | E )
|
 alloc(
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 | E ,es2)
|
 alloc(
- \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
+ gfp
 | E )
)
...>
}

@r depends on !patch exists@
identifier fn, gfp;
identifier alloc =~ "^(kmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|kmemdup|kstrdup|kstrndup|kvmalloc|kvzalloc|kmalloc_node|kzalloc_node|kmem_cache_alloc|kmem_cache_zalloc|__vmalloc|__get_free_pages|get_zeroed_page|alloc_pages)$";
expression list es1, es2;
position p;
@@

fn(..., gfp_t gfp, ...)
{
... when any
(
* alloc@p(es1,
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
  ,es2)
|
* alloc@p(es1,
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
  )
|
* alloc@p(
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
  ,es2)
|
* alloc@p(
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\)
  )
)
... when any
}

@r2 depends on !patch exists@
identifier fn, gfp;
identifier alloc =~ "^(kmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|kmemdup|kstrdup|kstrndup|kvmalloc|kvzalloc|kmalloc_node|kzalloc_node|kmem_cache_alloc|kmem_cache_zalloc|__vmalloc|__get_free_pages|get_zeroed_page|alloc_pages)$";
expression list es1, es2;
expression E;
position p;
@@

fn(..., gfp_t gfp, ...)
{
... when any
(
* alloc@p(es1,
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\) | E
  ,es2)
|
* alloc@p(es1,
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\) | E
  )
|
* alloc@p(
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\) | E
  ,es2)
|
* alloc@p(
  \(GFP_KERNEL\|GFP_TEMPORARY\|GFP_NOFS\|GFP_NOIO\|GFP_ATOMIC\|GFP_NOWAIT\|GFP_USER\) | E
  )
)
... when any
}

@script:python depends on org@
p << r.p;
gfp << r.gfp;
@@

coccilib.org.print_todo(p[0], "hard-coded flags; the caller's gfp_t is %s" % gfp)

@script:python depends on org@
p << r2.p;
gfp << r2.gfp;
@@

coccilib.org.print_todo(p[0], "hard-coded flags; the caller's gfp_t is %s" % gfp)

@script:python depends on report@
p << r.p;
gfp << r.gfp;
@@

coccilib.report.print_report(p[0], "hard-coded flags; the caller's gfp_t is %s" % gfp)

@script:python depends on report@
p << r2.p;
gfp << r2.gfp;
@@

coccilib.report.print_report(p[0], "hard-coded flags; the caller's gfp_t is %s" % gfp)
