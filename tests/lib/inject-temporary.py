#!/usr/bin/env python3
"""Re-introduce GFP_TEMPORARY into a copy of a 6.1 tree, as 4.13 had it.

usage: inject-temporary.py TREE MANIFEST [--every N] [--header PATH]

- Puts the definition back into include/linux/gfp_types.h (or --header,
  relative to TREE, for the "definition lives in another header" test)
  right after GFP_NOFS, exactly as 4.13's gfp.h wrote it, and the flag-name
  entries back into include/trace/events/mmflags.h and
  tools/perf/builtin-kmem.c.
- Turns GFP_KERNEL into GFP_TEMPORARY at a deterministic sample of the
  tree's GFP_KERNEL tokens: every N-th (default 90) of all whole-word
  occurrences in .c/.h files, sorted by (path, line, col), across every
  arch and #ifdef branch.
- Writes MANIFEST, one injected token per line, tab-separated:
      path  line  col  callee  in_define
  callee is the function or macro whose argument list directly contains
  the token when that call starts on the same line ('' otherwise);
  in_define is 1 when the line is part of a #define.

The tree is modified in place: run it on a private copy only.  The
original tree is recovered by turning exactly these tokens back into
GFP_KERNEL and deleting the inserted lines, which is what the
gfp-temporary rule's series must do.
"""
import os
import re
import sys

WORD = re.compile(rb'\bGFP_KERNEL\b')
CALL = re.compile(rb'([A-Za-z_][A-Za-z0-9_]*)\s*\($')

DEFINE = (b'#define GFP_TEMPORARY\t(__GFP_RECLAIM | __GFP_IO | __GFP_FS | \\\n'
          b'\t\t\t __GFP_RECLAIMABLE)\n')
MMFLAGS = b'\tgfpflag_string(GFP_TEMPORARY),\t\t\\\n'
PERF = b'\t{ "GFP_TEMPORARY",\t\t"TMP" },\n'
SKIP_DIRS = {'.git', 'Documentation'}


def insert_after(path, anchor, text):
    with open(path, 'rb') as f:
        lines = f.readlines()
    for i, line in enumerate(lines):
        if anchor in line:
            lines.insert(i + 1, text)
            break
    else:
        sys.exit('inject-temporary: anchor %r not found in %s' % (anchor, path))
    with open(path, 'wb') as f:
        f.writelines(lines)


def callee_of(line, col0):
    """Name of the call whose '(' encloses col0 on this line, if any."""
    depth = 0
    i = col0 - 1
    while i >= 0:
        c = line[i:i + 1]
        if c == b')':
            depth += 1
        elif c == b'(':
            if depth == 0:
                m = CALL.search(line[:i + 1])
                return m.group(1).decode() if m else ''
            depth -= 1
        i -= 1
    return ''


def in_define(lines, idx):
    j = idx
    while True:
        if lines[j].lstrip().startswith(b'#define'):
            return True
        if j == 0 or not lines[j - 1].rstrip(b'\r\n').endswith(b'\\'):
            return False
        j -= 1


def main():
    args = sys.argv[1:]
    every = 90
    header = 'include/linux/gfp_types.h'
    if '--every' in args:
        i = args.index('--every')
        every = int(args[i + 1])
        del args[i:i + 2]
    if '--header' in args:
        i = args.index('--header')
        header = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    tree, manifest = args
    files = []
    for root, dirs, names in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for n in names:
            if n.endswith(('.c', '.h')):
                p = os.path.join(root, n)
                if not os.path.islink(p):
                    files.append(os.path.relpath(p, tree))
    files.sort()
    protected = {header, 'include/linux/gfp_types.h', 'include/linux/gfp.h'}
    occ = 0
    out = []
    for rel in files:
        path = os.path.join(tree, rel)
        with open(path, 'rb') as f:
            data = f.read()
        if b'GFP_KERNEL' not in data or rel in protected:
            continue
        lines = data.splitlines(keepends=True)
        changed = False
        for li, line in enumerate(lines):
            chosen = []
            for m in WORD.finditer(line):
                occ += 1
                if occ % every == 0:
                    chosen.append(m.start())
            # Replace left to right; later columns shift by 3 each.
            for k, col0 in enumerate(chosen):
                col0 += 3 * k
                line = line[:col0] + b'GFP_TEMPORARY' + line[col0 + 10:]
                out.append((rel, li + 1, col0 + 1, callee_of(line, col0),
                            1 if in_define(lines, li) else 0))
                changed = True
            lines[li] = line
        if changed:
            with open(path, 'wb') as f:
                f.writelines(lines)
    insert_after(os.path.join(tree, header), b'#define GFP_NOFS', DEFINE)
    insert_after(os.path.join(tree, 'include/trace/events/mmflags.h'),
                 b'gfpflag_string(GFP_NOFS)', MMFLAGS)
    insert_after(os.path.join(tree, 'tools/perf/builtin-kmem.c'),
                 b'{ "GFP_NOFS",', PERF)
    out.sort()
    with open(manifest, 'w') as f:
        for r in out:
            f.write('%s\t%d\t%d\t%s\t%d\n' % r)
    print('inject-temporary: %d sites in %d files' %
          (len(out), len({r[0] for r in out})))


if __name__ == '__main__':
    main()
