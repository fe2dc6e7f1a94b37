#!/bin/sh
# The classifiers against hand labels of the real 6.1 tree
# (tests/data/labels-6.1.tsv: a fixed-seed sample drawn by
# bench/eval/sample.py, each site read by two independent readers, a
# third read where they disagreed; docs/classifiers.md has the method).
# Fails when a column's accuracy falls below its floor, or when it is not
# clearly above the constant answer; and when a rule's precision on the
# judged facts of tests/data/rules-6.1.tsv falls below its floor.
. "$(dirname "$0")/lib.sh"

[ -f "$LINUX61_TAR" ] || [ -d "$GFPAUDIT_CACHE/linux-source-6.1" ] ||
	skip_all "linux-source-6.1 is not installed"
# The accuracy does not depend on the build; ASan+UBSan runs of the same
# whole-tree scan are t1010's.
[ "$GFPAUDIT_SANITIZED" = 1 ] && skip_all "accuracy is measured by the plain build"
tree=$(linux61_pristine) || skip_all "cannot extract the 6.1 tree"
labels=$SRC_DIR/tests/data/labels-6.1.tsv
db=$TMP/eval.db

ok "scan of the pristine 6.1 tree" nice "$GFPAUDIT" scan -j 2 --no-progress \
	--db "$db" "$tree"
# score NAME LABELS SITES FLOOR...: eval.py's table as comments, then a
# test that every floor holds and one that SITES labels matched a site.
score() {
	_name=$1 _labels=$2 _sites=$3
	shift 3
	python3 "$SRC_DIR/bench/eval/eval.py" "$db" "$_labels" --matrix "$@" \
		>"$TMP/$_name.txt" 2>&1
	_rc=$?
	sed "s/^/# $_name: /" "$TMP/$_name.txt"
	is "$_rc" 0 "$_name: accuracy at or above the floors"
	_n=$(sed -n 's/^\([0-9]*\) labels, \([0-9]*\) matched.*/\2/p' "$TMP/$_name.txt")
	ok "$_name: at least $_sites labelled sites match a site of the scan ($_n)" \
		test "${_n:-0}" -ge "$_sites"
}
# The targets themselves (issue 21), and the margins over the constant
# answer a little under the measured ones (context cannot be +15 here:
# 82.5 % of the sample is process context).
score labels "$labels" 200 \
	--min lifetime=90 --margin lifetime=24 \
	--min held_across_sleep=85 --margin held_across_sleep=35 \
	--min context=90 --margin context=13

# The held-out sample (tests/data/labels-6.1-heldout.tsv: 61 sites drawn
# with another seed from the sites the first sample did not take, read
# after the classifiers were last changed; docs/classifiers.md).  Floors
# a little under the measured figures (88.5 / 90.2 / 88.5 % in session
# 31, 90.2 / 90.2 / 88.5 % in session 32), context below its target: a change that loses what generalises is
# seen.
score held-out "$SRC_DIR/tests/data/labels-6.1-heldout.tsv" 61 \
	--min lifetime=87 --margin lifetime=20 \
	--min held_across_sleep=88 --margin held_across_sleep=30 \
	--min context=87 --margin context=5

# The third sample (tests/data/labels-6.1-sample3.tsv: 80 sites drawn
# with seed 1205 from the sites neither sample above took, read by two
# readers, a third read where they disagreed).  It was first measured
# before any change it led to (78.8 / 80.0 / 88.8 %); its misses then
# led to some, so it is no held-out sample any more.  Floors a little
# under the figures measured after them (87.5 / 82.5 / 91.2 % in
# session 32).
score sample3 "$SRC_DIR/tests/data/labels-6.1-sample3.tsv" 80 \
	--min lifetime=85 --margin lifetime=22 \
	--min held_across_sleep=80 --margin held_across_sleep=29 \
	--min context=89 --margin context=5

# The second held-out sample (tests/data/labels-6.1-heldout2.tsv: 61
# sites drawn with seed 1206 after every change of session 29, read by
# two readers and a third on 8 disagreements; nobody looked at its
# misses).  It measured 88.5 / 82.0 / 83.6 % when drawn, 90.2 / 85.2 /
# 85.2 % after session 30's changes, 91.8 / 85.2 / 85.2 % after session
# 31's, 93.4 / 85.2 / 85.2 % after session 32's; floors a little under
# the latter.
# Context is below its constant answer there (88.5 % process): its
# readers called GFP_ATOMIC in code that sleeps `process`, which the
# brief does not (docs/classifiers.md), so no margin for context.
score held-out2 "$SRC_DIR/tests/data/labels-6.1-heldout2.tsv" 61 \
	--min lifetime=91 --margin lifetime=17 \
	--min held_across_sleep=83 --margin held_across_sleep=20 \
	--min context=83

# The fourth sample (tests/data/labels-6.1-heldout3.tsv: 61 sites drawn
# with seed 1207 in session 30, read by two readers and a third on 3
# disagreements).  Measured blind, before anyone looked at its misses:
# 75.4 / 82.0 / 90.2 %; its lifetime misses then led to changes, so it is
# a seen sample now, at 80.3 / 85.2 / 90.2 % after session 30, 85.2 /
# 88.5 / 90.2 % after session 31 and 88.5 / 88.5 / 90.2 % after session
# 32 (docs/classifiers.md).  Floors a little under.
# One labelled site is no site since a file's own static function
# hides a learned wrapper of the same name with another signature
# (lexsites.c shadowed()); it counts as a miss in every column.
score held-out3 "$SRC_DIR/tests/data/labels-6.1-heldout3.tsv" 60 \
	--min lifetime=83 --margin lifetime=35 \
	--min held_across_sleep=86 --margin held_across_sleep=35 \
	--min context=88 --margin context=2

# The fifth sample (tests/data/labels-6.1-heldout4.tsv: 61 sites, seed
# 1208, drawn and labelled at the start of session 31, two readers and a
# third on 7 disagreements).  Measured blind with that session's starting
# build: 88.5 / 85.2 / 93.4 %; its misses were not read, and it measured
# 88.5 / 85.2 / 95.1 % after the session's changes.  Session 32 read its
# misses (a seen sample now): 96.7 / 88.5 / 95.1 %.  Floors a little
# under.
score held-out4 "$SRC_DIR/tests/data/labels-6.1-heldout4.tsv" 61 \
	--min lifetime=93 --margin lifetime=28 \
	--min held_across_sleep=85 --margin held_across_sleep=33 \
	--min context=93 --margin context=8

# The sixth sample (tests/data/labels-6.1-heldout5.tsv: 61 sites, seed
# 1209, drawn after session 31's lifetime changes, two readers and a
# third on 4 disagreements), scored once at the session's end: 88.5 /
# 85.2 / 93.4 % (the session's starting build: 86.9 / 85.2 / 93.4 %).
# Session 32 read its misses (a seen sample now): 88.5 / 88.5 / 93.4 %.
score held-out5 "$SRC_DIR/tests/data/labels-6.1-heldout5.tsv" 61 \
	--min lifetime=86 --margin lifetime=20 \
	--min held_across_sleep=86 --margin held_across_sleep=35 \
	--min context=91 --margin context=8

# The seventh sample (tests/data/labels-6.1-heldout6.tsv: 61 sites, seed
# 1210, drawn and labelled at the start of session 32, two readers and a
# third on 12 disagreements; its lifetime and held_across_sleep misses
# were read in session 33).  Measured blind
# with that session's starting build: 82.0 / 80.3 / 93.4 %, and 85.2 /
# 80.3 / 93.4 % after its changes.  Below the targets: the floors only
# keep what it measures.  Context is 3 points over its constant answer
# (90.2 % process), so no margin for it.
score held-out6 "$SRC_DIR/tests/data/labels-6.1-heldout6.tsv" 61 \
	--min lifetime=83 --margin lifetime=20 \
	--min held_across_sleep=78 --margin held_across_sleep=14 \
	--min context=91

# The eighth sample (tests/data/labels-6.1-heldout7.tsv: 61 sites, seed
# 1311, drawn and labelled at the start of session 33, two readers and a
# third on 13 disagreements; its misses were read in session 34).
# Measured blind with 58916a4: 88.5 / 86.9 / 88.5 % against constant
# answers of 55.7 / 57.4 / 86.9 %.  Context is under 2 points over its constant answer
# (process), so no margin for it.
score held-out7 "$SRC_DIR/tests/data/labels-6.1-heldout7.tsv" 61 \
	--min lifetime=86 --margin lifetime=30 \
	--min held_across_sleep=85 --margin held_across_sleep=27 \
	--min context=87

# The ninth sample (tests/data/labels-6.1-heldout8.tsv: 61 sites, seed
# 1412, drawn and labelled at the start of session 34, two readers and a
# third on 5 disagreements).  Measured blind with ef7c9d8: 80.3 / 83.6 /
# 93.4 % against constant answers of 57.4 / 65.6 / 88.5 %; its misses
# were read in that session (88.5 / 83.6 / 93.4 % after its changes).
# Context is 5 points over its constant answer (process), so no margin.
score held-out8 "$SRC_DIR/tests/data/labels-6.1-heldout8.tsv" 61 \
	--min lifetime=86 --margin lifetime=28 \
	--min held_across_sleep=81 --margin held_across_sleep=16 \
	--min context=91

# The tenth sample (tests/data/labels-6.1-heldout9.tsv: 61 sites, seed
# 1513, drawn and labelled in session 34 after that session's first
# changes, two readers and a third on 4 disagreements).  Measured blind
# with be2ef42: 80.3 / 83.6 / 91.8 % against constant answers of 57.4 /
# 52.5 / 83.6 % (77.0 / 83.6 / 91.8 % with ef7c9d8); its lifetime misses
# were read afterwards (83.6 % after the changes they led to).
score held-out9 "$SRC_DIR/tests/data/labels-6.1-heldout9.tsv" 61 \
	--min lifetime=81 --margin lifetime=24 \
	--min held_across_sleep=81 --margin held_across_sleep=29 \
	--min context=90 --margin context=6

# The eleventh sample (tests/data/labels-6.1-heldout10.tsv: 61 sites,
# seed 1614, drawn and labelled at the end of session 34, two readers
# and a third on 4 disagreements; nobody read its misses).  Measured
# blind with that session's final code: 86.9 / 82.0 / 93.4 % against
# constant answers of 59.0 / 55.7 / 83.6 % (the same with ef7c9d8).
score held-out10 "$SRC_DIR/tests/data/labels-6.1-heldout10.tsv" 61 \
	--min lifetime=84 --margin lifetime=25 \
	--min held_across_sleep=79 --margin held_across_sleep=24 \
	--min context=91 --margin context=7

# The twelfth sample (tests/data/labels-6.1-heldout11.tsv: 61 sites,
# seed 1715, drawn and labelled at the start of session 35, two readers
# and a third on 4 disagreements).  Measured blind with session 34's
# final code: 86.9 / 83.6 / 93.4 % against constant answers of 65.6 /
# 60.7 / 80.3 %.
score held-out11 "$SRC_DIR/tests/data/labels-6.1-heldout11.tsv" 61 \
	--min lifetime=84 --margin lifetime=20 \
	--min held_across_sleep=81 --margin held_across_sleep=21 \
	--min context=91 --margin context=11

# The thirteenth sample (tests/data/labels-6.1-heldout12.tsv: 61 sites,
# seed 1816, drawn and labelled in session 35 after its changes, two
# readers and a third on 2 disagreements).  Measured blind with that
# code: 90.2 / 88.5 / 95.1 % against constant answers of 60.7 / 55.7 /
# 85.2 %.  Context is 10 points over its constant answer: margin 8.
score held-out12 "$SRC_DIR/tests/data/labels-6.1-heldout12.tsv" 61 \
	--min lifetime=86 --margin lifetime=25 \
	--min held_across_sleep=85 --margin held_across_sleep=29 \
	--min context=93 --margin context=8

# The fourteenth sample (tests/data/labels-6.1-heldout13.tsv: 61 sites,
# seed 1917, drawn and labelled at the end of session 35, two readers
# and a third on 2 disagreements; nobody read its misses).  Measured
# blind with that session's final code: 91.8 / 82.0 / 82.0 % against
# constant answers of 60.7 / 55.7 / 75.4 % (the session's starting code
# scores the same).  Context is 6.6 points over its constant answer.
score held-out13 "$SRC_DIR/tests/data/labels-6.1-heldout13.tsv" 61 \
	--min lifetime=88 --margin lifetime=28 \
	--min held_across_sleep=79 --margin held_across_sleep=23 \
	--min context=80 --margin context=5

# The fifteenth sample (tests/data/labels-6.1-heldout14.tsv: 61 sites,
# seed 2018, drawn at the start of session 36 and labelled while its
# changes were made, two readers and a third on 6 disagreements; nobody
# read its misses before it was scored).  Measured blind with that
# session's code: 91.8 / 83.6 / 90.2 % against constant answers of
# 72.1 / 60.7 / 78.7 % (the session's starting code scores the same).
score held-out14 "$SRC_DIR/tests/data/labels-6.1-heldout14.tsv" 61 \
	--min lifetime=88 --margin lifetime=16 \
	--min held_across_sleep=80 --margin held_across_sleep=19 \
	--min context=87 --margin context=8

# The sixteenth sample (tests/data/labels-6.1-heldout15.tsv: 61 sites,
# seed 2119, drawn at the start of session 37, two readers and a third
# on 9 disagreements, all of them a stored buffer's held_across_sleep or
# what "returned" covers).  Scored blind with the session's starting
# code: 88.5 / 85.2 / 95.1 % against constant answers of 54.1 / 59.0 /
# 83.6 %.
score held-out15 "$SRC_DIR/tests/data/labels-6.1-heldout15.tsv" 61 \
	--min lifetime=85 --margin lifetime=30 \
	--min held_across_sleep=82 --margin held_across_sleep=22 \
	--min context=91 --margin context=8

# The seventeenth sample (tests/data/labels-6.1-heldout16.tsv: 61 sites,
# seed 2220, drawn after session 37's changes, two readers and a third
# on 5 disagreements).  Scored blind with that code: 91.8 / 91.8 /
# 90.2 % against constant answers of 49.2 / 54.1 / 86.9 % (86.9 % of
# it is process context).
# One labelled site is no site since a file's own static function
# hides a learned wrapper of the same name with another signature
# (lexsites.c shadowed()); it counts as a miss in every column.
score held-out16 "$SRC_DIR/tests/data/labels-6.1-heldout16.tsv" 60 \
	--min lifetime=88 --margin lifetime=38 \
	--min held_across_sleep=88 --margin held_across_sleep=33 \
	--min context=87 --margin context=2

# The eighteenth sample (tests/data/labels-6.1-heldout17.tsv: 61 sites,
# seed 2321, drawn at the start of session 38, four readers and a third
# on 3 disagreements).  Scored blind with that session's starting code:
# 93.4 / 93.4 / 90.2 % against constant answers of 65.6 / 63.9 / 80.3 %.
score held-out17 "$SRC_DIR/tests/data/labels-6.1-heldout17.tsv" 61 \
	--min lifetime=90 --margin lifetime=24 \
	--min held_across_sleep=90 --margin held_across_sleep=26 \
	--min context=87 --margin context=7

# The nineteenth sample (tests/data/labels-6.1-heldout18.tsv: 61 sites,
# seed 2422, drawn in session 38 after its lifetime changes, four
# readers and a third on 1 disagreement; one context label corrected,
# see its note).  Scored blind: 86.9 / 80.3 / 90.2 % against constant
# answers of 63.9 / 73.8 / 85.2 %.  Its four readers all ended a stored
# buffer's span at the store, where most samples' readers count the
# error-path frees after a sleep (docs/classifiers.md): held_across_sleep
# is low here.
score held-out18 "$SRC_DIR/tests/data/labels-6.1-heldout18.tsv" 61 \
	--min lifetime=84 --margin lifetime=20 \
	--min held_across_sleep=78 --margin held_across_sleep=4 \
	--min context=87 --margin context=3

# The twentieth sample (tests/data/labels-6.1-heldout19.tsv: 61 sites,
# seed 2523, drawn from session 38's final code, four readers and a
# third on 6 disagreements).  Scored blind: 85.2 / 90.2 / 90.2 %
# against constant answers of 50.8 / 65.6 / 80.3 %.
score held-out19 "$SRC_DIR/tests/data/labels-6.1-heldout19.tsv" 61 \
	--min lifetime=83 --margin lifetime=30 \
	--min held_across_sleep=88 --margin held_across_sleep=22 \
	--min context=87 --margin context=7

# The twenty-first sample (tests/data/labels-6.1-heldout20.tsv: 61 sites,
# seed 2624, drawn from session 38's final code, four readers and a
# third on 8 disagreements).  Scored blind: 91.8 / 75.4 / 85.2 %
# against constant answers of 54.1 / 57.4 / 90.2 %.  Context is under
# its constant answer here (8 of its 9 misses are `unknown` for flags
# that come from the caller or GFP_ATOMIC with callers in both
# contexts), so it has a floor and no margin.
# One labelled site is no site since a file's own static function
# hides a learned wrapper of the same name with another signature
# (lexsites.c shadowed()); it counts as a miss in every column.
score held-out20 "$SRC_DIR/tests/data/labels-6.1-heldout20.tsv" 60 \
	--min lifetime=88 --margin lifetime=30 \
	--min held_across_sleep=72 --margin held_across_sleep=12 \
	--min context=83

# The twenty-second sample (tests/data/labels-6.1-heldout21.tsv: 61
# sites, seed 2725, drawn from session 39's final code, four readers and
# a third on 2 disagreements).  Scored blind: 90.2 / 85.2 / 86.9 %
# against constant answers of 60.7 / 52.5 / 78.7 %.  7 of context's 8
# misses are `unknown` for GFP_ATOMIC in functions with callers in both
# contexts, which the readers called atomic: a small margin there.
score held-out21 "$SRC_DIR/tests/data/labels-6.1-heldout21.tsv" 61 \
	--min lifetime=87 --margin lifetime=26 \
	--min held_across_sleep=82 --margin held_across_sleep=28 \
	--min context=84 --margin context=5

# The twenty-third sample (tests/data/labels-6.1-heldout22.tsv: 61
# sites, seed 2826, drawn from session 40's final code, four readers and
# a third on 9 disagreements).  Scored blind: 93.4 / 93.4 / 91.8 %
# against constant answers of 60.7 / 59.0 / 86.9 %.
score held-out22 "$SRC_DIR/tests/data/labels-6.1-heldout22.tsv" 61 \
	--min lifetime=88 --margin lifetime=28 \
	--min held_across_sleep=88 --margin held_across_sleep=28 \
	--min context=86 --margin context=2

# The twenty-fourth sample (tests/data/labels-6.1-heldout23.tsv: 61
# sites, seed 2927, drawn from session 41's code after its first
# changes, four readers and a third on 5 disagreements; one site's
# lifetime stayed split, three readings three answers, and counts as
# labelled).  Scored blind: 88.5 / 88.5 / 90.2 % against constant
# answers of 63.9 / 54.1 / 88.5 %.  Context has a floor and no margin:
# 88.5 % of the sample is process context.
score held-out23 "$SRC_DIR/tests/data/labels-6.1-heldout23.tsv" 61 \
	--min lifetime=85 --margin lifetime=20 \
	--min held_across_sleep=85 --margin held_across_sleep=30 \
	--min context=86

# The twenty-fifth sample (tests/data/labels-6.1-heldout24.tsv: 61
# sites, seed 3028, drawn from session 41's final code, four readers
# and a third on 13 disagreements).  Scored blind: 88.5 / 78.7 / 93.4 %
# against constant answers of 50.8 / 55.7 / 82.0 %.  Eight of
# held_across_sleep's thirteen misses are stored buffers freed on an
# error path after a call that may sleep, which these readers called
# `no` (the span ends at the store) and the convention of
# docs/classifiers.md calls `yes`: a lower floor there.
score held-out24 "$SRC_DIR/tests/data/labels-6.1-heldout24.tsv" 61 \
	--min lifetime=85 --margin lifetime=30 \
	--min held_across_sleep=75 --margin held_across_sleep=18 \
	--min context=90 --margin context=8

# The twenty-sixth sample (tests/data/labels-6.1-heldout25.tsv: 61
# sites, seed 3129, drawn from session 41's final code, four readers
# and a third on 4 disagreements).  Scored blind: 90.2 / 85.2 / 88.5 %
# against constant answers of 52.5 / 62.3 / 90.2 %.  Context has a floor
# and no margin: 90.2 % of the sample is process context.
score held-out25 "$SRC_DIR/tests/data/labels-6.1-heldout25.tsv" 61 \
	--min lifetime=87 --margin lifetime=32 \
	--min held_across_sleep=82 --margin held_across_sleep=18 \
	--min context=85

# The twenty-seventh sample (tests/data/labels-6.1-heldout26.tsv: 61
# sites, seed 3230, drawn from session 42's code after its first change,
# four readers and a third on 6 disagreements).  Scored blind: 86.9 /
# 80.3 / 91.8 % against constant answers of 55.7 / 54.1 / 85.2 %.
score held-out26 "$SRC_DIR/tests/data/labels-6.1-heldout26.tsv" 61 \
	--min lifetime=84 --margin lifetime=28 \
	--min held_across_sleep=77 --margin held_across_sleep=23 \
	--min context=88 --margin context=3

# The twenty-eighth sample (tests/data/labels-6.1-heldout27.tsv: 61
# sites, seed 3331, drawn from the same scan as heldout26, four readers
# and a third on 6 disagreements).  Scored blind: 95.1 / 83.6 / 96.7 %
# against constant answers of 68.9 / 63.9 / 90.2 %.  Context has a floor
# and no margin: 90.2 % of the sample is process context.
score held-out27 "$SRC_DIR/tests/data/labels-6.1-heldout27.tsv" 61 \
	--min lifetime=92 --margin lifetime=22 \
	--min held_across_sleep=80 --margin held_across_sleep=16 \
	--min context=93

# The twenty-ninth sample (tests/data/labels-6.1-heldout28.tsv: 61
# sites, seed 3432, drawn from session 42's final code, four readers and
# a third on 8 disagreements).  Scored blind: 91.8 / 85.2 / 90.2 %
# against constant answers of 62.3 / 65.6 / 93.4 %.  Context has a floor
# and no margin: 93.4 % of the sample is process context.
score held-out28 "$SRC_DIR/tests/data/labels-6.1-heldout28.tsv" 61 \
	--min lifetime=88 --margin lifetime=25 \
	--min held_across_sleep=82 --margin held_across_sleep=16 \
	--min context=87

# The thirtieth sample (tests/data/labels-6.1-heldout29.tsv: 61
# sites, seed 3533, drawn from session 42's final code, four readers and
# a third on 7 disagreements).  Scored blind: 93.4 / 88.5 / 83.6 %
# against constant answers of 65.6 / 65.6 / 82.0 %.  Context has a floor
# and no margin: its misses are GFP_ATOMIC sites whose callers decide.
score held-out29 "$SRC_DIR/tests/data/labels-6.1-heldout29.tsv" 61 \
	--min lifetime=90 --margin lifetime=25 \
	--min held_across_sleep=85 --margin held_across_sleep=20 \
	--min context=80

# The thirty-first sample (tests/data/labels-6.1-heldout30.tsv: 61
# sites, seed 3634, drawn from session 42's final code, four readers and
# a third on 8 disagreements).  Scored blind: 85.2 / 86.9 / 86.9 %
# against constant answers of 47.5 / 59.0 / 75.4 %; 86.9 % lifetime
# with the early-exit free of the token tier (b8d50d4).  Three of its
# lifetime misses are real bugs the readers found on an error path
# (pasemi frees the wrong skb, sparc frees a __pa(), qtnfmac drops an
# skb on a full queue); three are splits of stored and returned.
score held-out30 "$SRC_DIR/tests/data/labels-6.1-heldout30.tsv" 61 \
	--min lifetime=84 --margin lifetime=30 \
	--min held_across_sleep=85 --margin held_across_sleep=20 \
	--min context=84 --margin context=8

# The thirty-second sample (tests/data/labels-6.1-heldout31.tsv: 61
# sites, seed 3735, drawn after b8d50d4, four readers and a third on 4
# disagreements).  Scored blind: 83.6 / 88.5 / 93.4 % against constant
# answers of 57.4 / 67.2 / 83.6 %; 85.2 % lifetime with a place freed
# by the object's own name (52a2356).  Its other misses: leaks the
# readers found on error paths (btrtl, sched_init_numa, ctcm), stored
# and returned splits, binfmt_elf's interpreter header in a loop.
score held-out31 "$SRC_DIR/tests/data/labels-6.1-heldout31.tsv" 61 \
	--min lifetime=82 --margin lifetime=22 \
	--min held_across_sleep=85 --margin held_across_sleep=17 \
	--min context=90 --margin context=7

# The thirty-third sample (tests/data/labels-6.1-heldout32.tsv: 61
# sites, seed 3836, drawn from session 43's final classifier code, four
# readers and a third on 15 disagreements, most of them the held span
# of a stored buffer).  Scored blind: 88.5 / 98.4 / 85.2 % against
# constant answers of 63.9 / 59.0 / 83.6 %.  Context has a floor and no
# margin: its misses are flags the callers pass.
score held-out32 "$SRC_DIR/tests/data/labels-6.1-heldout32.tsv" 61 \
	--min lifetime=85 --margin lifetime=20 \
	--min held_across_sleep=92 --margin held_across_sleep=30 \
	--min context=82

# The thirty-fourth sample (tests/data/labels-6.1-heldout33.tsv: 61
# sites, seed 3937, drawn from session 43's final code at session 44's
# start, four readers who agreed on every judged column; a fifth reader
# of all 61 differed only on four held spans of stored buffers).  Scored
# blind: 98.4 / 88.5 / 95.1 % against constant answers of 60.7 / 57.4 /
# 78.7 %.
score held-out33 "$SRC_DIR/tests/data/labels-6.1-heldout33.tsv" 61 \
	--min lifetime=95 --margin lifetime=30 \
	--min held_across_sleep=85 --margin held_across_sleep=25 \
	--min context=92 --margin context=12

# The thirty-fifth sample (tests/data/labels-6.1-heldout34.tsv: 61
# sites, seed 4038, drawn after session 44's dma-handle change, four
# readers and a third on 10 disagreements).  Scored blind: 91.8 / 82.0
# / 91.8 % against constant answers of 72.1 / 52.5 / 88.5 %; 93.4 %
# lifetime once keyctl's `watch = NULL` hand-over was read.  Context
# has a floor and no margin: 88.5 % of it is process context.
score held-out34 "$SRC_DIR/tests/data/labels-6.1-heldout34.tsv" 61 \
	--min lifetime=90 --margin lifetime=17 \
	--min held_across_sleep=80 --margin held_across_sleep=25 \
	--min context=90

# The thirty-sixth sample (tests/data/labels-6.1-heldout35.tsv: 61
# sites, seed 4139, drawn with heldout34 from the same scan, four
# readers and a third on 9 disagreements, seven of them held spans of
# stored buffers).  Scored blind: 96.7 / 77.0 / 82.0 % against constant
# answers of 77.0 / 65.6 / 83.6 %; 98.4 % lifetime with pti's page-table
# install read.  Context is below the constant: its misses are flags
# the callers pass (readers followed them to process context), a macro
# body in a header, and boot code with irqs off.
score held-out35 "$SRC_DIR/tests/data/labels-6.1-heldout35.tsv" 61 \
	--min lifetime=95 --margin lifetime=17 \
	--min held_across_sleep=75 --margin held_across_sleep=8 \
	--min context=80

# The thirty-seventh sample (tests/data/labels-6.1-heldout36.tsv: 61
# sites, seed 4240, drawn from session 44's final scan before any
# change; the four readers agreed on every judged column).  Scored
# blind: 95.1 / 85.2 / 96.7 % against constant answers of 65.6 / 63.9 /
# 77.0 %.  Its held misses are stored buffers whose span the readers
# ended at the store, the split every sample has.
score held-out36 "$SRC_DIR/tests/data/labels-6.1-heldout36.tsv" 61 \
	--min lifetime=93 --margin lifetime=25 \
	--min held_across_sleep=83 --margin held_across_sleep=17 \
	--min context=95 --margin context=15

# The thirty-eighth sample (tests/data/labels-6.1-heldout37.tsv: 61
# sites, seed 4341, drawn with heldout38 from the same scan; four
# readers and a fifth on 7 disagreements, one context left split).
# Scored blind: 90.2 / 73.8 / 93.4 % against constant answers of 60.7 /
# 73.8 / 77.0 %.  Its held spans are no better than the constant: 12 of
# its 16 held misses are buffers stored at the allocation and freed on
# a later error path after a sleep, which its readers ended at the store
# and the error-path rule extends; the split every sample has, here one
# way only.
score held-out37 "$SRC_DIR/tests/data/labels-6.1-heldout37.tsv" 61 \
	--min lifetime=88 --margin lifetime=25 \
	--min held_across_sleep=72 \
	--min context=91 --margin context=15

# The thirty-ninth sample (tests/data/labels-6.1-heldout38.tsv: 61
# sites, seed 4442, drawn from the scan of the walker's one visit of
# the bodies, identical to session 44's; four readers and a third on 8
# disagreements).  Scored blind: 95.1 / 83.6 / 90.2 % against constant
# answers of 63.9 / 59.0 / 80.3 %.  Its lifetime misses are a probe's
# buffer no code frees, a store under a lock followed by a return, and
# a page-table page returned through page_address() in a header.
score held-out38 "$SRC_DIR/tests/data/labels-6.1-heldout38.tsv" 61 \
	--min lifetime=93 --margin lifetime=25 \
	--min held_across_sleep=82 --margin held_across_sleep=20 \
	--min context=88 --margin context=8

# The fortieth sample (tests/data/labels-6.1-heldout39.tsv: 61 sites,
# seed 4543, drawn after the learned-wrapper hand-over; four readers
# and a fifth on 5 disagreements).  Scored blind: 91.8 / 80.3 / 88.5 %
# against constant answers of 62.3 / 62.3 / 85.2 % (85 % of it is
# process context).  Its lifetime misses are an open handler a macro
# defines, a buffer freed after a thread pool is stopped, a clone handed
# to a transmit helper, an ida id a failure path leaks, and a path
# buffer a helper returns or frees.
score held-out39 "$SRC_DIR/tests/data/labels-6.1-heldout39.tsv" 61 \
	--min lifetime=90 --margin lifetime=25 \
	--min held_across_sleep=78 --margin held_across_sleep=15 \
	--min context=86

# The forty-first sample (tests/data/labels-6.1-heldout40.tsv: 61
# sites, seed 4644, drawn with heldout39 from the same scan; four
# readers and a fifth on 2 disagreements).  Scored blind: 93.4 / 85.2 /
# 96.7 % against constant answers of 52.5 / 59.0 / 86.9 %.
score held-out40 "$SRC_DIR/tests/data/labels-6.1-heldout40.tsv" 61 \
	--min lifetime=91 --margin lifetime=25 \
	--min held_across_sleep=83 --margin held_across_sleep=20 \
	--min context=95 --margin context=8

# The forty-second sample (tests/data/labels-6.1-heldout41.tsv: 61
# sites, seed 4745, drawn from session 45's final scan; four readers and
# a fifth on 2 disagreements).  Scored blind: 98.4 / 86.9 / 90.2 %
# against constant answers of 70.5 / 72.1 / 78.7 %.
score held-out41 "$SRC_DIR/tests/data/labels-6.1-heldout41.tsv" 61 \
	--min lifetime=96 --margin lifetime=25 \
	--min held_across_sleep=85 --margin held_across_sleep=12 \
	--min context=88 --margin context=10

# The forty-third sample (tests/data/labels-6.1-heldout42.tsv: 61
# sites, seed 4846, from the same scan as heldout41; four readers and a
# fifth on 12 disagreements).  Scored blind: 90.2 / 80.3 / 86.9 %
# against constant answers of 55.7 / 72.1 / 83.6 %.  Five of its held
# misses are buffers stored at the allocation and freed on a later
# error path, whose readers ended the span at the store.
score held-out42 "$SRC_DIR/tests/data/labels-6.1-heldout42.tsv" 61 \
	--min lifetime=88 --margin lifetime=25 \
	--min held_across_sleep=78 --margin held_across_sleep=6 \
	--min context=85 --margin context=2

# The forty-fourth sample (tests/data/labels-6.1-heldout43.tsv: 61
# sites, seed 4947, from the same scan; four readers and a fifth on 8
# disagreements).  Scored blind: 100 / 88.5 / 96.7 % against constant
# answers of 62.3 / 60.7 / 82.0 %.
score held-out43 "$SRC_DIR/tests/data/labels-6.1-heldout43.tsv" 61 \
	--min lifetime=97 --margin lifetime=25 \
	--min held_across_sleep=86 --margin held_across_sleep=20 \
	--min context=93 --margin context=10

# The forty-fifth sample (tests/data/labels-6.1-heldout44.tsv: 61
# sites, seed 5048, from the same scan; four readers and a fifth on 8
# disagreements).  Scored blind: 86.9 / 86.9 / 91.8 % against constant
# answers of 62.3 / 50.8 / 85.2 %.
score held-out44 "$SRC_DIR/tests/data/labels-6.1-heldout44.tsv" 61 \
	--min lifetime=84 --margin lifetime=20 \
	--min held_across_sleep=84 --margin held_across_sleep=30 \
	--min context=89 --margin context=5

# The forty-sixth sample (tests/data/labels-6.1-heldout45.tsv: 61
# sites, seed 5149, from the same scan; four readers and a fifth on 6
# disagreements).  Scored blind: 98.4 / 72.1 / 88.5 % against constant
# answers of 62.3 / 57.4 / 82.0 %.  Most of its held misses are buffers
# stored at the allocation and freed only on a later error path.
score held-out45 "$SRC_DIR/tests/data/labels-6.1-heldout45.tsv" 61 \
	--min lifetime=96 --margin lifetime=30 \
	--min held_across_sleep=70 --margin held_across_sleep=12 \
	--min context=86 --margin context=5

# The forty-seventh and forty-eighth samples (heldout46 and heldout47:
# 61 sites each, seeds 5250 and 5351, from the same scan; four readers
# each and a fifth on 6 and 3 disagreements).  Scored blind: 91.8 / 90.2
# / 95.1 % (constant 60.7 / 52.5 / 90.2 %) and 91.8 / 83.6 / 91.8 %
# (constant 60.7 / 57.4 / 86.9 %).
score held-out46 "$SRC_DIR/tests/data/labels-6.1-heldout46.tsv" 61 \
	--min lifetime=89 --margin lifetime=25 \
	--min held_across_sleep=88 --margin held_across_sleep=30 \
	--min context=93 --margin context=3
score held-out47 "$SRC_DIR/tests/data/labels-6.1-heldout47.tsv" 61 \
	--min lifetime=89 --margin lifetime=25 \
	--min held_across_sleep=81 --margin held_across_sleep=20 \
	--min context=89 --margin context=3

# The forty-ninth and fiftieth samples (heldout48 and heldout49: 61
# sites each, seeds 5452 and 5553, drawn from the scan of session 46's
# final code; four readers each and a fifth on 13 and 11
# disagreements).  Scored blind: 95.1 / 85.2 / 96.7 % (constant 63.9 /
# 50.8 / 90.2 %) and 90.2 / 82.0 / 95.1 % (constant 59.0 / 54.1 /
# 90.2 %).
score held-out48 "$SRC_DIR/tests/data/labels-6.1-heldout48.tsv" 61 \
	--min lifetime=93 --margin lifetime=25 \
	--min held_across_sleep=83 --margin held_across_sleep=25 \
	--min context=95 --margin context=3
score held-out49 "$SRC_DIR/tests/data/labels-6.1-heldout49.tsv" 61 \
	--min lifetime=88 --margin lifetime=25 \
	--min held_across_sleep=80 --margin held_across_sleep=20 \
	--min context=93 --margin context=3

# The fifty-first and fifty-second samples (heldout50 and heldout51: 61
# sites each, seeds 5654 and 5755, from the same scan as heldout48; four
# readers each and a fifth on 8 and 1 disagreements).  Scored blind:
# 93.4 / 77.0 / 91.8 % (constant 55.7 / 63.9 / 85.2 %) and 98.4 / 83.6 /
# 93.4 % (constant 65.6 / 70.5 / 83.6 %).  Most of heldout50's held
# misses are buffers stored at the allocation and freed on a later
# error path.
score held-out50 "$SRC_DIR/tests/data/labels-6.1-heldout50.tsv" 61 \
	--min lifetime=91 --margin lifetime=25 \
	--min held_across_sleep=75 --margin held_across_sleep=10 \
	--min context=89 --margin context=3
score held-out51 "$SRC_DIR/tests/data/labels-6.1-heldout51.tsv" 61 \
	--min lifetime=96 --margin lifetime=25 \
	--min held_across_sleep=81 --margin held_across_sleep=10 \
	--min context=91 --margin context=5

# The fifty-third and fifty-fourth samples (heldout52 and heldout53: 61
# sites each, seeds 5856 and 5957, drawn from the scan of session 46's
# final code; four readers each and a fifth on 5 and 1
# disagreements).  Scored blind: 91.8 / 86.9 / 96.7 % (constant 70.5 /
# 55.7 / 86.9 %) and 96.7 / 86.9 / 91.8 % (constant 55.7 / 62.3 /
# 86.9 %).
score held-out52 "$SRC_DIR/tests/data/labels-6.1-heldout52.tsv" 61 \
	--min lifetime=89 --margin lifetime=15 \
	--min held_across_sleep=85 --margin held_across_sleep=25 \
	--min context=95 --margin context=5
score held-out53 "$SRC_DIR/tests/data/labels-6.1-heldout53.tsv" 61 \
	--min lifetime=95 --margin lifetime=30 \
	--min held_across_sleep=85 --margin held_across_sleep=20 \
	--min context=89 --margin context=3

# The error-path check (tests/data/labels-6.1-errpath.tsv): 20 random
# sites whose held_across_sleep the error-path frees turned to `yes`,
# read by two readers who agreed on every column (docs/classifiers.md).
# Nearly all are `yes`, so only the floor says anything.
score errpath "$SRC_DIR/tests/data/labels-6.1-errpath.tsv" 21 \
	--min held_across_sleep=90

# The rules' precision against the judged facts of tests/data/rules-6.1.tsv
# (docs/rules.md): the scan ran them.  Floors a little under the measured
# figures, so that a change that turns judged findings false is seen.
python3 "$SRC_DIR/bench/eval/rule_eval.py" "$db" "$SRC_DIR/tests/data/rules-6.1.tsv" \
	--min reclaimable-without-shrinker=50 --min shrinker-without-reclaimable=78 \
	--min gfp-param=80 --min sleep-in-atomic=85 >"$TMP/rules.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/rules.txt"
is "$rc" 0 "each rule's precision on the judged 6.1 findings at or above its floor"
done_testing
