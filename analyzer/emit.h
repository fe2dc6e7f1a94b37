/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_EMIT_H
#define GFPAUDIT_EMIT_H

/* Rows produced by classifiers through emit_*(), kept until written. */

#include <stddef.h>

struct emit_alloc {
	char *name, *kind, *family, *via;
	int gfp_arg, size_arg;
	unsigned line;
};

struct emit_sleeper {
	char *function, *evidence;
	unsigned line;
};

struct emit_cache {
	unsigned line, col;
	char *variable, *name, *flags, *evidence;
	int reclaimable, has_shrinker;
};

struct emit_finding {
	char *rule, *severity, *message, *suggestion;
	unsigned line, col;
};

/* A `file_facts` row: what a tree-level link step joins across files. */
struct emit_fact {
	char *kind, *name, *function;
	unsigned line;
};

struct walk_emit {
	struct emit_alloc *allocs;
	size_t nallocs;
	struct emit_sleeper *sleepers;
	size_t nsleepers;
	struct emit_cache *caches;
	size_t ncaches;
	struct emit_finding *findings;
	size_t nfindings;
	struct emit_fact *facts;
	size_t nfacts;
};

void walk_emit_free(struct walk_emit *e);

#endif
