#!/usr/bin/env bash
# Imports one extract with two builds of Cairn and compares every file of the two region folders
# byte for byte (cmp). Exit 0 when all are identical. Usage:
#   bench/region-scale/compare.sh BASE_DIR NEW_DIR FILE.osm.pbf [--dem FILE.hgt.zip ...]
# Each DIR is a checkout with a built dist/ (npm run build:ts). Folders go to /tmp/region-compare/.
set -u
base=$1
new=$2
shift 2
name=$(basename "$1" .osm.pbf)
root=/tmp/region-compare/$name
rm -rf "$root"
mkdir -p "$root"
node "$base/dist/data/region/import-cli.js" --out "$root/base" --osm "$@" >/dev/null || exit 1
node "$new/dist/data/region/import-cli.js" --quiet --out "$root/new" --osm "$@" >/dev/null || exit 1
status=0
for f in "$root"/base/* "$root"/new/*; do
  file=$(basename "$f")
  if cmp -s "$root/base/$file" "$root/new/$file"; then
    [ "$f" = "$root/base/$file" ] && echo "same      $name/$file ($(stat -c %s "$f") bytes)"
  else
    echo "DIFFERENT $name/$file"
    status=1
  fi
done
exit $status
