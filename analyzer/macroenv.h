/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_MACROENV_H
#define GFPAUDIT_MACROENV_H

#include "analyzer/names.h"
#include "analyzer/ppexpr.h"

/*
 * Macro environments: the object-like macros (and enum constants) of the
 * scanned tree's gfp headers, of include/generated/autoconf.h, and of the
 * file being scanned, so that `#if` lines and flag expressions can be
 * evaluated the way that kernel version would.
 */

enum mdef_state { MDEF_UNDEF = 0, MDEF_DEFINED = 1, MDEF_MAYBE = 2 };

struct mdef {
	char *body; /* cleaned replacement text */
	enum mdef_state state;
	int function_like;
};

struct macro_env {
	struct name_set idx;
	struct mdef *defs;
	size_t n, alloc;
};

/* CONFIG_* options of a configured tree (autoconf.h), or none. */
struct kconfig {
	int configured;
	struct macro_env opts;
};

void menv_init(struct macro_env *m);
void menv_free(struct macro_env *m);
void menv_set(struct macro_env *m, const char *name, size_t len,
	      const char *body, size_t blen, enum mdef_state st, int fn_like);
const struct mdef *menv_get(const struct macro_env *m, const char *name,
			    size_t len);

/*
 * Evaluation context: identifiers are looked up in `local` (may be NULL),
 * then `tree`, then CONFIG_* in `config`.
 */
struct menv_ctx {
	const struct macro_env *local;
	const struct macro_env *tree;
	const struct kconfig *config;
	/* a name `local` has #undef'd: its last definition (may be NULL) */
	const struct macro_env *undone;
	/* after `local`, before `tree`: the file's own headers (may be NULL) */
	const struct macro_env *near;
};

/* Evaluate S as an #if condition: 1 true, 0 false, -1 unknown. */
int menv_eval_cond(const struct menv_ctx *c, const char *s, size_t len);
/* Evaluate S as a value (undefined names are unknown): 1 known, 0 not. */
int menv_eval_value(const struct menv_ctx *c, const char *s, size_t len,
		    unsigned long long *out);

/*
 * Read the #defines (and enum constants) of a header into M, honouring
 * its #if/#ifdef branches as far as CONFIG says.  Missing file: -1.
 */
int menv_read_header(struct macro_env *m, const char *path,
		     const struct kconfig *config);

/* Load TREE/include/generated/autoconf.h when present. */
void kconfig_load(struct kconfig *k, const char *tree);
void kconfig_free(struct kconfig *k);

#endif
