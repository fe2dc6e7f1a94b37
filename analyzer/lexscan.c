// SPDX-License-Identifier: GPL-2.0
/*
 * The discovery tier over libclang's tokens.  A structure pass tracks
 * preprocessor directives (with a three-valued #if evaluator for
 * in_disabled_branch), braces and function definitions; then every
 * tracked identifier (also inside comments and string literals) becomes
 * a flag use and every allocator name followed by '(' a site.
 *
 * Raw tokens see both sides of an #if/#else, so an #else branch starts
 * from the brace state of its #if, and #endif continues with the state
 * the first branch ended in (the ctags approach).
 */
#include "analyzer/lexscan.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COND 64
#define MAX_SCAN 4000 /* tokens searched backwards for a context */

struct brace {
	unsigned char kind;
	int fn;
};

struct bstack {
	struct brace *v;
	size_t n, alloc;
};

struct cond {
	int active, taken, parent_active;
	struct bstack at_if, first_end;
	int have_first;
};

static void bs_push(struct bstack *b, unsigned char kind, int fn)
{
	if (b->n == b->alloc) {
		b->alloc = b->alloc ? b->alloc * 2 : 16;
		b->v = xrealloc(b->v, b->alloc * sizeof(*b->v));
	}
	b->v[b->n].kind = kind;
	b->v[b->n++].fn = fn;
}

static void bs_copy(struct bstack *dst, const struct bstack *src)
{
	dst->n = 0;
	while (dst->n < src->n)
		bs_push(dst, src->v[dst->n].kind, src->v[dst->n].fn);
}

static int tok_is(const struct lexfile *lf, unsigned i, const char *s)
{
	const struct tok *t = &lf->toks[i];
	size_t n = strlen(s);

	return t->len == n && !memcmp(lf->buf + t->off, s, n);
}

static int is_punct(const struct lexfile *lf, unsigned i, const char *s)
{
	return lf->toks[i].kind == TK_PUNCT && tok_is(lf, i, s);
}

static int is_word(const struct lexfile *lf, unsigned i)
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
static void pos_of(const struct lexfile *lf, unsigned i, unsigned off,
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
static int prev_code(const struct lexfile *lf, int i)
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

static int next_code(const struct lexfile *lf, int i)
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
static int match_back(const struct lexfile *lf, int i)
{
	const char *close = is_punct(lf, i, ")") ? ")" : "]";
	const char *open = close[0] == ')' ? "(" : "[";
	int depth = 0, n = 0;

	for (; i >= 0 && n < MAX_SCAN; i = prev_code(lf, i), n++) {
		if (is_punct(lf, i, close))
			depth++;
		else if (is_punct(lf, i, open) && --depth == 0)
			return i;
		else if (is_punct(lf, i, "{") || is_punct(lf, i, "}"))
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

/* --- structure pass ----------------------------------------------- */

struct pass {
	struct lexfile *lf;
	const struct menv_ctx *ctx;
	struct bstack braces;
	struct cond conds[MAX_COND];
	int nconds;
	int disabled; /* number of levels known inactive */
};

static int cur_active(const struct pass *p)
{
	int i, a = 1;

	for (i = 0; i < p->nconds; i++) {
		if (p->conds[i].active == 0)
			return 0;
		if (p->conds[i].active < 0)
			a = -1;
	}
	return a;
}

static unsigned directive_end_off(const struct lexfile *lf, unsigned off)
{
	unsigned p = off;

	while (p < lf->len) {
		if (lf->buf[p] == '\n') {
			unsigned q = p;

			if (q > off && lf->buf[q - 1] == '\r')
				q--;
			if (q > off && lf->buf[q - 1] == '\\') {
				p++;
				continue;
			}
			return p;
		}
		p++;
	}
	return (unsigned)lf->len;
}

static void add_dir(struct lexfile *lf, struct directive *d)
{
	lf->dirs = xrealloc(lf->dirs, (lf->ndirs + 1) * sizeof(*d));
	lf->dirs[lf->ndirs++] = *d;
}

/* The condition text of an #if/#elif directive, cleaned. */
static char *cond_text(const struct lexfile *lf, const struct directive *d,
		       unsigned kw)
{
	unsigned start = lf->toks[kw].off + lf->toks[kw].len;
	unsigned end = lf->toks[d->end - 1].off + lf->toks[d->end - 1].len;

	if (d->end - 1 == kw)
		return xstrdup("");
	return pp_clean(lf->buf + start, end - start);
}

static int eval_dir_cond(struct pass *p, const struct directive *d,
			 unsigned kw)
{
	struct lexfile *lf = p->lf;
	char *text;
	int v;

	if (!strcmp(d->kind, "ifdef") || !strcmp(d->kind, "ifndef")) {
		unsigned n = kw + 1;

		if (n >= d->end || !is_word(lf, n))
			return -1;
		text = xasprintf("%sdefined(%.*s)",
				 d->kind[2] == 'n' ? "!" : "",
				 (int)lf->toks[n].len, lf->buf + lf->toks[n].off);
	} else {
		text = cond_text(lf, d, kw);
	}
	v = menv_eval_cond(p->ctx, text, strlen(text));
	free(text);
	return v;
}

static void do_conditional(struct pass *p, const struct directive *d,
			   unsigned kw)
{
	const char *k = d->kind;
	struct cond *c;

	if (!strcmp(k, "if") || !strcmp(k, "ifdef") || !strcmp(k, "ifndef")) {
		int parent = cur_active(p), v = eval_dir_cond(p, d, kw);

		if (p->nconds == MAX_COND)
			return;
		c = &p->conds[p->nconds++];
		c->parent_active = parent;
		c->active = parent == 0 || v == 0 ? 0 :
			    (parent < 0 || v < 0) ? -1 : 1;
		c->taken = v == 1 && parent != 0;
		c->have_first = 0;
		bs_copy(&c->at_if, &p->braces);
		c->first_end.n = 0;
	} else if ((!strcmp(k, "elif") || !strcmp(k, "else") ||
		    !strcmp(k, "elifdef") || !strcmp(k, "elifndef")) &&
		   p->nconds) {
		int v = !strcmp(k, "else") ? 1 : eval_dir_cond(p, d, kw);

		c = &p->conds[p->nconds - 1];
		if (!c->have_first) {
			bs_copy(&c->first_end, &p->braces);
			c->have_first = 1;
		}
		bs_copy(&p->braces, &c->at_if);
		if (c->parent_active == 0 || c->taken || v == 0)
			c->active = 0;
		else
			c->active = (v < 0 || c->active < 0 ||
				     c->parent_active < 0) ? -1 : 1;
		if (v == 1 && c->active == 1)
			c->taken = 1;
	} else if (!strcmp(k, "endif") && p->nconds) {
		c = &p->conds[--p->nconds];
		if (c->have_first)
			bs_copy(&p->braces, &c->first_end);
	}
}

static void do_define(struct pass *p, struct directive *d, unsigned kw)
{
	struct lexfile *lf = p->lf;
	unsigned n = kw + 1, b;
	int active = cur_active(p), fn_like = 0;
	const char *body;
	size_t blen = 0;

	if (n >= d->end || !is_word(lf, n))
		return;
	d->name = (int)n;
	b = n + 1;
	if (b < d->end && is_punct(lf, b, "(") &&
	    lf->toks[b].off == lf->toks[n].off + lf->toks[n].len) {
		fn_like = 1;
		while (b < d->end && !is_punct(lf, b, ")"))
			b++;
		b++;
	}
	d->body = b;
	if (!strcmp(d->kind, "undef")) {
		if (active == 1)
			menv_set(&lf->local, lf->buf + lf->toks[n].off,
				 lf->toks[n].len, NULL, 0, MDEF_UNDEF, 0);
		return;
	}
	if (active == 0)
		return;
	body = lf->buf + lf->toks[n].off + lf->toks[n].len;
	if (b < d->end) {
		body = lf->buf + lf->toks[b].off;
		blen = lf->toks[d->end - 1].off + lf->toks[d->end - 1].len -
		       lf->toks[b].off;
	}
	menv_set(&lf->local, lf->buf + lf->toks[n].off, lf->toks[n].len, body,
		 blen, active == 1 ? MDEF_DEFINED : MDEF_MAYBE, fn_like);
}

/* Token I is a '#' starting a line: record the directive, return its end. */
static unsigned do_directive(struct pass *p, unsigned i)
{
	struct lexfile *lf = p->lf;
	struct directive d = { i, i + 1, "", -1, 0 };
	unsigned end = directive_end_off(lf, lf->toks[i].off), j = i;
	unsigned kw = i + 1;
	int dir = (int)lf->ndirs, dis;

	while (j < lf->ntoks && lf->toks[j].off < end) {
		const struct tok *t = &lf->toks[j];

		/* A comment running past the line end extends the line. */
		if (t->kind == TK_COMMENT && t->off + t->len > end)
			end = directive_end_off(lf, t->off + t->len);
		j++;
	}
	d.end = j;
	while (kw < d.end && lf->toks[kw].kind == TK_COMMENT)
		kw++;
	if (kw < d.end && is_word(lf, kw))
		snprintf(d.kind, sizeof(d.kind), "%.*s",
			 (int)lf->toks[kw].len, lf->buf + lf->toks[kw].off);
	/* The directive line itself belongs to the enclosing state. */
	dis = cur_active(p) == 0;
	if (!strcmp(d.kind, "define") || !strcmp(d.kind, "undef"))
		do_define(p, &d, kw);
	else
		do_conditional(p, &d, kw);
	if (!strcmp(d.kind, "if") || !strcmp(d.kind, "ifdef") ||
	    !strcmp(d.kind, "ifndef") || !strcmp(d.kind, "endif"))
		; /* keep the enclosing state computed above */
	else if (strcmp(d.kind, "define") && strcmp(d.kind, "undef"))
		dis = p->nconds && p->conds[p->nconds - 1].parent_active == 0;
	add_dir(lf, &d);
	for (j = d.first; j < d.end; j++) {
		lf->toks[j].dir = dir;
		lf->toks[j].disabled = (unsigned char)dis;
		lf->toks[j].fn = -1;
		lf->toks[j].brace = BR_NONE;
	}
	return d.end;
}

static int is_allcaps(const struct lexfile *lf, unsigned i)
{
	const struct tok *t = &lf->toks[i];
	unsigned k;

	for (k = 0; k < t->len; k++) {
		char c = lf->buf[t->off + k];

		if (!(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
		    c != '_')
			return 0;
	}
	return 1;
}

/* At a file-scope '{': the function being defined, or -1. */
static int function_at(struct pass *p, unsigned i)
{
	struct lexfile *lf = p->lf;
	int j = prev_code(lf, (int)i), open, n, guard = 0;
	struct lex_func f;

	while (j >= 0 && is_punct(lf, j, ")") && guard++ < 8) {
		open = match_back(lf, j);
		if (open < 0)
			return -1;
		n = prev_code(lf, open);
		if (n < 0 || lf->toks[n].kind != TK_IDENT)
			return -1;
		j = prev_code(lf, n);
		/* f(args) __acquires(x) {: skip the annotation. */
		if (j >= 0 && is_punct(lf, j, ")"))
			continue;
		f.name_tok = (unsigned)n;
		/* SYSCALL_DEFINE2(memfd_create, ...): the name argument. */
		if (is_allcaps(lf, (unsigned)n)) {
			int a = next_code(lf, open);

			if (a >= 0 && lf->toks[a].kind == TK_IDENT)
				f.name_tok = (unsigned)a;
		}
		f.name = xstrndup(lf->buf + lf->toks[f.name_tok].off,
				  lf->toks[f.name_tok].len);
		f.body_open = i;
		f.body_close = (unsigned)lf->ntoks;
		lf->funcs = xrealloc(lf->funcs,
				     (lf->nfuncs + 1) * sizeof(*lf->funcs));
		lf->funcs[lf->nfuncs] = f;
		return (int)lf->nfuncs++;
	}
	return -1;
}

static void open_brace(struct pass *p, unsigned i)
{
	struct lexfile *lf = p->lf;
	struct bstack *b = &p->braces;
	int prev = prev_code(lf, (int)i), fn;
	unsigned char top = b->n ? b->v[b->n - 1].kind : BR_NONE;
	int topfn = b->n ? b->v[b->n - 1].fn : -1;

	if (prev >= 0 && is_punct(lf, prev, "=")) {
		bs_push(b, BR_INIT, topfn);
	} else if (top == BR_INIT || top == BR_AGG) {
		bs_push(b, top, topfn);
	} else if (top == BR_NONE) {
		fn = prev >= 0 && is_punct(lf, prev, ")") ? function_at(p, i) :
							   -1;
		if (fn >= 0)
			bs_push(b, BR_FUNC, fn);
		else if (prev >= 0 && is_word(lf, prev))
			bs_push(b, BR_AGG, -1);
		else
			bs_push(b, BR_BLOCK, -1);
	} else {
		bs_push(b, BR_BLOCK, topfn);
	}
}

static void close_brace(struct pass *p, unsigned i)
{
	struct bstack *b = &p->braces;

	if (!b->n)
		return;
	b->n--;
	if (b->v[b->n].kind == BR_FUNC && b->v[b->n].fn >= 0)
		p->lf->funcs[b->v[b->n].fn].body_close = i;
}

static void structure_pass(struct lexfile *lf, const struct menv_ctx *ctx)
{
	struct pass p;
	unsigned i = 0;
	int k;

	memset(&p, 0, sizeof(p));
	p.lf = lf;
	p.ctx = ctx;
	while (i < lf->ntoks) {
		struct tok *t = &lf->toks[i];
		struct bstack *b = &p.braces;

		if (t->kind == TK_PUNCT && tok_is(lf, i, "#") &&
		    (i == 0 || lf->toks[i - 1].line < t->line ||
		     lf->toks[i - 1].kind == TK_COMMENT)) {
			i = do_directive(&p, i);
			continue;
		}
		t->dir = -1;
		t->disabled = cur_active(&p) == 0;
		t->fn = b->n ? b->v[b->n - 1].fn : -1;
		t->brace = b->n ? b->v[b->n - 1].kind : BR_NONE;
		if (t->kind == TK_PUNCT && tok_is(lf, i, "{"))
			open_brace(&p, i);
		else if (t->kind == TK_PUNCT && tok_is(lf, i, "}"))
			close_brace(&p, i);
		i++;
	}
	for (k = 0; k < MAX_COND; k++) {
		free(p.conds[k].at_if.v);
		free(p.conds[k].first_end.v);
	}
	free(p.braces.v);
}

/* --- flag uses ------------------------------------------------------ */

static char *fn_name(const struct lexfile *lf, int fn)
{
	return fn >= 0 ? xstrdup(lf->funcs[fn].name) : NULL;
}

static char *define_name(const struct lexfile *lf, unsigned i)
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

static void add_use(struct lexfile *lf, unsigned line, unsigned col,
		    int flag, const char *context, unsigned at)
{
	struct flag_use *u;

	if (lf->nuses == lf->uses_alloc) {
		lf->uses_alloc = lf->uses_alloc ? lf->uses_alloc * 2 : 32;
		lf->uses = xrealloc(lf->uses, lf->uses_alloc * sizeof(*u));
	}
	u = &lf->uses[lf->nuses++];
	memset(u, 0, sizeof(*u));
	u->line = line;
	u->col = col;
	u->flag = flag;
	u->context = context;
	u->function = fn_name(lf, lf->toks[at].fn);
	u->disabled = lf->toks[at].disabled;
}

/* Tracked names inside a comment or string literal token. */
static void uses_in_text(struct lexfile *lf, unsigned i,
			 const struct tracked_flags *tf, const char *context)
{
	const struct tok *t = &lf->toks[i];
	const char *s = lf->buf + t->off;
	unsigned k = 0;

	while (k < t->len) {
		unsigned start;
		int f;

		if (!is_ident_start((unsigned char)s[k])) {
			if (s[k] >= '0' && s[k] <= '9')
				while (k < t->len &&
				       is_ident_char((unsigned char)s[k]))
					k++;
			else
				k++;
			continue;
		}
		start = k;
		while (k < t->len && is_ident_char((unsigned char)s[k]))
			k++;
		f = names_get(&tf->set, s + start, k - start);
		if (f >= 0) {
			unsigned line, col;

			pos_of(lf, i, t->off + start, &line, &col);
			add_use(lf, line, col, f, context, i);
			lf->uses[lf->nuses - 1].macro = define_name(lf, i);
		}
	}
}

static int is_control_kw(const struct lexfile *lf, int i)
{
	static const char *const kw[] = { "if", "while", "for", "switch",
					  "return", "case", "do", NULL };
	int k;

	for (k = 0; kw[k]; k++)
		if (tok_is(lf, (unsigned)i, kw[k]))
			return 1;
	return 0;
}

/* The innermost call whose argument list holds token I: its name token. */
static int enclosing_call(const struct lexfile *lf, int i, int lo)
{
	int depth = 0, n = 0, j;

	for (j = prev_code(lf, i); j >= lo && n < MAX_SCAN;
	     j = prev_code(lf, j), n++) {
		if (is_punct(lf, j, ")") || is_punct(lf, j, "]")) {
			depth++;
		} else if (is_punct(lf, j, "(") || is_punct(lf, j, "[")) {
			int name;

			if (depth) {
				depth--;
				continue;
			}
			if (is_punct(lf, j, "["))
				continue;
			name = prev_code(lf, j);
			if (name < lo)
				return -1;
			if (lf->toks[name].kind == TK_IDENT)
				return name;
			if (lf->toks[name].kind == TK_KEYWORD &&
			    is_control_kw(lf, name))
				return -1;
		} else if (!depth && (is_punct(lf, j, ";") ||
				      is_punct(lf, j, "{") ||
				      is_punct(lf, j, "}"))) {
			return -1;
		}
	}
	return -1;
}

static int is_assign_op(const struct lexfile *lf, int i)
{
	static const char *const ops[] = { "=", "|=", "&=", "^=", "+=",
					   "-=", NULL };
	int k;

	if (lf->toks[i].kind != TK_PUNCT)
		return 0;
	for (k = 0; ops[k]; k++)
		if (tok_is(lf, (unsigned)i, ops[k]))
			return 1;
	return 0;
}

/* "initializer", "assignment" or NULL for the expression holding I. */
static const char *assign_context(const struct lexfile *lf, int i, int lo)
{
	int depth = 0, n = 0, j, k, pk;

	if (lf->toks[i].brace == BR_INIT)
		return "initializer";
	for (j = prev_code(lf, i); j >= lo && n < MAX_SCAN;
	     j = prev_code(lf, j), n++) {
		if (is_punct(lf, j, ")") || is_punct(lf, j, "]"))
			depth++;
		else if (is_punct(lf, j, "(") || is_punct(lf, j, "["))
			depth = depth ? depth - 1 : 0;
		else if (!depth && (is_punct(lf, j, ";") || is_punct(lf, j, "{") ||
				    is_punct(lf, j, "}") || is_punct(lf, j, ",")))
			return NULL;
		else if (!depth && is_assign_op(lf, j))
			break;
	}
	if (j < lo || n >= MAX_SCAN)
		return NULL;
	if (!tok_is(lf, (unsigned)j, "="))
		return "assignment";
	k = prev_code(lf, j);
	if (k >= 0 && is_punct(lf, k, "]"))
		k = prev_code(lf, match_back(lf, k));
	if (k < 0 || lf->toks[k].kind != TK_IDENT)
		return "assignment";
	pk = prev_code(lf, k);
	if (pk >= 0 && is_word(lf, pk) && !is_control_kw(lf, pk))
		return "initializer"; /* gfp_t flags = ... */
	if (pk >= 0 && is_punct(lf, pk, "*")) {
		int ppk = prev_code(lf, pk);

		if (ppk >= 0 && is_word(lf, ppk))
			return "initializer";
	}
	return "assignment";
}

/* {(unsigned long)GFP_TEMPORARY, "GFP_TEMPORARY"} or flag_string(X). */
static int is_flag_table(const struct lexfile *lf, int i, int call, int lo)
{
	const struct tok *t = &lf->toks[i];
	int j, n;

	if (call >= 0) {
		const struct tok *c = &lf->toks[call];
		const char *s = lf->buf + c->off;

		if (memmem(s, c->len, "flag", 4) &&
		    ((c->len > 7 && !memcmp(s + c->len - 7, "_string", 7)) ||
		     (c->len > 5 && !memcmp(s + c->len - 5, "_name", 5))))
			return 1;
	}
	for (j = i, n = 0; j >= lo && n < 16; j = prev_code(lf, j), n++) {
		if (is_punct(lf, j, "{")) {
			int k, m;

			for (k = next_code(lf, j), m = 0; k >= 0 && m < 24;
			     k = next_code(lf, k), m++) {
				const struct tok *s = &lf->toks[k];

				if (is_punct(lf, k, "}"))
					break;
				if (s->kind == TK_LITERAL && s->len == t->len + 2 &&
				    !memcmp(lf->buf + s->off + 1,
					    lf->buf + t->off, t->len))
					return 1;
			}
			return 0;
		}
		if (is_punct(lf, j, "}") || is_punct(lf, j, ";"))
			return 0;
	}
	return 0;
}

/* Lowest token index context searches may go back to for token I. */
static int search_floor(const struct lexfile *lf, unsigned i)
{
	const struct tok *t = &lf->toks[i];

	if (t->dir >= 0) {
		const struct directive *d = &lf->dirs[t->dir];

		return d->name >= 0 ? (int)d->body : (int)d->first;
	}
	return 0;
}

static const char *ident_context(struct lexfile *lf, unsigned i,
				 struct flag_use *u)
{
	const struct tok *t = &lf->toks[i];
	int lo = search_floor(lf, i), call, nx;
	char *mac = define_name(lf, i);

	if (t->dir >= 0) {
		const struct directive *d = &lf->dirs[t->dir];

		if (d->name == (int)i) {
			free(mac);
			return "declaration";
		}
		if (!mac)
			return "other"; /* #ifdef __GFP_MOVABLE and the like */
	}
	u->macro = mac;
	nx = next_code(lf, (int)i);
	if (!mac && t->brace == BR_NONE && nx >= 0 && is_punct(lf, nx, "(")) {
		int pv = prev_code(lf, (int)i);

		if (pv >= 0 && (is_word(lf, pv) || is_punct(lf, pv, "*")))
			return "declaration"; /* int set_migrateflags(...) */
	}
	call = enclosing_call(lf, (int)i, lo);
	if (call >= 0)
		u->call = xstrndup(lf->buf + lf->toks[call].off,
				   lf->toks[call].len);
	if (is_flag_table(lf, (int)i, call, lo))
		return "flag_table";
	if (mac)
		return "macro_def";
	if (call >= 0)
		return "call_arg";
	return assign_context(lf, (int)i, lo) ?: "other";
}

static void find_uses(struct lexfile *lf, const struct tracked_flags *tf)
{
	unsigned i;

	for (i = 0; i < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];
		int f;

		if (t->kind == TK_COMMENT) {
			uses_in_text(lf, i, tf, "comment");
			continue;
		}
		if (t->kind == TK_LITERAL) {
			if (memchr(lf->buf + t->off, '"', t->len))
				uses_in_text(lf, i, tf, "string_table");
			continue;
		}
		if (t->kind != TK_IDENT && t->kind != TK_KEYWORD)
			continue;
		f = names_get(&tf->set, lf->buf + t->off, t->len);
		if (f < 0)
			continue;
		add_use(lf, t->line, t->col, f, "other", i);
		lf->uses[lf->nuses - 1].context =
			ident_context(lf, i, &lf->uses[lf->nuses - 1]);
	}
}

/* --- sites ---------------------------------------------------------- */

struct arg {
	unsigned a, b; /* token range [a, b) */
};

/* Split the argument list opening at token OPEN; returns the count. */
static int split_args(const struct lexfile *lf, int open, struct arg *args,
		      int max, int *close)
{
	int depth = 0, n = 0, j, start = -1;

	for (j = next_code(lf, open); j >= 0; j = next_code(lf, j)) {
		if (is_punct(lf, j, "(") || is_punct(lf, j, "[") ||
		    is_punct(lf, j, "{")) {
			depth++;
		} else if (is_punct(lf, j, ")") || is_punct(lf, j, "]") ||
			   is_punct(lf, j, "}")) {
			if (depth-- == 0)
				break;
		} else if (depth == 0 && is_punct(lf, j, ",")) {
			if (n < max)
				args[n] = (struct arg){
					start < 0 ? (unsigned)j : (unsigned)start,
					(unsigned)j };
			n++;
			start = -1;
			continue;
		} else if (depth == 0 && is_punct(lf, j, ";")) {
			break; /* not a call after all (or broken code) */
		}
		if (start < 0)
			start = j;
	}
	*close = j;
	if (j >= 0 && is_punct(lf, j, ")") && (start >= 0 || n > 0)) {
		if (n < max)
			args[n] = (struct arg){
				start < 0 ? (unsigned)j : (unsigned)start,
				(unsigned)j };
		n++;
	}
	return n;
}

/* End of the expression starting at token A (at ';' or ',' depth 0). */
static int expr_end(const struct lexfile *lf, int a, int limit)
{
	int depth = 0, j;

	for (j = a; j >= 0 && j < limit; j = next_code(lf, j)) {
		if (is_punct(lf, j, "(") || is_punct(lf, j, "[") ||
		    is_punct(lf, j, "{"))
			depth++;
		else if (is_punct(lf, j, ")") || is_punct(lf, j, "]") ||
			 is_punct(lf, j, "}")) {
			if (depth-- == 0)
				return j;
		} else if (!depth && (is_punct(lf, j, ";") ||
				      is_punct(lf, j, ",")))
			return j;
	}
	return j < 0 ? limit : j;
}

/*
 * flags passed through a local variable: the last `VAR = expr` before the
 * call in the same function, with later `VAR |= x` / `VAR &= x` folded in.
 */
static void resolve_via(struct lexfile *lf, struct lex_site *ls,
			const struct arg *ga)
{
	const struct tok *v = &lf->toks[ga->a];
	const struct lex_func *f;
	struct strbuf sb = STRBUF_INIT;
	char *ops[16], *rhs[16];
	int nops = 0, j, k, found = 0;

	if (ls->fn < 0 || v->kind != TK_IDENT || next_code(lf, ga->a) != (int)ga->b)
		return;
	if (menv_get(&lf->local, lf->buf + v->off, v->len))
		return;
	f = &lf->funcs[ls->fn];
	for (j = (int)ls->tok - 1; j > (int)f->body_open && !found; j--) {
		const struct tok *t = &lf->toks[j];
		int op, pv, end;

		if (t->kind != TK_IDENT || t->len != v->len ||
		    memcmp(lf->buf + t->off, lf->buf + v->off, v->len) ||
		    t->dir >= 0)
			continue;
		op = next_code(lf, j);
		pv = prev_code(lf, j);
		if (op < 0 || !is_assign_op(lf, op) ||
		    (pv >= 0 && (is_punct(lf, pv, ".") ||
				 is_punct(lf, pv, "->"))))
			continue;
		end = expr_end(lf, next_code(lf, op), (int)ls->tok);
		if (tok_is(lf, (unsigned)op, "="))
			found = 1;
		if (nops < 16) {
			ops[nops] = xstrndup(lf->buf + lf->toks[op].off, 1);
			rhs[nops++] = lex_text(lf, (unsigned)next_code(lf, op),
					       (unsigned)end);
		}
	}
	if (found) {
		/* ops[nops-1] is the plain assignment; fold the rest. */
		sb_adds(&sb, rhs[nops - 1]);
		for (k = nops - 2; k >= 0; k--) {
			char *prev = sb_detach(&sb);

			sb_addf(&sb, "(%s) %s %s", prev, ops[k], rhs[k]);
			free(prev);
		}
		ls->s.flags_via = xstrndup(lf->buf + v->off, v->len);
		ls->s.flags_resolved = sb_detach(&sb);
	}
	for (k = 0; k < nops; k++) {
		free(ops[k]);
		free(rhs[k]);
	}
}

static struct lex_site *new_site(struct lexfile *lf)
{
	struct lex_site *ls;

	if (lf->nsites == lf->sites_alloc) {
		lf->sites_alloc = lf->sites_alloc ? lf->sites_alloc * 2 : 16;
		lf->sites = xrealloc(lf->sites,
				     lf->sites_alloc * sizeof(*lf->sites));
	}
	ls = &lf->sites[lf->nsites++];
	memset(ls, 0, sizeof(*ls));
	ls->s.gfp_arg = -1;
	ls->s.held_across_sleep = -1;
	ls->s.flag_effective = -1;
	return ls;
}

/* Is the allocator name at I a call (not a prototype or a member)? */
static int is_call_site(const struct lexfile *lf, unsigned i, int *open)
{
	const struct tok *t = &lf->toks[i];
	int pv = prev_code(lf, (int)i);

	*open = next_code(lf, (int)i);
	if (*open < 0 || !is_punct(lf, *open, "("))
		return 0;
	if (pv >= 0 && (is_punct(lf, pv, ".") || is_punct(lf, pv, "->")))
		return 0;
	if (t->dir >= 0) {
		const struct directive *d = &lf->dirs[t->dir];

		return !strcmp(d->kind, "define") && d->name != (int)i;
	}
	/* At file scope `void *kmalloc(size_t, gfp_t)` is a declaration. */
	if (t->brace == BR_NONE || t->brace == BR_AGG)
		return !(pv >= 0 && (is_word(lf, pv) || is_punct(lf, pv, "*") ||
				     is_punct(lf, pv, ")")));
	return 1;
}

static void add_site(struct lexfile *lf, unsigned i,
		     const struct alloc_fn *af, int open)
{
	struct arg args[16];
	struct lex_site *ls;
	int nargs, close;
	const struct tok *t = &lf->toks[i];

	nargs = split_args(lf, open, args, 16, &close);
	ls = new_site(lf);
	ls->tok = i;
	ls->off = t->off;
	ls->fn = t->fn;
	ls->afn = af;
	ls->s.path = xstrdup(lf->path);
	ls->s.line = t->line;
	ls->s.col = t->col;
	ls->s.function = fn_name(lf, t->fn);
	ls->s.api = xstrdup(af->name);
	ls->s.api_origin = af->learned ? "learned" : "builtin";
	ls->s.gfp_arg = af->gfp_arg;
	ls->s.macro = define_name(lf, i);
	ls->s.in_disabled_branch = t->disabled;
	if (af->gfp_arg >= 0 && af->gfp_arg < nargs && af->gfp_arg < 16) {
		const struct arg *ga = &args[af->gfp_arg];

		ls->s.flags = lex_text(lf, ga->a, ga->b);
		ls->s.flags_line = lf->toks[ga->a].line;
		ls->s.flags_col = lf->toks[ga->a].col;
		resolve_via(lf, ls, ga);
	}
	if (af->size_arg >= 0 && af->size_arg < nargs && af->size_arg < 16)
		ls->s.size = lex_text(lf, args[af->size_arg].a,
				      args[af->size_arg].b);
}

static void find_sites(struct lexfile *lf, const struct alloc_table *at)
{
	unsigned i;

	for (i = 0; i < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];
		const struct alloc_fn *af;
		int open;

		if (t->kind != TK_IDENT)
			continue;
		af = alloc_lookup(at, lf->buf + t->off, t->len);
		if (!af || af->kind == AK_FREE || !is_call_site(lf, i, &open))
			continue;
		add_site(lf, i, af, open);
		/* A learned macro defined here is handled by find_macro_sites. */
		if (af->learned && af->family && !strcmp(af->family, "macro") &&
		    menv_get(&lf->local, af->name, strlen(af->name)))
			site_release(&lf->sites[--lf->nsites].s);
	}
}

/* Parameter index of NAME (possibly in parentheses) in define D, or -1. */
static int param_index(const struct lexfile *lf, const struct directive *d,
		       const char *text)
{
	size_t n = strlen(text);
	unsigned j;
	int k = 0;

	while (n > 2 && text[0] == '(' && text[n - 1] == ')') {
		text++;
		n -= 2;
	}
	for (j = (unsigned)d->name + 2; j < d->body && j < d->end; j++) {
		const struct tok *t = &lf->toks[j];

		if (t->kind == TK_IDENT || t->kind == TK_KEYWORD) {
			if (t->len == n && !memcmp(lf->buf + t->off, text, n))
				return k;
			k++;
		}
	}
	return -1;
}

static void learn_macros(struct lexfile *lf, const struct alloc_table *at)
{
	size_t i, nsites = lf->nsites;

	for (i = 0; i < nsites; i++) {
		struct lex_site *ls = &lf->sites[i];
		const struct directive *d;
		const struct alloc_fn *g;
		struct alloc_fn a = { 0 };

		if (!ls->s.macro || lf->toks[ls->tok].dir < 0)
			continue;
		d = &lf->dirs[lf->toks[ls->tok].dir];
		if (d->body <= (unsigned)d->name + 1 ||
		    !is_punct(lf, (unsigned)d->name + 1, "(") ||
		    alloc_lookup(&lf->macros, ls->s.macro, strlen(ls->s.macro)))
			continue;
		g = alloc_lookup(at, ls->s.macro, strlen(ls->s.macro));
		if (g && !g->learned)
			continue; /* builtin entries win */
		a.name = ls->s.macro;
		a.kind = ls->afn->kind == AK_CACHE_CREATE ? AK_CACHE_CREATE :
							     AK_ALLOC;
		a.family = "macro";
		a.gfp_arg = ls->s.flags ? param_index(lf, d, ls->s.flags) : -1;
		a.size_arg = ls->s.size ? param_index(lf, d, ls->s.size) : -1;
		a.ptr_arg = -1;
		a.learned = 1;
		a.via = ls->s.api;
		alloc_table_add(&lf->macros, &a);
		lf->macro_line = xrealloc(lf->macro_line,
					  lf->macros.n * sizeof(unsigned));
		lf->macro_site = xrealloc(lf->macro_site,
					  lf->macros.n * sizeof(size_t));
		lf->macro_line[lf->macros.n - 1] = lf->toks[d->name].line;
		lf->macro_site[lf->macros.n - 1] = i;
	}
}

static int has_site_at(const struct lexfile *lf, unsigned off)
{
	size_t i;

	for (i = 0; i < lf->nsites; i++)
		if (lf->sites[i].off == off)
			return 1;
	return 0;
}

/* Uses of this file's allocator macros are sites of their own. */
static void find_macro_sites(struct lexfile *lf)
{
	size_t nsites = lf->nsites;
	unsigned i;

	for (i = 0; i < lf->ntoks && lf->macros.n; i++) {
		const struct tok *t = &lf->toks[i];
		const struct alloc_fn *af;
		int open, at;
		struct lex_site *ls;
		const struct site *body;

		if (t->kind != TK_IDENT)
			continue;
		af = alloc_lookup(&lf->macros, lf->buf + t->off, t->len);
		if (!af || !is_call_site(lf, i, &open) ||
		    has_site_at(lf, t->off))
			continue;
		at = names_get(&lf->macros.index, af->name, strlen(af->name));
		add_site(lf, i, af, open);
		ls = &lf->sites[lf->nsites - 1];
		body = &lf->sites[lf->macro_site[at]].s;
		/* Hard-coded in the macro: the body's flags are the site's. */
		if (af->gfp_arg < 0 && body->flags) {
			ls->s.flags = xstrdup(body->flags);
			ls->s.flags_line = body->flags_line;
			ls->s.flags_col = body->flags_col;
		}
	}
	(void)nsites;
}

static int by_offset(const void *a, const void *b)
{
	const struct lex_site *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
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
	struct menv_ctx ctx = { &lf->local, NULL, config };

	(void)tree_env;
	menv_init(&lf->local);
	structure_pass(lf, &ctx);
	find_uses(lf, tracked);
	alloc_table_init(&lf->macros);
	find_sites(lf, allocs);
	learn_macros(lf, allocs);
	find_macro_sites(lf);
	if (lf->nsites)
		qsort(lf->sites, lf->nsites, sizeof(*lf->sites), by_offset);
}

void site_release(struct site *s)
{
	free(s->path);
	free(s->function);
	free(s->api);
	free(s->flags);
	free(s->flags_via);
	free(s->flags_resolved);
	free(s->size);
	free(s->macro);
	free(s->lifetime_evidence);
	free(s->sleep_evidence);
	free(s->context_evidence);
	free(s->gfp_param);
	free(s->flag_effective_reason);
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
	if (lf->macros.index.cap)
		alloc_table_free(&lf->macros);
	free(lf->macro_line);
	free(lf->macro_site);
	memset(lf, 0, sizeof(*lf));
}
