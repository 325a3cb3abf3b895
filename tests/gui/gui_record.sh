#!/usr/bin/env bash
# Recording from the command line (--record), in a virtual X server:
#   gui_record.sh DRAPE IMAGE_PROBE png|mp4|obj|errors|view
# png:    --record DIR --frames 30 --size 640x360 exits 0 having written
#         exactly frame_00000.png ... frame_00029.png, each 384×360 (the
#         view right of the 256-pixel panel), none blank (standard
#         deviation), the first upright, the first and last different.
# mp4:    --record out.mp4 --frames 30: ffprobe counts 30 frames of the
#         view's size (960×720); the first upright. Skipped (77) without
#         ffmpeg and ffprobe.
# view:   --record DIR (the view alone, the default) and --record DIR
#         --record-window, 640×360: the view's frames hold none of the dark
#         grey of the panel and the overlays and no red of the REC badge;
#         the whole window's have the panel on their left and the badge at
#         the top right.
# obj:    --record DIR --record-obj DIR --frames 30 --export-obj F in a
#         window: 30 PNG and 30 OBJ frames side by side, the last OBJ equal
#         to F byte for byte and to a headless run's export of 30 frames.
# errors: refused before any run, exit 2, one "drape: error: --record..."
#         line, nothing created: with --headless, an unwritable folder, a
#         .mp4 with no ffmpeg on PATH. (No display needed.)
# Files stay in the working directory for debugging.
set -uo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

usage="usage: gui_record.sh DRAPE IMAGE_PROBE png|mp4|obj|errors"
drape=$(readlink -f "${1:?$usage}")
probe=$(readlink -f "${2:?$usage}")
mode=${3:?$usage}

# Exit code and stderr of a refused run; it must be refused the same way.
refused() {
  local what=$1 pattern=$2
  shift 2
  local out rc
  out=$("$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, expected 2 ($out)"
  grep -q "^drape: error: $pattern" <<<"$out" || fail "$what: unexpected message: $out"
  [ "$(wc -l <<<"$out")" -eq 1 ] || fail "$what: expected one line: $out"
}

# A recorded frame the right way up (GL reads rows bottom-up; the writers
# must not): at the start the pins, which nothing else shares the yellow
# of, are in the upper part of the picture.
upright() {
  local box
  box=$("$probe" box "$1" all pin)
  [[ "$box" =~ ^([0-9]+)x([0-9]+)\+([0-9]+)\+([0-9]+)$ ]] || fail "no pins in $1"
  local mid=$((BASH_REMATCH[4] + BASH_REMATCH[2] / 2))
  [ "$mid" -lt $(($2 * 40 / 100)) ] || fail "$1 is upside down? the pins are at y = $mid of $2"
}

case "$mode" in
  errors)
    rm -rf rec_refused
    refused "--record with --headless" "--record needs a window" \
      "$drape" --headless --frames 3 --record rec_refused
    [ ! -e rec_refused ] || fail "--record with --headless created rec_refused"
    refused "unwritable folder" "--record /proc/drape-frames" \
      "$drape" --frames 3 --record /proc/drape-frames
    refused "no ffmpeg" "--record: ffmpeg not found" \
      env PATH=/nonexistent "$drape" --frames 3 --record rec_refused.mp4
    [ ! -e rec_refused.mp4 ] || fail "a refused video left rec_refused.mp4 behind"
    echo "PASS: record errors"
    exit 0
    ;;
  png | mp4 | obj | view) ;;
  *) fail "$usage" ;;
esac

command -v Xvfb >/dev/null || { echo "SKIP: Xvfb is not installed"; exit 77; }

if [ "$mode" = "obj" ]; then
  rm -rf rec_obj_frames rec_obj_meshes rec_obj_last.obj rec_obj_headless.obj
  timeout 40 "$(dirname "$0")/../../scripts/with-display" \
    "$drape" --scene tear --record rec_obj_frames --record-obj rec_obj_meshes --frames 30 \
    --size 640x360 --export-obj rec_obj_last.obj >record_obj.log 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || { cat record_obj.log >&2; fail "drape --record-obj exited with $rc, expected 0"; }
  pngs=$(find rec_obj_frames -name 'frame_*.png' | wc -l)
  objs=$(find rec_obj_meshes -name 'frame_*.obj' | wc -l)
  [ "$pngs" -eq 30 ] && [ "$objs" -eq 30 ] || fail "$pngs PNG and $objs OBJ frames, expected 30 of each"
  cmp -s rec_obj_meshes/frame_00029.obj rec_obj_last.obj ||
    fail "the last recorded OBJ differs from --export-obj"
  "$drape" --headless --scene tear --frames 30 --export-obj rec_obj_headless.obj ||
    fail "the headless run failed"
  cmp -s rec_obj_last.obj rec_obj_headless.obj ||
    fail "the window's cloth after 30 frames differs from the headless run's"
  echo "PASS: record obj (30 PNG and 30 OBJ frames; the last equals the export and a headless run)"
  exit 0
fi

if [ "$mode" = "view" ]; then
  rm -rf rec_view rec_window
  for kind in view window; do
    extra=()
    [ "$kind" = window ] && extra=(--record-window)
    timeout 40 "$(dirname "$0")/../../scripts/with-display" \
      "$drape" --record "rec_$kind" "${extra[@]}" --frames 5 --size 640x360 >"record_$kind.log" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || { cat "record_$kind.log" >&2; fail "drape --record ($kind) exited with $rc"; }
  done
  view=rec_view/frame_00004.png
  window=rec_window/frame_00004.png
  read -r w h _ < <("$probe" size "$view")
  [ "$w $h" = "384 360" ] || fail "$view is ${w}x$h, expected the view's 384x360"
  read -r w h _ < <("$probe" size "$window")
  [ "$w $h" = "640 360" ] || fail "$window is ${w}x$h, expected the window's 640x360"
  upright "$view" 360
  # The panel (256 px) and the overlays are dark grey; the REC badge's dot red.
  badge=130x70+510+0
  grey_view=$("$probe" frac "$view" all panel)
  grey_panel=$("$probe" frac "$window" 250x360+0+0 panel)
  red_view=$("$probe" frac "$view" 130x70+254+0 banner)
  red_window=$("$probe" frac "$window" "$badge" banner)
  above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
  above 0.002 "$grey_view" || fail "the view's frame has panel grey in it ($grey_view)"
  above 0.0001 "$red_view" || fail "the view's frame has the REC badge's red in it ($red_view)"
  above "$grey_panel" 0.5 || fail "the whole window's frame has no panel on its left ($grey_panel)"
  above "$red_window" 0.002 || fail "the whole window's frame has no REC badge ($red_window)"
  echo "PASS: record view (view only: grey $grey_view, red $red_view;" \
    "whole window: panel grey $grey_panel, badge red $red_window)"
  exit 0
fi

if [ "$mode" = "png" ]; then
  rm -rf rec_frames
  timeout 40 "$(dirname "$0")/../../scripts/with-display" \
    "$drape" --record rec_frames --frames 30 --size 640x360 >record_png.log 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || { cat record_png.log >&2; fail "drape --record exited with $rc, expected 0"; }
  count=$(find rec_frames -type f | wc -l)
  [ "$count" -eq 30 ] || fail "$count files in rec_frames, expected 30"
  for i in $(seq 0 29); do
    f=$(printf 'rec_frames/frame_%05d.png' "$i")
    [ -f "$f" ] || fail "$f is missing"
    read -r w h _ sd < <("$probe" stats "$f") || fail "$f is not a PNG"
    [ "$w $h" = "384 360" ] || fail "$f is ${w}x$h, expected the view's 384x360"
    awk -v s="$sd" 'BEGIN { exit !(s > 0.05) }' || fail "$f is nearly blank (standard deviation $sd)"
  done
  upright rec_frames/frame_00000.png 360
  changed=$("$probe" diff rec_frames/frame_00000.png rec_frames/frame_00029.png all 0.02)
  [ "$changed" -gt 500 ] || fail "the first and last frames differ in only $changed pixels"
  echo "PASS: record png (30 frames of 384x360; first and last differ in $changed pixels)"
  exit 0
fi

for tool in ffmpeg ffprobe; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
rm -f rec_video.mp4
timeout 50 "$(dirname "$0")/../../scripts/with-display" \
  "$drape" --record rec_video.mp4 --frames 30 >record_mp4.log 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat record_mp4.log >&2; fail "drape --record exited with $rc, expected 0"; }
[ -s rec_video.mp4 ] || fail "no rec_video.mp4"
info=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=nb_read_frames,width,height -of default=noprint_wrappers=1 rec_video.mp4)
grep -qx 'nb_read_frames=30' <<<"$info" || fail "ffprobe does not count 30 frames: $info"
grep -qx 'width=960' <<<"$info" && grep -qx 'height=720' <<<"$info" ||
  fail "the video is not the view's 960x720: $info"
ffmpeg -v error -y -i rec_video.mp4 -frames:v 1 rec_video_0.png || fail "ffmpeg cannot read rec_video.mp4"
upright rec_video_0.png 720
echo "PASS: record mp4 (30 frames, 960x720)"
