#!/usr/bin/env bash
# Anti-aliased silhouettes on Mesa's software rasteriser, in a virtual X
# server: the hang scene recorded (--record, which reads the framebuffer)
# after two frames, three ways, and the cloth's boundary in the view judged
# by `image_probe edges`: of the crossings between the cloth and what lies
# behind it, the fraction with a pixel whose colour lies strictly between the
# two sides.
#   default        (FXAA on an offscreen target)     at least 30 %
#   DRAPE_MSAA=4   (4× multisampled offscreen target) at least 30 %
#   DRAPE_AA=off   (none: stairs)                     at most 15 %, which shows
#                                                     that the measure tells them apart
#   gui_antialias.sh DRAPE IMAGE_PROBE
# Files stay in the working directory for debugging.
set -uo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

usage="usage: gui_antialias.sh DRAPE IMAGE_PROBE"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
command -v Xvfb >/dev/null || { echo "SKIP: Xvfb is not installed"; exit 77; }

# The 3D view of the 1280×720 window, less the panel, the toolbar and the
# status line (their buttons share the cloth's colours and are not filtered).
view=940x610+330+55

# blended_fraction NAME [env ARGS...]: record, measure, print "FRACTION EDGES BLENDED".
blended_fraction() {
  local name=$1
  shift
  rm -rf "aa_$name"
  env "$@" timeout 40 "$(dirname "$0")/../../scripts/with-display" \
    "$drape" --scene hang --frames 2 --record "aa_$name" --record-window >"aa_$name.log" 2>&1 ||
    { cat "aa_$name.log" >&2; fail "$name: drape --record failed"; }
  local edges blended
  read -r edges blended < <("$probe" edges "aa_$name/frame_00001.png" "$view" cloth) ||
    fail "$name: cannot measure aa_$name/frame_00001.png"
  [ "$edges" -ge 300 ] || fail "$name: only $edges crossings of the cloth's boundary in the view"
  awk -v e="$edges" -v b="$blended" 'BEGIN { printf "%.3f %d %d\n", b / e, e, b }'
}

read -r fxaa fxaa_e fxaa_b < <(blended_fraction fxaa -u DRAPE_AA -u DRAPE_MSAA)
read -r msaa msaa_e msaa_b < <(blended_fraction msaa -u DRAPE_AA DRAPE_MSAA=4)
read -r off off_e off_b < <(blended_fraction off -u DRAPE_MSAA DRAPE_AA=off)
[ -n "${fxaa:-}" ] && [ -n "${msaa:-}" ] && [ -n "${off:-}" ] || fail "a measurement failed"
summary="blended crossings: FXAA $fxaa_b/$fxaa_e, 4x $msaa_b/$msaa_e, off $off_b/$off_e"
awk -v f="$off" 'BEGIN { exit !(f <= 0.15) }' ||
  fail "without anti-aliasing $off of the crossings look blended: the measure tells nothing ($summary)"
awk -v f="$fxaa" 'BEGIN { exit !(f >= 0.30) }' || fail "FXAA: stair-stepped silhouette ($summary)"
awk -v f="$msaa" 'BEGIN { exit !(f >= 0.30) }' || fail "DRAPE_MSAA=4: stair-stepped silhouette ($summary)"
echo "PASS: antialias ($summary)"
