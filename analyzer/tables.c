// SPDX-License-Identifier: GPL-2.0
/*
 * Loading data/tracked-flags.txt, data/allocators.txt and the classifier
 * knowledge files (sleepers.txt, atomic.txt, lifetime.txt).  All are
 * line-oriented: `#` comments, blank lines, whitespace-separated fields.
 * Each loader reads from a stream (the *_read() functions), so that the
 * fuzz target and the unit tests can feed it memory.
 */
#include "analyzer/tables.h"
#include "lib/datadir.h"
#include "db/db.h"
#include "lib/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const kind_names[] = {
	[AK_ALLOC] = "alloc",
	[AK_FREE] = "free",
	[AK_CACHE_CREATE] = "cache_create",
};

const char *const atomic_kinds[] = { "enter",  "leave", "callback",
				      "thread", "boot",	 "member", NULL };
const char *const lifetime_kinds[] = { "store",	"borrow", "reclaim",
					"convert", "evict",  "calls",
					"consume", "put",    NULL };

int lifetime_store_arg(const struct name_set *lifetime, const char *name,
		       size_t len)
{
	return lifetime ? names_get(&lifetime[LT_STORE], name, len) : -1;
}

int lifetime_put_arg(const struct name_set *lifetime, const char *name,
		     size_t len)
{
	return lifetime ? names_get(&lifetime[LT_PUT], name, len) : -1;
}

static const char *blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

static const char *ident_end(const char *s)
{
	while (is_ident_char((unsigned char)*s))
		s++;
	return s;
}

size_t lifetime_put_place(const char *arg)
{
	const char *s = blanks(arg), *name, *e;
	int amp = *s == '&';

	name = blanks(s + amp);
	e = ident_end(name);
	if (e == name || !is_ident_start((unsigned char)*name))
		return 0;
	s = blanks(e);
	if (!amp)
		return *s ? 0 : (size_t)(e - name);
	if (strncmp(s, "->", 2))
		return 0;
	for (s += 2;;) {
		const char *m = blanks(s);

		s = ident_end(m);
		if (s == m)
			return 0;
		s = blanks(s);
		if (!*s)
			return (size_t)(e - name);
		if (*s != '.')
			return 0;
		s++;
	}
}

int lifetime_borrows(const struct name_set *lifetime, const char *name,
		     size_t len)
{
	return lifetime && (names_get(&lifetime[LT_BORROW], name, len) >= 0 ||
			    names_get(&lifetime[LT_CONVERT], name, len) >= 0);
}

const char *alloc_kind_name(enum alloc_kind k)
{
	return kind_names[k];
}

const char *rules_dir(void)
{
	return gfp_datadir("allocators.txt");
}

/* Split LINE (modified) into at most MAX fields; comments stripped. */
static int split_fields(char *line, char **f, int max)
{
	char *hash = strchr(line, '#'), *tok, *save = NULL;
	int n = 0;

	if (hash)
		*hash = '\0';
	for (tok = strtok_r(line, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return max + 1;
		f[n++] = tok;
	}
	return n;
}

static FILE *open_table(const char *path)
{
	FILE *fp = fopen(path, "r");

	if (!fp)
		error_msg("%s: %s", path, strerror(errno));
	return fp;
}

/*
 * The next line of FP into LINE; 1, 0 at the end, -1 after a message
 * when a line does not fit (split in two, its second half would be
 * misread as a line of its own).
 */
static int next_line(FILE *fp, char *line, int size, const char *name,
		     int *lineno)
{
	size_t n;
	int c;

	if (!fgets(line, size, fp))
		return 0;
	++*lineno;
	n = strlen(line);
	if (n + 1 < (size_t)size || line[n - 1] == '\n')
		return 1;
	c = getc(fp);
	if (c == EOF)
		return 1;
	ungetc(c, fp);
	error_msg("%s:%d: line longer than %d bytes", name, *lineno, size - 2);
	return -1;
}

static int valid_ident(const char *s)
{
	if (!is_ident_start((unsigned char)*s))
		return 0;
	while (*++s)
		if (!is_ident_char((unsigned char)*s))
			return 0;
	return 1;
}

int tracked_flags_read(FILE *fp, const char *name, struct tracked_flags *t)
{
	char line[512], *f[2];
	int lineno = 0, n, rc;

	memset(t, 0, sizeof(*t));
	names_init(&t->set);
	while ((rc = next_line(fp, line, sizeof(line), name, &lineno)) > 0) {
		n = split_fields(line, f, 1);
		if (n == 0)
			continue;
		if (n > 1 || !valid_ident(f[0])) {
			error_msg("%s:%d: expected one identifier per line",
				  name, lineno);
			rc = -1;
			break;
		}
		if (names_get(&t->set, f[0], strlen(f[0])) >= 0)
			continue;
		t->names = xrealloc(t->names, (t->n + 1) * sizeof(char *));
		t->names[t->n] = xstrdup(f[0]);
		names_put(&t->set, f[0], strlen(f[0]), (int)t->n);
		t->n++;
	}
	if (rc < 0) {
		tracked_flags_free(t);
		memset(t, 0, sizeof(*t));
		return -1;
	}
	return 0;
}

int tracked_flags_load(const char *path, struct tracked_flags *t)
{
	FILE *fp = open_table(path);
	int rc;

	if (!fp)
		return -1;
	rc = tracked_flags_read(fp, path, t);
	fclose(fp);
	return rc;
}

void tracked_flags_free(struct tracked_flags *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	names_free(&t->set);
}

void alloc_table_init(struct alloc_table *t)
{
	memset(t, 0, sizeof(*t));
	names_init(&t->index);
}

void alloc_table_free(struct alloc_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].name);
		free(t->v[i].family);
		free(t->v[i].via);
		free(t->v[i].implied);
		free(t->v[i].path);
	}
	free(t->v);
	names_free(&t->index);
}

void alloc_table_add(struct alloc_table *t, const struct alloc_fn *f)
{
	int at = names_get(&t->index, f->name, strlen(f->name));
	struct alloc_fn *d;

	if (at < 0) {
		if (t->n == t->alloc) {
			t->alloc = t->alloc ? t->alloc * 2 : 128;
			t->v = xrealloc(t->v, t->alloc * sizeof(*t->v));
		}
		at = (int)t->n++;
		names_put(&t->index, f->name, strlen(f->name), at);
	} else {
		free(t->v[at].name);
		free(t->v[at].family);
		free(t->v[at].via);
		free(t->v[at].implied);
		free(t->v[at].path);
	}
	d = &t->v[at];
	*d = *f;
	d->name = xstrdup(f->name);
	d->family = f->family ? xstrdup(f->family) : NULL;
	d->via = f->via ? xstrdup(f->via) : NULL;
	d->implied = f->implied ? xstrdup(f->implied) : NULL;
	d->path = f->path ? xstrdup(f->path) : NULL;
}

const struct alloc_fn *alloc_lookup(const struct alloc_table *t,
				    const char *name, size_t len)
{
	int at = names_get(&t->index, name, len);

	return at < 0 ? NULL : &t->v[at];
}

static int parse_index(const char *s, int *out)
{
	char *end;
	long v;

	if (!strcmp(s, "-")) {
		*out = -1;
		return 0;
	}
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 32)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_kind(const char *s, enum alloc_kind *k)
{
	size_t i;

	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (enum alloc_kind)i;
			return 0;
		}
	return -1;
}

/*
 * GFP_ARG of an allocator: an index, `-`, or `=FLAGS` for one that takes
 * no gfp_t and always allocates with FLAGS (vmalloc: =GFP_KERNEL), so
 * that "may this call sleep?" has an answer without an argument.
 */
static int parse_gfp_arg(const char *s, struct alloc_fn *a)
{
	if (*s != '=')
		return parse_index(s, &a->gfp_arg);
	if (!s[1])
		return -1;
	a->gfp_arg = -1;
	a->implied = (char *)s + 1;
	return 0;
}

int allocators_read(FILE *fp, const char *name, struct alloc_table *t)
{
	char line[512], *f[7];
	int lineno = 0, n, rc;

	while ((rc = next_line(fp, line, sizeof(line), name, &lineno)) > 0) {
		struct alloc_fn a = { 0 };

		n = split_fields(line, f, 6);
		if (n == 0)
			continue;
		a.ptr_arg = -1;
		if (n < 5 || n > 6 || !valid_ident(f[0]) ||
		    parse_kind(f[1], &a.kind) || parse_gfp_arg(f[3], &a) ||
		    parse_index(f[4], &a.size_arg) ||
		    (n == 6 && parse_index(f[5], &a.ptr_arg))) {
			error_msg("%s:%d: expected NAME KIND FAMILY GFP_ARG "
				  "SIZE_ARG [PTR_ARG]", name, lineno);
			return -1;
		}
		if (a.kind == AK_FREE && n == 5)
			a.ptr_arg = 0;
		a.name = f[0];
		a.family = f[2];
		alloc_table_add(t, &a);
	}
	return rc;
}

int allocators_load(const char *path, struct alloc_table *t)
{
	FILE *fp = open_table(path);
	int rc;

	if (!fp)
		return -1;
	rc = allocators_read(fp, path, t);
	fclose(fp);
	return rc;
}

int tables_load_default(struct tracked_flags *t, struct alloc_table *a)
{
	const char *dir = rules_dir();
	char *p;
	int rc;

	if (!dir)
		return -1;
	p = xasprintf("%s/tracked-flags.txt", dir);
	rc = tracked_flags_load(p, t);
	free(p);
	if (rc)
		return -1;
	alloc_table_init(a);
	p = xasprintf("%s/allocators.txt", dir);
	rc = allocators_load(p, a);
	free(p);
	return rc;
}

static void bind_index(sqlite3_stmt *st, int col, int v)
{
	if (v < 0)
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_int(st, col, v);
}

int alloc_table_sync_db(struct alloc_table *t, sqlite3 *db)
{
	sqlite3_stmt *ins;
	size_t i;
	int rc = 0;

	if (db_exec(db, "DELETE FROM allocators WHERE origin = 'builtin'"))
		return -1;
	ins = db_prepare(db,
		"INSERT OR IGNORE INTO allocators(name, kind, family, "
		"gfp_arg, size_arg, origin) VALUES (?, ?, ?, ?, ?, 'builtin')");
	if (!ins)
		return -1;
	for (i = 0; i < t->n && !rc; i++) {
		struct alloc_fn *f = &t->v[i];

		if (f->learned)
			continue;
		sqlite3_bind_text(ins, 1, f->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, kind_names[f->kind], -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, f->family, -1, SQLITE_STATIC);
		bind_index(ins, 4, f->gfp_arg);
		bind_index(ins, 5, f->size_arg);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = -1;
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	if (rc) {
		error_msg("allocators: %s", sqlite3_errmsg(db));
		return -1;
	}
	return alloc_table_load_learned(t, db);
}

size_t alloc_table_builtin_count(const struct alloc_table *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		n += !t->v[i].learned;
	return n;
}

int alloc_table_load_learned(struct alloc_table *t, sqlite3 *db)
{
	sqlite3_stmt *sel;

	sel = db_prepare(db, "SELECT name, kind, family, gfp_arg, size_arg, "
			     "via, path FROM allocators WHERE origin = 'learned'");
	if (!sel)
		return -1;
	while (sqlite3_step(sel) == SQLITE_ROW) {
		struct alloc_fn a = { 0 };
		const char *name = (const char *)sqlite3_column_text(sel, 0);
		const char *fam = (const char *)sqlite3_column_text(sel, 2);

		/* A builtin entry always wins over a learned one. */
		if (!name || (alloc_lookup(t, name, strlen(name)) &&
			      !alloc_lookup(t, name, strlen(name))->learned))
			continue;
		/*
		 * A learned free function may free on some paths only: the
		 * summaries step reads its body.  A free macro is one free
		 * call (lx_learn_free_macros()): a walk may take its uses.
		 */
		if (parse_kind((const char *)sqlite3_column_text(sel, 1),
			       &a.kind) ||
		    (a.kind == AK_FREE && (!fam || strcmp(fam, "macro"))))
			continue;
		a.name = (char *)name;
		a.family = (char *)fam;
		a.gfp_arg = sqlite3_column_type(sel, 3) == SQLITE_NULL ?
				    -1 : sqlite3_column_int(sel, 3);
		a.size_arg = sqlite3_column_type(sel, 4) == SQLITE_NULL ?
				     -1 : sqlite3_column_int(sel, 4);
		a.ptr_arg = a.kind == AK_FREE ? 0 : -1;
		a.via = (char *)sqlite3_column_text(sel, 5);
		a.path = (char *)sqlite3_column_text(sel, 6);
		a.learned = 1;
		alloc_table_add(t, &a);
	}
	sqlite3_finalize(sel);
	return 0;
}

int keyed_names_read(FILE *fp, const char *name, const char *const *kinds,
		     struct name_set *out)
{
	char line[512], *f[4], *end;
	int lineno = 0, n, k, rc;
	long arg;

	while ((rc = next_line(fp, line, sizeof(line), name, &lineno)) > 0) {
		n = split_fields(line, f, 3);
		if (n == 0)
			continue;
		for (k = 0; kinds[k] && (n < 2 || strcmp(kinds[k], f[0])); k++)
			;
		arg = 0;
		if (n == 3) {
			arg = strtol(f[2], &end, 10);
			if (*end || arg < 0 || arg > 15)
				arg = -1;
		}
		if (n > 3 || n < 2 || !kinds[k] || !valid_ident(f[1]) ||
		    arg < 0) {
			error_msg("%s:%d: expected KIND NAME [ARG] with KIND "
				  "one of this file's kinds and ARG 0-15",
				  name, lineno);
			return -1;
		}
		names_put(&out[k], f[1], strlen(f[1]), (int)arg);
	}
	return rc;
}

int keyed_names_load(const char *path, const char *const *kinds,
		     struct name_set *out)
{
	FILE *fp = open_table(path);
	int rc;

	if (!fp)
		return -1;
	rc = keyed_names_read(fp, path, kinds, out);
	fclose(fp);
	return rc;
}

int sleepers_sync_db(const struct tracked_flags *builtin, sqlite3 *db)
{
	sqlite3_stmt *ins;
	size_t i;
	int rc = 0;

	if (db_exec(db, "DELETE FROM sleepers WHERE origin = 'builtin'"))
		return -1;
	ins = db_prepare(db, "INSERT OR IGNORE INTO sleepers(function, "
			     "origin) VALUES (?, 'builtin')");
	if (!ins)
		return -1;
	for (i = 0; i < builtin->n && !rc; i++) {
		sqlite3_bind_text(ins, 1, builtin->names[i], -1,
				  SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = -1;
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	return rc;
}
