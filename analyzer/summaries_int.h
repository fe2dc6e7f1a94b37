/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_SUMMARIES_INT_H
#define GFPAUDIT_SUMMARIES_INT_H

/*
 * The call graph the summaries step solves (summaries.c: may sleep;
 * summaries_ctx.c: atomic context from the callers), one node per
 * `functions` row.
 */

#include "analyzer/names.h"
#include "lib/util.h"

#include <sqlite3.h>

#define MAX_CHAIN 8

struct fn {
	long long rowid, file_id;
	char *name, *path, *sleeps, *callees, *old_via;
	char *atomic_callees, *params, *old_use;
	char *callbacks; /* `call/name ...`: functions.callbacks */
	int is_static, old_may, may; /* old_may: -1 NULL */
	int actx, old_actx;	     /* atomic context from every caller */
	int actx_via;		     /* a caller that holds the section */
	/* functions.drop_line, unlocked_callees, is_init */
	int drop_line, is_init;
	char *unlocked_callees;
	/*
	 * A root of atomic context: "registered with request_irq() at
	 * drivers/x/y.c:85" (summaries_ctx.c), or NULL.  `thread`: handed
	 * to a `thread` registration somewhere, never a root.
	 */
	const char *actx_reg;
	int thread;
	int boot; /* handed to a `boot` table: runs while booting */
	int via;		     /* the callee it sleeps through, -1 */
	/*
	 * functions.gfp_sleeps and gfp_calls; gsleep: the parameter whose
	 * flags decide whether it sleeps (-1 none), gvia: the callee it
	 * hands that parameter to, -1 for an allocator (summaries_gfp.c).
	 */
	char *gfp_sleeps, *gfp_calls;
	int gsleep, gvia;
	int next;		     /* next definition with its key */
};

struct graph {
	struct fn *f;
	size_t n;
	char *chunks, *chunk_at; /* the strings of f (summaries.c) */
	size_t chunk_left;
	struct name_set global, statics, hstatics; /* key -> first def */
	struct name_set static_names; /* names some file defines static */
	/*
	 * Names no "may sleep" goes through: allocators and the kernel's
	 * frees (their flags decide, at the call; a free wrapper learned
	 * from the tree sleeps as its body does) and functions called
	 * inside an atomic section somewhere (they must not sleep).
	 */
	struct name_set allocs, atomic_called;
	int *rev_start, *rev; /* callers of j: rev[rev_start[j]..[j+1]) */
	/*
	 * Calls through a member (`ops->fn()`, callee `.fn`): the functions
	 * assigned to a member of that name anywhere (file_facts
	 * member_inits): mt[k] a definition assigned to member mt_member[k]
	 * (an index of `members`).
	 */
	struct name_set members;
	int *mt, *mt_member;
	int *m_start, *m_targets; /* by member: m_targets[m_start[m]..[m+1]) */
	size_t nmt;
	signed char *member_may; /* by member: 1 when most targets may sleep */
	int *member_via;	 /* by member: a target that may sleep */
	int nmembers;
};

/* A call through member `.NAME` (NAME without the dot) may sleep: via. */
int summaries_member_sleeps(const struct graph *g, const char *name,
			    size_t len);

/* FILE_ID's own static NAME (the first of its chain), or -1. */
int summaries_static_def(const struct graph *g, long long file_id,
			 const char *name, size_t len);

/* The first definition a call of NAME from FILE_ID reaches, or -1. */
int summaries_resolve(const struct graph *g, long long file_id,
		      const char *name, size_t len);

/*
 * Every definition a call reaches: the static of the file alone, else
 * all global (or header-static) definitions of the name.
 */
#define FOR_EACH_DEF(g, j, first)                                              \
	for (j = (first); j >= 0;                                              \
	     j = (g)->f[j].is_static && !str_has_suffix((g)->f[j].path, ".h")  \
			 ? -1                                                  \
			 : (g)->f[j].next)

/*
 * The definition of NAME that FILE_ID holds (the function a site of that
 * file is in: two drivers' global vnic_dev_fw_info() are two functions),
 * or -1: a file of tools/ has no summaries, and a namesake elsewhere in
 * the tree is another program's function.
 */
int summaries_def_in(const struct graph *g, long long file_id,
		     const char *name, size_t len);

/* Index the definitions by name (statics by file and name). */
void summaries_index_defs(struct graph *g);
/* The callers of each definition: rev_start and rev. */
void summaries_build_reverse(struct graph *g);
/* Names in a callees list, one at a time: the length, 0 at the end. */
size_t summaries_next_callee(const char **p);

/* How long a run of whole directories paths A and B begin with. */
size_t summaries_shared_dirs(const char *a, const char *b);

/* 1 when NAME is a word of the space-separated LIST (may be NULL). */
int summaries_in_list(const char *list, const char *name);

/* A copy of S that lives as long as G's strings. */
char *summaries_strdup(struct graph *g, const char *s);

/*
 * The functions registered as atomic callbacks anywhere in the tree
 * (file_facts FACT_CALLBACKS): atomic before the solve, their
 * registration as evidence.
 */
int summaries_ctx_roots(sqlite3 *db, struct graph *g);
/* Solve atomic_context over the callers, then update the sites. */
void summaries_solve_ctx(struct graph *g);
int summaries_update_ctx(sqlite3 *db, const struct graph *g);

/*
 * Sleeps the flags decide (summaries_gfp.c): each function's gsleep, and
 * "sleeps" for one that passes flags that allow direct reclaim to a
 * function that sleeps by them.  Before the solve of "may sleep".
 */
void summaries_solve_gfp(struct graph *g);
/*
 * The call of NAME at LINE in function FJ, when it passes flags that
 * allow direct reclaim to a function that sleeps by them: the evidence
 * (to free), else NULL.
 */
char *summaries_gfp_held(const struct graph *g, int fj, const char *name,
			 int line);

/*
 * Does every caller of J pass flags that allow direct reclaim as the
 * gfp_t parameter J sleeps by (directly, or handing on their own whose
 * callers all do)?  MEMO: g->n bytes, zeroed, kept across calls.  *VIA:
 * one such caller.
 */
int summaries_gfp_callers_reclaim(const struct graph *g, int j,
				  unsigned char *memo, int *via);

/* check_shrinker.c's directory answers, recomputed (its link step). */
int shrinker_link(sqlite3 *db);

/* Mark the caches a reclaim hook's calls free (summaries_reclaim.c). */
int summaries_reclaim(sqlite3 *db, const struct graph *g);

/*
 * functions.params solved over the graph (summaries_param.c): reads only
 * the definitions' and members' indexes and the functions' params, so it
 * may run beside the other solves.  summaries_param_use() gives function
 * I's functions.param_use (one letter a parameter, B F U S or -) into
 * BUF of SIZE bytes, and returns its length; summaries_params_write()
 * the lifetime of the sites that hand over (P NULL: not solved, -1).
 */
struct params;
struct params *summaries_params_solve(const struct graph *g);
size_t summaries_param_use(const struct params *p, size_t i, char *buf,
			   size_t size);
int summaries_params_write(sqlite3 *db, const struct graph *g,
			   const struct params *p);
void summaries_params_free(struct params *p);

#endif
