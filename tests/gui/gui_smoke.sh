#!/usr/bin/env bash
# GUI tests of the real binary in a virtual X server (Xvfb, Mesa llvmpipe).
#   gui_smoke.sh DRAPE [window|frames|errors]     (default: window)
# window: the default scene opens, draws the cloth and the panel, animates,
#         pauses on Space, and closes on Ctrl+Q with exit code 0.
# frames: `drape --frames 30` in a window exits 0 by itself and writes --stats.
# errors: no display, and no shaders next to the binary: one-line
#         "drape: error: ..." and exit code 2.
# Screenshots and logs stay in the working directory for debugging.
# Exit 77 (ctest: skipped) when the X tools are not installed.
set -uo pipefail

# shellcheck source=gui_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gui_lib.sh"

# --- Run inside the X server (the script calls itself through scripts/with-display). -----
if [ "${1:-}" = "--in-display" ]; then
  drape=$2
  mode=$3
  case "$mode" in
    window)
      start_drape
      # Once the window has drawn something, not a flat black (up to 20 s).
      for _ in $(seq 80); do
        shot gui_smoke.png
        sd=$(convert gui_smoke.png -format '%[fx:standard_deviation]' info:)
        awk -v s="$sd" 'BEGIN { exit !(s > 0.05) }' && break
        sleep 0.25
      done
      kill -0 "$pid" 2>/dev/null || { cat "$mode.log" >&2; fail "drape died after opening its window"; }
      # A later view that differs, however slowly a busy machine draws
      # (half a second apart when it is quiet; up to 20 s).
      wait_view_change gui_smoke.png gui_smoke_later.png
      # Keys go to the window under the pointer: put it over the 3D view.
      xdotool mousemove 800 400
      xdotool key space
      wait_title "(paused)"
      # The title changes in the frame that pauses, before it is drawn with
      # its "paused" label: two views in a row the same, 0.7 s apart, within
      # 20 s (the judge outside compares the last two).
      import -window root gui_paused_2.png || fail "screenshot failed"
      for _ in $(seq 28); do
        sleep 0.7
        mv gui_paused_2.png gui_paused_1.png
        import -window root gui_paused_2.png || fail "screenshot failed"
        convert gui_paused_1.png -crop 960x720+320+0 +repage gui_p1_view.png
        convert gui_paused_2.png -crop 960x720+320+0 +repage gui_p2_view.png
        still=$(compare -metric AE -fuzz 2% gui_p1_view.png gui_p2_view.png null: 2>&1)
        [ "${still%% *}" -eq 0 ] 2>/dev/null && break
      done
      # Space again plays on: the cloth had not come to rest on its own.
      xdotool key space
      wait_title -v "(paused)"
      wait_view_change gui_paused_2.png gui_resumed.png
      quit_drape
      ;;
    frames)
      rm -f gui_frames.json
      timeout 25 "$drape" --frames 30 --stats gui_frames.json >frames.log 2>&1
      rc=$?
      [ "$rc" -eq 0 ] || { cat frames.log >&2; fail "drape --frames 30 exited with $rc, expected 0"; }
      grep -q '"frames": 30' gui_frames.json || fail "gui_frames.json does not report 30 frames"
      ;;
  esac
  exit 0
fi

# --- Outside: set up, run in Xvfb, and judge the screenshots. ----------------
drape=${1:?usage: gui_smoke.sh DRAPE [window|frames|errors]}
mode=${2:-window}
drape=$(readlink -f "$drape")

if [ "$mode" = "errors" ]; then
  out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$drape" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "without a display: exit $rc, expected 2 ($out)"
  grep -q '^drape: error: cannot open a window (.*); use --headless' <<<"$out" ||
    fail "without a display, unexpected message: $out"
  [ "$(wc -l <<<"$out")" -eq 1 ] || fail "without a display, expected one line: $out"

  # A copy of the binary with no shaders next to it.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/bin"
  cp "$drape" "$tmp/bin/drape"
  out=$(env -u DISPLAY "$tmp/bin/drape" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "without shaders: exit $rc, expected 2 ($out)"
  grep -q "^drape: error: cannot find drape's shaders" <<<"$out" ||
    fail "without shaders, unexpected message: $out"
  # One shader missing from an otherwise complete directory.
  cp -r "$(dirname "$drape")/../shaders" "$tmp/shaders"
  rm "$tmp/shaders/floor.frag"
  out=$(env -u DISPLAY "$tmp/bin/drape" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "with floor.frag missing: exit $rc, expected 2 ($out)"
  grep -q "^drape: error: cannot read shader '.*floor.frag'" <<<"$out" ||
    fail "with floor.frag missing, unexpected message: $out"
  echo "PASS: errors"
  exit 0
fi

require_tools Xvfb xdotool import convert compare

timeout 60 "$(dirname "$0")/../../scripts/with-display" bash "$0" --in-display "$drape" "$mode" ||
  fail "$mode: the run in Xvfb failed"
[ "$mode" = "window" ] || { echo "PASS: $mode"; exit 0; }

# Geometry of the default 1280×720 window: a 320 px panel on the left, the
# view in the rest, the cloth framed in its middle.
view=960x720+320+0
centre=480x400+560+160

# Not a flat picture.
sd=$(convert gui_smoke.png -format '%[fx:standard_deviation]' info:)
awk -v s="$sd" 'BEGIN { exit !(s > 0.05) }' || fail "screenshot is nearly flat (standard deviation $sd)"

# The panel: the dark ImGui theme on the left, not the light 3D scene.
panel=$(convert gui_smoke.png -crop 300x700+0+0 +repage -format '%[fx:mean]' info:)
awk -v m="$panel" 'BEGIN { exit !(m < 0.3) }' || fail "no dark panel on the left (mean $panel)"

# The cloth: nothing else in the scene is red-dominant (floor and sky are grey
# and blue, the pins yellow), so such pixels near the middle of the view are
# the cloth, front (terracotta) or back (wine red). It swings, and may be
# nearly edge-on in one shot (a thin band, some 3 % of the crop): the larger
# fraction of the two shots half a second apart counts.
cloth=0
for shot in gui_smoke.png gui_smoke_later.png; do
  c=$(convert "$shot" -crop "$centre" +repage \
    -fx '(r > 0.25 && r > 1.25 * g && r > 1.25 * b) ? 1 : 0' -format '%[fx:mean]' info:)
  cloth=$(awk -v a="$cloth" -v b="$c" 'BEGIN { print (b > a) ? b : a }')
done
awk -v c="$cloth" 'BEGIN { exit !(c > 0.02) }' ||
  fail "no cloth colour in the middle of the view (fraction $cloth)"

# Animated while playing, still once Space paused it (the panel's numbers
# change either way, so only the view is compared).
for shot in gui_smoke gui_smoke_later gui_paused_1 gui_paused_2; do
  convert "$shot.png" -crop "$view" +repage "${shot}_view.png"
done
moving=$(compare -metric AE -fuzz 2% gui_smoke_view.png gui_smoke_later_view.png null: 2>&1)
[ "${moving%% *}" -gt 100 ] 2>/dev/null || fail "the view did not change while playing ($moving pixels)"
still=$(compare -metric AE -fuzz 2% gui_paused_1_view.png gui_paused_2_view.png null: 2>&1)
[ "${still%% *}" -eq 0 ] 2>/dev/null || fail "the view still changed after Space paused it ($still pixels)"
convert gui_resumed.png -crop "$view" +repage gui_resumed_view.png
resumed=$(compare -metric AE -fuzz 2% gui_paused_2_view.png gui_resumed_view.png null: 2>&1)
[ "${resumed%% *}" -gt 100 ] 2>/dev/null || fail "the view did not change after Space again ($resumed pixels)"

echo "PASS: window (deviation $sd, panel mean $panel, cloth fraction $cloth, moving $moving px)"
