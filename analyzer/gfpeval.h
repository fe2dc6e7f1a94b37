/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_GFPEVAL_H
#define GFPAUDIT_GFPEVAL_H

/*
 * Evaluating a site's flags with the scanned tree's own headers:
 * include/linux/gfp_types.h (6.x) or include/linux/gfp.h, slab.h for the
 * SLAB_* cache flags and mmzone.h for the migratetype numbering, then
 * mapping the mobility bits to a migratetype the way that version's
 * allocflags_to_migratetype() (2.6.24) or gfpflags_to_migratetype() /
 * gfp_migratetype() (4.x, 6.x) does.
 */

#include "analyzer/macroenv.h"
#include "analyzer/walker.h"

struct lexfile;

struct gfp_model {
	struct macro_env env;
	int have_gfp;		/* a gfp header was found */
	int shift_style;	/* GFP_MOVABLE_SHIFT present (2.6.26+) */
	unsigned long long movable, reclaimable, slab_reclaim;
	unsigned long long movable_mask, movable_shift;
	/* __GFP_DIRECT_RECLAIM (__GFP_WAIT before 4.4), 0 unknown */
	unsigned long long direct_reclaim;
	char *mt_names[8];	/* migratetype index -> name */
};

/* Read TREE's headers.  Always succeeds; have_gfp says if it found any. */
void gfp_model_load(struct gfp_model *g, const char *tree,
		    const struct kconfig *config);
void gfp_model_free(struct gfp_model *g);

/*
 * -DNAME=VALUE for every gfp, slab and errno constant the headers define
 * with a known value: the single-file tier gives them to libclang so that
 * calls naming them survive its parse (appended to *ARGV).
 */
void gfp_model_defines(const struct gfp_model *g, const struct kconfig *config,
		       char ***argv, int *argc);

/* The migratetype name of MASK, or NULL. */
const char *gfp_migratetype_of(const struct gfp_model *g,
			       unsigned long long mask);

/*
 * Fill s->gfp_mask/mask_known/migratetype and size_const/size_known from
 * the site's text, looking names up in the file's own macros (LOCAL, and
 * UNDONE for a name an #undef removed after its use), its own headers
 * (NEAR, may be NULL) and then the tree's.  CACHE_CREATE: the flags are
 * slab flags.
 */
void gfp_eval_site(const struct gfp_model *g, const struct macro_env *local,
		   const struct macro_env *undone, const struct macro_env *near,
		   const struct kconfig *config, struct site *s,
		   int cache_create);

/*
 * The #defines of the headers that the file LF (scanned, of TREE)
 * includes itself, into NEAR: a driver's own flag macros
 * (`#include "xprt_rdma.h"`, beside it) or a subsystem's
 * (`#include <linux/f2fs_fs.h>`, in the tree's include/).
 */
void gfp_near_headers(struct macro_env *near, const char *tree,
		      const struct lexfile *lf, const struct kconfig *config);

#endif
