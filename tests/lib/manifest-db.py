#!/usr/bin/env python3
"""Fill a gfpaudit database with the flag_uses rows a scan of an
inject-temporary.py tree must produce, straight from its manifest.

usage: manifest-db.py TREE MANIFEST DB [HEADER]

The patch stage's tests use it to run independently of the analyzer: the
manifest lists every injected GFP_TEMPORARY token (path, line, col,
callee, in_define); the definition in HEADER (default
include/linux/gfp_types.h) and the flag-name table entries in
include/trace/events/mmflags.h and tools/perf/builtin-kmem.c are located
in the tree.  DB must already exist (tests/tools/mkdb creates it).
"""
import re
import sqlite3
import sys


def find(tree, rel, pattern):
    rows = []
    with open('%s/%s' % (tree, rel), 'rb') as f:
        for i, line in enumerate(f.read().split(b'\n')):
            m = re.search(pattern, line)
            if m:
                rows.append((i + 1, m.start(1) + 1))
    return rows


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    tree, manifest, dbpath = sys.argv[1:4]
    header = sys.argv[4] if len(sys.argv) == 5 else 'include/linux/gfp_types.h'
    db = sqlite3.connect(dbpath)
    db.execute("INSERT INTO runs(command, tree, kernel_version, arch, "
               "options, started_at, status) VALUES ('scan', ?, '6.1.0', "
               "'x86', '{}', '2026-01-01T00:00:00Z', 'complete')", (tree,))
    fids = {}

    def fid(path):
        if path not in fids:
            cur = db.execute("INSERT INTO files(path, hash, size, "
                             "parse_mode) VALUES (?, '0', 0, 'lexical')",
                             (path,))
            fids[path] = cur.lastrowid
        return fids[path]

    def use(path, line, col, ctx, call=None):
        db.execute("INSERT INTO flag_uses(file_id, path, line, col, flag, "
                   "context, call) VALUES (?, ?, ?, ?, 'GFP_TEMPORARY', ?, ?)",
                   (fid(path), path, line, col, ctx, call))

    with open(manifest) as f:
        for row in f:
            path, line, col, callee, in_define = row.rstrip('\n').split('\t')
            ctx = ('macro_def' if in_define == '1' else
                   'call_arg' if callee else 'other')
            use(path, int(line), int(col), ctx, callee or None)
    for line, col in find(tree, header, rb'#define (GFP_TEMPORARY)\b'):
        use(header, line, col, 'declaration')
    for line, col in find(tree, 'include/trace/events/mmflags.h',
                          rb'gfpflag_string\((GFP_TEMPORARY)\)'):
        use('include/trace/events/mmflags.h', line, col, 'flag_table')
    for line, col in find(tree, 'tools/perf/builtin-kmem.c',
                          rb'"(GFP_TEMPORARY)"'):
        use('tools/perf/builtin-kmem.c', line, col, 'string_table')
    db.commit()


if __name__ == '__main__':
    main()
