/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_TUFACTS_H
#define GFPAUDIT_TUFACTS_H

/*
 * Facts about the functions of one translation unit that several
 * classifiers need, computed once per TU (from the AST when there is
 * one): which functions may sleep (directly, or through another
 * function of the TU, transitively), which free their first parameter
 * (free wrappers), and which run in atomic context (registered as an irq
 * handler, timer or tasklet, or returning irqreturn_t).  Also a memo for
 * per-site results of shared analyses.
 */

#include "analyzer/walker.h"

struct fn_fact {
	char *name;
	unsigned line;
	char *sleeps;	   /* "msleep() at line 12", NULL: not known to */
	char *frees_param; /* free wrapper: the free it calls */
	char *atomic;	   /* "registered with request_irq() at line 85" */
	int irq_handler;   /* returns irqreturn_t */
	int threaded;	   /* registered as a threaded irq handler */
};

/*
 * The walker's one visit of the TU's function bodies records the facts:
 * each function definition FN (tu_facts_function(): 1 when it is one of
 * the main file's, whose calls to record), each call in its body
 * (tu_facts_call()), then tu_facts_done() solves them, before any
 * classifier runs.  A second visit of every body for these was about 3 %
 * of the CPU of a scan (libclang walking the cursors).
 */
int tu_facts_function(struct walk_ctx *w, CXCursor fn);
void tu_facts_call(struct walk_ctx *w, CXCursor call);
void tu_facts_done(struct walk_ctx *w);
/* Facts of W's TU (none without an AST); owned by W. */
const struct tu_facts *tu_facts_get(struct walk_ctx *w);

/* This TU's function NAME, or NULL. */
const struct fn_fact *tu_fact(const struct tu_facts *f, const char *name);
/* All of them, in file order. */
size_t tu_fact_count(const struct tu_facts *f);
const struct fn_fact *tu_fact_at(const struct tu_facts *f, size_t i);

/*
 * Whether a call to NAME may sleep: a known sleeper, a sleeping function
 * of this TU, or an allocator whose flags argument (GFP_TEXT, may be NULL)
 * allows direct reclaim.  EVIDENCE (may be NULL) gets why, malloc'd.
 */
int call_may_sleep(struct walk_ctx *w, const char *name, const char *gfp_text);
/* Free function NAME (builtin, learned or of this TU): its pointer arg. */
int call_frees(struct walk_ctx *w, const char *name);
/*
 * The argument NAME frees when it is a free of the tables
 * (data/allocators.txt, a learned free macro), not a wrapper that may
 * free on some paths only; else -1.
 */
int table_free_arg(struct walk_ctx *w, const char *name);

/* 1 when a gfp expression as written allows direct reclaim. */
int gfp_text_may_sleep(const char *text);
/* 1 when a condition in TEXT picks between flags that sleep and not. */
int gfp_text_path_picks(const char *text);
/*
 * May a call of allocator A with GFP_TEXT (its gfp_t argument's text)
 * sleep?  1 or 0; -1 when it takes no gfp_t and its flags are not known.
 */
struct alloc_fn;
int alloc_call_may_sleep(const struct alloc_fn *a, const char *gfp_text);

/* Per-site memo: the value stored for KEY, or NULL. */
void *tu_memo_get(struct walk_ctx *w, const void *key);
void tu_memo_put(struct walk_ctx *w, const void *key, void *val,
		 void (*release)(void *));

/* Called by the walker after tu_end. */
void tu_facts_free(struct walk_ctx *w);

#endif
