// SPDX-License-Identifier: GPL-2.0
/*
 * The site's answer (owner.h): what consumes the allocation call, the
 * path walk's answer by precedence, the alternative answers for the
 * summaries step, and owner_of().  The walk itself is owner.c.
 */
#include "analyzer/owner.h"
#include "analyzer/ast.h"
#include "analyzer/flow.h"
#include "analyzer/lexscan.h"
#include "analyzer/names.h"
#include "analyzer/owner_errpath.h"
#include "analyzer/owner_int.h"
#include "analyzer/owner_lex.h"
#include "analyzer/owner_wrapfree.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* --- the consumer of the call --------------------------------------- */

struct find {
	CXCursor target;
	CXCursor stack[MAX_DEPTH];
	int depth, found;
	CXCursor path[MAX_DEPTH];
	int pathlen;
};

static enum CXChildVisitResult find_visit(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	struct find *f = data;

	(void)parent;
	if (f->found || f->depth >= MAX_DEPTH)
		return CXChildVisit_Break;
	f->stack[f->depth++] = c;
	if (ast_same(c, f->target)) {
		memcpy(f->path, f->stack, sizeof(CXCursor) * (size_t)f->depth);
		f->pathlen = f->depth;
		f->found = 1;
	} else {
		clang_visitChildren(c, find_visit, f);
	}
	f->depth--;
	return f->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static void set(struct owner *r, const char *lifetime, unsigned line,
		char *evidence)
{
	r->lifetime = lifetime;
	r->line = line;
	free(r->evidence);
	r->evidence = evidence;
}

static void take(struct owner *r, const char *lifetime, struct fact *f)
{
	set(r, lifetime, f->line, f->what);
	f->what = NULL;
}

/*
 * Is CHILD the argument that CALL, to NAME, frees?  A free of the
 * tables (kfree, vfree, __free_pages, a free macro), not a learned
 * wrapper: those may free on a failure only (`alloc_iface(kstrdup(n))`
 * keeps the name it is given, and frees it when it cannot).
 */
static int freed_at_once(struct walk_ctx *w, CXCursor call, CXCursor child,
			 const char *name)
{
	int arg = *name ? table_free_arg(w, name) : -1;

	return arg >= 0 && arg < ast_nargs(call) &&
	       ast_same(ast_strip(ast_arg(call, arg)), ast_strip(child));
}

/*
 * Classify from the consumer; returns the variable to follow (null when
 * the consumer settles it).
 */
static CXCursor consumer(struct own *o, struct find *f, struct owner *r)
{
	struct walk_ctx *w = o->w;
	CXCursor child = o->call, parent, k[AST_MAX_KIDS], lhs, agg;
	enum CXCursorKind pk;
	unsigned line = ast_line(o->call);
	int i = f->pathlen - 2;
	char op[4], *name;

	for (; i >= 0; i--, child = parent) {
		parent = f->path[i];
		pk = clang_getCursorKind(parent);
		if (pk != CXCursor_UnexposedExpr && pk != CXCursor_ParenExpr &&
		    pk != CXCursor_CStyleCastExpr &&
		    pk != CXCursor_ConditionalOperator)
			break;
	}
	if (i < 0) {
		set(r, "unknown", line, NULL);
		return clang_getNullCursor();
	}
	switch (pk) {
	case CXCursor_VarDecl:
		if (ast_is_local(parent))
			return parent;
		name = ast_name(parent);
		set(r, "stored", line,
		    xasprintf("stored in static %s at line %u", name, line));
		r->target = name;
		break;
	case CXCursor_BinaryOperator:
		if (ast_children(parent, k) == 2 &&
		    !strcmp(ast_operator(w, parent, op), "=") &&
		    ast_same(k[1], child)) {
			lhs = ast_strip(k[0]);
			if (!clang_Cursor_isNull(ast_ref_decl(lhs)) &&
			    ast_is_local(ast_ref_decl(lhs)) &&
			    ast_spelled_plain(w, k[0]))
				return ast_ref_decl(lhs);
			agg = own_local_aggregate(w, lhs, k[0]);
			if (!clang_Cursor_isNull(agg))
				return agg;
			if (own_lasting_lvalue(o->w, lhs, k[0])) {
				r->target = ast_text(w, k[0]);
				set(r, "stored", line,
				    xasprintf("stored in %s at line %u",
					      r->target, line));
				break;
			}
		}
		set(r, "unknown", line,
		    xasprintf("used in an expression at line %u", line));
		break;
	case CXCursor_ReturnStmt:
		set(r, "returned", line,
		    xasprintf("returned at line %u", line));
		break;
	case CXCursor_CallExpr:
		name = ast_callee(parent);
		if (w->lifetime &&
		    names_get(&w->lifetime[LT_STORE], name, strlen(name)) >= 0)
			set(r, "stored", line,
			    xasprintf("%s() at line %u", name, line));
		else if (freed_at_once(w, parent, child, name))
			/* vfree(vmalloc(size)): a probe, freed at once */
			set(r, "scoped", line,
			    xasprintf("%s() at line %u", name, line));
		else
			set(r, "unknown", line,
			    xasprintf("passed to %s() at line %u", name, line));
		free(name);
		break;
	case CXCursor_CompoundStmt:
		set(r, "leaked_on_path", line, xstrdup("result not used"));
		break;
	default:
		set(r, "unknown", line,
		    xasprintf("used in an expression at line %u", line));
		break;
	}
	return clang_getNullCursor();
}

static void owner_release(void *p)
{
	struct owner *r = p;

	free(r->evidence);
	free(r->sleep_evidence);
	free(r->held_calls);
	free(r->target);
	free(r);
}

/*
 * The consumer is no expression the AST can tell: a single-file parse
 * that cannot type `priv->suspend` (a struct of a header) keeps a
 * recovery node where the assignment was.  The tokens still say it.
 */
static void lexical_instead(struct walk_ctx *w, const struct site *s,
			    struct owner *r)
{
	struct owner t;

	memset(&t, 0, sizeof(t));
	owner_lexical(w, s, &t);
	if (strcmp(t.lifetime, "unknown")) {
		free(r->evidence);
		free(r->target);
		*r = t;
		return;
	}
	free(t.evidence);
	free(t.sleep_evidence);
	free(t.target);
}

/* idr_alloc(), xa_store(): what the site allocates is an ID, a node. */
static int ids_family(const struct alloc_fn *a)
{
	return a && a->family &&
	       (!strcmp(a->family, "idr") || !strcmp(a->family, "xarray"));
}

/* The site's allocator, when the tables know it. */
static const struct alloc_fn *site_alloc(struct walk_ctx *w,
					 const struct site *s)
{
	return w->allocs ? alloc_lookup(w->allocs, s->api, strlen(s->api))
			 : NULL;
}

static int site_ids(struct walk_ctx *w, const struct site *s)
{
	return ids_family(site_alloc(w, s));
}

/* devm_*(): the device frees what is left (managed_elsewhere()). */
static int site_devm(struct walk_ctx *w, const struct site *s)
{
	const struct alloc_fn *a = site_alloc(w, s);

	return a && a->family && !strcmp(a->family, "devm");
}

/*
 * devm_*: the device owns the memory and frees it when it goes away, so
 * what is not returned, stored or freed here is stored with the device;
 * so are the IDs and nodes of an ID allocator or xarray, with it.
 */
static void managed_elsewhere(struct walk_ctx *w, struct owner *r,
			      const struct site *s)
{
	const struct alloc_fn *a = site_alloc(w, s);
	int ids;

	if (!a || !a->family ||
	    (strcmp(r->lifetime, "unknown") &&
	     strcmp(r->lifetime, "leaked_on_path")))
		return;
	/*
	 * idr_alloc(), xa_store(): the allocation (an ID, a tree node)
	 * stays in the container the call names until an ida_free() or
	 * xa_erase(): what the value the call returns becomes says nothing
	 * about it.
	 */
	ids = ids_family(a);
	if (strcmp(a->family, "devm") && !ids)
		return;
	free(r->target);
	r->target = xstrdup(ids ? "the container" : "the device");
	set(r, "stored", s->line,
	    ids ? xasprintf("kept in the container %s() fills", s->api)
		: xasprintf("device-managed: %s() memory is freed with the "
			    "device",
			    s->api));
}

/*
 * Does the text reach the free of O's freed_kept from the store, as a
 * statement that runs whenever the store does?  A statement the parse
 * dropped (`return call(info, wait | UMH_KILLABLE);` with a header's
 * constant) leaves the path walk going on to an error label's free.
 */
static int kept_free_reached(const struct own *o)
{
	const struct lexfile *lf = o->w->lf;
	const char *what = o->freed_kept.what;
	size_t n = what ? strcspn(what, "(") : 0;
	long k, from = -1, to = -1;

	if (!lf || !n)
		return 0;
	for (k = 0; k < (long)lf->ntoks && to < 0; k++) {
		const struct tok *t = &lf->toks[k];

		if (from < 0 && t->line == o->stored.line)
			from = k;
		else if (from >= 0 && t->line == o->freed_kept.line &&
			 t->len == n && !memcmp(lf->buf + t->off, what, n))
			to = k;
	}
	return to > from && from >= 0 && lex_unconditional_after(lf, from, to);
}

/* The answer of a path walk, by precedence. */
static void decide(struct own *o, struct owner *r, CXCursor call)
{
	if (o->stored.seen && o->returned.seen) {
		take(r, "returned", &o->returned);
	} else if (o->stored.seen && o->leaked_only.seen && !o->managed) {
		/* `if (setup()) return -EIO;` before `d->buf = buf;` */
		take(r, "leaked_on_path", &o->leaked_only);
	} else if (o->stored.seen && o->freed_kept.seen && !o->kept_at_ret &&
		   !o->kept_by_call && !o->leaked.seen && !o->escaped_out &&
		   kept_free_reached(o)) {
		/*
		 * `exts->actions = actions; ... kfree(actions);` on every
		 * path: the place held it for a while, the function frees it
		 */
		take(r, "scoped", &o->freed_kept);
	} else if (o->stored.seen) {
		take(r, "stored", &o->stored);
		r->target = o->target;
		o->target = NULL;
	} else if (o->returned.seen) {
		take(r, "returned", &o->returned);
	} else if (o->leaked.seen) {
		take(r, "leaked_on_path", &o->leaked);
	} else if (o->escaped_out) {
		/*
		 * Handed to a function and not freed here on some path to a
		 * return: that function keeps it (queued, attached, sent).
		 * The summaries step may say it only borrows or frees it.
		 */
		take(r, "stored", &o->escaped);
		r->target = xstrdup("the callee");
	} else if (o->freed.seen) {
		take(r, "scoped", &o->freed);
	} else {
		set(r, "unknown", ast_line(call), NULL);
	}
}

/* How a repeated walk differs from the site's own (walk_again()). */
struct walk_how {
	int esc_mode;	     /* ESC_*: hand-overs as kept, borrowed, freed */
	const char *esc_one; /* ESC_ONE: the callee that frees it */
	int read_values;     /* member reads are values (member_value()) */
};

/* The walk of BASE's site again into O, as H says, its answer in T. */
static void walk_again(const struct own *base, const struct site *s,
		       CXCursor fn, CXCursor var, const struct walk_how *h,
		       struct own *o, struct owner *t)
{
	struct flow_domain d = {NULL, own_ev_domain, own_br_domain,
				own_ret_domain, own_skip_domain, gap_domain};

	memset(o, 0, sizeof(*o));
	memset(t, 0, sizeof(*t));
	o->w = base->w;
	o->call = base->call;
	o->fn = fn;
	o->active = !s->in_disabled_branch;
	o->ids = base->ids;
	o->managed = base->managed;
	o->read_values = base->read_values || h->read_values;
	o->esc_mode = h->esc_mode;
	o->esc_one = h->esc_one;
	guards_copy(o, base);
	own_add_var(o, var);
	d.ctx = o;
	flow_run(base->w, fn, &d, OW_NONE);
	decide(o, t, base->call);
}

/*
 * The walk again with every hand-over taken as the callee borrowing
 * (MODE ESC_BORROW: "ab") or freeing (ESC_FREE: "af") the object.
 */
static void alt_answer(const struct own *base, const struct site *s,
		       CXCursor fn, CXCursor var, int mode, const char *one,
		       struct strbuf *sb)
{
	struct walk_how h = {mode, one, 0};
	struct owner t;
	struct own o;

	walk_again(base, s, fn, var, &h, &o, &t);
	if (one) {
		char *k = xasprintf("f:%s", one);

		esc_answer(sb, k, t.lifetime, t.evidence, t.line);
		free(k);
	} else {
		esc_answer(sb, mode == ESC_BORROW ? "ab" : "af", t.lifetime,
			   t.evidence, t.line);
	}
	free(t.evidence);
	free(t.target);
	own_release(&o);
}

/*
 * Stored by `tid->lparnr = info->lpar_number;`, which a parse that has
 * not seen either structure keeps as `tid->lparnr = info`: a value read
 * from the object, or the address of an array inside it (`rqst->rq_buffer
 * = buf->data;`).  Where the object is then freed on every path, a kept
 * address would dangle: the reads are values, and the walk that takes
 * them so, in O, answers.
 */
static void values_instead(struct own *o, const struct site *s, CXCursor fn,
			   CXCursor var, struct owner *r)
{
	static const struct walk_how values = {ESC_KEEP, NULL, 1};
	struct owner t;
	struct own v;

	walk_again(o, s, fn, var, &values, &v, &t);
	if (strcmp(t.lifetime, "scoped")) {
		free(t.evidence);
		free(t.target);
		own_release(&v);
		return;
	}
	own_release(o);
	*o = v;
	free(r->evidence);
	free(r->target);
	r->lifetime = t.lifetime;
	r->evidence = t.evidence;
	r->line = t.line;
	r->target = t.target;
}

static void analyse(struct walk_ctx *w, const struct site *s, CXCursor call,
		    CXCursor fn, struct owner *r)
{
	struct own o;
	struct find *f = xcalloc(1, sizeof(*f));
	struct flow_domain d = {NULL, own_ev_domain, own_br_domain,
				own_ret_domain, own_skip_domain, gap_domain};
	CXCursor var;

	memset(&o, 0, sizeof(o));
	o.w = w;
	o.call = call;
	o.fn = fn;
	o.active = !s->in_disabled_branch;
	o.ids = site_ids(w, s);
	o.managed = o.ids || site_devm(w, s);
	f->target = call;
	clang_visitChildren(fn, find_visit, f);
	r->held_across_sleep = -1;
	if (!f->found) {
		set(r, "unknown", ast_line(call), NULL);
		free(f);
		return;
	}
	var = consumer(&o, f, r);
	if (!clang_Cursor_isNull(var))
		guards_of(&o, f->path, f->pathlen, fn);
	free(f);
	if (clang_Cursor_isNull(var)) {
		/* `return kmalloc()`, `d->buf = kmalloc()`: handed over */
		if (!strcmp(r->lifetime, "returned") ||
		    !strcmp(r->lifetime, "scoped")) {
			r->held_across_sleep = 0; /* freed at once */
		} else if (!strcmp(r->lifetime, "stored")) {
			r->held_across_sleep = 0;
			lex_store_freed(w, s, r);
		} else if (!strcmp(r->lifetime, "unknown")) {
			lexical_instead(w, s, r);
		}
		holder_returned(w, s, r->target, r);
		managed_elsewhere(w, r, s);
		return;
	}
	own_add_var(&o, var);
	d.ctx = &o;
	flow_run(w, fn, &d, OW_NONE);
	decide(&o, r, call);
	if (o.member_read && !strcmp(r->lifetime, "stored"))
		values_instead(&o, s, fn, var, r);
	/*
	 * Held across a sleep between the allocation and the free, the
	 * return or the store (the holder after a hand-over is another
	 * question): the path walk saw every call made while it was held.
	 */
	if (o.slept.seen) {
		r->held_across_sleep = 1;
		r->sleep_evidence = o.slept.what;
		o.slept.what = NULL;
	} else if (o.stored.seen && o.returned.seen && o.slept_kept.seen) {
		/* stored, then returned: held until the return */
		r->held_across_sleep = 1;
		r->sleep_evidence = o.slept_kept.what;
		o.slept_kept.what = NULL;
	} else {
		r->held_across_sleep = 0;
		r->held_calls = held_calls_json(&o, 0);
	}
	/* `d->buf = alloc()` through a local d: freed there by the end? */
	if (!strcmp(r->lifetime, "stored") && r->target &&
	    strpbrk(r->target, ".-[") && !strchr(r->target, ' '))
		lex_store_freed(w, s, r);
	holder_returned(w, s, r->target, r);
	holder_returned(w, s, o.holder, r);
	managed_elsewhere(w, r, s);
	if (o.escaped_out && o.nesc && !o.esc_bad &&
	    !strcmp(r->lifetime, "stored") && r->target &&
	    !strcmp(r->target, "the callee")) {
		struct strbuf sb = STRBUF_INIT;
		int i;

		esc_json(&sb, r->held_calls, o.esc, o.nesc);
		esc_answer(&sb, "lt", r->lifetime, r->evidence, r->line);
		alt_answer(&o, s, fn, var, ESC_BORROW, NULL, &sb);
		alt_answer(&o, s, fn, var, ESC_FREE, NULL, &sb);
		for (i = 0; o.nesc > 1 && i < o.nesc && i < MAX_ESC_ONE; i++)
			alt_answer(&o, s, fn, var, ESC_ONE, o.esc[i].name,
				   &sb);
		sb_addc(&sb, '}');
		r->held_calls = sb_detach(&sb);
	}
	own_release(&o);
}

/* An allocator whose object comes back through an argument (`&mask`). */
static void out_param(struct walk_ctx *w, const struct site *s,
		      struct owner *r)
{
	const struct alloc_fn *a =
		w->allocs ? alloc_lookup(w->allocs, s->api, strlen(s->api))
			  : NULL;

	if (a && a->kind == AK_ALLOC && a->ptr_arg >= 0)
		lex_out_param(w, s, a->ptr_arg, r);
}

const struct owner *owner_of(struct walk_ctx *w, const struct site *s,
			     CXCursor call, CXCursor fn)
{
	struct owner *r = tu_memo_get(w, s);

	if (r)
		return r;
	r = xcalloc(1, sizeof(*r));
	if (clang_Cursor_isNull(call)) {
		owner_lexical(w, s, r);
		holder_returned(w, s, r->target, r);
		managed_elsewhere(w, r, s);
	} else if (clang_Cursor_isNull(fn)) {
		r->lifetime = "unknown";
		r->held_across_sleep = -1;
	} else {
		analyse(w, s, call, fn, r);
	}
	out_param(w, s, r);
	errpath_sleep(w, s, r);
	/* sg_alloc_table(&msg->sgt, ...); return msg; */
	holder_returned(w, s, r->target, r);
	tu_memo_put(w, s, r, owner_release);
	return r;
}
