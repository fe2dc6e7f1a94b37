/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_FNSUM_H
#define GFPAUDIT_FNSUM_H

/*
 * Whole-tree function summaries, from text.  Whether a buffer is held
 * across a sleep is mostly decided several calls down, often in a file
 * that allocates nothing and that the scan never parses (a helper that
 * copies to user space, takes a mutex, or allocates with GFP_KERNEL).
 * So every file the scan reads, parsed or not, gives one row per
 * function it defines: its name, whether it is static, the functions it
 * calls, and a direct reason to sleep (a call of data/sleepers.txt, or
 * an allocation whose flags allow direct reclaim).  The summaries step
 * (summaries.h) solves "may sleep" over the tree's call graph once all
 * files are in the database.
 *
 * A lexer, not a parser: comments, strings and preprocessor lines are
 * skipped; a function is a name followed by a parenthesised list and a
 * brace at file scope, with no `=` since the previous declaration; a
 * call is a name followed by `(` inside a body (keywords excepted); a
 * call through a member, `.x(` or `->x(`, is listed as `.x`.  A
 * function-like macro that calls something is read as a static function
 * (`NAME(void *args...) { body }`).  Both #if branches are read, as for the sites.
 *
 * Calls made between an `enter` and a `leave` of data/atomic.txt
 * (spin_lock ... spin_unlock) are listed apart: by the kernel's own
 * contract a function called with a lock held somewhere does not sleep,
 * which stops "may sleep" from leaking up through report and error paths
 * (printk -> console_lock) that a call graph read from text cannot
 * tell from the common path.
 */

#include "analyzer/names.h"
#include "analyzer/tables.h"

#include <stddef.h>

struct fn_summary {
	char *name;
	unsigned line;
	int is_static;
	char *sleeps;	      /* "mutex_lock() at line 12", or NULL */
	char *callees;	      /* the called names, each once, space-separated */
	char *atomic_callees; /* those called inside an atomic section */
	/*
	 * `call/name` for each plain name it passes where a `calls` function
	 * of data/lifetime.txt takes the function it calls
	 * (`list_lru_shrink_walk/foo_isolate`, `call_rcu/foo_free_rcu`),
	 * each once, space-separated: a reclaim path reaches them too
	 * (summaries_reclaim.c).  Not callees: the call does not run them
	 * in this function's context, so "may sleep" does not go through.
	 */
	char *callbacks;
	/*
	 * What it does with each parameter, space-separated in order: `-`
	 * (no pointer), else S (stores it: x->f = p, list_add(&p->node)),
	 * F (frees it in a statement of the body's top level), U (returns,
	 * reassigns or aliases it, frees it on some paths only, passes it
	 * through a pointer), B (reads through it), followed by the calls it
	 * is handed to whole: `>name/arg`, or `!name/arg` for a call at the
	 * top level.  The summaries step (summaries_param.c) solves them.
	 */
	char *params;
	/*
	 * Sleeps decided by flags (fnsum_gfp.h): `P name() at line N`, the
	 * allocator it hands its P-th parameter (a gfp_t) as the flags, or
	 * NULL; and, space-separated, the calls that get a gfp_t parameter
	 * (`name/ARG>P`) or flags that allow direct reclaim (`name/ARG@LINE`)
	 * as their ARG-th argument, each once.
	 */
	char *gfp_sleeps, *gfp_calls;
	/*
	 * A lock wrapper: 1 when it opens atomic sections and closes none
	 * (it returns with them open), -1 when it only closes them, else 0.
	 */
	int lock;
	/*
	 * Read in order, the line where it first closes an atomic section
	 * it did not open (0: never): it drops its caller's lock
	 * (`spin_unlock(&l); p = kmalloc(n, GFP_KERNEL); spin_lock(&l);`),
	 * so being called inside a section does not make what follows
	 * atomic; and the names it calls while that lock is dropped, each
	 * once, space-separated (summaries_ctx.c).
	 */
	unsigned drop_line;
	char *unlocked_callees;
	/*
	 * Declared `__init`: it runs while the kernel boots, with
	 * interrupts off in start_kernel() and reclaim masked
	 * (gfp_allowed_mask) until the scheduler runs, when might_sleep()
	 * does not check: a sleeping allocation it reaches with a section
	 * open is no sleep-in-atomic bug.
	 */
	int is_init;
};

struct fn_summaries {
	struct fn_summary *v;
	size_t n;
	/*
	 * `member=target` for each `.member = target` or `x->member =
	 * target;` of the file whose right side is a plain name (a function
	 * a pointer call through that member may reach), space-separated,
	 * each once; NULL when none.
	 */
	char *inits;
	size_t icap;
	/*
	 * `KIND:NAME:API:LINE` for each function NAME the file hands to a
	 * data/atomic.txt `callback` or `thread` call API (KIND, as that file
	 * names it) at LINE, space-separated, each once; NULL when none.  The
	 * function may be defined in another file: the summaries step
	 * resolves it (summaries_ctx.c).
	 */
	char *callbacks;
	size_t ccap;
};

/*
 * The `file_facts` kinds of the rows above (one row per file, NAME `-`,
 * the list in `function`): written by fileproc.c, read by summaries*.c.
 */
#define FACT_MEMBER_INITS "member_inits"
#define FACT_CALLBACKS "callbacks"

/*
 * The functions BUF defines.  SLEEPERS: the names that sleep by
 * themselves; ALLOCS: the allocators, whose flags argument decides;
 * ATOMIC: data/atomic.txt's name sets (enum atomic_kind).
 */
void fnsum_extract(const char *buf, size_t len, const struct name_set *sleepers,
		   const struct alloc_table *allocs,
		   const struct name_set *atomic,
		   const struct name_set *lifetime, struct fn_summaries *out);

/*
 * The `params` of the function whose name is at BUF[DECL], body from the
 * `{` at BODY to the `}` at END; NULL when it has no pointer parameter.
 */
char *fnsum_params(const char *buf, size_t decl, size_t body, size_t end,
		   const struct alloc_table *allocs,
		   const struct name_set *lifetime);
void fnsum_free(struct fn_summaries *s);
/* Is the word P[0..N) in BUF[FROM..TO) (a parameter's name)? */
int fnsum_has_word(const char *buf, size_t from, size_t to, const char *p,
		   size_t n);
/* Add P[0..N) to the space-separated *LIST (capacity *CAP), once. */
void fnsum_add_name(char **list, size_t *cap, const char *p, size_t n);

#endif
