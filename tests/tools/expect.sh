# Expected classifier results written next to the fixture code, checked
# against the database (sourced after tests/lib.sh):
#
#	buf = kmalloc(n, GFP_KERNEL); /* expect: lifetime=scoped context=process */
#
# on the allocation's line: each COLUMN=VALUE is a fact about the sites
# row(s) of that file and line (VALUE "quoted" when it holds blanks, `-`
# for NULL).  /* expect(DEPTH,...): ... */ holds only at those scan
# depths (single, full, lexical) and wins over a plain expect of the same
# column.  Kept beside the code, a fact moves with it when lines move.
#
# check_expects DB TREE DEPTH: one TAP test per fact of TREE's .c files
# that holds at DEPTH, then one that there was at least one.

# The facts, "path<TAB>line<TAB>column<TAB>value", that hold at DEPTH.
expect_facts() {
	(cd "$1" && grep -rn --include='*.c' '/\* expect[(:]' .) |
	awk -v depth="$2" '
	{
		# ./path:line:text
		i = index($0, ":"); path = substr($0, 3, i - 3)
		rest = substr($0, i + 1); i = index(rest, ":")
		line = substr(rest, 1, i - 1); text = substr(rest, i + 1)
		while ((i = index(text, "/* expect")) > 0) {
			text = substr(text, i + 9)
			j = index(text, "*/"); c = substr(text, 1, j - 1)
			text = substr(text, j + 2)
			k = index(c, ":"); q = substr(c, 1, k - 1)
			body = substr(c, k + 1)
			# plain: rank 1; naming this depth: rank 2; else skip
			if (q == "")
				rank = 1
			else if (index("," substr(q, 2, length(q) - 2) ",",
				       "," depth ","))
				rank = 2
			else
				continue
			parse(path, line, body, rank)
		}
	}
	function parse(path, line, s, rank,    key, val, e, id) {
		while (match(s, /[a-z_]+=/)) {
			key = substr(s, RSTART, RLENGTH - 1)
			s = substr(s, RSTART + RLENGTH)
			if (substr(s, 1, 1) == "\"") {
				e = index(substr(s, 2), "\"")
				val = substr(s, 2, e - 1); s = substr(s, e + 2)
			} else {
				e = index(s " ", " ")
				val = substr(s, 1, e - 1); s = substr(s, e)
			}
			id = path "\t" line "\t" key
			if (rank > best[id]) {
				best[id] = rank; fact[id] = val
			}
		}
	}
	END { for (id in fact) print id "\t" fact[id] }' | sort -t '	' -k1,1 -k2,2n -k3,3
}

check_expects() {
	_db=$1 _tree=$2 _depth=$3
	expect_facts "$_tree" "$_depth" >"$TMP/.facts"
	while IFS='	' read -r _p _l _c _v; do
		# every row on the line: one value when they agree
		_got=$(sql "$_db" "SELECT DISTINCT ifnull($_c, '-') FROM sites
			WHERE path = '$_p' AND line = $_l" 2>&1)
		_fn=$(sql "$_db" "SELECT group_concat(DISTINCT function)
			FROM sites WHERE path = '$_p' AND line = $_l")
		is "$_got" "$_v" "$_depth: $_p:$_l ${_fn:-no site}: $_c"
	done <"$TMP/.facts"
	ok "$_depth: $(wc -l <"$TMP/.facts" | tr -d " ") expected facts" \
		test -s "$TMP/.facts"
}
