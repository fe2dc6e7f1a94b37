// SPDX-License-Identifier: GPL-2.0-only
/// A cache whose objects a shrinker frees under memory pressure should be
/// created with SLAB_RECLAIM_ACCOUNT: its slabs then come from reclaimable
/// pageblocks and count as SReclaimable instead of fragmenting unmovable
/// pageblocks.
///
//# Only a file that both registers a shrinker and frees the cache's
//# objects (kmem_cache_free(C, ...)) is matched; gfpaudit's
//# shrinker-without-reclaimable rule also links a cache created in one
//# file to the shrinker of another file of its directory.  A shrinker
//# that frees only a few of the cache's objects does not make the cache
//# reclaimable: review each change.
//
// Confidence: Low
// Copyright: (C) 2026 The gfpaudit authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Comments: Companion of rules/shrinker-without-reclaimable.rule.
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@shrinks@
@@

(
register_shrinker(...)
|
shrinker_register(...)
)

@freed@
identifier C;
expression o;
@@

kmem_cache_free(C, o)

@depends on patch && shrinks@
identifier freed.C;
expression N, S, A, F, CT;
@@

 C = kmem_cache_create(N, S, A,
(
 <+... SLAB_RECLAIM_ACCOUNT ...+>
|
- 0
+ SLAB_RECLAIM_ACCOUNT
|
- F
+ F | SLAB_RECLAIM_ACCOUNT
)
 , CT)

@r depends on !patch && shrinks@
identifier freed.C;
expression N, S, A, F, CT;
position p;
@@

(
 C = kmem_cache_create(N, S, A, <+... SLAB_RECLAIM_ACCOUNT ...+>, CT)
|
* C = kmem_cache_create@p(N, S, A, F, CT)
)

@script:python depends on org@
p << r.p;
C << freed.C;
@@

coccilib.org.print_todo(p[0], "%s is freed by a shrinker but lacks SLAB_RECLAIM_ACCOUNT" % C)

@script:python depends on report@
p << r.p;
C << freed.C;
@@

coccilib.report.print_report(p[0], "%s is freed by a shrinker but lacks SLAB_RECLAIM_ACCOUNT" % C)
