// SPDX-License-Identifier: GPL-2.0
/*
 * The files git format-patch wrote, finished as a series is mailed: To:
 * and Cc: headers, the cover letter's subject and text, notes for the
 * reviewer below the "---" of a patch sent alone, and base-commit:.
 * git knows none of these for a scratch repository (patches/series.c).
 */
#include "patches/mbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void wrap_list(struct strbuf *sb, const char *hdr,
		      const struct addr_list *l)
{
	size_t col;
	int i;

	if (!l || !l->n)
		return;
	sb_addf(sb, "%s: ", hdr);
	col = strlen(hdr) + 2;
	for (i = 0; i < l->n; i++) {
		size_t n = strlen(l->v[i]);

		if (i && col + n + 2 > 78) {
			sb_adds(sb, ",\n    ");
			col = 4;
		} else if (i) {
			sb_adds(sb, ", ");
			col += 2;
		}
		sb_adds(sb, l->v[i]);
		col += n;
	}
	sb_addc(sb, '\n');
}

/* Copy p up to the placeholder and what replaces it; the rest is left. */
static const char *replace_once(struct strbuf *sb, const char *p,
				const char *placeholder, const char *with)
{
	const char *s = with ? strstr(p, placeholder) : NULL;

	if (!s)
		return p;
	sb_add(sb, p, (size_t)(s - p));
	sb_adds(sb, with);
	return s + strlen(placeholder);
}

/*
 * The signature git ends each message with ("-- \nVERSION"): base-commit:
 * goes just before it, where git format-patch --base puts it.  The last
 * one, as a removed line "- " of the diff reads the same.
 */
static const char *signature_of(const char *p)
{
	const char *s, *last = NULL;

	for (s = p; (s = strstr(s, "\n-- \n")); s++)
		last = s + 1;
	return last;
}

static void add_tail(struct strbuf *sb, const char *p,
		     const struct mbox_edit *e)
{
	const char *sig = e->base ? signature_of(p) : NULL;

	if (!sig) {
		sb_adds(sb, p);
		return;
	}
	sb_add(sb, p, (size_t)(sig - p));
	sb_addf(sb, "\nbase-commit: %s\n", e->base);
	sb_adds(sb, sig);
}

static int write_file(const char *file, const struct strbuf *sb)
{
	FILE *f = fopen(file, "w");
	int rc = 0;

	if (!f || fwrite(sb->buf, 1, sb->len, f) != sb->len)
		rc = -1;
	if (f && fclose(f))
		rc = -1;
	if (rc)
		error_msg("%s: %s", file, strerror(errno));
	return rc;
}

int mbox_rewrite(const char *file, const struct mbox_edit *e)
{
	struct strbuf sb = STRBUF_INIT;
	char *buf, *subj;
	const char *p;
	size_t len;
	int rc;

	if (read_whole_file(file, &buf, &len)) {
		error_msg("%s: %s", file, strerror(errno));
		return -1;
	}
	subj = strstr(buf, "\nSubject: ");
	if (!subj) {
		error_msg("%s: git format-patch wrote no Subject:", file);
		free(buf);
		return -1;
	}
	sb_add(&sb, buf, (size_t)(subj - buf) + 1);
	wrap_list(&sb, "To", e->to);
	wrap_list(&sb, "Cc", e->cc);
	p = subj + 1;
	p = replace_once(&sb, p, "*** SUBJECT HERE ***", e->subject);
	p = replace_once(&sb, p, "*** BLURB HERE ***\n", e->blurb);
	if (e->notes) {
		/* The first "---" ends the commit message. */
		const char *dash = strstr(p, "\n---\n");

		if (dash) {
			dash += strlen("\n---\n");
			sb_add(&sb, p, (size_t)(dash - p));
			sb_addf(&sb, "%s\n", e->notes);
			p = dash;
		}
	}
	add_tail(&sb, p, e);
	rc = write_file(file, &sb);
	free(buf);
	sb_release(&sb);
	return rc;
}

/* "Name <a@b>" -> "a@b" (len in *n); a bare address is itself. */
static const char *address_of(const char *a, size_t *n)
{
	const char *lt = strrchr(a, '<'), *gt;

	if (lt && (gt = strchr(lt, '>'))) {
		*n = (size_t)(gt - lt - 1);
		return lt + 1;
	}
	while (*a == ' ')
		a++;
	*n = strcspn(a, " ");
	return a;
}

static int has_address(const struct addr_list *l, const char *a)
{
	size_t n, m;
	const char *x = address_of(a, &n);
	int i;

	for (i = 0; i < l->n; i++) {
		const char *y = address_of(l->v[i], &m);

		if (m == n && !strncasecmp(x, y, n))
			return 1;
	}
	return 0;
}

static void add_new(struct addr_list *out, const struct addr_list *in,
		    const struct addr_list *not_in)
{
	int i;

	for (i = 0; in && i < in->n; i++)
		if (!has_address(out, in->v[i]) &&
		    !(not_in && has_address(not_in, in->v[i])))
			addr_add(out, in->v[i]);
}

void mbox_recipients(const struct addr_list *user_to,
		     const struct addr_list *user_cc,
		     const struct addr_list *to, const struct addr_list *cc,
		     struct addr_list *out_to, struct addr_list *out_cc)
{
	add_new(out_to, user_to, NULL);
	add_new(out_to, to, NULL);
	add_new(out_cc, user_cc, out_to);
	add_new(out_cc, cc, out_to);
}
