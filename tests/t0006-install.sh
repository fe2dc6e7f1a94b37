#!/bin/sh
# make install PREFIX=... DESTDIR=...: the binary, the data, man pages made
# from --help, bash completion; the installed binary works from any
# directory with no source tree beside it (EXE/../share/gfpaudit).
. "$(dirname "$0")/lib.sh"
[ "$GFPAUDIT_SANITIZED" = 1 ] && skip_all "installing is checked with the plain build"
command -v man >/dev/null 2>&1 || skip_all "man is not installed"

dest=$TMP/dest
ok "make install" make -s -C "$SRC_DIR" install DESTDIR="$dest" PREFIX=/opt/gfp
bin=$dest/opt/gfp/bin/gfpaudit
ok "the binary" test -x "$bin"
ok "the data" test -f "$dest/opt/gfp/share/gfpaudit/allocators.txt" -a \
	-f "$dest/opt/gfp/share/gfpaudit/gfp-temporary.rule" -a \
	-f "$dest/opt/gfp/share/gfpaudit/cocci/gfp-temporary.cocci"
for c in "" -scan -report -validate; do
	ok "gfpaudit$c(1) renders" sh -c "man -l '$dest/opt/gfp/share/man/man1/gfpaudit$c.1' >/dev/null 2>&1"
done
like "$(man -l "$dest/opt/gfp/share/man/man1/gfpaudit-scan.1" 2>/dev/null)" \
	"--run-rules LIST" "a man page is the command's --help"

# Moved away from the source tree (as DESTDIR staging is): the installed
# data is found beside the binary, not the tree's.
mv "$dest/opt/gfp" "$TMP/elsewhere"
bin=$TMP/elsewhere/bin/gfpaudit
like "$(cd / && env -u GFPAUDIT_DATADIR -u GFPAUDIT_RULES_DIR "$bin" --version)" \
	"data: $TMP/elsewhere/share/gfpaudit" "it finds its own data"
ok "scan from / with the installed binary" sh -c \
	"cd / && env -u GFPAUDIT_DATADIR -u GFPAUDIT_RULES_DIR '$bin' scan --no-progress --db '$TMP/i.db' '$MINIKERNEL'"
ok "rules from /" sh -c "cd / && env -u GFPAUDIT_DATADIR '$bin' rules | grep -q gfp-temporary"
GFPAUDIT_DATADIR=$TMP/nowhere "$bin" rules >/dev/null 2>"$TMP/err"
is "$?" 2 "GFPAUDIT_DATADIR pointing nowhere is refused"
like "$(cat "$TMP/err")" "GFPAUDIT_DATADIR=.*nowhere: no allocators.txt" "naming it"

# bash completion: commands, then a command's options.
comp=$TMP/elsewhere/share/bash-completion/completions/gfpaudit
if command -v bash >/dev/null 2>&1; then
	out=$(bash -c ". '$comp'; COMP_WORDS=(gfpaudit sc); COMP_CWORD=1; _gfpaudit; echo \${COMPREPLY[*]}")
	is "$out" "scan" "completes a command"
	out=$(bash -c ". '$comp'; COMP_WORDS=(gfpaudit report --fail); COMP_CWORD=2; _gfpaudit; echo \${COMPREPLY[*]}")
	is "$out" "--fail-on" "completes a command's option"
fi

ok "make uninstall" make -s -C "$SRC_DIR" uninstall DESTDIR="$TMP/elsewhere-root" PREFIX=/x
done_testing
