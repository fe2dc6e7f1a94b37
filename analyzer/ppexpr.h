/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PPEXPR_H
#define GFPAUDIT_PPEXPR_H

#include <stddef.h>

/*
 * A small C constant-expression evaluator for preprocessor conditions and
 * flag expressions (`GFP_KERNEL | __GFP_RECLAIMABLE`, `((__force gfp_t)
 * 0x80000u)`).  Identifiers are resolved through callbacks, so the same
 * code evaluates `#if` lines against a file's own macros and site flags
 * against the scanned tree's gfp headers.  Results are three-valued: a
 * value, or "unknown" (an identifier nobody could resolve).
 */

enum pp_res { PP_UNKNOWN = 0, PP_KNOWN = 1, PP_UNDEFINED = 2 };

struct pp_eval {
	/*
	 * Value of identifier NAME: PP_KNOWN with *out set, PP_UNDEFINED
	 * (evaluates as 0 in #if, unknown in flag expressions), or
	 * PP_UNKNOWN.  DEPTH guards recursive macro expansion.
	 */
	enum pp_res (*ident)(struct pp_eval *e, const char *name, size_t len,
			     unsigned long long *out);
	/* `defined NAME`: PP_KNOWN with 1/0, or PP_UNKNOWN. */
	enum pp_res (*defined)(struct pp_eval *e, const char *name,
			       size_t len, unsigned long long *out);
	void *ctx;
	int depth;
	int undefined_is_zero; /* #if semantics */
};

/* Evaluate S[0..len): 1 with *out set, 0 when unknown or malformed. */
int pp_eval(struct pp_eval *e, const char *s, size_t len,
	    unsigned long long *out);

/*
 * Strip comments and backslash-newlines from S[0..len) into a new
 * NUL-terminated string (for macro bodies and directive text).
 */
char *pp_clean(const char *s, size_t len);

#endif
