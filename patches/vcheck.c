// SPDX-License-Identifier: GPL-2.0
/*
 * The per-file and per-patch checks of `gfpaudit validate`.
 *
 * A file is compiled (clang -fsyntax-only) and checked (sparse) twice,
 * before and after the series, with the same flags (vtool.c); only
 * diagnostics in the file itself that the "after" run has and the
 * "before" run has not count.  That makes the check meaningful on an
 * unconfigured tree and for other arches.  A GFP_KENREL typo in an
 * arch/powerpc file is then a new "use of undeclared identifier" error on
 * a line the patch added.  On a configured tree the tree's own kbuild
 * builds the file's object, the object of the .c that #includes it, or,
 * for a header, objects that include it (vkcheck.c), with the same
 * before/after rule; the direct calls are the fallback, and say why.
 */
#include "patches/vtool.h"
#include "lib/spawn.h"
#include "patches/vkbuild.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **diag_keys(const struct vctx *c, const struct diags *d)
{
	char *before = xasprintf("%s/.gfpaudit-v/before/", c->scratch);
	char *after = xasprintf("%s/.gfpaudit-v/after/", c->scratch);
	char *scratch = xasprintf("%s/", c->scratch);
	char *tree = xasprintf("%s/", c->o->tree);
	const char *prefixes[] = {before, after, scratch, tree, NULL};
	char **keys = xcalloc((size_t)d->n + 1, sizeof(char *));
	int i;

	for (i = 0; i < d->n; i++)
		keys[i] = diag_normalise(d->d[i].msg, prefixes);
	free(before);
	free(after);
	free(scratch);
	free(tree);
	return keys;
}

static void keys_free(char **keys, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

int vdiags_new(const struct vctx *c, const struct diags *before,
	       const struct diags *after, const struct vpatch *p, int k,
	       struct strbuf *detail)
{
	char *used = xcalloc((size_t)before->n + 1, 1);
	char **bk = diag_keys(c, before), **ak = diag_keys(c, after);
	int i, j, n = 0;

	for (i = 0; i < after->n; i++) {
		int found = 0;

		for (j = 0; j < before->n && !found; j++)
			if (!used[j] && !strcmp(bk[j], ak[i]))
				used[j] = found = 1;
		if (found)
			continue;
		if (n++ >= 3)
			continue;
		if (after->d[i].line > 0)
			sb_addf(detail, "%s%d: ", n > 1 ? "; " : "",
				after->d[i].line);
		else
			sb_adds(detail, n > 1 ? "; " : "");
		sb_addf(detail, "%s%s", after->d[i].msg,
			vpatch_touches_line(p, k, after->d[i].line)
				? " (a line this patch changed)"
				: "");
	}
	free(used);
	keys_free(bk, before->n);
	keys_free(ak, after->n);
	return n;
}

/* " through INCLUDER" for a file checked through its includer. */
static const char *via(const struct vunit *u, char *buf, size_t len)
{
	if (!u->inc)
		return "";
	snprintf(buf, len, "; through %s", u->inc->path);
	return buf;
}

/*
 * PRE, when not NULL, is the before run already made (the one that
 * showed the file does not compile alone); it is taken over.
 */
static void compare_tool(struct vctx *c, enum tool t, const struct vpatch *p,
			 int k, const struct vunit *u, struct diags *pre,
			 struct vresults *r)
{
	const char *check = t == TOOL_CLANG ? "compile" : "sparse";
	const char *hdrs = c->configured ? "configured" : "shimmed";
	struct diags b = {0}, a = {0};
	struct strbuf detail = STRBUF_INIT;
	int shims_b = 0, shims_a = 0, n;
	char vb[PATH_MAX + 16];
	const char *v = via(u, vb, sizeof(vb));

	if (u->inc && !u->entered) {
		vres_add(r, p->name, p->paths[k], check, "inconclusive",
			 "it cannot be compiled alone, and %s, which "
			 "#includes it at line %d, does not compile it as "
			 "checked (%s headers)",
			 u->inc->path, u->inc->line, hdrs);
		return;
	}
	if (pre) {
		b = *pre;
		memset(pre, 0, sizeof(*pre));
	}
	if ((!pre && run_tool(c, t, u, 0, &b, &shims_b, NULL)) ||
	    run_tool(c, t, u, 1, &a, &shims_a, NULL)) {
		vres_add(r, p->name, p->paths[k], check, "skip",
			 "could not run %s",
			 t == TOOL_CLANG ? "clang" : "sparse");
		diags_free(&b);
		diags_free(&a);
		return;
	}
	/* A shim made for "after" changes the inputs: redo "before". */
	if (shims_a)
		run_tool(c, t, u, 0, &b, &shims_b, NULL);
	n = vdiags_new(c, &b, &a, p, k, &detail);
	if (b.status >= 128 || a.status >= 128)
		vres_add(r, p->name, p->paths[k], check, "inconclusive",
			 "%s was killed by signal %d (%s the series%s)",
			 t == TOOL_CLANG ? "clang" : "sparse",
			 (b.status >= 128 ? b.status : a.status) - 128,
			 b.status >= 128 ? "before" : "after", v);
	else if (n)
		vres_add(r, p->name, p->paths[k], check, "fail",
			 "%d new %s%s: %s", n,
			 t == TOOL_CLANG ? "error(s)" : "warning(s)", v,
			 detail.buf);
	else if (t == TOOL_CLANG && b.n)
		/*
		 * The compiler recovered from errors it had already: what it
		 * made of the changed lines is not known, and an error they
		 * bring may be one it no longer reports.
		 */
		vres_add(r, p->name, p->paths[k], check, "inconclusive",
			 "no new errors, but the file does not compile as "
			 "checked (%d errors before the series, %d after; %s "
			 "headers%s)",
			 b.n, a.n, hdrs, v);
	else if (t == TOOL_SPARSE && b.errors)
		/* sparse gives up after errors, in the file or a header. */
		vres_add(r, p->name, p->paths[k], check, "inconclusive",
			 "no new warnings, but sparse reported %d error(s) "
			 "before the series (in the file or its headers; %s "
			 "headers%s) and may not have checked the file",
			 b.errors, hdrs, v);
	else
		vres_add(r, p->name, p->paths[k], check, "pass",
			 "no new %s (%d before, %d after; %s headers%s)",
			 t == TOOL_CLANG ? "errors" : "warnings", b.n, a.n,
			 hdrs, v);
	sb_release(&detail);
	diags_free(&a);
	diags_free(&b);
}

static int is_id(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static int has_word(const char *text, size_t len, const char *w, size_t n)
{
	const char *p = text, *end = text + len;

	while (p < end && (p = memmem(p, (size_t)(end - p), w, n))) {
		if ((p == text || !is_id(p[-1])) &&
		    (p + n == end || !is_id(p[n])))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * The identifiers of line l (code only: strings, char literals and
 * comments skipped) that buf[] lacks, into out (space-separated).
 */
static void new_idents(const char *l, size_t n, const char *before, size_t blen,
		       struct strbuf *out)
{
	size_t i = 0;
	const char *t = l;

	while (t < l + n && (*t == ' ' || *t == '\t'))
		t++;
	if (t < l + n && *t == '*')
		return; /* a comment's continuation line */
	while (i < n) {
		char ch = l[i];

		if (ch == '"' || ch == '\'') {
			for (i++; i < n && l[i] != ch; i++)
				if (l[i] == '\\')
					i++;
			i++;
		} else if (ch == '/' && i + 1 < n && l[i + 1] == '/') {
			return;
		} else if (ch == '/' && i + 1 < n && l[i + 1] == '*') {
			const char *e = memmem(l + i + 2, n - i - 2, "*/", 2);

			if (!e)
				return;
			i = (size_t)(e - l) + 2;
		} else if (is_id(ch) && !isdigit((unsigned char)ch) &&
			   (i == 0 || !is_id(l[i - 1]))) {
			size_t s = i;

			while (i < n && is_id(l[i]))
				i++;
			if (!has_word(before, blen, l + s, i - s) &&
			    !has_word(out->buf ? out->buf : "", out->len, l + s,
				      i - s)) {
				sb_add(out, l + s, i - s);
				sb_addc(out, ' ');
			}
		} else {
			i++;
		}
	}
}

/*
 * Identifiers a patch brings into a file must exist: be a macro or a
 * name the preprocessed file (with its headers) has.  This catches a typo
 * on a line inside an #ifdef branch that the parse configuration does not
 * compile, which no compiler run would report.
 */
/*
 * Keep of the preprocessor output only what comes from other files (the
 * headers, with their #defines from -dD): a name the patch itself wrote
 * does not declare itself.  Line markers are `# N "file"`.
 */
static void strip_main_file(struct strbuf *pp, const char *file)
{
	struct strbuf keep = STRBUF_INIT;
	const char *l = pp->buf ? pp->buf : "";
	size_t fl = strlen(file);
	int in_main = 0;

	while (*l) {
		size_t n = strcspn(l, "\n");

		if (n > 2 && l[0] == '#' && l[1] == ' ' &&
		    isdigit((unsigned char)l[2])) {
			const char *q = memchr(l, '"', n);

			in_main = q && (size_t)(l + n - q) > fl + 1 &&
				  !strncmp(q + 1, file, fl) && q[fl + 1] == '"';
		} else if (!in_main) {
			sb_add(&keep, l, n);
			sb_addc(&keep, '\n');
		}
		l += n;
		if (*l)
			l++;
	}
	sb_release(pp);
	*pp = keep;
}

/* The after file's lines the patch did not touch, for declarations. */
static void untouched_lines(const char *a, const struct vpatch *p, int k,
			    struct strbuf *out)
{
	const char *l = a;
	int line = 1;

	for (; *l; line++) {
		size_t n = strcspn(l, "\n");

		if (!vpatch_touches_line(p, k, line)) {
			sb_add(out, l, n);
			sb_addc(out, '\n');
		}
		l += n;
		if (*l)
			l++;
	}
}

static void check_new_names(struct vctx *c, const struct vpatch *p, int k,
			    const struct vunit *u, struct vresults *r)
{
	const char *before_file = u->src[0], *after_file = u->src[1];
	struct strbuf cand = STRBUF_INIT, pp = STRBUF_INIT, bad = STRBUF_INIT;
	struct diags none = {0};
	char *b = NULL, *a = NULL;
	size_t blen = 0, alen = 0;
	int line = 1, shims = 0, nbad = 0;
	const char *l, *w;

	if (read_whole_file(before_file, &b, &blen) ||
	    read_whole_file(after_file, &a, &alen))
		goto out;
	for (l = a; *l; line++) {
		size_t n = strcspn(l, "\n");

		if (vpatch_touches_line(p, k, line))
			new_idents(l, n, b, blen, &cand);
		l += n;
		if (*l)
			l++;
	}
	if (!cand.len) {
		vres_add(r, p->name, p->paths[k], "compile", "pass",
			 "names: no identifier new to the file");
		goto out;
	}
	run_tool(c, TOOL_CPP, u, 1, &none, &shims, &pp);
	strip_main_file(&pp, u->inc ? u->spelled[1] : after_file);
	untouched_lines(a, p, k, &pp);
	for (w = cand.buf; *w;) {
		size_t n = strcspn(w, " ");

		if (!has_word(pp.buf ? pp.buf : "", pp.len, w, n)) {
			if (nbad++ < 3)
				sb_addf(&bad, "%s%.*s", bad.len ? ", " : "",
					(int)n, w);
		}
		w += n;
		while (*w == ' ')
			w++;
	}
	if (nbad)
		vres_add(
			r, p->name, p->paths[k], "compile", "fail",
			"names: undeclared identifier%s on lines this patch "
			"changed: "
			"%s (neither a macro nor declared with the %s headers)",
			nbad > 1 ? "s" : "", bad.buf,
			c->configured ? "configured" : "shimmed");
	else
		vres_add(r, p->name, p->paths[k], "compile", "pass",
			 "names: every new identifier is declared: %s",
			 cand.buf);
out:
	diags_free(&none);
	free(a);
	free(b);
	sb_release(&cand);
	sb_release(&pp);
	sb_release(&bad);
}

static void unit_release(struct vunit *u)
{
	int i;

	for (i = 0; i < 2; i++) {
		free(u->tu[i]);
		free(u->spelled[i]);
	}
	if (u->inc)
		vincluder_free(u->inc);
	free(u->inc);
	memset(u->tu, 0, sizeof(u->tu));
	memset(u->spelled, 0, sizeof(u->spelled));
	u->inc = NULL;
	u->entered = 0;
}

/*
 * Check the file through the .c that #includes it: copies of the
 * includer beside its before and after copies (so that the #include
 * finds them), and whether the includer, its guards defined, compiles it
 * at all: the preprocessor's line markers name it when it does.
 */
static int via_includer(struct vctx *c, const struct vpatch *p, struct vunit *u)
{
	const char *revs[2] = {p->before, p->after};
	struct strbuf pp = STRBUF_INIT;
	struct diags none = {0};
	char *marker, *slash;
	int i, shims = 0, rc = 0;

	u->inc = xcalloc(1, sizeof(*u->inc));
	if (vinclude_find(c, u->path, u->inc)) {
		free(u->inc);
		u->inc = NULL;
		return -1;
	}
	for (i = 0; i < 2 && !rc; i++) {
		size_t root = strlen(u->src[i]) - strlen(u->path);

		u->tu[i] =
			xasprintf("%.*s%s", (int)root, u->src[i], u->inc->path);
		slash = strrchr(u->tu[i], '/');
		u->spelled[i] = xasprintf("%.*s/%s", (int)(slash - u->tu[i]),
					  u->tu[i], u->inc->spelled);
		rc = c->fetch(c->fetch_arg, revs[i], u->inc->path, u->tu[i]);
	}
	if (!rc) {
		run_tool(c, TOOL_CPP, u, 0, &none, &shims, &pp);
		marker = xasprintf("\"%s\"", u->spelled[0]);
		u->entered = pp.buf && strstr(pp.buf, marker);
		free(marker);
	}
	sb_release(&pp);
	diags_free(&none);
	if (rc)
		unit_release(u); /* checked alone after all */
	return rc;
}

/* Append " [why]" to the details of the rows from index from on. */
static void add_why(struct vresults *r, int from, const char *why)
{
	for (; why && from < r->n; from++) {
		char *d = xasprintf("%s [%s]", r->v[from].detail, why);

		free(r->v[from].detail);
		r->v[from].detail = d;
	}
}

/* "dir/x.o" for "dir/x.c" (malloc'd). */
static char *object_of(const char *path)
{
	return xasprintf("%.*so", (int)strlen(path) - 1, path);
}

/* Is path in another arch's directory than the .config's? */
static int other_arch(struct vctx *c, const char *path, char *why,
		      size_t len, const char *what)
{
	const char *arch = vkbuild_arch(c->kb), *a = path + 5;
	size_t al = strcspn(a, "/");

	if (!arch || !str_has_prefix(path, "arch/") ||
	    (strlen(arch) == al && !strncmp(a, arch, al)))
		return 0;
	snprintf(why, len, "arch/%.*s is not the .config's arch (%s): %s",
		 (int)al, a, arch, what);
	return 1;
}

/*
 * The objects the tree's kbuild checks a touched file through, into
 * objs: a .c file's own, else that of the .c that #includes it; a
 * header's, up to VK_MAX_OBJS that the .config builds among the .c files
 * that #include it, nearest first.  Returns their number, or 0 with why.
 */
static int kbuild_objects(struct vctx *c, const char *path, char **objs,
			  char *why, size_t len)
{
	struct vincluder inc;
	char **users;
	int i, n = 0, nusers;

	if (str_has_suffix(path, ".c")) {
		if (other_arch(c, path, why, len,
			       "direct clang with that arch's target and "
			       "headers"))
			return 0;
		if (vkbuild_builds(c->kb, path)) {
			objs[0] = object_of(path);
			return 1;
		}
		if (!vinclude_find(c, path, &inc)) {
			if (vkbuild_builds(c->kb, inc.path))
				objs[n++] = object_of(inc.path);
			vincluder_free(&inc);
			if (n)
				return n;
		}
		snprintf(why, len,
			 "the .config does not build its object: direct call");
		return 0;
	}
	if (other_arch(c, path, why, len, "no object of it is built"))
		return 0;
	nusers = vinclude_users(c, path, vkbuild_arch(c->kb), &users);
	for (i = 0; i < nusers; i++) {
		if (n < VK_MAX_OBJS && vkbuild_builds(c->kb, users[i]))
			objs[n++] = object_of(users[i]);
		free(users[i]);
	}
	free(users);
	if (!n)
		snprintf(why, len,
			 "no object the .config builds #includes it (%d .c "
			 "file%s of the tree do%s)",
			 nusers, nusers == 1 ? "" : "s", nusers == 1 ? "es" : "");
	return n;
}

/* A header, on a configured tree: through the objects including it. */
static void check_header(struct vctx *c, const struct vpatch *p, int k,
			 const char *before_file, const char *after_file,
			 struct vresults *r)
{
	char *objs[VK_MAX_OBJS], why[256];
	int i, n, sparse = !c->o->no_sparse && c->have_sparse;

	if (!c->kb || (c->o->no_compile && !sparse)) {
		if (!c->o->no_compile)
			vres_add(r, p->name, p->paths[k], "compile", "skip",
				 "a header is built through the objects that "
				 "include it on a configured tree only "
				 "(removals: see impact)");
		return;
	}
	n = kbuild_objects(c, p->paths[k], objs, why, sizeof(why));
	if (n && vkcheck_objects(c, p, k, before_file, after_file, objs, n,
				 r))
		vres_add(r, p->name, p->paths[k], "sparse", "inconclusive",
			 "make did not get to sparse: an object does not "
			 "build after the series (see compile)");
	if (!n) {
		if (!c->o->no_compile)
			vres_add(r, p->name, p->paths[k], "compile",
				 "inconclusive", "%s", why);
		if (sparse)
			vres_add(r, p->name, p->paths[k], "sparse",
				 "inconclusive", "%s", why);
	}
	for (i = 0; i < n; i++)
		free(objs[i]);
}

void vcheck_file(struct vctx *c, const struct vpatch *p, int k,
		 const char *before_file, const char *after_file,
		 struct vresults *r)
{
	struct vunit u = {.path = p->paths[k],
			  .src = {before_file, after_file}};
	struct diags alone = {0};
	char *objs[VK_MAX_OBJS], why[256];
	int tried = 0, shims = 0, n = 0, i, from = r->n, sparse_left = 0;

	if (!str_has_suffix(p->paths[k], ".c")) {
		check_header(c, p, k, before_file, after_file, r);
		return;
	}
	/* On a configured tree, the tree's own kbuild builds the object. */
	if (c->kb &&
	    (!c->o->no_compile || (!c->o->no_sparse && c->have_sparse))) {
		n = kbuild_objects(c, p->paths[k], objs, why, sizeof(why));
		if (n) {
			sparse_left = vkcheck_objects(c, p, k, before_file,
						      after_file, objs, n, r);
			if (!c->o->no_compile && c->have_clang &&
			    vkbuild_builds(c->kb, p->paths[k]))
				check_new_names(c, p, k, &u, r);
			for (i = 0; i < n; i++)
				free(objs[i]);
			if (!sparse_left)
				return;
			from = r->n;
			u.why_direct = "make did not get to sparse: direct "
				       "call";
			goto sparse;
		}
		u.why_direct = why;
	}
	/*
	 * A .c that does not compile alone may be one another .c
	 * #includes: then that one is compiled, for every check.
	 */
	if (!c->o->no_compile && c->have_clang) {
		tried = !run_tool(c, TOOL_CLANG, &u, 0, &alone, &shims, NULL);
		if (tried && alone.n && !via_includer(c, p, &u))
			tried = 0; /* the before run is the includer's */
	}
	if (!c->o->no_compile) {
		if (c->have_clang) {
			compare_tool(c, TOOL_CLANG, p, k, &u,
				     tried ? &alone : NULL, r);
			check_new_names(c, p, k, &u, r);
		} else
			vres_add(r, p->name, p->paths[k], "compile", "skip",
				 "clang is not installed");
	}
sparse:
	if (!c->o->no_sparse) {
		if (c->have_sparse)
			compare_tool(c, TOOL_SPARSE, p, k, &u, NULL, r);
		else
			vres_add(r, p->name, p->paths[k], "sparse", "skip",
				 "sparse is not installed");
	}
	add_why(r, from, u.why_direct);
	diags_free(&alone);
	unit_release(&u);
}

/* "ERROR:TYPE: message" lines of checkpatch --show-types output. */
static void checkpatch_errors(struct vctx *c, const char *file, int no_signoff,
			      struct diags *d)
{
	char *argv[] = {"perl",
			c->checkpatch,
			"--no-tree",
			"--show-types",
			"--no-summary",
			"--color=never",
			no_signoff ? "--no-signoff" : "--signoff",
			(char *)file,
			NULL};
	struct strbuf out = STRBUF_INIT;
	struct spawn_opts so = {.cwd = c->o->tree, .out = &out, .quiet = 1};
	const char *l;

	run_argv(argv, &so);
	for (l = out.buf ? out.buf : ""; *l;) {
		size_t n = strcspn(l, "\n");

		if (!strncmp(l, "ERROR:", 6)) {
			d->d = xrealloc(d->d,
					(size_t)(d->n + 1) * sizeof(*d->d));
			d->d[d->n].line = 0;
			d->d[d->n++].msg = xstrndup(l, n);
		}
		l += n;
		if (*l)
			l++;
	}
	sb_release(&out);
}

void vcheck_checkpatch(struct vctx *c, const struct vpatch *p,
		       const char *reverse_file, struct vresults *r)
{
	struct diags fwd = {0}, rev = {0};
	struct strbuf detail = STRBUF_INIT;
	int i, j, n = 0;

	if (c->o->no_checkpatch)
		return;
	if (!c->checkpatch || !c->have_perl) {
		vres_add(r, p->name, NULL, "checkpatch", "skip", "%s",
			 c->checkpatch
				 ? "perl is not installed"
				 : "the tree has no scripts/checkpatch.pl");
		return;
	}
	checkpatch_errors(c, p->file, 0, &fwd);
	if (reverse_file)
		checkpatch_errors(c, reverse_file, 1, &rev);
	/*
	 * checkpatch judges added lines only; an error the reverse patch
	 * has too is about the original line, not this change.
	 */
	for (i = 0; i < fwd.n; i++) {
		int old = 0;

		for (j = 0; j < rev.n && !old; j++)
			old = !strcmp(fwd.d[i].msg, rev.d[j].msg);
		if (old)
			continue;
		if (n++ < 3)
			sb_addf(&detail, "%s%s", n > 1 ? "; " : "",
				fwd.d[i].msg);
	}
	if (n)
		vres_add(r, p->name, NULL, "checkpatch", "fail",
			 "%d error(s): %s", n, detail.buf);
	else
		vres_add(r, p->name, NULL, "checkpatch", "pass",
			 "no new errors (%d pre-existing)", fwd.n);
	sb_release(&detail);
	diags_free(&fwd);
	diags_free(&rev);
}
