/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_DB_LABELS_H
#define GFPAUDIT_DB_LABELS_H

/*
 * The values sites.lifetime and sites.context may hold (docs/schema.md,
 * docs/classifiers.md), defined once.  The database refuses any other
 * through triggers (db/schema.c, migration 4 -> 5); a migration is never
 * edited once released, so those spell the lists out, and
 * tests/unit/test_db.c checks that they are these.  A new value is a new
 * entry here and a new migration that recreates the triggers.
 */
#define SITE_LIFETIMES(X)                                                 \
	X(SCOPED, "scoped")                                               \
	X(RETURNED, "returned")                                           \
	X(STORED, "stored")                                               \
	X(LEAKED_ON_PATH, "leaked_on_path")                               \
	X(UNKNOWN, "unknown")

#define SITE_CONTEXTS(X)                                                  \
	X(ATOMIC, "atomic")                                               \
	X(PROCESS, "process")                                             \
	X(UNKNOWN, "unknown")

enum site_lifetime {
#define SITE_LIFETIME_ENUM(e, s) LIFETIME_##e,
	SITE_LIFETIMES(SITE_LIFETIME_ENUM)
#undef SITE_LIFETIME_ENUM
	LIFETIME_COUNT
};

enum site_context {
#define SITE_CONTEXT_ENUM(e, s) CONTEXT_##e,
	SITE_CONTEXTS(SITE_CONTEXT_ENUM)
#undef SITE_CONTEXT_ENUM
	CONTEXT_COUNT
};

extern const char *const site_lifetime_names[LIFETIME_COUNT];
extern const char *const site_context_names[CONTEXT_COUNT];

/* The enum value of NAME, or -1 when NAME (or NULL) is none of them. */
int site_lifetime_of(const char *name);
int site_context_of(const char *name);

#endif
