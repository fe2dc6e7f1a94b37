// SPDX-License-Identifier: GPL-2.0
/*
 * Edits of a whole call argument (the flags argument a site records by
 * its first byte): adding a flag to it, or passing the caller's gfp_t
 * parameter instead of its hard-coded base mask.  Pure, like edit.c.
 */
#include "patches/edit.h"
#include "lib/gfpmask.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * Length of the comment or literal at buf[i], 0 when there is none:
 * neither may end the argument or count as its text.
 */
static size_t skip_len(const char *buf, size_t len, size_t i, int *literal)
{
	size_t k;

	*literal = 0;
	if (i + 1 < len && buf[i] == '/' && buf[i + 1] == '*') {
		for (k = i + 2; k + 1 < len; k++)
			if (buf[k] == '*' && buf[k + 1] == '/')
				return k + 2 - i;
		return len - i;
	}
	if (i + 1 < len && buf[i] == '/' && buf[i + 1] == '/') {
		for (k = i; k < len && buf[k] != '\n'; k++)
			;
		return k - i;
	}
	if (buf[i] == '"' || buf[i] == '\'') {
		*literal = 1;
		for (k = i + 1; k < len && buf[k] != buf[i] && buf[k] != '\n';
		     k++)
			if (buf[k] == '\\')
				k++;
		return (k < len ? k + 1 : len) - i;
	}
	return 0;
}

/*
 * The argument starting at buf[s] ends before the first `,` `;` or
 * closing bracket outside brackets.  *end is the offset after its last
 * byte that is neither blank nor comment; *low is set when an operator
 * binding more loosely than `|` (`?:`, `&&`, `||`, an assignment) is at
 * its top level, so that `| FLAG` must not be appended bare.
 */
static int arg_end(const char *buf, size_t len, size_t s, size_t *end, int *low)
{
	size_t i = s, n;
	int depth = 0, lit;

	*end = s;
	*low = 0;
	while (i < len) {
		char c = buf[i];

		n = skip_len(buf, len, i, &lit);
		if (n) {
			i += n;
			if (lit)
				*end = i;
			continue;
		}
		if (strchr("([{", c)) {
			depth++;
		} else if (strchr(")]}", c)) {
			if (!depth)
				return 0;
			depth--;
		} else if (!depth && (c == ',' || c == ';')) {
			return 0;
		} else if (!depth &&
			   (c == '?' ||
			    (i + 1 < len && (c == '&' || c == '|') &&
			     buf[i + 1] == c) ||
			    (c == '=' && i > s && !strchr("=!<>", buf[i - 1]) &&
			     (i + 1 >= len || buf[i + 1] != '=')))) {
			*low = 1;
		}
		if (!isspace((unsigned char)c))
			*end = i + 1;
		i++;
	}
	return -1;
}

/* Does buf[s, e), blanks and comments aside, read as text? */
static int same_text(const char *buf, size_t s, size_t e, const char *text)
{
	size_t i = s, n;
	int lit;

	while (i < e) {
		n = skip_len(buf, e, i, &lit);
		if (n && !lit) {
			i += n;
			continue;
		}
		if (isspace((unsigned char)buf[i])) {
			i++;
			continue;
		}
		while (isspace((unsigned char)*text))
			text++;
		if (*text != buf[i])
			return 0;
		text++;
		i++;
	}
	while (isspace((unsigned char)*text))
		text++;
	return !*text;
}

/*
 * How often word occurs in buf[s, e) as an identifier outside comments
 * and literals; the first one's offset in *at.
 */
static int word_count(const char *buf, size_t s, size_t e, const char *word,
		      size_t *at)
{
	size_t i = s, n, wl = strlen(word);
	int lit, count = 0;

	while (i < e) {
		n = skip_len(buf, e, i, &lit);
		if (n) {
			i += n;
			continue;
		}
		if (is_ident(buf[i])) {
			size_t k = i;

			while (k < e && is_ident(buf[k]))
				k++;
			if (k - i == wl && !memcmp(buf + i, word, wl) &&
			    !count++ && at)
				*at = i;
			i = k;
			continue;
		}
		i++;
	}
	return count;
}

int edit_arg_apply(const char *buf, size_t len, size_t s, const struct edit *e,
		   struct strbuf *out, size_t *t, char *err, size_t errlen)
{
	size_t end, off;
	int low;

	if (s >= len || arg_end(buf, len, s, &end, &low) ||
	    !same_text(buf, s, end, e->from)) {
		snprintf(err, errlen,
			 "%d:%d: expected the argument '%s' (is the database "
			 "stale?)",
			 e->line, e->col, e->from);
		return -1;
	}
	*t = end;
	if (e->kind == EDIT_ARG_PARAM) {
		/*
		 * The plan named the one base mask to replace; an argument
		 * with it twice, or with another base mask beside it, is not
		 * the one planned.
		 */
		if (!e->mask || word_count(buf, s, end, e->mask, &off) != 1 ||
		    gfp_count_base_masks(buf + s, end - s, NULL) !=
			    gfp_is_base_mask(e->mask, strlen(e->mask))) {
			snprintf(err, errlen,
				 "'%s' is not one base mask %s and modifiers",
				 e->from, e->mask ? e->mask : "(none planned)");
			return 1;
		}
		sb_add(out, buf + s, off - s);
		sb_adds(out, e->to);
		off += strlen(e->mask);
		sb_add(out, buf + off, end - off);
		return 0;
	}
	/* EDIT_ARG_ADD: never twice; a lone 0 becomes the flag. */
	if (word_count(buf, s, end, e->to, NULL)) {
		sb_add(out, buf + s, end - s);
	} else if (same_text(buf, s, end, "0")) {
		sb_adds(out, e->to);
	} else {
		if (low)
			sb_addc(out, '(');
		sb_add(out, buf + s, end - s);
		sb_addf(out, "%s | %s", low ? ")" : "", e->to);
	}
	return 0;
}
