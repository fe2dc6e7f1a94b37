#!/bin/sh
# Run each libFuzzer binary for FUZZ_TIME seconds from its seed corpus.
# Fails when any target finds a crash (the reproducer is left in
# build-fuzz/crash-NAME-*).
set -u
status=0
for bin in "$@"; do
	name=$(basename "$bin")
	seeds=fuzz/corpus/${name#fuzz_}
	work=build-fuzz/corpus/${name#fuzz_}
	mkdir -p "$work" "$seeds"
	echo "fuzz: $name for ${FUZZ_TIME}s"
	if ! "$bin" -max_total_time="$FUZZ_TIME" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="build-fuzz/crash-$name-" -print_final_stats=0 \
		"$work" "$seeds" >"build-fuzz/$name.log" 2>&1; then
		echo "fuzz: $name FAILED, see build-fuzz/$name.log"
		tail -30 "build-fuzz/$name.log"
		status=1
	fi
done
exit $status
