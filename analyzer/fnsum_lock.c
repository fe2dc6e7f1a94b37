// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic sections in a function's text, for its summary (fnsum.c): how
 * many are open at each call, and whether a leave closes a lock the
 * function took or its caller's (functions.drop_line).
 */
#include "analyzer/fnsum_int.h"
#include "lib/util.h"

#include <string.h>

/* Back from Q over blanks, not before START. */
static const char *blanks_before(const char *start, const char *q)
{
	while (q > start && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' ||
			     q[-1] == '\r'))
		q--;
	return q;
}

/*
 * Does the block whose `}` is at B[CLOSE] end in a jump (`{ spin_unlock(l);
 * return 0; }`)?  Then it does not fall through: what it took or dropped
 * is not held after it.  A jump under a braceless if is no jump.
 */
int fnsum_block_jumps(const char *b, size_t open, size_t close)
{
	size_t i = (size_t)(blanks_before(b + open, b + close) - b), n;
	int paren = 0;

	if (i <= open || b[i - 1] != ';')
		return 0;
	for (i--; i > open; i--) {
		char c = b[i - 1];

		if (c == ')')
			paren++;
		else if (c == '(')
			paren--;
		else if (!paren && (c == ';' || c == '{' || c == '}' ||
				    c == ':'))
			break;
	}
	while (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')
		i++;
	for (n = 0; is_ident_char((unsigned char)b[i + n]);)
		n++;
	return is_jump_keyword(b + i, n);
}

/*
 * Is the call of P a statement of the body's top level (`{ spin_lock(l);`,
 * not `if (x) spin_lock(l);`)?  A wrapper that locks only on some paths
 * (a mutex or a spinlock by a flag) is none.
 */
static int top_statement(const struct lx *x, const struct body *b,
			 const char *p)
{
	const char *q = blanks_before(x->b, p);

	if (b->depth != 1)
		return 0;
	return q > x->b && (q[-1] == ';' || q[-1] == '{' || q[-1] == '}');
}

/* Is the call at P the body of a braceless if, else, for or while? */
static int braceless_body(const struct lx *x, const char *p)
{
	const char *q = blanks_before(x->b, p);

	if (q > x->b && q[-1] == ')')
		return 1;
	return q - x->b >= 4 && !memcmp(q - 4, "else", 4) &&
	       (q - x->b == 4 || !is_ident_char((unsigned char)q[-5]));
}

/*
 * Which lock the call whose '(' is at x->i takes or drops: a hash of its
 * first argument's text, blanks and `&` left out (`&dev->lock`,
 * `dev->lock`; rcu_read_lock()'s is that of nothing).
 */
static uint64_t lock_arg(const struct lx *x)
{
	char text[512];
	size_t i, n = 0;
	int depth = 0;

	for (i = x->i + 1; i < x->len && n < sizeof(text); i++) {
		char c = x->b[i];

		if (c == '(' || c == '[')
			depth++;
		else if ((c == ')' || c == ']') && depth)
			depth--;
		else if ((c == ',' || c == ')') && !depth)
			break;
		if (c != ' ' && c != '\t' && c != '\n' && c != '&')
			text[n++] = c;
	}
	return fnv1a64(text, n);
}

static int took(const struct body *b, uint64_t lock)
{
	int k;

	for (k = 0; k < b->nheld; k++)
		if (b->held[k] == lock)
			return 1;
	return 0;
}

/* Note the lock the call whose '(' is at x->i takes. */
static void take(struct body *b, const struct lx *x)
{
	uint64_t lock = lock_arg(x);

	if (!took(b, lock) &&
	    b->nheld < (int)(sizeof(b->held) / sizeof(b->held[0])))
		b->held[b->nheld++] = lock;
}

/* An enter (+1) or leave (-1) call of an atomic section, at P. */
void fnsum_section(const struct lx *x, struct body *b, const char *p,
		    int dir)
{
	if (dir > 0) {
		/*
		 * `if (WARN(!irqs_disabled(), ...)) local_irq_disable();`
		 * inside a section: taken or not, the section is as open
		 * as before, and the one leave that closes it must close it
		 */
		int open = !(b->adepth && braceless_body(x, p));

		b->adepth += open;
		b->rel += open;
		take(b, x);
		b->opens++;
	} else {
		b->adepth -= b->adepth > 0;
		/*
		 * Below 0 only for a lock it did not take before: a leave of
		 * its own (an error label's unlock after an unlock-and-return,
		 * the next switch case's) leaves it at 0.
		 */
		if (took(b, lock_arg(x))) {
			b->rel -= b->rel > 0;
		} else {
			b->rel--;
			if (!b->f->drop_line)
				b->f->drop_line = x->line;
		}
		b->closes++;
	}
	b->cond += !top_statement(x, b, p);
}

/*
 * A lock that data/atomic.txt does not list as an enter but whose leave
 * it does: a trylock (`if (!spin_trylock(&l)) return;`) or a variant of
 * an enter (spin_lock_irqsave_nested()).  Not an atomic section (a
 * trylock may fail), but its leave closes no caller's lock.
 */
int fnsum_other_lock(const struct name_set *enter, const char *p, size_t n)
{
	size_t k;

	if (n < 8 || !memmem(p, n, "lock", 4) || memmem(p, n, "unlock", 6))
		return 0;
	if (memmem(p, n, "trylock", 7))
		return 1;
	for (k = n - 1; k > 0; k--)
		if (p[k] == '_' && names_get(enter, p, k) >= 0)
			return 1;
	return 0;
}

void fnsum_lock_only(const struct lx *x, struct body *b)
{
	b->rel++;
	take(b, x);
}
