#!/usr/bin/env bash
# GUI test of a deforming mesh collider loaded in the window, with real
# input in a virtual X server (Xvfb, Mesa llvmpipe, xdotool):
#   gui_sequence.sh DRAPE
# On `drape`, paused once the cloth lies on its ball: S held for 30 frames
# changes few pixels (the cloth at rest). Ctrl+Shift+O with a frame file of
# an OBJ sequence (a box gliding along x above the cloth, 600 frames): the
# box is drawn; S held for 30 frames more moves it, changing many more
# pixels above the cloth than 30 frames did before; Ctrl+S saves the sequence's folder and
# frame rate in the scene file.
# Screenshots, saved scenes and the log stay in the working directory.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

# The paused window's frame number, from its title.
frame_now() {
  xdotool getwindowname "$wid" | sed -n 's/.*· frame \([0-9]*\) (paused).*/\1/p'
}

# S held until the paused window is at least $1 frames on.
hold_step() {
  local from target
  from=$(frame_now)
  target=$((from + $1))
  xdotool keydown s
  for _ in $(seq 600); do
    [ "$(frame_now)" -ge "$target" ] 2>/dev/null && break
    sleep 0.1
  done
  xdotool keyup s
  [ "$(frame_now)" -ge "$target" ] 2>/dev/null || fail "S held did not step $1 frames from $from"
}

# --- Run inside the X server (the script calls itself through scripts/with-display). -----
if [ "${1:-}" = "--in-display" ]; then
  drape=$2
  mode=sequence
  rm -f drape_scene.json sequence_*.json
  start_drape --scene drape
  xdotool mousemove 1240 660  # parked over the floor, off the cloth
  pause_drape
  hold_step 150 # the cloth comes to rest on the ball
  shot_settled sequence_0.png
  hold_step 30
  shot_settled sequence_1.png
  press ctrl+shift+o
  type_path "$PWD/sequence_frames/frame_00007.obj"
  wait_view_change sequence_1.png sequence_2.png 500
  shot_settled sequence_2.png
  hold_step 30
  shot_settled sequence_3.png
  save_as sequence_saved.json
  quit_drape
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge. ---------------------------------
usage="usage: gui_sequence.sh DRAPE"
drape=$(readlink -f "${1:?$usage}")
require_tools Xvfb xdotool import compare convert

# A box 0.4 × 0.3 × 0.4 m above the cloth (y 0.9 to 1.2) gliding along x
# at 0.6 m/s from x = −2: 600 frames, one a simulated frame.
rm -rf sequence_frames
mkdir -p sequence_frames
awk 'BEGIN {
  for (f = 0; f < 600; f++) {
    x = -2 + 0.6 * f / 60; file = sprintf("sequence_frames/frame_%05d.obj", f)
    for (i = 0; i < 8; i++)
      printf "v %f %f %f\n", x + (i % 2 ? 0.2 : -0.2), (int(i / 2) % 2 ? 1.2 : 0.9),
             (int(i / 4) ? 0.2 : -0.2) > file
    print "f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 3 7 8 4\nf 1 3 4 2\nf 5 6 8 7" > file
    close(file)
  }
}'

timeout 240 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" ||
  fail "the run in Xvfb failed"

# The view above the cloth (the top 230 rows), where the box glides.
above=960x230+320+0
rest=$(view_diff sequence_0.png sequence_1.png "$above")
drawn=$(view_diff sequence_1.png sequence_2.png "$above")
moved=$(view_diff sequence_2.png sequence_3.png "$above")
[ "$drawn" -gt 500 ] 2>/dev/null || fail "loading the sequence changed only $drawn pixels"
[ "$moved" -gt 1000 ] 2>/dev/null || fail "the box moved only $moved pixels in 30 frames"
[ "$moved" -gt $((4 * rest + 500)) ] 2>/dev/null ||
  fail "30 frames changed $moved pixels with the box, $rest without: the box did not move"
grep -q '"obj": ".*sequence_frames"' sequence_saved.json ||
  fail "the saved scene does not name the sequence's folder"
grep -qE '"fps": (60|59\.99)' sequence_saved.json || fail "the saved scene lacks the sequence's frame rate"
echo "PASS: sequence (drawn: $drawn px; 30 frames: $moved px with the box moving," \
  "$rest px of the cloth at rest; saved with its folder and fps)"
