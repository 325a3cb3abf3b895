#!/usr/bin/env bash
# GUI tests of the scene picker and of saving, with real input in a virtual
# X server (Xvfb, Mesa llvmpipe, xdotool):
#   gui_scenes.sh DRAPE IMAGE_PROBE example|saved
# example: the scene picker scrolled to its end, its last entry (an example
#          scene file) clicked: the window's title names the example as the
#          picker does, "torus (example)", not its mesh file ("torus.obj").
# saved:   Ctrl+S writes drape_scene.json and a green banner over the view
#          says so (none before), naming the file on stderr too; the banner
#          goes by itself a few seconds later.
# Screenshots and logs stay in the working directory for debugging.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

# Under the toolbar, where the banners are (1280×720, the view right of x = 320).
banner=960x100+320+45

# --- Run inside the X server (the script calls itself through scripts/with-display). -----
if [ "${1:-}" = "--in-display" ]; then
  drape=$2
  probe=$3
  mode=$4
  case "$mode" in
    example)
      start_drape --scene hang
      # The picker: open it, wait for its list, scroll the list to its end.
      shot example_0.png
      xdotool mousemove 80 74 click 1
      for _ in $(seq 40); do
        shot example_1.png
        [ "$("$probe" diff example_0.png example_1.png 160x160+10+88 0.05)" -gt 500 ] 2>/dev/null &&
          break
        sleep 0.5
      done
      xdotool mousemove 80 170
      for _ in $(seq 20); do xdotool click 5; done
      # Scrolled when the list's last rows no longer change.
      for _ in $(seq 40); do
        sleep 0.5
        mv example_1.png example_2.png
        shot example_1.png
        [ "$("$probe" diff example_1.png example_2.png 160x160+10+88 0.05)" -eq 0 ] 2>/dev/null &&
          break
      done
      xdotool mousemove 80 238 click 1
      wait_title " (example)"
      xdotool getwindowname "$wid" >example_title.txt
      quit_drape
      ;;
    saved)
      rm -f drape_scene.json
      start_drape --scene hang
      xdotool mousemove 1240 660
      xdotool key space
      wait_title "(paused)"
      shot saved_0.png
      xdotool key ctrl+s
      for _ in $(seq 100); do
        [ -f drape_scene.json ] && break
        sleep 0.1
      done
      [ -f drape_scene.json ] || fail "Ctrl+S wrote no drape_scene.json"
      wait_frac saved_1.png "$banner" notice 0.05 || echo "no notice" >saved_none.txt
      wait_frac -v saved_2.png "$banner" notice 0.0 || echo "stays" >saved_stays.txt
      quit_drape
      ;;
  esac
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge. ---------------------------------
usage="usage: gui_scenes.sh DRAPE IMAGE_PROBE example|saved"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
mode=${3:?$usage}
require_tools Xvfb xdotool import

timeout 55 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" "$probe" "$mode" ||
  fail "$mode: the run in Xvfb failed"

case "$mode" in
  example)
    title=$(cat example_title.txt)
    [[ "$title" =~ ^drape\ —\ [a-z\ ]+\ \(example\)$ ]] ||
      fail "the picked example's title is '$title', expected 'drape — NAME (example)'"
    echo "PASS: example (the title says '$title')"
    ;;
  saved)
    [ ! -f saved_none.txt ] || fail "no green banner over the view after Ctrl+S"
    [ ! -f saved_stays.txt ] || fail "the green banner never went"
    before=$("$probe" frac saved_0.png "$banner" notice)
    after=$("$probe" frac saved_1.png "$banner" notice)
    awk -v a="$before" 'BEGIN { exit !(a < 0.001) }' ||
      fail "green under the toolbar before saving ($before)"
    grep -q "^drape: saved the scene to drape_scene.json" saved.log ||
      fail "no line naming the file on stderr"
    grep -q '"scene": "hang"' drape_scene.json || fail "the saved file is not the hang scene"
    echo "PASS: saved (banner fraction $before -> $after, then gone)"
    ;;
  *)
    fail "$usage"
    ;;
esac
