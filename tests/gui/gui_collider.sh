#!/usr/bin/env bash
# GUI test of OBJ mesh colliders in the window, with real input in a virtual
# X server (Xvfb, Mesa llvmpipe, xdotool):
#   gui_collider.sh DRAPE IMAGE_PROBE
# On `hang`, paused: the Scene panel's "as" set to collider and the scale to
# 0.5, Ctrl+O with a broken OBJ: a red banner, the colliders unchanged (the
# saved scene has the floor alone); Ctrl+O with a cube: the cube is drawn
# over the view and the saved scene holds it (its file and scale), the cloth
# unchanged (the title still names hang). Its Remove button in the collider
# list: the view is again exactly as before, the saved scene has the floor
# alone, and Reset does not bring the cube back.
# Screenshots, saved scenes and the log stay in the working directory.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# The 1280×720 window: a 320 px panel on the left, the view in the rest.
below=960x610+320+50

# --- Run inside the X server (the script calls itself through scripts/with-display). -----
if [ "${1:-}" = "--in-display" ]; then
  drape=$2
  probe=$3
  mode=collider
  rm -f drape_scene.json collider_*.json
  start_drape
  xdotool mousemove 1240 660  # parked over the floor, off the cloth
  pause_drape
  shot_settled collider_0.png
  # The Scene panel: "as" (its list opens below it: auto, cloth, balloon,
  # collider), then the scale field.
  click_at 60 149
  click_at 60 234
  click_at 250 174 100
  type_path 0.5
  xdotool mousemove 1240 660
  press ctrl+o
  type_path "$DRAPE_TEST_DATA/obj/broken/garbage.obj"
  # The banner over the view says what went wrong.
  wait_frac collider_bad.png 960x100+320+45 banner 0.05
  save_as collider_bad.json
  press ctrl+o
  type_path "$DRAPE_TEST_DATA/obj/blender_cube.obj"
  wait_view_change collider_0.png collider_1.png 5000
  xdotool getwindowname "$wid" >collider_title.txt
  save_as collider_with.json
  # The list: the floor, then the cube with its Remove button.
  xdotool mousemove 261 285 click 1
  xdotool mousemove 1240 660
  wait_view_back collider_0.png collider_2.png
  save_as collider_without.json
  xdotool key r
  wait_frame 0
  save_as collider_reset.json
  quit_drape
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge. ---------------------------------
usage="usage: gui_collider.sh DRAPE IMAGE_PROBE"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
require_tools Xvfb xdotool import
export DRAPE_TEST_DATA=${DRAPE_TEST_DATA:-$(cd "$(dirname "$0")/../data" && pwd)}

timeout 220 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" "$probe" ||
  fail "the run in Xvfb failed"

meshes() { grep -c '"shape": "mesh"' "$1"; }

# A broken file: a banner, and nothing added.
red=$("$probe" frac collider_bad.png 960x100+320+45 banner)
above "$red" 0.05 || fail "no red error banner for the broken OBJ ($red)"
grep -q '^drape: error: .*garbage.obj' collider.log || fail "no error about garbage.obj on stderr"
grep -q '"shape": "plane"' collider_bad.json || fail "no floor in the scene saved after the broken OBJ"
[ "$(meshes collider_bad.json)" -eq 0 ] || fail "the broken OBJ left a mesh collider"
# The cube: drawn, saved with its file and scale, the cloth kept.
drawn=$("$probe" diff collider_0.png collider_1.png "$below" 0.02)
[ "$drawn" -gt 5000 ] 2>/dev/null || fail "the collider changed only $drawn pixels of the view"
[ "$(meshes collider_with.json)" -eq 1 ] || fail "the saved scene holds no mesh collider"
grep -q '"obj": ".*blender_cube.obj"' collider_with.json || fail "the saved collider names no file"
grep -q '"scale": 0.5,' collider_with.json || fail "the saved collider lacks the panel's scale"
grep -qxE 'drape — hang( · frame [0-9]+ \(paused\))?' collider_title.txt ||
  fail "loading a collider replaced the scene (title '$(cat collider_title.txt)')"
# Removed: the view as before it, and gone from the saved scenes.
left=$("$probe" diff collider_0.png collider_2.png "$below" 0.02)
[ "$left" -eq 0 ] 2>/dev/null || fail "after Remove $left pixels of the view still differ"
for f in collider_without.json collider_reset.json; do
  grep -q '"shape": "plane"' "$f" || fail "$f lost the floor"
  [ "$(meshes "$f")" -eq 0 ] || fail "$f still holds the mesh collider"
done
echo "PASS: collider (banner $red for the broken file; the cube drew $drawn px," \
  "saved with its file and scale; removed: $left px differ, gone after Reset too)"
