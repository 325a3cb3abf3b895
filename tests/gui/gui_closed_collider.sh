#!/usr/bin/env bash
# GUI test of a closed OBJ model as collider in place of the drape's sphere:
#   gui_closed_collider.sh DRAPE IMAGE_PROBE
# On `drape`, paused: the Scene panel's "as" set to collider, Ctrl+O with a
# closed bumpy bunny of 7,080 triangles (tests/data/obj/lumpy_bunny.obj), the
# sphere's Remove button, R. Played to frame 150 (2.5 s): the cloth lies over
# the model, not inside it (a cloth sunk into the model shows only specks),
# and the saved scene holds the model and the floor, no sphere.
# Screenshots, the saved scene and the log stay in the working directory.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# The view below the toolbar, right of the 320 px panel.
view=960x670+320+50

# --- Run inside the X server (the script calls itself through scripts/with-display). -----
if [ "${1:-}" = "--in-display" ]; then
  drape=$2
  probe=$3
  mode=closed_collider
  rm -f drape_scene.json closed_*.json
  start_drape --scene drape
  xdotool mousemove 1240 660  # parked over the floor, off the cloth
  pause_drape
  # The Scene panel: "as" (its list opens below it: auto, cloth, balloon,
  # collider).
  click_at 60 149
  click_at 60 234
  xdotool mousemove 1240 660
  shot_settled closed_0.png
  press ctrl+o
  type_path "$DRAPE_TEST_DATA/obj/lumpy_bunny.obj"
  # Drawn: then the list holds the sphere (its Remove button first), the
  # floor and the model.
  wait_view_change closed_0.png closed_1.png 5000
  click_at 261 260
  xdotool mousemove 1240 660
  xdotool key r
  wait_frame 0
  # Played in bursts, paused to read the frame from the title, to frame 150.
  for _ in $(seq 200); do
    xdotool key space
    wait_title -v "(paused)"
    sleep 0.5
    xdotool key space
    wait_title "(paused)"
    f=$(xdotool getwindowname "$wid" | sed -n 's/.* frame \([0-9]*\) (paused)/\1/p')
    [ "${f:-0}" -ge 150 ] && break
  done
  xdotool getwindowname "$wid" >closed_title.txt
  shot_settled closed_end.png
  save_as closed_saved.json
  quit_drape
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge. ---------------------------------
usage="usage: gui_closed_collider.sh DRAPE IMAGE_PROBE"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
require_tools Xvfb xdotool import convert
export DRAPE_TEST_DATA=${DRAPE_TEST_DATA:-$(cd "$(dirname "$0")/../data" && pwd)}

timeout 220 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" "$probe" ||
  fail "the run in Xvfb failed"

frame=$(sed -n 's/.* frame \([0-9]*\) (paused)/\1/p' closed_title.txt)
[ "${frame:-0}" -ge 150 ] || fail "the run stopped at frame '${frame:-}' ($(cat closed_title.txt))"
grep -q '"shape": "sphere"' closed_saved.json && fail "the saved scene still holds the sphere"
grep -q '"obj": ".*lumpy_bunny.obj"' closed_saved.json || fail "the saved scene holds no model"
grep -q '"shape": "plane"' closed_saved.json || fail "the saved scene lost the floor"
# Draped over the model, the cloth covers 4 % of the view; sunk into it, specks.
cloth=$("$probe" frac closed_end.png "$view" cloth)
above "$cloth" 0.02 || fail "only $cloth of the view shows cloth at frame $frame: it sank into the model"
echo "PASS: closed collider (cloth over the model: $cloth of the view at frame $frame; no sphere)"
