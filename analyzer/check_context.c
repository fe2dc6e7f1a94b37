// SPDX-License-Identifier: GPL-2.0
/*
 * sites.context: may the allocating code sleep?  `atomic` when every path
 * to the call holds an atomic section open (data/atomic.txt: spin_lock*,
 * rcu_read_lock, preempt_disable, local_irq_save, ...) or the function is
 * an interrupt or timer callback; `process` when no path does and the
 * flags allow direct reclaim (the author says the code may sleep);
 * `unknown` when only some paths do, or when the flags are GFP_ATOMIC-like
 * or the caller's (`gfp`): then the caller's context decides, and this
 * function does not show it.  The analysis is within the function.
 *
 * A site without an AST (a statement the parse dropped, an inactive #if
 * branch) is read from the function's tokens in order: an atomic section
 * still open at the call makes it `atomic`, else the flags decide.
 *
 * The state is the set of possible nesting depths (bit d: depth d), run
 * through the function with the flow engine; each leaf statement's lock
 * calls are read from its tokens, so that macros (local_irq_save(),
 * spin_lock_irqsave()) count as written.
 */
#include "analyzer/ast.h"
#include "analyzer/flow.h"
#include "analyzer/lexscan.h"
#include "analyzer/owner_lex.h"
#include "analyzer/summaries.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "analyzer/walker.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define DEPTH_MASK 0xffu

struct lock_ctx {
	struct walk_ctx *w;
	int active;	   /* the site is in an active #if branch */
	unsigned site_off; /* expansion offset of the call */
	unsigned at_site;  /* depths seen at the call */
	int last_enter;	   /* token index of the last enter seen, -1 */
	int site_enter;	   /* last_enter when the call was reached */
};

static unsigned enter(unsigned st)
{
	return ((st << 1) & DEPTH_MASK) | (st & 0x80u);
}

static unsigned leave(unsigned st)
{
	return (st >> 1) | (st & 1u);
}

static int is_open_paren(const struct lexfile *lf, size_t i)
{
	return i < lf->ntoks && lf->toks[i].len == 1 &&
	       lf->buf[lf->toks[i].off] == '(';
}

static void record(struct lock_ctx *l, unsigned st)
{
	if (l->at_site & st)
		return;
	l->at_site |= st;
	l->site_enter = l->last_enter;
}

/* An enter or leave call at token I. */
static unsigned apply_tok(struct lock_ctx *l, unsigned i, unsigned st)
{
	const struct tok *t = &l->w->lf->toks[i];
	const char *name = l->w->lf->buf + t->off;

	if (names_get(&l->w->atomic[AT_ENTER], name, t->len) >= 0) {
		l->last_enter = (int)i;
		return enter(st);
	}
	if (names_get(&l->w->atomic[AT_LEAVE], name, t->len) >= 0)
		return leave(st);
	return st;
}

static unsigned lock_eval(void *ctx, CXCursor c, unsigned st)
{
	struct lock_ctx *l = ctx;
	const struct lexfile *lf = l->w->lf;
	unsigned s, e, i;
	int pending;

	if (!st || !lf)
		return st;
	if (!ast_span(l->w, c, &s, &e) && !ast_expansion_span(l->w, c, &s, &e))
		return st;
	pending = l->site_off >= s && l->site_off < e;
	for (i = ast_tok_at(l->w, s); i < lf->ntoks && lf->toks[i].off < e;
	     i++) {
		const struct tok *t = &lf->toks[i];

		if (pending && t->off >= l->site_off) {
			record(l, st);
			pending = 0;
		}
		if (t->kind == TK_IDENT && is_open_paren(lf, i + 1))
			st = apply_tok(l, i, st);
	}
	if (pending)
		record(l, st);
	return st;
}

/* Lock calls of statements the parse dropped (ast_gap_calls()). */
static unsigned lock_gap(void *ctx, unsigned start, unsigned end, unsigned st)
{
	struct lock_ctx *l = ctx;
	unsigned calls[64];
	size_t n, k;

	n = ast_gap_calls(l->w, start, end, l->active, calls, 64);
	for (k = 0; k < n; k++)
		st = apply_tok(l, calls[k], st);
	return st;
}

static int lock_skip(void *ctx, CXCursor c)
{
	struct lock_ctx *l = ctx;

	return l->active && ast_disabled(l->w, c);
}

static void lock_ret(void *ctx, CXCursor stmt, unsigned st)
{
	(void)ctx;
	(void)stmt;
	(void)st;
}

/* "spin_lock(&x->lock) at line 40" from the tokens at I. */
static char *enter_text(const struct lexfile *lf, size_t i)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned line = lf->toks[i].line;
	int depth = 0;

	for (; i < lf->ntoks && sb.len < 80; i++) {
		const struct tok *t = &lf->toks[i];

		if (t->kind == TK_COMMENT)
			continue;
		if (sb.len && sb.buf[sb.len - 1] == ',')
			sb_addc(&sb, ' ');
		sb_add(&sb, lf->buf + t->off, t->len);
		if (t->len == 1 && lf->buf[t->off] == '(')
			depth++;
		if (t->len == 1 && lf->buf[t->off] == ')' && --depth == 0)
			break;
	}
	sb_addf(&sb, " at line %u", line);
	return sb_detach(&sb);
}

/*
 * No atomic section here: `process` when the flags allow direct reclaim
 * (or the allocator takes none and always may: vmalloc; a wrapper that
 * takes none is taken to), or when the allocator sleeps whatever its
 * flags say (a sleeper: kmem_cache_create(), __vmalloc(); its flags
 * argument is slab flags or cannot make it atomic-safe), else `unknown`.
 */
static void context_by_flags(struct walk_ctx *w, struct site *s)
{
	/* a wrapper that takes no gfp_t is taken to allocate as vmalloc */
	const char *text = s->flags_used ? s->flags_used :
			   s->gfp_arg < 0 ? "GFP_KERNEL" : NULL;

	if (w->sleepers &&
	    names_get(w->sleepers, s->api, strlen(s->api)) >= 0) {
		s->context = "process";
		return;
	}
	if (gfp_text_path_picks(text)) {
		s->context = "unknown";
		s->context_evidence =
			xasprintf(CTX_EV_PATH_PICKS " (%s)", text);
		return;
	}
	/*
	 * The flags' value by the tree's own headers, where it is known:
	 * GFP_TRANSHUGE, GFP_PGTABLE_KERNEL and `GFP_KERNEL &
	 * ~__GFP_DIRECT_RECLAIM` say what they are made of; else the names
	 */
	if (s->gfp_arg >= 0 && s->mask_known && w->direct_reclaim
		    ? (s->gfp_mask & w->direct_reclaim) != 0
		    : gfp_text_may_sleep(text)) {
		s->context = "process";
		return;
	}
	s->context = "unknown";
	if (text)
		s->context_evidence =
			xasprintf(CTX_EV_NO_SECTION ", and %s does not "
				  "allow direct reclaim: the caller decides",
				  text);
}

static int is_punct(const struct tok *t, const char *buf, char c)
{
	return t->kind == TK_PUNCT && t->len == 1 && buf[t->off] == c;
}

static int is_jump(const struct tok *t, const char *buf)
{
	return t->kind == TK_KEYWORD && is_jump_keyword(buf + t->off, t->len);
}

/*
 * Is the token at K the first of a braceless if's, else's or loop's
 * body (`if (x) return;`, `else goto out;`)?  It may not run.
 */
static int braceless(const struct lexfile *lf, long k)
{
	const struct tok *p = &lf->toks[k - 1];

	return is_punct(p, lf->buf, ')') ||
	       (p->kind == TK_KEYWORD && p->len == 4 &&
		!strncmp(lf->buf + p->off, "else", 4));
}

#define MAX_BLOCKS 64

/*
 * The token index of the enter call whose atomic section is open at the
 * site, or -1.  The function's tokens up to the call, in order.  A
 * block whose last statement is a jump (`{ spin_lock(); goto again; }`,
 * `{ rcu_read_lock(); return NULL; }`) does not fall through: what it
 * took or dropped is not held after its closing brace, so the depth goes
 * back to what it was at its opening one.  A jump under a braceless `if`
 * or `else` may not be taken and does not count.
 */
static long open_section(struct walk_ctx *w, const struct site *s)
{
	const struct lexfile *lf = w->lf;
	long i, k, last = -1, last_at[MAX_BLOCKS];
	int depth = 0, nblk = 0, at_open[MAX_BLOCKS], jumped[MAX_BLOCKS];
	int in_jump = 0; /* between a jump keyword and its ';' */

	if (!lf || !w->atomic || (i = lex_tok_at(lf, s->line, s->col)) < 0 ||
	    lf->toks[i].fn < 0)
		return -1;
	for (k = (long)lf->funcs[lf->toks[i].fn].body_open + 1; k < i; k++) {
		const struct tok *t = &lf->toks[k];
		const char *name = lf->buf + t->off;

		if (t->disabled && !s->in_disabled_branch)
			continue;
		if (in_jump) {
			in_jump = !is_punct(t, lf->buf, ';');
			continue;
		}
		/* code after the jump in the same block: reached by a label */
		if (nblk > 0 && nblk <= MAX_BLOCKS && jumped[nblk - 1] &&
		    !is_punct(t, lf->buf, '}'))
			jumped[nblk - 1] = 0;
		if (is_punct(t, lf->buf, '{')) {
			if (nblk < MAX_BLOCKS) {
				at_open[nblk] = depth;
				last_at[nblk] = last;
				jumped[nblk] = 0;
			}
			nblk++;
			continue;
		}
		if (is_punct(t, lf->buf, '}')) {
			if (nblk > 0 && --nblk < MAX_BLOCKS && jumped[nblk]) {
				depth = at_open[nblk];
				last = last_at[nblk];
			}
			continue;
		}
		if (is_jump(t, lf->buf)) {
			/* `if (x) return;`, `else goto out;`: may not jump */
			if (!braceless(lf, k) && nblk > 0 && nblk <= MAX_BLOCKS)
				jumped[nblk - 1] = 1;
			in_jump = 1;
			continue;
		}
		if (t->kind != TK_IDENT || !is_open_paren(lf, (size_t)k + 1))
			continue;
		if (names_get(&w->atomic[AT_ENTER], name, t->len) >= 0) {
			/* `if (x) local_irq_disable();` in a section */
			if (!depth || !braceless(lf, k)) {
				depth++;
				last = k;
			}
		} else if (names_get(&w->atomic[AT_LEAVE], name, t->len) >=
			   0) {
			depth -= depth > 0;
		}
	}
	return depth ? last : -1;
}

/* `atomic` when open_section() finds one open: 1, else 0. */
static int lexical_atomic(struct walk_ctx *w, struct site *s)
{
	long k = open_section(w, s);

	if (k < 0)
		return 0;
	s->context = "atomic";
	s->context_evidence = enter_text(w->lf, (size_t)k);
	return 1;
}

static void context_lexical(struct walk_ctx *w, struct site *s)
{
	if (lexical_atomic(w, s))
		return;
	if (!w->lf || !w->atomic) {
		s->context = "unknown";
		return;
	}
	context_by_flags(w, s);
}

static void context_site(struct walk_ctx *w, struct site *s, CXCursor call,
			 CXCursor fn)
{
	struct lock_ctx l = {w, !s->in_disabled_branch, 0, 0, -1, -1};
	struct flow_domain d = {&l,	  lock_eval, NULL,
				lock_ret, lock_skip, lock_gap};
	const struct fn_fact *f;
	char *why;

	if (clang_Cursor_isNull(call)) {
		context_lexical(w, s);
		return;
	}
	if (clang_Cursor_isNull(fn) || !w->lf || !w->atomic) {
		s->context = "unknown";
		return;
	}
	l.site_off = ast_expansion_offset(call);
	flow_run(w, fn, &d, 1u);
	f = tu_fact(tu_facts_get(w), s->function);
	/*
	 * The flow never reached the call: the statement that holds it
	 * is one the parse could not make whole (a single-file parse
	 * drops what names undeclared macros), so read the tokens before
	 * it, as for a site with no AST; no open section there lets the
	 * callers and then the flags decide, as below.
	 */
	if (!l.at_site) {
		if (lexical_atomic(w, s))
			return;
		l.at_site = 1u;
	}
	if (l.at_site && !(l.at_site & 1u)) {
		s->context = "atomic";
		s->context_evidence =
			l.site_enter >= 0
				? enter_text(w->lf, (size_t)l.site_enter)
				: NULL;
	} else if (l.at_site & ~1u) {
		s->context = "unknown";
		why = l.site_enter >= 0
			      ? enter_text(w->lf, (size_t)l.site_enter)
			      : xstrdup("a lock");
		s->context_evidence =
			xasprintf("atomic on some paths (%s)", why);
		free(why);
	} else if (f && f->atomic) {
		s->context = "atomic";
		s->context_evidence = xstrdup(f->atomic);
	} else if (f && f->irq_handler && !f->threaded) {
		/* primary or threaded: registered in another file */
		s->context = "unknown";
		s->context_evidence =
			xstrdup(CTX_EV_IRQ_ELSEWHERE
				" (primary or threaded)");
	} else if (l.at_site == 1u) {
		context_by_flags(w, s);
	} else {
		s->context = "unknown";
	}
}

/* listed in analyzer/check_list.h */
const struct classifier context_classifier = {
	.name = "context",
	.site = context_site,
	.summaries = 1,
};

