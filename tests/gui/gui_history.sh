#!/usr/bin/env bash
# Undo and the timeline in the window, with real input (xdotool) in a
# virtual X server, judged from recorded OBJ frames (--record-obj) and
# screenshots:
#   gui_history.sh DRAPE IMAGE_PROBE undo|timeline
# undo:     on `hang`, paused and reset: 10 single steps, a cut with the
#           mouse (Cut tool) across the cloth, one step, Ctrl+Z (the title
#           is back at frame 10, a green banner over the view), 20 steps. A second run never cuts. The
#           frame after the cut has more vertices than the uncut run's;
#           frame 30 is the same file byte for byte in both runs.
# timeline: 30 single steps, a click on the timeline's slider: the title
#           shows an earlier frame and the view changes; S steps on from
#           that frame (not from 30); Space plays.
# Files stay in the working directory for debugging.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

below=960x610+320+50
# The timeline's slider in the 1280×720 window: in the strip at the panel's
# foot (Undo, Redo; the undo memory; the slider), from its left end.
slider_y=677
slider_x0=14
slider_x1=300

# The frame number the paused title shows.
title_frame() {
  xdotool getwindowname "$wid" | sed -n 's/.*· frame \([0-9]*\) (paused).*/\1/p'
}

# Single steps until the paused title shows frame $1.
steps_to() {
  local f
  f=$(title_frame)
  while [ "$f" -lt "$1" ]; do
    f=$((f + 1))
    xdotool key s
    wait_frame "$f"
  done
}

# Paused at frame 0 of a fresh start, recording OBJ frames into $1; sets
# `first`: how many frames were recorded before the reset.
start_at_zero() {
  rm -rf "$1"
  start_drape --record-obj "$1"
  xdotool mousemove 1240 660  # parked over the floor, off the cloth
  pause_drape
  first=$(title_frame)
  xdotool key r
  wait_frame 0
}

# The recorded OBJ file number $2 in folder $1.
rec_file() {
  printf '%s/frame_%05d.obj' "$1" "$2"
}

# --- Run inside the X server (the script calls itself through scripts/with-display). -----
if [ "${1:-}" = "--in-display" ]; then
  drape=$2
  probe=$3
  mode=$4
  case "$mode" in
    undo)
      start_at_zero rec_cut
      steps_to 10
      xdotool key c
      shot_settled cut_0.png
      box=$("$probe" box cut_0.png "$below" cloth)
      [[ "$box" =~ ^([0-9]+)x([0-9]+)\+([0-9]+)\+([0-9]+)$ ]] || fail "no cloth in the view to cut"
      y=$((BASH_REMATCH[4] + BASH_REMATCH[2] / 2))
      x0=$((BASH_REMATCH[3] > 350 ? BASH_REMATCH[3] - 20 : 330))
      x1=$((BASH_REMATCH[3] + BASH_REMATCH[1] + 20))
      xdotool mousemove "$x0" "$y"
      xdotool mousedown 1
      for i in 1 2 3 4 5 6 7 8; do xdotool mousemove $((x0 + (x1 - x0) * i / 8)) "$y"; done
      # The stroke drawn to its end: the frames took every move.
      wait_view_change cut_0.png cut_stroke.png
      shot_settled cut_stroke.png
      xdotool mouseup 1
      xdotool key s
      wait_frame 11
      xdotool key ctrl+z
      wait_frame 10
      # A green banner names what was undone.
      wait_frac undone.png 300x50+650+50 notice 0.05 || fail "no banner after Ctrl+Z"
      steps_to 30
      # Recorded: frames 1–10, 11 with the cut, then 11–30 again.
      cut11=$(rec_file rec_cut $((first + 10)))
      cut30=$(rec_file rec_cut $((first + 30)))
      wait_file "$cut30"
      quit_drape

      start_at_zero rec_never
      steps_to 30
      never11=$(rec_file rec_never $((first + 10)))
      never30=$(rec_file rec_never $((first + 29)))
      wait_file "$never30"
      quit_drape
      echo "$cut11 $cut30 $never11 $never30" >cut.files
      ;;
    timeline)
      start_drape
      xdotool mousemove 1240 660
      pause_drape
      xdotool key r
      wait_frame 0
      steps_to 30
      shot_settled tl_30.png
      # A third of the way along the slider: about frame 10.
      xdotool mousemove $((slider_x0 + (slider_x1 - slider_x0) / 3)) "$slider_y"
      xdotool click 1
      wait_title -v "frame 30 (paused)"
      xdotool mousemove 1240 660
      shown=$(title_frame)
      [ -n "$shown" ] && [ "$shown" -lt 30 ] || fail "the title shows '$(xdotool getwindowname "$wid")'"
      wait_view_change tl_30.png tl_shown.png
      xdotool key s
      wait_frame $((shown + 1))
      xdotool key space
      wait_title -v "(paused)"
      kill -0 "$pid" 2>/dev/null || { cat timeline.log >&2; fail "drape died after the scrub"; }
      echo "$shown" >tl.shown
      quit_drape
      ;;
  esac
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge. ----------------------------------------
usage="usage: gui_history.sh DRAPE IMAGE_PROBE undo|timeline"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
mode=${3:?$usage}
require_tools Xvfb xdotool import
export DRAPE_TEST_DATA=${DRAPE_TEST_DATA:-$(cd "$(dirname "$0")/../data" && pwd)}

timeout 220 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" "$probe" "$mode" ||
  fail "$mode: the run in Xvfb failed"

case "$mode" in
  undo)
    read -r cut11 cut30 never11 never30 <cut.files
    vertices() { grep -c '^v ' "$1"; }
    # The cut split vertices: the frame after it has more than the uncut run's.
    [ "$(vertices "$cut11")" -gt "$(vertices "$never11")" ] ||
      fail "the cut made no new vertices ($(vertices "$cut11") against $(vertices "$never11"))"
    cmp -s "$cut30" "$never30" ||
      fail "frame 30 after undoing the cut differs from the run that never cut ($cut30, $never30)"
    echo "PASS: undo (the cut made $(($(vertices "$cut11") - $(vertices "$never11"))) vertices;" \
      "after Ctrl+Z frame 30 is the uncut run's byte for byte)"
    ;;
  timeline)
    echo "PASS: timeline (scrubbed from frame 30 to $(cat tl.shown), stepped on from there, played)"
    ;;
esac
