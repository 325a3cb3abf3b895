#!/usr/bin/env bash
# GUI test of the scene picker, with real input in a virtual X server (Xvfb,
# Mesa llvmpipe, xdotool):
#   gui_scenes.sh DRAPE IMAGE_PROBE example
# example: the scene picker scrolled to its end, its last entry (an example
#          scene file) clicked: the window's title names the example as the
#          picker does, "torus (example)", not its mesh file ("torus.obj").
# Screenshots and logs stay in the working directory for debugging.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

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
  esac
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge. ---------------------------------
usage="usage: gui_scenes.sh DRAPE IMAGE_PROBE example"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
mode=${3:?$usage}
for tool in Xvfb xdotool import; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done

timeout 55 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" "$probe" "$mode" ||
  fail "$mode: the run in Xvfb failed"

case "$mode" in
  example)
    title=$(cat example_title.txt)
    [[ "$title" =~ ^drape\ —\ [a-z\ ]+\ \(example\)$ ]] ||
      fail "the picked example's title is '$title', expected 'drape — NAME (example)'"
    echo "PASS: example (the title says '$title')"
    ;;
  *)
    fail "$usage"
    ;;
esac
