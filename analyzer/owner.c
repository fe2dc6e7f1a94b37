// SPDX-License-Identifier: GPL-2.0
/*
 * The ownership analysis of owner.h: the path walk over the function,
 * what each expression, branch and return does to the object.  What
 * consumes the call and the site's answer are owner_site.c.
 */
#include "analyzer/owner.h"
#include "analyzer/ast.h"
#include "analyzer/flow.h"
#include "analyzer/lexscan.h"
#include "analyzer/names.h"
#include "analyzer/owner_errpath.h"
#include "analyzer/tables.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/owner_int.h"
#include "analyzer/owner_errpath.h"
#include "analyzer/owner_lex.h"
#include "analyzer/owner_wrapfree.h"

/* Is declaration D the followed variable or one of its aliases? */
static int tracked_decl(struct own *o, CXCursor d)
{
	int i;

	if (clang_Cursor_isNull(d))
		return 0;
	for (i = 0; i < o->nvars; i++)
		if (ast_same(d, o->vars[i]))
			return 1;
	return 0;
}

static int tracked(struct own *o, CXCursor c)
{
	return tracked_decl(o, ast_ref_decl(c));
}

void own_add_var(struct own *o, CXCursor v)
{
	if (o->nvars < MAX_VARS)
		o->vars[o->nvars++] = v;
}

/*
 * The text of C, without blanks: a single-file parse that cannot type
 * `p->member` (a struct of a header) recovers with the bare `p`, and
 * only the tokens say what was written.
 */
char *own_squeezed(struct own *o, CXCursor c)
{
	char *t = ast_text(o->w, c), *d = t, *q;

	for (q = t; *q; q++)
		if (*q != ' ' && *q != '\t' && *q != '\n')
			*d++ = *q;
	*d = 0;
	return t;
}

/* The length of the followed name (or alias) spelled at Q, else 0. */
size_t own_var_at(struct own *o, const char *q)
{
	size_t n = 0;
	int i;

	for (i = 0; i < o->nvars && !n; i++) {
		char *v = ast_name(o->vars[i]);
		size_t l = strlen(v);

		if (!strncmp(q, v, l) && !is_ident_char((unsigned char)q[l]))
			n = l;
		free(v);
	}
	return n;
}

/*
 * Is C, as written, one of the followed names then `->` or `.`?  Casts
 * before it are skipped: `(u64)mailbox->dma`.
 */
static int spelled_member(struct own *o, CXCursor c)
{
	char *t = ast_text(o->w, c), *q = t;
	size_t n;
	int yes;

	place_norm(t);
	while (*q == '(' || *q == '&' || *q == '*')
		q++;
	n = own_var_at(o, q);
	yes = n && (!strncmp(q + n, "->", 2) || q[n] == '.');
	free(t);
	return yes;
}

/*
 * Is C written `&p->a.b[i]`: an address inside the followed object
 * itself (no `->` after the first, which would leave it for another
 * object, `&p->i2c->dev`)?
 */
static int interior_address(struct own *o, CXCursor c)
{
	char *t = ast_text(o->w, c), *q = t + 1, *r;
	size_t n;
	int yes = 0;

	place_norm(t);
	while (*t == '&' && *q == '(')
		q++;
	n = *t == '&' ? own_var_at(o, q) : 0;
	r = q + n;
	if (n && !strncmp(r, "->", 2)) {
		yes = !strstr(r + 2, "->");
	} else if (n) {
		/* &desc[i].node, &slots[i]: inside the array */
		while (!strncmp(r, "[]", 2))
			r += 2;
		yes = (!*r || *r == '.' || *r == ')') && !strstr(r, "->");
	}
	free(t);
	return yes;
}

/*
 * `&p->member`, `&p->a.b`: an address inside the followed object; so is
 * `p->data` when the parse types it as an array member.
 */
static int member_address(struct own *o, CXCursor e)
{
	char *t = own_squeezed(o, e);
	enum CXTypeKind k = clang_getCanonicalType(
		clang_getCursorType(ast_strip(e))).kind;
	int yes = (t[0] == '&' || k == CXType_ConstantArray ||
		   k == CXType_IncompleteArray) &&
		  spelled_member(o, e);

	free(t);
	return yes;
}

/* Is the left side E written `*out`: a place the caller gave? */
static int written_through(struct own *o, CXCursor e)
{
	char *t = own_squeezed(o, e);
	int yes = t[0] == '*';

	free(t);
	return yes;
}

/*
 * Is E written `&p[i]`: an element's address, the object itself when
 * it is handed back (`*table = &freq_table[0];`, `return &p[0];`)?
 * Not as a store elsewhere: `sgs[i] = &sg[i]` in a local array.
 */
static int element_address(struct own *o, CXCursor e)
{
	char *t = own_squeezed(o, e);
	size_t n = t[0] == '&' ? own_var_at(o, t + 1) : 0;
	int yes = n && t[1 + n] == '[';

	free(t);
	return yes;
}

/*
 * How an argument refers to the tracked object: 2 the pointer itself (or
 * the variable's address), 1 the address of a member (&p->list), 0 not.
 */
static int arg_mentions(struct own *o, CXCursor a)
{
	CXCursor k[AST_MAX_KIDS], orig = a;
	char op[4];

	/*
	 * The argument as written, not the operand the parse kept: a
	 * single-file parse that cannot type `mailbox->dma` keeps the bare
	 * `mailbox` under the cast to the parameter's type.
	 */
	if (tracked(o, ast_strip(a)))
		return !spelled_member(o, a) ? 2 : interior_address(o, a);
	a = ast_strip(a);
	if (tracked_decl(o, own_local_aggregate(o->w, a, a)))
		return 2; /* pages[i], t.buf: what was stored there */
	if (clang_getCursorKind(a) != CXCursor_UnaryOperator ||
	    ast_children(a, k) != 1 || strcmp(ast_operator(o->w, a, op), "&"))
		return 0;
	a = ast_strip(k[0]);
	if (tracked(o, a))
		return 2;
	while (clang_getCursorKind(a) == CXCursor_MemberRefExpr ||
	       clang_getCursorKind(a) == CXCursor_ArraySubscriptExpr) {
		if (!ast_children(a, k))
			return 0;
		a = ast_strip(k[0]);
		if (tracked(o, a))
			return interior_address(o, orig);
	}
	return 0;
}


/*
 * `page_address(page)`, `__pa(p)`: the object in another form; `p + off`
 * the object at an offset.
 */
static int converts_tracked(struct own *o, CXCursor e)
{
	const struct name_set *conv;
	CXCursor k[AST_MAX_KIDS];
	char *name, op[4];
	int yes;

	e = ast_strip(e);
	if (clang_getCursorKind(e) == CXCursor_BinaryOperator &&
	    ast_children(e, k) == 2 && !strcmp(ast_operator(o->w, e, op), "+"))
		return arg_mentions(o, k[0]) == 2;
	if (clang_getCursorKind(e) != CXCursor_CallExpr || !o->w->lifetime ||
	    ast_nargs(e) < 1)
		return 0;
	conv = &o->w->lifetime[LT_CONVERT];
	name = ast_callee(e);
	/* kasan_reset_tag(page_address(page)) too */
	yes = names_get(conv, name, strlen(name)) >= 0 &&
	      (arg_mentions(o, ast_arg(e, 0)) == 2 ||
	       converts_tracked(o, ast_arg(e, 0)));
	free(name);
	return yes;
}

/* __free_page(virt_to_page(p)): a conversion's call, not `p + off` */
static int converted_call(struct own *o, CXCursor e)
{
	e = ast_strip(e);
	return clang_getCursorKind(e) == CXCursor_CallExpr &&
	       converts_tracked(o, e);
}

/*
 * `set_p4d(p4d, __p4d(_KERNPG_TABLE | __pa(new_pud_page)))`: a
 * conversion of the object combined into a value (a page-table entry, a
 * register's word) hands the object to what takes that value.  The
 * conversion itself only borrows it.
 */
static int carries_converted(struct own *o, CXCursor e)
{
	CXCursor k[AST_MAX_KIDS];
	char op[4];

	e = ast_strip(e);
	if (clang_getCursorKind(e) != CXCursor_BinaryOperator ||
	    ast_children(e, k) != 2)
		return 0;
	ast_operator(o->w, e, op);
	if (strcmp(op, "|") && strcmp(op, "+"))
		return 0;
	return converted_call(o, k[0]) || converted_call(o, k[1]) ||
	       carries_converted(o, k[0]) || carries_converted(o, k[1]);
}

struct seq {
	struct own *o;
	unsigned st;
};

static enum CXChildVisitResult ev_child(CXCursor c, CXCursor parent,
					CXClientData data)
{
	struct seq *q = data;

	(void)parent;
	q->st = own_ev(q->o, c, q->st);
	return CXChildVisit_Continue;
}

static unsigned ev_children(struct own *o, CXCursor c, unsigned st)
{
	struct seq q = {o, st};

	clang_visitChildren(c, ev_child, &q);
	return q.st;
}

/*
 * A store call's other argument that names a structure through a
 * variable (`&stream->strm_list`): where the object is kept, so that
 * returning that structure returns the object (holder_returned()).
 */
static void store_holder(struct own *o, const char *name, CXCursor c,
			 const struct call_args *a)
{
	int kept = lifetime_store_arg(o->w->lifetime, name, strlen(name));
	int i, n = ast_nargs(c);
	char *t, *h;

	/* only the call that keeps the object (apply_call()'s test) */
	if (kept < 0 || kept >= 32 || !(a->mask & (1u << kept)))
		return;
	for (i = 0; i < n; i++) {
		if (i == kept)
			continue;
		t = ast_text(o->w, ast_arg(c, i));
		if (own_param_rooted(o, t))
			o->kept_in_param = 1;
		h = holder_text(t);
		free(t);
		if (h && !o->holder)
			o->holder = h;
		else
			free(h);
	}
}

static unsigned ev_call(struct own *o, CXCursor c, unsigned st)
{
	struct call_args a = {0, 0, -1, 0};
	char *name, *gfp;
	int n, i, farg;

	st = ev_children(o, c, st);
	if (!st)
		return 0;
	if (ast_same(c, o->call))
		return OW_LIVE;
	name = ast_callee(c);
	if (!*name) {
		/*
		 * Through a member: handed to whatever the member holds,
		 * which the summaries step resolves (`.fn`).
		 */
		free(name);
		name = call_member_name(o, c);
		if (!name)
			return st;
	}
	farg = call_frees(o->w, name);
	a.freed = farg >= 0 && (arg_mentions(o, ast_arg(c, farg)) == 2 ||
				converted_call(o, ast_arg(c, farg)));
	/* kref_put(&p->kref, release): this function's reference dropped */
	farg = lifetime_put_arg(o->w->lifetime, name, strlen(name));
	if (farg >= 0 && farg < ast_nargs(c) &&
	    arg_mentions(o, ast_arg(c, farg))) {
		char *t = ast_text(o->w, ast_arg(c, farg));

		a.freed = lifetime_put_place(t) > 0;
		free(t);
	}
	n = ast_nargs(c);
	for (i = 0; i < n; i++) {
		int m = arg_mentions(o, ast_arg(c, i));

		if (!m && carries_converted(o, ast_arg(c, i)))
			m = 2;
		if (m && i < 32)
			a.mask |= 1u << i;
		if (m > a.best || (m && m == a.best && a.arg < 0))
			a.arg = i;
		if (m > a.best)
			a.best = m;
	}
	if (a.best && st & OW_HELD && !o->stored.seen)
		store_holder(o, name, c, &a);
	gfp = gfp_text_of(o, name, c);
	st = apply_call(o, name, ast_line(c), &a, gfp, st);
	free(gfp);
	free(name);
	return st;
}

/*
 * `t.rx_buf`, `pages[i]`: a member or element of an array or structure
 * that is itself a local variable (on the stack, not through a pointer):
 * the local it lives in, else a null cursor.  WRITTEN: LHS as written,
 * before casts and parentheses were stripped.
 */
CXCursor own_local_aggregate(const struct walk_ctx *w, CXCursor lhs,
			     CXCursor written)
{
	enum CXCursorKind k = clang_getCursorKind(lhs);
	CXCursor kid[AST_MAX_KIDS], d;
	enum CXTypeKind tk;
	char *t;
	int arrow;

	if (k == CXCursor_DeclRefExpr) {
		/* a parse that could not type `t.buf` kept the bare `t` */
		d = ast_ref_decl(lhs);
	} else if ((k == CXCursor_MemberRefExpr ||
		    k == CXCursor_ArraySubscriptExpr) &&
		   ast_children(lhs, kid)) {
		d = ast_ref_decl(ast_strip(kid[0]));
	} else {
		return clang_getNullCursor();
	}
	t = ast_text(w, written);
	arrow = strstr(t, "->") != NULL || t[0] == '*' ||
		(k == CXCursor_DeclRefExpr && !strpbrk(t, ".["));
	free(t);
	if (arrow || clang_Cursor_isNull(d) ||
	    clang_getCursorKind(d) != CXCursor_VarDecl || !ast_is_local(d))
		return clang_getNullCursor();
	tk = clang_getCanonicalType(clang_getCursorType(d)).kind;
	if (tk != CXType_ConstantArray && tk != CXType_Record)
		return clang_getNullCursor();
	return d;
}

/* An lvalue that outlives the function: a member, a global, *out, a[i]. */
int own_lasting_lvalue(const struct walk_ctx *w, CXCursor lhs,
		       CXCursor written)
{
	enum CXCursorKind k = clang_getCursorKind(lhs);
	CXCursor d;

	if (!clang_Cursor_isNull(own_local_aggregate(w, lhs, written)))
		return 0;
	if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr ||
	    k == CXCursor_UnaryOperator || !ast_spelled_plain(w, written))
		return 1;
	d = ast_ref_decl(lhs);
	return !clang_Cursor_isNull(d) && !ast_is_local(d);
}

/*
 * `x->priv = p = kzalloc(...)`: the value of an assignment of the object
 * is the object.
 */
static int chained(struct own *o, CXCursor e)
{
	CXCursor k[AST_MAX_KIDS];
	char op[4];

	/*
	 * What is assigned must be the object: not `buf = ret = other()`
	 * for ret's earlier object, and a variable as written (`s->a =
	 * s->b = n` can be parsed as `s = n`).
	 */
	return clang_getCursorKind(e) == CXCursor_BinaryOperator &&
	       ast_children(e, k) == 2 &&
	       !strcmp(ast_operator(o->w, e, op), "=") &&
	       (ast_same(ast_strip(k[1]), o->call) ||
		(tracked(o, ast_strip(k[1])) && ast_spelled_plain(o->w, k[1])));
}

/*
 * `tid->lparnr` that the parse kept as the bare `tid` (a structure of a
 * header it has not seen): its type is not the member's.
 */
static int untyped_member(struct own *o, CXCursor lhs)
{
	CXCursor s = ast_strip(lhs);
	char *t;
	int yes;

	if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
		return 0;
	t = own_squeezed(o, lhs);
	yes = strstr(t, "->") || strchr(t, '.');
	free(t);
	return yes;
}

/*
 * `int err = hdl->error;`, `ret = req->dst_len;`: a value read from a
 * member of the object, which a single-file parse that cannot type the
 * member keeps as the bare `hdl`.  A variable of an arithmetic type that
 * takes it is no alias of the object; a pointer (`char *d = buf->data`,
 * an array member) may be one, and stays one.
 */
static int member_value(struct own *o, CXCursor var, CXCursor written)
{
	enum CXTypeKind tk =
		clang_getCanonicalType(clang_getCursorType(var)).kind;
	int arith = (tk >= CXType_Bool && tk <= CXType_LongDouble) ||
		    tk == CXType_Enum;
	int untyped = !arith && untyped_member(o, var), amp;
	char *t;

	if ((!arith && !untyped) || !spelled_member(o, written))
		return 0;
	t = own_squeezed(o, written);
	amp = strchr(t, '&') != NULL;
	free(t);
	if (amp)
		return 0;
	/* a member of a structure neither side's type says: values_instead() */
	if (untyped && !o->read_values) {
		o->member_read = 1;
		return 0;
	}
	return 1;
}

/*
 * Is the left side WRITTEN a place inside the followed object itself
 * (`p->end = p->start + n`, `IPCB(skb)->iif = skb->skb_iif`, `*p = x`)?
 * Writing there hands the object to nobody.  A single-file parse that
 * cannot type the members may keep only the bare names, so this reads
 * the text: wrapping calls are skipped to their first argument.
 */
static int self_rooted(struct own *o, CXCursor written)
{
	char *t = ast_text(o->w, written), *q = t;
	size_t n;
	int yes;

	place_norm(t);
	for (;;) {
		char *e;

		while (*q == '(' || *q == '*')
			q++;
		e = q;
		while (is_ident_char((unsigned char)*e))
			e++;
		if (e == q || *e != '(')
			break;
		q = e + 1; /* IPCB(skb)->iif: skb */
	}
	n = own_var_at(o, q);
	yes = n && (!strncmp(q + n, "->", 2) || q[n] == '.' || q[n] == '[' ||
		    q[n] == ')' || (!q[n] && q > t && q[-1] == '*'));
	free(t);
	return yes;
}

/*
 * Has the object another name than its first variable?  The aliases
 * are kept for the whole function, not per path: `tail = new;` of the
 * last loop pass names the next pass's object too.
 */
static int aliased(const struct own *o)
{
	int i;

	for (i = 1; i < o->nvars; i++)
		if (!clang_equalCursors(o->vars[i], o->vars[0]))
			return 1;
	return 0;
}

/*
 * `ret = add_watch(watch, list); if (!ret) watch = NULL; ... kfree(watch);`:
 * after a hand-over or a store, the variable no longer names the object,
 * so the free at the common exit frees nothing on that path.  A handed-
 * over object stays with the callee, as at a return; a live one keeps
 * its state (`p = NULL` before its allocation in a loop).
 */
static unsigned nulled(struct own *o, unsigned st)
{
	if (st & OW_ESC)
		o->escaped_out = 1;
	if (!(st & (OW_ESC | OW_KEPT)))
		return st;
	return (st & ~(OW_ESC | OW_KEPT)) | OW_DONE;
}

static unsigned ev_assign(struct own *o, CXCursor c, CXCursor *k, unsigned st)
{
	CXCursor lhs = ast_strip(k[0]), rhs = ast_strip(k[1]);
	unsigned line = ast_line(c);

	st = own_ev(o, k[1], st);
	if (!st)
		return 0;
	if (tracked(o, lhs) && ast_spelled_plain(o->w, k[0])) {
		if (own_null_const(rhs) && !aliased(o))
			return nulled(o, st);
		/* p = other: the old object is no longer reachable here. */
		if (!ast_same(rhs, o->call) && !tracked(o, rhs) &&
		    clang_getCursorKind(rhs) != CXCursor_IntegerLiteral &&
		    st & OW_LIVE) {
			o->esc_bad = 1;
			note(&o->escaped, line,
			     xasprintf("overwritten at line %u", line));
			st = (st & ~OW_LIVE) | OW_ESC;
		}
		return st;
	}
	if ((tracked(o, rhs) || converts_tracked(o, rhs) ||
	     member_address(o, rhs) || chained(o, rhs) ||
	     (element_address(o, rhs) && written_through(o, k[0]))) &&
	    !self_rooted(o, k[0])) {
		/* group = &p->group: still p */
		CXCursor d = ast_ref_decl(lhs);

		/* `pool->base = p` parsed as `pool = p`: a store, no alias */
		if (!clang_Cursor_isNull(d) && ast_is_local(d) &&
		    ast_spelled_plain(o->w, k[0])) {
			/*
			 * not before the allocation: `last = &entry->next`
			 * in a loop over the old list is no alias of the
			 * new entry
			 */
			if (!member_value(o, d, k[1]) &&
			    st & ~(OW_NONE | OW_NULL))
				own_add_var(o, d);
		} else if (own_lasting_lvalue(o->w, lhs, k[0]) &&
			   !member_value(o, k[0], k[1])) {
			/* `*node_guid = rep->node_guid` writes a value */
			if (st & OW_HELD) {
				char *t = ast_text(o->w, k[0]);

				/*
				 * `*dma_handle = virt_to_phys(ret); return
				 * ret;`: the caller gets an address of the
				 * object beside it, not the object
				 */
				if (own_param_rooted(o, t) &&
				    !converted_call(o, k[1]))
					o->kept_in_param = 1;
				note(&o->stored, line,
				     xasprintf("stored in %s at line %u", t,
					       line));
				if (!o->target)
					o->target = t;
				else
					free(t);
			}
			st = to_kept(st);
		}
		return st;
	}
	return own_ev(o, k[0], st);
}

unsigned own_ev(struct own *o, CXCursor c, unsigned st)
{
	CXCursor k[AST_MAX_KIDS];
	char op[4];
	unsigned n, s, e;

	if (!st)
		return 0;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CallExpr:
		return ev_call(o, c, st);
	case CXCursor_BinaryOperator:
		n = ast_children(c, k);
		if (n == 2 && !strcmp(ast_operator(o->w, c, op), "="))
			return ev_assign(o, c, k, st);
		return ev_children(o, c, st);
	case CXCursor_VarDecl:
		st = ev_children(o, c, st);
		n = ast_children(c, k);
		if (n && tracked(o, k[n - 1]) && st & ~(OW_NONE | OW_NULL) &&
		    !member_value(o, c, k[n - 1])) {
			if (ast_is_local(c))
				own_add_var(o, c);
			else
				st = to_done(st);
		}
		return st;
	case CXCursor_DeclRefExpr:
	case CXCursor_IntegerLiteral:
	case CXCursor_StringLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_TypeRef:
		return st;
	case CXCursor_UnexposedExpr:
		/*
		 * An expression the parse could not type (a name from a
		 * header it has not seen: `f(args) || g(args, &v)`) is kept
		 * without its operands: its calls are read from its tokens,
		 * as those of a statement the parse dropped.
		 */
		if (!ast_children(c, k) && ast_span(o->w, c, &s, &e) && e > s)
			return gap_domain(o, s, e, st);
		return ev_children(o, c, st);
	default:
		return ev_children(o, c, st);
	}
}

int own_skip_domain(void *ctx, CXCursor c)
{
	struct own *o = ctx;

	return o->active && ast_disabled(o->w, c);
}

unsigned own_ev_domain(void *ctx, CXCursor c, unsigned st)
{
	return own_ev(ctx, c, st);
}

static unsigned nullify(unsigned st)
{
	return st & OW_HELD ? (st & ~OW_HELD) | OW_NULL : st;
}

/* The branch where the allocation did not fail (OW_TESTED). */
static unsigned nonnull(unsigned st)
{
	return (st & ~OW_NULL) | (st & OW_HELD ? OW_TESTED : 0);
}

int own_null_const(CXCursor c)
{
	enum CXCursorKind k;

	c = ast_strip(c);
	k = clang_getCursorKind(c);
	if (k == CXCursor_GNUNullExpr)
		return 1;
	if (k == CXCursor_IntegerLiteral) {
		CXEvalResult r = clang_Cursor_Evaluate(c);
		int zero = r && clang_EvalResult_getAsInt(r) == 0;

		if (r)
			clang_EvalResult_dispose(r);
		return zero;
	}
	return 0;
}

/*
 * The variable an expression tests: p, or p in (p = kmalloc(...)).  Not
 * `p->buf`, which a single-file parse that cannot type it keeps as the
 * bare `p` (the text as written says).
 */
static int tests_tracked(struct own *o, CXCursor c)
{
	CXCursor k[AST_MAX_KIDS], written = c;
	char op[4];

	c = ast_strip(c);
	if ((tracked(o, c) && ast_spelled_plain(o->w, written)) ||
	    tracked_decl(o, own_local_aggregate(o->w, c, c))) /* !pages[i] */
		return 1;
	return clang_getCursorKind(c) == CXCursor_BinaryOperator &&
	       ast_children(c, k) == 2 &&
	       !strcmp(ast_operator(o->w, c, op), "=") && tracked(o, k[0]);
}

/*
 * Is P the tracked pointer, as written, and Q another pointer: a
 * variable or a member that does not name the object?
 */
static int other_pointer(struct own *o, CXCursor p, CXCursor q)
{
	CXCursor written = p;
	enum CXCursorKind k;

	p = ast_strip(p);
	if (!tracked(o, p) || !ast_spelled_plain(o->w, written) ||
	    arg_mentions(o, q))
		return 0;
	q = ast_strip(q);
	k = clang_getCursorKind(q);
	if (k == CXCursor_DeclRefExpr && !own_null_const(q))
		k = clang_getCursorKind(clang_getCursorReferenced(q));
	return k == CXCursor_MemberRefExpr || k == CXCursor_VarDecl ||
	       k == CXCursor_ParmDecl;
}

static void br(struct own *o, CXCursor c, unsigned st, unsigned *t, unsigned *f)
{
	CXCursor k[AST_MAX_KIDS], written = c;
	enum CXCursorKind kind;
	char op[4], *callee;
	unsigned n, ta, fa, tb, fb, s2;

	c = ast_strip(c);
	if (same_guard(o, written, st, t, f))
		return;
	kind = clang_getCursorKind(c);
	n = ast_children(c, k);
	if (kind == CXCursor_CallExpr) {
		callee = ast_callee(c);
		if (!strcmp(callee, "__builtin_expect") ||
		    !strcmp(callee, "likely") || !strcmp(callee, "unlikely")) {
			free(callee);
			br(o, ast_arg(c, 0), st, t, f);
			return;
		}
		/*
		 * IS_ERR(p): an allocator that returns ERR_PTR (memdup_user)
		 * failed on the true branch, as `!p` for one that returns
		 * NULL.
		 */
		if ((!strcmp(callee, "IS_ERR") ||
		     !strcmp(callee, "IS_ERR_OR_NULL")) &&
		    ast_nargs(c) == 1 && tests_tracked(o, ast_arg(c, 0))) {
			free(callee);
			*t = nullify(st);
			*f = nonnull(st);
			return;
		}
		free(callee);
	} else if (kind == CXCursor_UnaryOperator && n == 1 &&
		   !strcmp(ast_operator(o->w, c, op), "!")) {
		br(o, k[0], st, f, t);
		return;
	} else if (kind == CXCursor_BinaryOperator && n == 2) {
		ast_operator(o->w, c, op);
		if (!strcmp(op, "&&")) {
			br(o, k[0], st, &ta, &fa);
			br(o, k[1], ta, &tb, &fb);
			*t = tb;
			*f = fa | fb;
			return;
		}
		if (!strcmp(op, "||")) {
			br(o, k[0], st, &ta, &fa);
			br(o, k[1], fa, &tb, &fb);
			*t = ta | tb;
			*f = fb;
			return;
		}
		/* `id < 0`: an ID allocator (ida_alloc) failed */
		if ((!strcmp(op, "<") || !strcmp(op, ">=")) &&
		    tests_tracked(o, k[0]) && own_null_const(k[1])) {
			s2 = own_ev(o, c, st);
			*t = op[0] == '<' ? nullify(s2) : nonnull(s2);
			*f = op[0] == '<' ? nonnull(s2) : nullify(s2);
			return;
		}
		if ((!strcmp(op, "==") || !strcmp(op, "!=")) &&
		    ((tests_tracked(o, k[0]) && own_null_const(k[1])) ||
		     (tests_tracked(o, k[1]) && own_null_const(k[0])))) {
			s2 = own_ev(o, c, st);
			*t = op[0] == '=' ? nullify(s2) : nonnull(s2);
			*f = op[0] == '=' ? nonnull(s2) : nullify(s2);
			return;
		}
		/*
		 * `p != q` with q another pointer: a new object is no other
		 * one, so only a failed allocation can be equal to it
		 * (`if (challenge != chap->c2) kfree(challenge);`).  Not for
		 * an ID, which may well be equal to another number.
		 */
		if ((!strcmp(op, "==") || !strcmp(op, "!=")) && !o->ids &&
		    (other_pointer(o, k[0], k[1]) ||
		     other_pointer(o, k[1], k[0]))) {
			s2 = own_ev(o, c, st);
			*t = op[0] == '=' ? nullify(s2) : s2;
			*f = op[0] == '=' ? s2 : nullify(s2);
			return;
		}
	}
	s2 = own_ev(o, c, st);
	if (tests_tracked(o, written)) {
		*t = nonnull(s2);
		*f = nullify(s2);
	} else {
		*t = *f = s2;
	}
}

void own_br_domain(void *ctx, CXCursor c, unsigned st, unsigned *t,
		   unsigned *f)
{
	br(ctx, c, st, t, f);
}

/*
 * Does a returned expression hand the object back: p, cond ? p : q, or
 * a member's address (`return &ei->vfs_inode;`: the caller gets the
 * structure that holds it)?
 */
static int returns_tracked(struct own *o, CXCursor e)
{
	CXCursor k[AST_MAX_KIDS], written = e;
	unsigned n, i;

	e = ast_strip(e);
	/* not `return p->buf;`, kept as the bare `p` when untyped */
	if ((tracked(o, e) && ast_spelled_plain(o->w, written)) ||
	    member_address(o, e) || element_address(o, e) ||
	    converts_tracked(o, e))
		return 1;
	if (clang_getCursorKind(e) == CXCursor_ConditionalOperator) {
		n = ast_children(e, k);
		for (i = 1; i < n; i++)
			if (returns_tracked(o, k[i]))
				return 1;
	}
	return 0;
}

/* Does the walk's function return a pointer (a `*` before its `(`)? */
static int returns_pointer(struct own *o)
{
	const struct lexfile *lf = o->w->lf;
	unsigned start, end;
	long i;

	if (!lf || !ast_span(o->w, o->fn, &start, &end))
		return 0;
	for (i = ast_tok_at(o->w, start);
	     i < (long)lf->ntoks && lf->toks[i].off < end &&
	     !lex_tok_is(lf, i, "(");
	     i++)
		if (lex_tok_is(lf, i, "*"))
			return 1;
	return 0;
}

/*
 * `return str->name;` from a function that returns a pointer, with the
 * object still held: an array member, an address inside it (what an
 * untyped parse cannot tell from a member's value), handed back.
 */
static int returns_inside(struct own *o, CXCursor e)
{
	char *t = own_squeezed(o, e);
	int yes = t[0] != '&' && t[0] != '(' && t[0] != '*' &&
		  spelled_member(o, e) && !strchr(t, '(');

	free(t);
	return yes && returns_pointer(o);
}

/*
 * A return that is no success: not `return 0;`, nor the end of the
 * function.  A buffer live there after its allocation was tested is
 * leaked (the success path is where stores the parse could not see, a
 * loop it dropped or a condition it cannot correlate, leave it live).
 */
static int error_return(struct own *o, CXCursor stmt)
{
	CXCursor k[AST_MAX_KIDS];
	char *t;
	int yes;

	if (clang_Cursor_isNull(stmt))
		return 0;
	if (!ast_children(stmt, k))
		return 1; /* return; */
	t = ast_text(o->w, k[0]);
	yes = strcmp(t, "0") != 0;
	free(t);
	return yes;
}

void own_ret_domain(void *ctx, CXCursor stmt, unsigned st)
{
	struct own *o = ctx;
	CXCursor k[AST_MAX_KIDS];
	unsigned line;

	line = clang_Cursor_isNull(stmt) ? 0 : ast_line(stmt);
	o->kept_at_ret |= (st & OW_KEPT) != 0;
	/*
	 * `list_add(&p->node, &head); return p;`: stored, and the caller
	 * gets it as well, which decide() answers as returned; not where
	 * the store was into what the caller passed (kept_in_param).
	 */
	if (!(st & OW_HELD)) {
		if (st & OW_KEPT && !o->kept_in_param && line &&
		    ast_children(stmt, k) &&
		    returns_tracked(o, k[0]))
			note(&o->returned, line,
			     xasprintf("returned at line %u", line));
		return;
	}
	if (!clang_Cursor_isNull(stmt) && ast_children(stmt, k) &&
	    (returns_tracked(o, k[0]) ||
	     (st & OW_LIVE && returns_inside(o, k[0])))) {
		note(&o->returned, line,
		     xasprintf("returned at line %u", line));
		return;
	}
	if (st & OW_ESC)
		o->escaped_out = 1;
	/* every path here has it, tested, and nothing ended it */
	if (st == (OW_LIVE | OW_TESTED) && !aliased(o) &&
	    error_return(o, stmt))
		note(&o->leaked_only, line,
		     xasprintf("not freed before the return at line %u",
			       line));
	if (st & OW_LIVE)
		note(&o->leaked, line,
		     line ? xasprintf("not freed before the return at line %u",
				      line)
			  : xstrdup("not freed before the end of the "
				    "function"));
}
