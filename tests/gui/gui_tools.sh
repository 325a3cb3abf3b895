#!/usr/bin/env bash
# GUI tests of the interactive tools, with real input in a virtual X server
# (Xvfb, Mesa llvmpipe, xdotool), judged from screenshots measured by
# image_probe (tests/gui/image_probe.cpp):
#   gui_tools.sh DRAPE IMAGE_PROBE drag|wireframe|load
# drag:      on `hang`, paused and reset, the same 30 single steps (S) run
#            three times: twice on their own (the control: the same picture
#            both times) and once while the left button holds the middle of
#            the cloth and the hand moves down. Held, the grabbed vertex's
#            marker is at the cursor, and the picture differs from the same
#            frame without the hand far beyond the control's difference;
#            after the release the cloth moves on, and the app quits cleanly.
# wireframe: paused, W changes the view (dark lines over the cloth), a second
#            W restores it pixel for pixel.
# load:      Ctrl+O, a broken OBJ typed into the file browser: a red banner
#            over the view, the scene (window title, cloth) unchanged, the
#            error on stderr; then a good OBJ replaces the scene.
# scenefile: on `drape` with k_bend=0.3, Ctrl+S writes drape_scene.json
#            (that parameter, the sphere, the camera); Ctrl+Shift+S saves
#            through the browser (the extension added; an existing file is
#            replaced only at a second Enter); Ctrl+L with a scene file naming
#            a missing field: a red banner, the scene kept; Ctrl+L with a
#            good one (the fold scene): the title names it; the recent files
#            are kept in the configuration folder.
# panel:     Simulation › scene opens on a click (it shared its ID with the
#            Scene section's scene combo and never did).
# crossings: two pinned squares through each other: the strain view (key 3)
#            marks where they cross in magenta; the same squares apart: none.
# Screenshots and logs stay in the working directory for debugging.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

# The 1280×720 window: a 320 px panel on the left, the view in the rest; the
# toolbar (whose active buttons share the cloth's colour) at its top and the
# status line at its bottom.
below=960x610+320+50

above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# --- Run inside the X server (the script calls itself through scripts/with-display). -----
if [ "${1:-}" = "--in-display" ]; then
  drape=$2
  probe=$3
  mode=$4
  case "$mode" in
    drag)
      start_drape
      xdotool mousemove 1240 660  # parked over the floor, off the cloth
      pause_drape
      xdotool key r
      wait_frame 0
      shot_settled drag_0.png
      read -r x y < <("$probe" grab drag_0.png "$below" cloth)
      [ "${y:--1}" -gt 0 ] 2>/dev/null || fail "no cloth in the view to grab"
      end=$((y + 150))  # the hand's way down the screen
      echo "$x $y $end" >drag.coords
      frames=30
      steps() {  # single steps; with an argument, the held hand moves down meanwhile
        for i in $(seq 1 $frames); do
          [ -n "${1:-}" ] && xdotool mousemove "$x" $((y + (end - y) * i / frames))
          xdotool key s
          wait_frame "$i"
        done
      }
      steps
      shot_settled drag_c1.png
      xdotool key r
      wait_frame 0
      steps
      shot_settled drag_c2.png
      xdotool key r
      wait_frame 0
      xdotool mousemove "$x" "$y"
      xdotool mousedown 1
      steps pull
      shot_settled drag_held.png
      xdotool mouseup 1
      xdotool key space  # play: the cloth, let go, swings on
      wait_title -v "(paused)"
      wait_view_change drag_held.png drag_after.png
      kill -0 "$pid" 2>/dev/null || { cat drag.log >&2; fail "drape died after the drag"; }
      quit_drape
      ;;
    wireframe)
      start_drape
      xdotool mousemove 1240 660
      pause_drape
      shot_settled wire_0.png
      xdotool key w
      wait_view_change wire_0.png wire_1.png
      xdotool key w
      wait_view_back wire_0.png wire_2.png
      quit_drape
      ;;
    load)
      start_drape
      xdotool mousemove 1240 660
      pause_drape
      shot_settled load_0.png
      press ctrl+o
      type_path "$DRAPE_TEST_DATA/obj/broken/garbage.obj"
      # The banner over the view says what went wrong.
      wait_frac load_1.png 960x100+320+45 banner 0.05
      xdotool getwindowname "$wid" >load_title_1.txt
      press ctrl+o
      type_path "$DRAPE_TEST_DATA/obj/blender_grid.obj"
      wait_title "blender_grid.obj"
      xdotool getwindowname "$wid" >load_title_2.txt
      shot_settled load_2.png
      quit_drape
      ;;
    scenefile)
      rm -rf drape_scene.json saved_as.json config_scenefile
      start_drape --scene drape --set k_bend=0.3
      xdotool mousemove 1240 660
      pause_drape
      xdotool key ctrl+s
      wait_file drape_scene.json
      # Save as: the browser adds the extension; naming a file that exists
      # asks once more before it replaces it.
      press ctrl+shift+s
      type_path "$PWD/saved_as"
      wait_file saved_as.json
      echo saved >saved_as.state
      echo 'not a scene' >saved_as.json
      press ctrl+shift+s
      type_path "$PWD/saved_as.json"
      # The browser asks before it replaces the file: a second Enter.
      shot_settled scene_replace.png
      cp saved_as.json saved_as_asked.json
      xdotool key Return
      for _ in $(seq 300); do
        grep -q drape_scene saved_as.json && break
        sleep 0.1
      done
      printf '{"drape_scene": 1, "params": {}}' >broken_scene.json
      printf '{"drape_scene": 1, "mesh": {"scene": "fold"}, "params": {"k_bend": 0.2}}' >fold_scene.json
      press ctrl+l
      type_path "$PWD/broken_scene.json"
      wait_frac scene_1.png 960x100+320+45 banner 0.05
      xdotool getwindowname "$wid" >scene_title_1.txt
      press ctrl+l
      type_path "$PWD/fold_scene.json"
      wait_title "fold"
      xdotool getwindowname "$wid" >scene_title_2.txt
      shot_settled scene_2.png
      quit_drape
      ;;
    panel)
      start_drape --scene hang
      xdotool mousemove 800 400
      pause_drape
      # With the Scene section open (its scene combo drawn), fold the
      # material and environment groups: "scene" comes up to y = 533.
      click_at 65 495
      click_at 75 514
      xdotool mousemove 44 533
      shot_settled panel_0.png
      xdotool mousemove 44 533 click 1
      # Wait for the panel below the node to change (up to 10 s).
      for _ in $(seq 20); do
        sleep 0.5
        shot panel_1.png
        [ "$("$probe" diff panel_0.png panel_1.png 320x100+0+545 0.05)" -gt 2000 ] 2>/dev/null && break
      done
      quit_drape
      ;;
    crossings)
      # Two pinned squares through each other, and the same squares apart.
      square() {
        printf 'v -0.5 1 -0.5\nv 0.5 1 -0.5\nv 0.5 1 0.5\nv -0.5 1 0.5\n'
        printf 'v %s 0.6 -0.4\nv %s 1.4 -0.4\nv %s 1.4 0.45\nv %s 0.6 0.45\n' "$1" "$1" "$1" "$1"
        printf 'f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n'
      }
      square 0.1 >tangled.obj
      square 1.2 >apart.obj
      for name in tangled apart; do
        start_drape --mesh "$name.obj" --as cloth --pin 0,1,2,3,4,5,6,7
        xdotool mousemove 1240 660
        pause_drape
        shot_settled "crossings_before_$name.png"
        xdotool key 3
        wait_view_change "crossings_before_$name.png" "crossings_$name.png" 1000
        quit_drape
      done
      ;;
  esac
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge the screenshots. ----------------
usage="usage: gui_tools.sh DRAPE IMAGE_PROBE drag|wireframe|load|scenefile|panel|crossings"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
mode=${3:?$usage}
require_tools Xvfb xdotool import
export DRAPE_TEST_DATA=${DRAPE_TEST_DATA:-$(cd "$(dirname "$0")/../data" && pwd)}

timeout 220 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" "$probe" "$mode" ||
  fail "$mode: the run in Xvfb failed"

case "$mode" in
  drag)
    read -r x y end <drag.coords
    # Held, the hand (its cyan marker) is at the cursor; without the hand
    # nothing cyan is there.
    hand="30x30+$((x - 15))+$((end - 15))"
    before=$("$probe" frac drag_c1.png "$hand" marker)
    held=$("$probe" frac drag_held.png "$hand" marker)
    above 0.01 "$before" && above "$held" 0.05 ||
      fail "the hand is not at the cursor $x,$end (marker fraction $before -> $held)"
    # The same frames give the same picture without the hand (a slow
    # sanitizer build may drop a queued step: then the control differs a
    # little); with the hand, a very different one.
    control=$("$probe" diff drag_c1.png drag_c2.png "$below" 0.02)
    dragged=$("$probe" diff drag_c1.png drag_held.png "$below" 0.02)
    [ "$dragged" -gt $((2 * control + 5000)) ] 2>/dev/null ||
      fail "the drag changed $dragged pixels against the same frame without it;" \
        "two runs without it differ by $control"
    after=$("$probe" diff drag_held.png drag_after.png "$below" 0.02)
    [ "$after" -gt 1000 ] 2>/dev/null || fail "the cloth stood still after the release ($after px)"
    echo "PASS: drag (grab at $x,$y, pull to $x,$end; marker $before -> $held;" \
      "control $control px, dragged $dragged px, after the release $after px)"
    ;;
  wireframe)
    on=$("$probe" diff wire_0.png wire_1.png "$below" 0.02)
    off=$("$probe" diff wire_0.png wire_2.png "$below" 0.02)
    [ "$on" -gt 2000 ] 2>/dev/null || fail "W changed only $on pixels of the view"
    [ "$off" -eq 0 ] 2>/dev/null || fail "a second W left $off pixels changed"
    # The lines are dark: the view got darker, most of all on the cloth.
    read -r _ _ m0 _ < <("$probe" stats wire_0.png)
    read -r _ _ m1 _ < <("$probe" stats wire_1.png)
    above "$m0" "$m1" || fail "the wireframe did not darken the view ($m0 -> $m1)"
    echo "PASS: wireframe ($on pixels changed by W, $off after the second W)"
    ;;
  load)
    grep -qxE 'drape — hang( · frame [0-9]+ \(paused\))?' load_title_1.txt ||
      fail "after the broken OBJ the title is '$(cat load_title_1.txt)', expected the hang scene"
    grep -q '^drape: error: .*garbage.obj' load.log || fail "no error about garbage.obj on stderr"
    # The banner: strongly red pixels under the toolbar, where none were.
    banner=960x100+320+45
    red0=$("$probe" frac load_0.png "$banner" banner)
    red1=$("$probe" frac load_1.png "$banner" banner)
    above 0.01 "$red0" && above "$red1" 0.05 ||
      fail "no red error banner over the view (red fraction $red0 -> $red1)"
    # The scene stayed: the cloth is still in the view.
    still=$("$probe" frac load_1.png "$below" cloth)
    above "$still" 0.02 || fail "the cloth is gone after the broken OBJ ($still)"
    grep -qxE 'drape — blender_grid.obj( · frame [0-9]+ \(paused\))?' load_title_2.txt ||
      fail "a good OBJ did not replace the scene (title '$(cat load_title_2.txt)')"
    echo "PASS: load (banner red $red0 -> $red1, cloth $still)"
    ;;
  panel)
    opened=$("$probe" diff panel_0.png panel_1.png 320x100+0+545 0.05)
    [ "$opened" -gt 2000 ] 2>/dev/null ||
      fail "a click on Simulation › scene did not open it ($opened pixels changed below it)"
    echo "PASS: panel (Simulation › scene opened: $opened pixels changed below it)"
    ;;
  crossings)
    tangled=$("$probe" frac crossings_tangled.png "$below" crossing)
    apart=$("$probe" frac crossings_apart.png "$below" crossing)
    above "$tangled" 0.005 && above 0.0005 "$apart" ||
      fail "the strain view does not show the crossings in magenta ($tangled tangled, $apart apart)"
    echo "PASS: crossings (magenta fraction $tangled where the squares cross, $apart apart)"
    ;;
  scenefile)
    [ -f drape_scene.json ] || { cat scenefile.log >&2; fail "Ctrl+S wrote no drape_scene.json"; }
    grep -q '"k_bend": 0.3,' drape_scene.json || fail "the saved scene lacks k_bend 0.3"
    grep -q '"shape": "sphere"' drape_scene.json || fail "the saved scene lacks the sphere"
    grep -q '"camera"' drape_scene.json || fail "the saved scene lacks the camera"
    grep -qxE 'drape — drape( · frame [0-9]+ \(paused\))?' scene_title_1.txt ||
      fail "after the broken scene file the title is '$(cat scene_title_1.txt)'"
    grep -q '^drape: error: .*broken_scene.json: mesh: missing' scenefile.log ||
      fail "no error naming the missing field on stderr"
    red=$("$probe" frac scene_1.png 960x100+320+45 banner)
    above "$red" 0.05 || fail "no red error banner for the broken scene file ($red)"
    grep -qxE 'drape — fold( · frame [0-9]+ \(paused\))?' scene_title_2.txt ||
      fail "the good scene file did not load (title '$(cat scene_title_2.txt)')"
    [ -f saved_as.state ] || fail "Save as did not write saved_as.json"
    grep -qx 'not a scene' saved_as_asked.json ||
      fail "Save as replaced an existing file without asking"
    grep -q '"k_bend": 0.3,' saved_as.json || fail "a second Enter did not replace saved_as.json"
    # The files used are kept for the next run, newest first.
    recent=config_scenefile/drape/recent_scenes
    [ "$(sed -n 1p "$recent")" = "$PWD/fold_scene.json" ] &&
      grep -qx "$PWD/saved_as.json" "$recent" ||
      fail "the recent scene files were not kept: $(cat "$recent" 2>&1)"
    echo "PASS: scenefile (saved, saved as with a question before replacing, broken file" \
      "refused with banner $red, good file loaded, recent files kept)"
    ;;
  *)
    fail "$usage"
    ;;
esac
