// SPDX-License-Identifier: GPL-2.0
/* Macro environments and a line-based reader for the tree's headers. */
#include "analyzer/macroenv.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void menv_init(struct macro_env *m)
{
	memset(m, 0, sizeof(*m));
	names_init(&m->idx);
}

void menv_free(struct macro_env *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->defs[i].body);
	free(m->defs);
	names_free(&m->idx);
}

void menv_set(struct macro_env *m, const char *name, size_t len,
	      const char *body, size_t blen, enum mdef_state st, int fn_like)
{
	int at = names_get(&m->idx, name, len);
	struct mdef *d;

	if (at < 0) {
		if (m->n == m->alloc) {
			m->alloc = m->alloc ? m->alloc * 2 : 32;
			m->defs = xrealloc(m->defs,
					   m->alloc * sizeof(*m->defs));
		}
		at = (int)m->n++;
		names_put(&m->idx, name, len, at);
		m->defs[at].body = NULL;
	}
	d = &m->defs[at];
	free(d->body);
	d->body = body ? pp_clean(body, blen) : NULL;
	d->state = st;
	d->function_like = fn_like;
}

const struct mdef *menv_get(const struct macro_env *m, const char *name,
			    size_t len)
{
	int at;

	if (!m)
		return NULL;
	at = names_get(&m->idx, name, len);
	return at < 0 ? NULL : &m->defs[at];
}

static int is_config(const char *name, size_t len)
{
	return len > 7 && !memcmp(name, "CONFIG_", 7);
}

static int is_kernel(const char *name, size_t len)
{
	return len == 10 && !memcmp(name, "__KERNEL__", 10);
}

static const struct mdef *lookup(const struct menv_ctx *c, const char *name,
				 size_t len)
{
	const struct mdef *d = menv_get(c->local, name, len), *u;

	if (d && d->state == MDEF_UNDEF && c->undone &&
	    (u = menv_get(c->undone, name, len)))
		return u;
	if (!d && c->near)
		d = menv_get(c->near, name, len);
	if (!d)
		d = menv_get(c->tree, name, len);
	return d;
}

static enum pp_res ident_cb(struct pp_eval *e, const char *name, size_t len,
			    unsigned long long *out)
{
	const struct menv_ctx *c = e->ctx;
	const struct mdef *d = lookup(c, name, len);

	if (d) {
		if (d->state == MDEF_UNDEF)
			return PP_UNDEFINED;
		if (d->state == MDEF_MAYBE || d->function_like || !d->body)
			return PP_UNKNOWN;
		if (!d->body[strspn(d->body, " \t")]) {
			*out = 0; /* #define FOO (empty): treat as 0 */
			return e->undefined_is_zero ? PP_KNOWN : PP_UNKNOWN;
		}
		return pp_eval(e, d->body, strlen(d->body), out) ?
			       PP_KNOWN : PP_UNKNOWN;
	}
	if (is_kernel(name, len)) {
		*out = 1;
		return PP_KNOWN;
	}
	if (is_config(name, len) && c->config) {
		d = menv_get(&c->config->opts, name, len);
		if (d && d->state == MDEF_DEFINED && d->body &&
		    pp_eval(e, d->body, strlen(d->body), out))
			return PP_KNOWN;
		return PP_UNDEFINED;
	}
	return PP_UNKNOWN;
}

static enum pp_res defined_cb(struct pp_eval *e, const char *name,
			      size_t len, unsigned long long *out)
{
	const struct menv_ctx *c = e->ctx;
	const struct mdef *d = lookup(c, name, len);

	if (d) {
		if (d->state == MDEF_MAYBE)
			return PP_UNKNOWN;
		*out = d->state == MDEF_DEFINED;
		return PP_KNOWN;
	}
	if (is_kernel(name, len)) {
		*out = 1;
		return PP_KNOWN;
	}
	if (is_config(name, len) && c->config) {
		struct strbuf sb = STRBUF_INIT;

		*out = menv_get(&c->config->opts, name, len) != NULL;
		if (!*out) { /* IS_ENABLED() also accepts =m options */
			sb_add(&sb, name, len);
			sb_adds(&sb, "_MODULE");
			*out = menv_get(&c->config->opts, sb.buf, sb.len) !=
			       NULL;
			sb_release(&sb);
		}
		return PP_KNOWN;
	}
	return PP_UNKNOWN;
}

int menv_eval_cond(const struct menv_ctx *c, const char *s, size_t len)
{
	struct pp_eval e = { ident_cb, defined_cb, (void *)c, 0, 1 };
	unsigned long long v;

	if (!pp_eval(&e, s, len, &v))
		return -1;
	return v != 0;
}

int menv_eval_value(const struct menv_ctx *c, const char *s, size_t len,
		    unsigned long long *out)
{
	struct pp_eval e = { ident_cb, defined_cb, (void *)c, 0, 0 };

	return pp_eval(&e, s, len, out);
}

/* --- header reader ------------------------------------------------ */

struct cond {
	int active; /* 1, 0, -1 unknown */
	int taken;  /* a branch was known-taken */
	int parent_active;
};

static const char *skip_sp(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static size_t word_len(const char *p)
{
	size_t n = 0;

	while (is_ident_char((unsigned char)p[n]))
		n++;
	return n;
}

/* enum { A, B = 4, C }: define each constant with its value. */
static void read_enums(struct macro_env *m, const char *code,
		       const struct menv_ctx *c)
{
	const char *p = code;

	while ((p = strstr(p, "enum"))) {
		unsigned long long next = 0;
		const char *q;

		if ((p > code && is_ident_char((unsigned char)p[-1])) ||
		    is_ident_char((unsigned char)p[4])) {
			p += 4;
			continue;
		}
		q = skip_sp(p + 4);
		while (*q == '\n' || *q == ' ' || *q == '\t')
			q++;
		q += word_len(q);
		while (*q == '\n' || *q == ' ' || *q == '\t')
			q++;
		p += 4;
		if (*q != '{')
			continue;
		q++;
		for (;;) {
			size_t n;
			const char *name, *e;
			char buf[32];

			while (*q && (*q == ' ' || *q == '\t' || *q == '\n' ||
				      *q == ','))
				q++;
			if (!*q || *q == '}')
				break;
			n = word_len(q);
			if (!n)
				break;
			name = q;
			q = skip_sp(q + n);
			if (*q == '=') {
				unsigned long long v;

				e = q + 1;
				while (*q && *q != ',' && *q != '}')
					q++;
				if (menv_eval_value(c, e, (size_t)(q - e), &v))
					next = v;
			}
			snprintf(buf, sizeof(buf), "%llu", next++);
			menv_set(m, name, n, buf, strlen(buf), MDEF_DEFINED,
				 0);
			while (*q && *q != ',' && *q != '}')
				q++;
		}
		p = q;
	}
}

int menv_read_header(struct macro_env *m, const char *path,
		     const struct kconfig *config)
{
	char *raw, *text, *line, *save = NULL;
	size_t len;
	struct cond st[64];
	int sp = 0;
	struct strbuf code = STRBUF_INIT;
	struct menv_ctx c = { NULL, m, config, NULL, NULL };

	if (read_whole_file(path, &raw, &len))
		return -1;
	text = pp_clean(raw, len);
	free(raw);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *p = skip_sp(line), *w;
		int active = sp ? st[sp - 1].active : 1;
		size_t n;

		if (*p != '#') {
			if (active) {
				sb_adds(&code, line);
				sb_addc(&code, '\n');
			}
			continue;
		}
		w = skip_sp(p + 1);
		n = word_len(w);
		p = skip_sp(w + n);
#define KW(lit) mem_is(w, n, lit)
		if (KW("if") || KW("ifdef") || KW("ifndef")) {
			int v = -1;

			if (KW("if"))
				v = menv_eval_cond(&c, p, strlen(p));
			else {
				size_t k = word_len(p);
				char *cond = xasprintf("%sdefined(%.*s)",
						       KW("ifndef") ? "!" : "",
						       (int)k, p);

				v = menv_eval_cond(&c, cond, strlen(cond));
				free(cond);
			}
			if (sp < 64) {
				st[sp].parent_active = active;
				st[sp].active = active == 0 ? 0 :
						v == 0 ? 0 : (v < 0 || active < 0) ?
						-1 : 1;
				st[sp].taken = v == 1;
				sp++;
			}
		} else if ((KW("elif") || KW("else")) && sp) {
			struct cond *t = &st[sp - 1];
			int v = KW("else") ? 1 :
					     menv_eval_cond(&c, p, strlen(p));

			if (t->parent_active == 0 || t->taken || v == 0)
				t->active = 0;
			else
				t->active = (v < 0 || t->active < 0 ||
					     t->parent_active < 0) ? -1 : 1;
			if (v == 1 && t->active == 1)
				t->taken = 1;
		} else if (KW("endif") && sp) {
			sp--;
		} else if (KW("define") && active) {
			size_t k = word_len(p);
			int fn = p[k] == '(';
			const char *body = p + k;

			if (fn)
				body = strchr(body, ')') ? strchr(body, ')') + 1 :
							  body + strlen(body);
			/* First definition in an unknown branch wins. */
			if (k && (active == 1 || !menv_get(m, p, k)))
				menv_set(m, p, k, body, strlen(body),
					 MDEF_DEFINED, fn);
		} else if (KW("undef") && active == 1) {
			size_t k = word_len(p);

			if (k)
				menv_set(m, p, k, NULL, 0, MDEF_UNDEF, 0);
		}
#undef KW
	}
	if (code.len)
		read_enums(m, code.buf, &c);
	sb_release(&code);
	free(text);
	return 0;
}

void kconfig_load(struct kconfig *k, const char *tree)
{
	char *p = xasprintf("%s/include/generated/autoconf.h", tree);

	menv_init(&k->opts);
	k->configured = menv_read_header(&k->opts, p, NULL) == 0;
	free(p);
}

void kconfig_free(struct kconfig *k)
{
	menv_free(&k->opts);
}
