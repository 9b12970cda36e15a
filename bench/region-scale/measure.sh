#!/usr/bin/env bash
# Imports stitched extracts with one build of Cairn and prints wall time and peak RSS per size
# (GNU time's "Maximum resident set size"). Usage:
#   bench/region-scale/measure.sh LABEL CAIRN_DIR FILE.osm.pbf...
# CAIRN_DIR is a checkout with a built dist/ (npm run build:ts); outputs go to /tmp/region-scale-out/.
set -u
label=$1
dir=$2
shift 2
for pbf in "$@"; do
  out=/tmp/region-scale-out/$label-$(basename "$pbf" .osm.pbf)
  rm -rf "$out"
  log=$(mktemp)
  /usr/bin/time -v node "$dir/dist/data/region/import-cli.js" --osm "$pbf" --out "$out" >"$log.out" 2>"$log" </dev/null
  rc=$?
  wall=$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$log" | awk '{printf "%d", $NF/1024}')
  err=$(grep '^error:' "$log" | head -1)
  printf '%s\t%s\t%s MB\t%s\t exit %s %s\n' "$label" "$(basename "$pbf")" "$(du -m "$pbf" | cut -f1)" "wall $wall, peak RSS $rss MB" "$rc" "$err"
  rm -f "$log" "$log.out"
done
