#!/usr/bin/env bash
# The lit cloth's weave, judged from recorded frames (--record, two frames)
# of a flat 2 m curtain (tests/data/obj/blender_grid.obj, UVs over its whole
# face) seen straight on, and of the same curtain with its UVs stripped. The
# measure is `image_probe grain`: over the cloth's pixels, the root mean
# square of how far each pixel's luma departs from the mean of its 5×5
# neighbourhood, relative to that mean (flat shading gives about 0.1 %).
#   near (1.2 m):  with UVs between 0.4 % and 3 % (a weave, and a subtle one);
#                  without UVs at most 0.25 % (no weave without UVs)
#   far (30 m):    with UVs at most 0.25 %, as without (threads far below a
#                  pixel fade out instead of shimmering)
#   gui_weave.sh DRAPE IMAGE_PROBE        (needs DRAPE_TEST_DATA)
# Files stay in the working directory for debugging.
set -uo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

usage="usage: gui_weave.sh DRAPE IMAGE_PROBE"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
data=${DRAPE_TEST_DATA:?DRAPE_TEST_DATA names the test data folder}
command -v Xvfb >/dev/null || { echo "SKIP: Xvfb is not installed"; exit 77; }

# The 3D view of the 1280×720 window, less the panel, toolbar and status line.
view=940x610+330+55

mkdir -p weave
cp "$data/obj/blender_grid.obj" weave/grid.obj
sed -e '/^vt /d' -e 's|\([0-9]*\)/[0-9]*/\([0-9]*\)|\1//\2|g' "$data/obj/blender_grid.obj" \
  >weave/bare.obj
grep -q '^vt ' weave/bare.obj && fail "weave/bare.obj still has UVs"

# grain MESH DISTANCE: record the curtain from DISTANCE, print the RMS grain.
grain() {
  local name="$1_$2"
  cat >"weave/$name.json" <<JSON
{"drape_scene": 1, "mesh": {"obj": "$1.obj", "as": "cloth"},
 "camera": {"target": [0.0, 1.0, 0.0], "distance": $2, "yaw": 0.0, "pitch": 0.1}}
JSON
  rm -rf "weave/$name"
  timeout 40 "$(dirname "$0")/../../scripts/with-display" \
    "$drape" --scene "weave/$name.json" --frames 2 --record "weave/$name" --record-window >"weave/$name.log" 2>&1 ||
    { cat "weave/$name.log" >&2; fail "$name: drape --record failed"; }
  local pixels rms
  read -r pixels rms _ < <("$probe" grain "weave/$name/frame_00001.png" "$view" cloth) ||
    fail "$name: cannot measure"
  [ "$pixels" -ge 2000 ] || fail "$name: only $pixels cloth pixels to measure"
  echo "$rms"
}

near=$(grain grid 1.2)
bare=$(grain bare 1.2)
far=$(grain grid 30)
[ -n "$near" ] && [ -n "$bare" ] && [ -n "$far" ] || fail "a measurement failed"
summary="grain: near $near, near without UVs $bare, far $far"
awk -v g="$near" 'BEGIN { exit !(g >= 0.004) }' || fail "no weave on the cloth seen near ($summary)"
awk -v g="$near" 'BEGIN { exit !(g <= 0.03) }' || fail "the weave is not subtle ($summary)"
awk -v g="$bare" 'BEGIN { exit !(g <= 0.0025) }' || fail "a weave on a cloth without UVs ($summary)"
awk -v g="$far" 'BEGIN { exit !(g <= 0.0025) }' || fail "the weave shimmers far away ($summary)"
echo "PASS: weave ($summary)"
