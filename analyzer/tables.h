/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_TABLES_H
#define GFPAUDIT_TABLES_H

/*
 * The analyzer's data files: data/tracked-flags.txt (the tracked flag
 * names) and data/allocators.txt (allocator and free functions).  Their
 * format is documented in the files' headers.
 */

#include "analyzer/names.h"

#include <sqlite3.h>
#include <stdio.h>

enum alloc_kind { AK_ALLOC, AK_FREE, AK_CACHE_CREATE };

struct alloc_fn {
	char *name;
	enum alloc_kind kind;
	char *family;
	int gfp_arg;  /* -1: none */
	int size_arg; /* -1: none */
	int ptr_arg;  /* free functions: argument freed; -1 otherwise */
	int learned;  /* origin 'learned' (a wrapper found in the tree) */
	char *via;    /* learned: the allocator it calls */
	char *implied; /* no gfp_t argument: the flags it always uses */
	char *path;    /* learned: the file that defines it (NULL: not known) */
};

struct alloc_table {
	struct alloc_fn *v;
	size_t n, alloc;
	struct name_set index; /* name -> position in v */
};

struct tracked_flags {
	struct name_set set; /* name -> position in names */
	char **names;
	size_t n;
};

const char *alloc_kind_name(enum alloc_kind k);

/*
 * Directory holding the data files (lib/datadir.h: $GFPAUDIT_DATADIR,
 * the install's share/gfpaudit, the source tree's data/).  NULL with a
 * message when none is found.
 */
const char *rules_dir(void);

/*
 * Load a data file; -1 after a one-line error naming file and line.  The
 * *_read() forms read an open stream, NAME only naming it in messages.
 * On failure tracked_flags_*() leave T empty (nothing to free);
 * allocators_*() keep the entries read before the bad line in T.
 */
int tracked_flags_load(const char *path, struct tracked_flags *t);
int tracked_flags_read(FILE *fp, const char *name, struct tracked_flags *t);
int allocators_load(const char *path, struct alloc_table *t);
int allocators_read(FILE *fp, const char *name, struct alloc_table *t);
/* Both from rules_dir(). */
int tables_load_default(struct tracked_flags *t, struct alloc_table *a);

void tracked_flags_free(struct tracked_flags *t);
void alloc_table_init(struct alloc_table *t);
void alloc_table_free(struct alloc_table *t);
/* Add or replace an entry (copies the strings). */
void alloc_table_add(struct alloc_table *t, const struct alloc_fn *f);
const struct alloc_fn *alloc_lookup(const struct alloc_table *t,
				    const char *name, size_t len);

/*
 * Write the builtin entries into the `allocators` table (replacing older
 * builtin rows) and read the learned allocators back into T.  Inside the
 * caller's transaction.  Returns -1 on a database error.
 */
int alloc_table_sync_db(struct alloc_table *t, sqlite3 *db);
/*
 * Only read the learned allocators into T (no write).  Learned free
 * functions are output only: a first scan cannot know them while it
 * analyses, so a later one does not read them either, and a re-scan
 * answers as a first scan does (docs/classifiers.md).
 */
int alloc_table_load_learned(struct alloc_table *t, sqlite3 *db);
size_t alloc_table_builtin_count(const struct alloc_table *t);

/* AT_CALLBACK .. AT_BOOT: registrations (the function a call hands on) */
enum atomic_kind { AT_ENTER, AT_LEAVE, AT_CALLBACK, AT_THREAD, AT_BOOT,
		   AT_MEMBER, AT_KINDS };
enum lifetime_kind {
	LT_STORE,
	LT_BORROW,
	LT_RECLAIM,
	LT_CONVERT,
	LT_EVICT,
	LT_CALLS, /* names_get(): the argument it calls */
	LT_CONSUME,
	LT_PUT, /* names_get(): the argument that points into the object */
	LT_KINDS
};
extern const char *const atomic_kinds[];
extern const char *const lifetime_kinds[];
/* The argument a `store` function keeps (0-based), or -1: not one. */
int lifetime_store_arg(const struct name_set *lifetime, const char *name,
		       size_t len);
/*
 * The argument of a `put` function that points into the object whose
 * reference it drops (kref_put(&obj->kref, release)), or -1.
 */
int lifetime_put_arg(const struct name_set *lifetime, const char *name,
		     size_t len);
/*
 * Is ARG, as written, a put's own object: `p` or `&p->kref` (members of
 * members through `.`), and not a member of an object p points to
 * (`&p->sm_ah->ref` puts the sm_ah)?  Returns the length of p, or 0.
 */
size_t lifetime_put_place(const char *arg);
/* Does NAME only borrow what it is passed (borrow or convert)? */
int lifetime_borrows(const struct name_set *lifetime, const char *name,
		     size_t len);

/*
 * Classifier knowledge files (data/atomic.txt, data/lifetime.txt):
 * lines `KIND NAME [ARG]`, KIND one of the NULL-terminated KINDS.  Each
 * NAME goes into OUT with value kind_index + 16 * ARG.  -1 after a
 * one-line error naming file and line.
 */
int keyed_names_load(const char *path, const char *const *kinds,
		     struct name_set *out);
int keyed_names_read(FILE *fp, const char *name, const char *const *kinds,
		     struct name_set *out);

/*
 * Write BUILTIN (data/sleepers.txt, one name per line, loaded with
 * tracked_flags_load) as the `sleepers` table's builtin rows.  The learned
 * rows are output only: no scan reads them back (fileproc.h).  Inside the
 * caller's transaction.
 */
int sleepers_sync_db(const struct tracked_flags *builtin, sqlite3 *db);

#endif
