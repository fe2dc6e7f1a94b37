// SPDX-License-Identifier: GPL-2.0
/*
 * What a call does to the followed object (owner.h): free it, store it,
 * borrow it, keep it (escape), or sleep while it is held; from the AST's
 * CallExpr or, for a statement the parse dropped, from its tokens.
 */
#include "analyzer/ast.h"
#include "analyzer/lexscan.h"
#include "analyzer/names.h"
#include "analyzer/owner_int.h"
#include "analyzer/owner_lex.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

void note(struct fact *f, unsigned line, char *what)
{
	if (f->seen) {
		free(what);
		return;
	}
	f->seen = 1;
	f->line = line;
	f->what = what;
}

unsigned to_done(unsigned st)
{
	return st & OW_HELD ? (st & ~OW_HELD) | OW_DONE : st;
}

unsigned to_kept(unsigned st)
{
	return st & OW_HELD ? to_done(st) | OW_KEPT : st;
}

int own_param_rooted(const struct own *o, const char *text)
{
	const char *e;

	while (*text == '&' || *text == '*' || *text == '(' || *text == ' ')
		text++;
	for (e = text; is_ident_char((unsigned char)*e); e++)
		;
	return e > text && !clang_Cursor_isNull(o->fn) &&
	       ast_param_index(o->fn, text, (size_t)(e - text)) >= 0;
}

/*
 * An allocation inside a macro's expansion (`alloc_meta_bucket_pages(
 * GFP_KERNEL, sb)`) has no text of its own for its arguments: the flags
 * are the invocation's, when the name written where the call expands is
 * another one and a known allocator.
 */
static char *macro_gfp_text(struct own *o, const char *callee, CXCursor call)
{
	const struct lexfile *lf = o->w->lf;
	const struct alloc_fn *m;
	unsigned k;

	if (!lf || !o->w->allocs)
		return NULL;
	k = ast_tok_at(o->w, ast_expansion_offset(call));
	if (k + 1 >= lf->ntoks || lf->toks[k].kind != TK_IDENT ||
	    !ast_tok_eq(o->w, k + 1, "(") ||
	    mem_is(lf->buf + lf->toks[k].off, lf->toks[k].len, callee))
		return NULL;
	m = alloc_lookup(o->w->allocs, lf->buf + lf->toks[k].off,
			 lf->toks[k].len);
	if (!m || m->kind != AK_ALLOC || m->gfp_arg < 0)
		return NULL;
	return lex_arg_text(lf, (long)k, m->gfp_arg);
}

char *gfp_text_of(struct own *o, const char *callee, CXCursor call)
{
	const struct alloc_fn *a =
		o->w->allocs
			? alloc_lookup(o->w->allocs, callee, strlen(callee))
			: NULL;
	char *t;

	if (!a || a->kind != AK_ALLOC || a->gfp_arg < 0)
		return NULL;
	t = macro_gfp_text(o, callee, call);
	return t ? t : ast_text(o->w, ast_arg(call, a->gfp_arg));
}

int own_table_fn(struct walk_ctx *w, const char *name, size_t len)
{
	const struct alloc_fn *f =
		w->allocs ? alloc_lookup(w->allocs, name, len) : NULL;

	return f && !(f->kind == AK_ALLOC && f->learned);
}

/* held_add() without its test of NAME: any name, each once. */
static void name_add(struct held_call *h, int *n, const char *name,
		     size_t len, unsigned line)
{
	int i;

	if (*n == MAX_HELD)
		return;
	/* a name as written in a macro may hold a line splice */
	for (i = 0; i < (int)len; i++)
		if (!is_ident_char((unsigned char)name[i]) &&
		    !(i == 0 && name[i] == '.')) /* `.fn`: ops->fn() */
			return;
	for (i = 0; i < *n; i++)
		if (strlen(h[i].name) == len && !memcmp(h[i].name, name, len))
			return;
	h[*n].name = xstrndup(name, len);
	h[*n].inside = 0;
	h[(*n)++].line = line;
}

/*
 * Remember a call the object is held across, for the summaries step:
 * not an allocator or a free (their flags and kind decide), each name
 * once.
 */
void held_add(struct walk_ctx *w, struct held_call *h, int *n,
	      const char *name, size_t len, unsigned line)
{
	if (!(w->allocs && alloc_lookup(w->allocs, name, len)))
		name_add(h, n, name, len, line);
}

/*
 * A hand-over of the object (ARG: the argument it is), or with INSIDE
 * only of an address inside it: a function the summaries cannot tell
 * then borrows it (INIT_WORK(&p->work, fn) has no definition to read).
 */
void esc_add(struct walk_ctx *w, struct held_call *h, int *n,
	     const char *name, size_t len, unsigned arg, int inside)
{
	int i, before = *n;

	/* a learned wrapper's summary says what it does with ARG */
	if (own_table_fn(w, name, len))
		return;
	name_add(h, n, name, len, arg);
	if (*n > before) {
		h[*n - 1].inside = inside;
		return;
	}
	for (i = 0; i < *n; i++)
		if (strlen(h[i].name) == len && !memcmp(h[i].name, name, len))
			h[i].inside &= inside;
}

char *tok_call_name(const struct lexfile *lf, long i)
{
	const struct tok *t = &lf->toks[i];

	/* ops->fn(): `.fn`, for the functions assigned to such members */
	if (lex_tok_is(lf, i - 1, "->") || lex_tok_is(lf, i - 1, "."))
		return xasprintf(".%.*s", (int)t->len, lf->buf + t->off);
	return xstrndup(lf->buf + t->off, t->len);
}

void held_tok(struct walk_ctx *w, struct held_call *h, int *n, long i)
{
	char *m = tok_call_name(w->lf, i);

	held_add(w, h, n, m, strlen(m), w->lf->toks[i].line);
	free(m);
}

static void note_held(struct own *o, const char *name, unsigned line)
{
	held_add(o->w, o->held, &o->nheld, name, strlen(name), line);
}

char *held_calls_json(struct own *o, int base)
{
	return held_json(o->held, o->nheld, base);
}

char *held_json(const struct held_call *h, int n, int base)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	if (!n)
		return NULL;
	if (base < 0)
		sb_addf(&sb, "{\"base\":null,\"calls\":[");
	else
		sb_addf(&sb, "{\"base\":%d,\"calls\":[", base);
	for (i = 0; i < n; i++)
		sb_addf(&sb, "%s[\"%s\",%u]", i ? "," : "", h[i].name,
			h[i].line);
	sb_addf(&sb, "]}");
	return sb_detach(&sb);
}

void held_free(struct own *o)
{
	int i;

	for (i = 0; i < o->nheld; i++)
		free(o->held[i].name);
	o->nheld = 0;
	for (i = 0; i < o->nesc; i++)
		free(o->esc[i].name);
	o->nesc = 0;
}

static void json_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		sb_adds(sb, "null");
		return;
	}
	sb_addc(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_addc(sb, '\\');
		if ((unsigned char)*s < 0x20)
			sb_addc(sb, ' ');
		else
			sb_addc(sb, *s);
	}
	sb_addc(sb, '"');
}

void esc_answer(struct strbuf *sb, const char *key, const char *lifetime,
		const char *evidence, unsigned line)
{
	sb_addf(sb, ",\"%s\":[\"%s\",", key, lifetime);
	json_str(sb, evidence);
	sb_addf(sb, ",%u]", line);
}

void esc_json(struct strbuf *sb, char *held_calls,
	      const struct held_call *esc, int nesc)
{
	int i;

	if (held_calls) {
		sb_add(sb, held_calls, strlen(held_calls) - 1); /* no '}' */
		free(held_calls);
	} else {
		sb_adds(sb, "{\"calls\":[]");
	}
	sb_adds(sb, ",\"esc\":[");
	for (i = 0; i < nesc; i++) {
		sb_addf(sb, "%s[", i ? "," : "");
		json_str(sb, esc[i].name);
		sb_addf(sb, ",%u%s]", esc[i].line, esc[i].inside ? ",1" : "");
	}
	sb_addc(sb, ']');
}

/* What a call to NAME at LINE does to the object's state. */
unsigned apply_call(struct own *o, const char *name, unsigned line,
		    const struct call_args *a, const char *gfp, unsigned st)
{
	struct walk_ctx *w = o->w;
	const struct alloc_fn *f;
	int k;

	if (st & OW_HELD && !o->slept.seen) {
		if (call_may_sleep(w, name, gfp))
			note(&o->slept, line,
			     xasprintf("%s() at line %u", name, line));
		else
			note_held(o, name, line);
	} else if (st & OW_KEPT && !o->slept_kept.seen &&
		   call_may_sleep(w, name, gfp)) {
		note(&o->slept_kept, line,
		     xasprintf("%s() at line %u", name, line));
	}
	if (a->freed) {
		if (st & OW_HELD) {
			note(&o->freed, line,
			     xasprintf("%s() at line %u", name, line));
		} else if (st & OW_KEPT && !o->kept_by_call &&
			   !o->kept_in_param && table_free_arg(w, name) >= 0) {
			/*
			 * put in a place of the function's by `=`, and freed
			 * after all (by a free, not a wrapper that may free
			 * on a failure only): the last such free in the text
			 */
			if (o->freed_kept.seen && o->freed_kept.line < line) {
				free(o->freed_kept.what);
				memset(&o->freed_kept, 0, sizeof(o->freed_kept));
			}
			note(&o->freed_kept, line,
			     xasprintf("%s() at line %u", name, line));
			return st & ~OW_KEPT;
		}
		return to_done(st);
	}
	if (!a->best)
		return st;
	f = w->allocs ? alloc_lookup(w->allocs, name, strlen(name)) : NULL;
	if (lifetime_borrows(w->lifetime, name, strlen(name)))
		return st; /* kstrdup(buf), memcpy(buf, ...): owner unchanged */
	if ((k = lifetime_store_arg(w->lifetime, name, strlen(name))) >= 0) {
		/* list_add(new, head) with the object the head's holder */
		if (k >= 32 || !(a->mask & (1u << k)))
			return st;
		if (st & OW_HELD) {
			note(&o->stored, line,
			     xasprintf("%s() at line %u", name, line));
			if (!o->target)
				o->target = xasprintf("%s()", name);
		}
		o->kept_by_call = 1;
		return to_kept(st);
	}
	/*
	 * krealloc(p, ...), skb_unshare(skb, ...) (data/lifetime.txt
	 * `consume`): the old object is handed over.  Any other allocator
	 * of the tables only uses what it is passed: kmem_cache_alloc(cache,
	 * ...) takes from the cache, sg_alloc_table(st, ...) fills the
	 * table.  A wrapper learned from the tree is a function like any
	 * other: `sp = get_sp(vha, fcport, GFP_KERNEL)` may keep fcport in
	 * what it returns, which its summary says.
	 */
	if (a->best == 2 && f && f->kind == AK_ALLOC && !f->learned) {
		if (!w->lifetime ||
		    names_get(&w->lifetime[LT_CONSUME], name, strlen(name)) < 0)
			return st;
		if (st & OW_HELD)
			note(&o->freed, line,
			     xasprintf("%s() at line %u", name, line));
		return to_done(st);
	}
	/*
	 * From here an address inside the object (`&p->dev`, best 1) is
	 * handed over as the object is: the callee's summary says whether
	 * it keeps it (device_register(&p->dev)).
	 */
	if (st & OW_HELD && o->esc_mode == ESC_KEEP) {
		if (a->arg >= 0 && o->nesc < MAX_HELD)
			esc_add(w, o->esc, &o->nesc, name, strlen(name),
				(unsigned)a->arg, a->best == 1);
		else
			o->esc_bad = 1;
	}
	if (st & OW_HELD &&
	    (o->esc_mode == ESC_FREE ||
	     (o->esc_mode == ESC_ONE && !strcmp(name, o->esc_one)))) {
		note(&o->freed, line,
		     xasprintf("%s() at line %u", name, line));
		return to_done(st);
	}
	if (o->esc_mode != ESC_KEEP)
		return st; /* borrowed */
	if (st & OW_LIVE) {
		note(&o->escaped, line,
		     xasprintf("passed to %s() at line %u", name, line));
		st = (st & ~OW_LIVE) | OW_ESC;
	}
	return st;
}

/* Is main-file token I the name of a tracked variable? */
static int tok_tracked(struct own *o, unsigned i)
{
	const struct tok *t = &o->w->lf->toks[i];
	int k;

	if (t->kind != TK_IDENT)
		return 0;
	for (k = 0; k < o->nvars; k++) {
		char *v = ast_name(o->vars[k]);
		int eq = strlen(v) == t->len &&
			 !memcmp(v, o->w->lf->buf + t->off, t->len);

		free(v);
		if (eq)
			return 1;
	}
	return 0;
}

/*
 * Tokens FIRST..LAST combine a conversion of the object into a value:
 * `_KERNPG_TABLE | __pa(page)` (carries_converted() of the AST).
 */
static int tok_carries_converted(struct own *o, unsigned first,
				 unsigned last)
{
	unsigned k, conv = 0, op = 0;
	long end;
	int depth = 0;

	for (k = first; k <= last; k++) {
		if (ast_tok_eq(o->w, k, "("))
			depth++;
		else if (ast_tok_eq(o->w, k, ")"))
			depth--;
		else if (!depth && (ast_tok_eq(o->w, k, "|") ||
				    ast_tok_eq(o->w, k, "+")))
			op = 1;
		else if (k > first + 1 && tok_tracked(o, k) &&
			 lex_converted(o->w, o->w->lf, (long)k, &end) >= 0 &&
			 end <= (long)last + 1)
			conv = 1;
	}
	return conv && op;
}

/* arg_mentions() for the argument spelled by tokens FIRST..LAST. */
static int tok_mention(struct own *o, unsigned first, unsigned last)
{
	struct walk_ctx *w = o->w;

	if (tok_carries_converted(o, first, last))
		return 2;
	if (tok_tracked(o, last) &&
	    (first == last || ast_tok_eq(w, last - 1, ")") ||
	     (last == first + 1 && ast_tok_eq(w, first, "&"))))
		return 2; /* buf, (unsigned long)buf, &buf */
	if (last >= first + 3 && ast_tok_eq(w, first, "&") &&
	    tok_tracked(o, first + 1) && ast_tok_eq(w, first + 2, "->")) {
		unsigned k;

		/* &p->member, not &p->i2c->dev (inside another object) */
		for (k = first + 3; k <= last; k++)
			if (ast_tok_eq(w, k, "->"))
				return 0;
		return 1;
	}
	return 0;
}

/* Tokens [FIRST, END) as a put's own object (lifetime_put_place()). */
static int put_place(const struct lexfile *lf, unsigned first, unsigned end)
{
	size_t s = lf->toks[first].off,
	       e = lf->toks[end - 1].off + lf->toks[end - 1].len;
	char *t = xstrndup(lf->buf + s, e - s);
	int yes = lifetime_put_place(t) > 0;

	free(t);
	return yes;
}

/*
 * The arguments of the call whose name is token I, from the tokens: an
 * argument that is the variable itself (after a cast), or &var->member.
 */
static void tok_args(struct own *o, unsigned i, int farg, struct call_args *a)
{
	const struct lexfile *lf = o->w->lf;
	unsigned j = i + 2, first = j;
	int depth = 0, arg = 0,
	    parg = lifetime_put_arg(o->w->lifetime, lf->buf + lf->toks[i].off,
				    lf->toks[i].len);

	for (; j < lf->ntoks; j++) {
		char c = lf->buf[lf->toks[j].off];
		int single = lf->toks[j].len == 1;

		if (single && c == '(') {
			depth++;
			continue;
		}
		if (single && c == ')' && depth) {
			depth--;
			continue;
		}
		if (single && (c == ',' || c == ')') && !depth) {
			int m = j > first ? tok_mention(o, first, j - 1) : 0;

			if (arg == farg && m == 2)
				a->freed = 1;
			/* a put drops the object through its member */
			if (arg == parg && m && put_place(lf, first, j))
				a->freed = 1;
			if (m && arg < 32)
				a->mask |= 1u << arg;
			if (m > a->best || (m && m == a->best && a->arg < 0))
				a->arg = arg;
			if (m > a->best)
				a->best = m;
			if (c == ')')
				break;
			arg++;
			first = j + 1;
		}
	}
}

/*
 * Every call of a dropped statement, in braces and conditions too (a
 * loop the parse lost), up to the first that frees the object: what
 * the object may be held across.
 */
static void gap_held(struct own *o, unsigned start, unsigned end)
{
	const struct lexfile *lf = o->w->lf;
	unsigned calls[128];
	size_t n, k;

	n = ast_gap_calls_all(o->w, start, end, o->active, calls, 128);
	for (k = 0; k < n && !o->slept.seen; k++) {
		const struct tok *t = &lf->toks[calls[k]];
		char *name = xstrndup(lf->buf + t->off, t->len);
		struct call_args a = {0, 0, -1, 0};

		tok_args(o, calls[k], call_frees(o->w, name), &a);
		if (a.freed) {
			free(name);
			break;
		}
		if (lex_call_may_sleep(o->w, calls[k]))
			note(&o->slept, t->line,
			     xasprintf("%s() at line %u", name, t->line));
		else
			held_tok(o->w, o->held, &o->nheld, calls[k]);
		free(name);
	}
}

/*
 * `x->f = p;` in a statement the parse dropped (x's struct is in a
 * header a single-file parse does not have): the tokens show the store.
 */
static unsigned gap_stores(struct own *o, unsigned start, unsigned end,
			   unsigned st)
{
	const struct lexfile *lf = o->w->lf;
	unsigned i;
	long v;

	for (i = ast_tok_at(o->w, start); i < lf->ntoks && lf->toks[i].off < end;
	     i++) {
		char *lhs;
		int elem;

		if (!(st & OW_HELD) || (o->active && lf->toks[i].disabled) ||
		    !tok_tracked(o, i))
			continue;
		/* `*out = &p[0];`: the store's `=` is before the `&` */
		elem = lex_element_store(lf, (long)i);
		if (!elem && (!lex_tok_is(lf, (long)i + 1, ";") ||
			      lex_consumer(lf, (long)i, &v) != LEX_STORE ||
			      lex_local_aggregate(lf, (long)i)))
			continue;
		lhs = lex_lhs_text(lf, (long)i - elem);
		if (own_param_rooted(o, lhs))
			o->kept_in_param = 1;
		note(&o->stored, lf->toks[i].line,
		     xasprintf("stored in %s at line %u", lhs,
			       lf->toks[i].line));
		if (!o->target)
			o->target = lhs;
		else
			free(lhs);
		st = to_kept(st);
	}
	return st;
}

/* Calls of statements the parse dropped (see ast_gap_calls()). */
unsigned gap_domain(void *ctx, unsigned start, unsigned end, unsigned st)
{
	struct own *o = ctx;
	unsigned calls[64];
	size_t n, k;

	if (!o->w->lf)
		return st;
	if (st & OW_HELD)
		gap_held(o, start, end);
	st = gap_stores(o, start, end, st);
	n = ast_gap_calls(o->w, start, end, o->active, calls, 64);
	for (k = 0; k < n && st; k++) {
		const struct tok *t = &o->w->lf->toks[calls[k]];
		char *name = xstrndup(o->w->lf->buf + t->off, t->len);
		struct call_args a = {0, 0, -1, 0};
		const struct alloc_fn *f =
			o->w->allocs ? alloc_lookup(o->w->allocs, name, t->len)
				     : NULL;
		char *gfp = f && f->kind == AK_ALLOC && f->gfp_arg >= 0
				    ? lex_arg_text(o->w->lf, calls[k],
						   f->gfp_arg)
				    : NULL;

		tok_args(o, calls[k], call_frees(o->w, name), &a);
		st = apply_call(o, name, t->line, &a, gfp, st);
		free(gfp);
		free(name);
	}
	return st;
}

/*
 * `.name` of the member reference F from its last token: a member of a
 * structure the parse has not seen (`edev->ops->vport_update`) has no
 * spelling in the AST.  NULL when the tokens do not end in `->name`.
 */
static char *member_name_tok(struct walk_ctx *w, CXCursor f)
{
	const struct lexfile *lf = w->lf;
	unsigned s, e, i;

	if (!lf || !ast_span(w, f, &s, &e))
		return NULL;
	i = ast_tok_at(w, e);
	if (i < 2 || i > lf->ntoks || lf->toks[i - 1].kind != TK_IDENT ||
	    !(lex_tok_is(lf, (long)i - 2, "->") ||
	      lex_tok_is(lf, (long)i - 2, ".")))
		return NULL;
	return xasprintf(".%.*s", (int)lf->toks[i - 1].len,
			 lf->buf + lf->toks[i - 1].off);
}

/*
 * `.fn` for a call through a member (`ops->fn(...)`, `dsp->ch.recv(...)`),
 * the name the summaries step knows the functions assigned to such
 * members by; NULL for any other call without a name.
 */
char *call_member_name(struct own *o, CXCursor c)
{
	CXCursor k[AST_MAX_KIDS], f;
	CXString sp;
	char *m;

	if (!ast_children(c, k))
		return NULL;
	f = ast_strip(k[0]);
	if (clang_getCursorKind(f) != CXCursor_MemberRefExpr)
		return NULL;
	sp = clang_getCursorSpelling(f);
	if (*clang_getCString(sp))
		m = xasprintf(".%s", clang_getCString(sp));
	else
		m = member_name_tok(o->w, f);
	clang_disposeString(sp);
	return m;
}

static void fact_free(struct fact *f)
{
	free(f->what);
}

void own_release(struct own *o)
{
	held_free(o);
	fact_free(&o->freed);
	fact_free(&o->stored);
	fact_free(&o->returned);
	fact_free(&o->leaked);
	fact_free(&o->leaked_only);
	fact_free(&o->escaped);
	fact_free(&o->slept);
	fact_free(&o->slept_kept);
	fact_free(&o->freed_kept);
	free(o->target);
	free(o->holder);
	while (o->nguards)
		free(o->guard[--o->nguards]);
}
