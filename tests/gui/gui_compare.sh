#!/usr/bin/env bash
# Side by side (--compare), in a virtual X server:
#   gui_compare.sh DRAPE IMAGE_PROBE
# With the right's settings equal to the left's, the two halves of the
# recorded picture match (bar a few pixels at the edges); with other settings
# (softer XPBD cloth) they differ widely, and each half shows a cloth. Bad
# --compare values are refused before any window opens.
# Files stay in the working directory for debugging.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

usage="usage: gui_compare.sh DRAPE IMAGE_PROBE"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")

out=$("$drape" --compare bogus=1 --frames 1 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^drape: error: --compare: unknown parameter 'bogus'" <<<"$out" ||
  fail "--compare bogus=1 was not refused: $out"
out=$("$drape" --headless --compare solver=xpbd --frames 1 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^drape: error: --compare needs a window" <<<"$out" ||
  fail "--compare with --headless was not refused: $out"

require_tools Xvfb convert

# Record 40 frames side by side; halves of the last one into NAME_left.png and
# NAME_right.png: the 1280-wide window has a 320 px panel, so each half of
# the view is 480 px wide, split at x = 800 by a 3 px line. The toolbar and
# labels above y = 90 and the status line below y = 650 are left out.
run() {
  local name=$1
  shift
  rm -rf "$name"
  timeout 60 "$(dirname "$0")/../../scripts/with-display" \
    "$drape" --frames 40 --record "$name" --record-window "$@" >"$name.log" 2>&1 ||
    { cat "$name.log" >&2; fail "$name: drape $* failed"; }
  local last="$name/frame_00039.png"
  [ -f "$last" ] || fail "$name: no $last"
  convert "$last" -crop 476x560+322+90 +repage "${name}_left.png" &&
    convert "$last" -crop 476x560+802+90 +repage "${name}_right.png" || fail "$name: cannot crop"
}

run compare_same --compare k_stretch=1
run compare_soft --compare solver=xpbd --compare k_stretch=0.2

same=$("$probe" diff compare_same_left.png compare_same_right.png all 0.02)
soft=$("$probe" diff compare_soft_left.png compare_soft_right.png all 0.02)
[ "$same" -lt 300 ] 2>/dev/null || fail "equal settings: the halves differ in $same pixels"
[ "$soft" -gt 3000 ] 2>/dev/null || fail "softer right side: the halves differ in only $soft pixels"
for half in left right; do
  c=$("$probe" frac "compare_soft_$half.png" all cloth)
  awk -v c="$c" 'BEGIN { exit !(c > 0.02) }' || fail "no cloth in the $half half ($c)"
done
echo "PASS: compare (equal settings: $same px apart; softer right side: $soft px)"
