// SPDX-License-Identifier: GPL-2.0
/*
 * The discovery tier over libclang's tokens.  A structure pass tracks
 * preprocessor directives (with a three-valued #if evaluator for
 * in_disabled_branch), braces and function definitions; then every
 * tracked identifier (also inside comments and string literals) becomes
 * a flag use and every allocator name followed by '(' a site.  This
 * file has the token helpers and the driver; lexstruct.c the structure
 * pass, lexuses.c the flag uses, lexsites.c the sites.
 */
#include "analyzer/lexscan.h"
#include "analyzer/lexint.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lx_tok_is(const struct lexfile *lf, unsigned i, const char *s)
{
	const struct tok *t = &lf->toks[i];

	return mem_is(lf->buf + t->off, t->len, s);
}

int lx_is_punct(const struct lexfile *lf, unsigned i, const char *s)
{
	return lf->toks[i].kind == TK_PUNCT && lx_tok_is(lf, i, s);
}

int lx_is_word(const struct lexfile *lf, unsigned i)
{
	return lf->toks[i].kind == TK_IDENT || lf->toks[i].kind == TK_KEYWORD;
}

void lex_fill_lines(struct lexfile *lf)
{
	unsigned line = 1, ls = 0, pos = 0;
	size_t i;

	for (i = 0; i < lf->ntoks; i++) {
		struct tok *t = &lf->toks[i];

		while (pos < t->off && pos < lf->len) {
			if (lf->buf[pos] == '\n') {
				line++;
				ls = pos + 1;
			}
			pos++;
		}
		t->line = line;
		t->col = t->off - ls + 1;
	}
}

/* Line and column of byte offset OFF, counting from token I's position. */
void lx_pos_of(const struct lexfile *lf, unsigned i, unsigned off,
		   unsigned *line, unsigned *col)
{
	const struct tok *t = &lf->toks[i];
	unsigned l = t->line, c = t->col, p;

	for (p = t->off; p < off; p++) {
		if (lf->buf[p] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/*
 * Previous / next code token (no comments) within the same region: the
 * same directive's tokens when I is in one, else the non-directive tokens.
 */
int lx_prev_code(const struct lexfile *lf, int i)
{
	int dir = lf->toks[i].dir;
	int lo = dir >= 0 ? (int)lf->dirs[dir].first : 0;

	while (--i >= lo) {
		const struct tok *t = &lf->toks[i];

		if (t->kind != TK_COMMENT && t->dir == dir)
			return i;
	}
	return -1;
}

int lx_next_code(const struct lexfile *lf, int i)
{
	int dir = lf->toks[i].dir;
	int hi = dir >= 0 ? (int)lf->dirs[dir].end : (int)lf->ntoks;

	while (++i < hi) {
		const struct tok *t = &lf->toks[i];

		if (t->kind != TK_COMMENT && t->dir == dir)
			return i;
	}
	return -1;
}

/* Matching bracket of the closer at I, scanning backwards. */
int lx_match_back(const struct lexfile *lf, int i)
{
	const char *close = lx_is_punct(lf, i, ")") ? ")" : "]";
	const char *open = close[0] == ')' ? "(" : "[";
	int depth = 0, n = 0;

	for (; i >= 0 && n < MAX_SCAN; i = lx_prev_code(lf, i), n++) {
		if (lx_is_punct(lf, i, close))
			depth++;
		else if (lx_is_punct(lf, i, open) && --depth == 0)
			return i;
		else if (lx_is_punct(lf, i, "{") || lx_is_punct(lf, i, "}"))
			return -1;
	}
	return -1;
}

char *lex_text(const struct lexfile *lf, unsigned a, unsigned b)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned i, last_end = 0;
	int first = 1;

	for (i = a; i < b && i < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];

		if (t->kind == TK_COMMENT || t->dir != lf->toks[a].dir)
			continue;
		if (!first && t->off > last_end)
			sb_addc(&sb, ' ');
		sb_add(&sb, lf->buf + t->off, t->len);
		last_end = t->off + t->len;
		first = 0;
	}
	if (!sb.buf)
		return xstrdup("");
	return sb_detach(&sb);
}

char *lx_fn_name(const struct lexfile *lf, int fn)
{
	return fn >= 0 ? xstrdup(lf->funcs[fn].name) : NULL;
}

char *lx_define_name(const struct lexfile *lf, unsigned i)
{
	const struct directive *d;

	if (lf->toks[i].dir < 0)
		return NULL;
	d = &lf->dirs[lf->toks[i].dir];
	if (strcmp(d->kind, "define") || d->name < 0)
		return NULL;
	return xstrndup(lf->buf + lf->toks[d->name].off,
			lf->toks[d->name].len);
}

int lx_is_control_kw(const struct lexfile *lf, int i)
{
	static const char *const kw[] = { "if", "while", "for", "switch",
					  "return", "case", "do", NULL };
	int k;

	for (k = 0; kw[k]; k++)
		if (lx_tok_is(lf, (unsigned)i, kw[k]))
			return 1;
	return 0;
}

int lx_is_assign_op(const struct lexfile *lf, int i)
{
	static const char *const ops[] = { "=", "|=", "&=", "^=", "+=",
					   "-=", NULL };
	int k;

	if (lf->toks[i].kind != TK_PUNCT)
		return 0;
	for (k = 0; ops[k]; k++)
		if (lx_tok_is(lf, (unsigned)i, ops[k]))
			return 1;
	return 0;
}


void lex_scan(struct lexfile *lf, const struct tracked_flags *tracked,
	      const struct alloc_table *allocs,
	      const struct macro_env *tree_env, const struct kconfig *config)
{
	/*
	 * #if lines see the file's own macros and the configuration, not
	 * the gfp headers: their include guards would hide those very
	 * headers, and other files only see them through #include.
	 */
	struct menv_ctx ctx = { &lf->local, NULL, config, NULL, NULL };

	(void)tree_env;
	menv_init(&lf->local);
	menv_init(&lf->undone);
	lx_structure_pass(lf, &ctx);
	lx_find_uses(lf, tracked);
	alloc_table_init(&lf->macros);
	lx_find_sites(lf, allocs);
	lx_learn_macros(lf, allocs);
	lx_learn_free_macros(lf, allocs);
	lx_find_macro_sites(lf);
	if (lf->nsites)
		qsort(lf->sites, lf->nsites, sizeof(*lf->sites), lx_by_offset);
}

void site_release(struct site *s)
{
	/* the site's strings are the SV_STR columns */
#define SV_STR(field) free(s->field);
#define SITE_COL(name, type, decl, value, rule) value
#include "db/sites_cols.h"
}

void lex_drop_tokens(struct lexfile *lf)
{
	size_t i;

	for (i = 0; i < lf->nfuncs; i++)
		free(lf->funcs[i].name);
	free(lf->funcs);
	free(lf->dirs);
	free(lf->toks);
	lf->funcs = NULL;
	lf->dirs = NULL;
	lf->toks = NULL;
	lf->nfuncs = lf->ndirs = lf->ntoks = 0;
	lf->buf = NULL;
}

void lex_free(struct lexfile *lf)
{
	size_t i;

	for (i = 0; i < lf->nuses; i++) {
		free(lf->uses[i].function);
		free(lf->uses[i].macro);
		free(lf->uses[i].call);
	}
	for (i = 0; i < lf->nsites; i++)
		site_release(&lf->sites[i].s);
	for (i = 0; i < lf->nfuncs; i++)
		free(lf->funcs[i].name);
	free(lf->uses);
	free(lf->sites);
	free(lf->funcs);
	free(lf->dirs);
	free(lf->toks);
	menv_free(&lf->local);
	menv_free(&lf->undone);
	if (lf->macros.index.cap)
		alloc_table_free(&lf->macros);
	free(lf->macro_line);
	free(lf->macro_site);
	memset(lf, 0, sizeof(*lf));
}

