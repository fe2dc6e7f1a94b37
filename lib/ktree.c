// SPDX-License-Identifier: GPL-2.0
/*
 * Facts about a kernel tree that every stage needs: its version (from the
 * top-level Makefile, as kbuild itself reads it) and its git HEAD.
 */
#include "lib/ktree.h"
#include "lib/spawn.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "VERSION = 4" -> value after '=', trimmed, into out. */
static int makefile_var(const char *line, const char *name, char *out,
			size_t outsz)
{
	size_t n = strlen(name);
	const char *p = line;

	if (strncmp(p, name, n))
		return 0;
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '=')
		return 0;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, "\r\n#");
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 1;
}

int ktree_version(const char *tree, struct kversion *kv)
{
	char *path = xasprintf("%s/Makefile", tree);
	char line[512], v[64] = "", p[64] = "", s[64] = "", e[64] = "";
	FILE *f = fopen(path, "r");
	int lines = 0;

	free(path);
	if (!f)
		return -1;
	/* The version block is at the top; don't read a whole Makefile. */
	while (fgets(line, sizeof(line), f) && lines++ < 64) {
		makefile_var(line, "VERSION", v, sizeof(v));
		makefile_var(line, "PATCHLEVEL", p, sizeof(p));
		makefile_var(line, "SUBLEVEL", s, sizeof(s));
		makefile_var(line, "EXTRAVERSION", e, sizeof(e));
	}
	fclose(f);
	if (!*v || !isdigit((unsigned char)*v))
		return -1;
	memset(kv, 0, sizeof(*kv));
	kv->version = atoi(v);
	kv->patchlevel = atoi(p);
	kv->sublevel = atoi(s);
	snprintf(kv->extraversion, sizeof(kv->extraversion), "%s", e);
	snprintf(kv->text, sizeof(kv->text), "%d.%d.%d%s", kv->version,
		 kv->patchlevel, kv->sublevel, kv->extraversion);
	return 0;
}

int kversion_parse(const char *s, struct kversion *kv)
{
	int parts[3] = { 0, 0, 0 }, i = 0;
	const char *p = s;

	memset(kv, 0, sizeof(*kv));
	if (!isdigit((unsigned char)*p))
		return -1;
	while (i < 3 && isdigit((unsigned char)*p)) {
		char *end;
		long x = strtol(p, &end, 10);

		if (x < 0 || x > 100000)
			return -1;
		parts[i++] = (int)x;
		p = end;
		if (*p != '.')
			break;
		p++;
	}
	if (i < 2 && !(i == 1 && *p == '\0'))
		return -1;
	kv->version = parts[0];
	kv->patchlevel = parts[1];
	kv->sublevel = parts[2];
	snprintf(kv->extraversion, sizeof(kv->extraversion), "%s",
		 *p == '-' ? p : "");
	snprintf(kv->text, sizeof(kv->text), "%d.%d.%d%s", kv->version,
		 kv->patchlevel, kv->sublevel, kv->extraversion);
	return 0;
}

int kversion_cmp(const struct kversion *a, const struct kversion *b)
{
	if (a->version != b->version)
		return a->version - b->version;
	if (a->patchlevel != b->patchlevel)
		return a->patchlevel - b->patchlevel;
	return a->sublevel - b->sublevel;
}

/*
 * Only the tree's own repository counts: a tree unpacked inside some other
 * checkout (a fixture in this repository, say) has no HEAD of its own.
 */
int ktree_git_head(const char *tree, char out[41])
{
	char *argv[] = { "git", "-C", (char *)tree, "rev-parse",
			 "--show-toplevel", "--verify", "-q", "HEAD", NULL };
	struct strbuf sb = STRBUF_INIT;
	struct spawn_opts o = { .out = &sb, .quiet = 1 };
	char *top = NULL, *real = realpath(tree, NULL);
	int rc = run_argv(argv, &o), ok = 0;
	char *nl;

	if (rc == 0 && real && (nl = strchr(sb.buf, '\n'))) {
		top = xstrndup(sb.buf, (size_t)(nl - sb.buf));
		if (!strcmp(top, real) && strlen(nl + 1) >= 40) {
			memcpy(out, nl + 1, 40);
			out[40] = '\0';
			ok = 1;
		}
	}
	free(top);
	free(real);
	sb_release(&sb);
	return ok ? 0 : -1;
}

char *ktree_git_remote(const char *tree)
{
	char *argv[] = { "git", "-C", (char *)tree, "config", "--get",
			 "remote.origin.url", NULL };
	struct strbuf sb = STRBUF_INIT;
	struct spawn_opts o = { .out = &sb, .quiet = 1 };
	char head[41], *url = NULL, *at, *scheme;

	/* only the remote of the tree itself, not of a repository above it */
	if (ktree_git_head(tree, head) || run_argv(argv, &o) || !sb.len) {
		sb_release(&sb);
		return NULL;
	}
	url = xstrndup(sb.buf, strcspn(sb.buf, "\n"));
	sb_release(&sb);
	/* https://user:token@host/x: a report must not publish the token */
	scheme = strstr(url, "://");
	at = scheme ? strchr(scheme + 3, '@') : NULL;
	if (at && (!strchr(scheme + 3, '/') || at < strchr(scheme + 3, '/')))
		memmove(scheme + 3, at + 1, strlen(at + 1) + 1);
	return url;
}
