# Shared by the GUI test scripts: driving drape in a virtual X server.
# Source it; it needs $drape (the binary) and $mode (names the log file).

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Exit 77 (ctest: skipped) unless each tool named is installed.
require_tools() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
  done
}

# Screenshots into $1 until `image_probe frac` ($probe) of MASK in REGION is
# above (or with -v, not above) LIMIT, up to 20 s; false when it never is.
wait_frac() {
  local invert=0
  if [ "$1" = -v ]; then
    invert=1
    shift
  fi
  local file=$1 region=$2 mask=$3 limit=$4 f
  for _ in $(seq 40); do
    shot "$file"
    f=$("$probe" frac "$file" "$region" "$mask")
    if awk -v a="$f" -v b="$limit" -v v="$invert" 'BEGIN { exit !((a > b) != v) }'; then
      return 0
    fi
    sleep 0.5
  done
  return 1
}

start_drape() {
  # The recent files go to a folder of the test's own.
  export XDG_CONFIG_HOME=$PWD/config_$mode
  "$drape" "$@" >"$mode.log" 2>&1 &
  pid=$!
  wid=$("$(dirname "${BASH_SOURCE[0]}")/../../scripts/wait-window" "$pid") ||
    { cat "$mode.log" >&2; fail "no visible window named drape within 20 s"; }
}

# Wait (up to 30 s, however busy the machine) until the window's title
# matches the pattern: the app says there what it did ("(paused)").
# With -v: until it no longer matches.
wait_title() {
  local invert=""
  if [ "$1" = -v ]; then
    invert=-v
    shift
  fi
  for _ in $(seq 300); do
    xdotool getwindowname "$wid" 2>/dev/null | grep -q $invert -- "$1" && return 0
    sleep 0.1
  done
  fail "the window's title never matched ${invert:+(-v) }'$1' (it is '$(xdotool getwindowname "$wid")')"
}

shot() {
  import -window root "$1" || fail "screenshot $1 failed"
}

# Space, and wait until the title says the window is paused.
pause_drape() {
  xdotool key space
  wait_title "(paused)"
}

# Wait until the paused window is at frame $1 (0 after a reset; one more
# after each single step).
wait_frame() {
  wait_title "· frame $1 (paused)"
}

# Wait (up to 30 s) until file $1 exists: drape writes whole files under a
# temporary name and renames them, so one that exists is complete.
wait_file() {
  for _ in $(seq 300); do
    [ -e "$1" ] && return 0
    sleep 0.1
  done
  fail "$1 was never written"
}

# Ctrl+S writes drape_scene.json (the panel's scene file); kept as $1.
save_as() {
  rm -f drape_scene.json
  xdotool key ctrl+s
  wait_file drape_scene.json
  mv drape_scene.json "$1"
}

# The 3D view of screenshot $1 (right of the panel) into $2; with $3, that
# part of it instead (WxH+X+Y).
view_of() {
  convert "$1" -crop "${3:-960x720+320+0}" +repage "$2"
}

# Pixels of the views (or parts $3) of screenshots $1 and $2 that differ
# (2 % fuzz).
view_diff() {
  view_of "$1" view_diff_a.png "${3:-}"
  view_of "$2" view_diff_b.png "${3:-}"
  local n
  n=$(compare -metric AE -fuzz 2% view_diff_a.png view_diff_b.png null: 2>&1)
  echo "${n%% *}"
}

# Screenshots into $2 until its view (or part $4) differs from that of $1
# by over $3 pixels (100 by default), up to 20 s; the judge outside checks.
wait_view_change() {
  for _ in $(seq 80); do
    shot "$2"
    [ "$(view_diff "$1" "$2" "${4:-}")" -gt "${3:-100}" ] 2>/dev/null && return
    sleep 0.25
  done
}

# The whole window: what a click in the panel changes.
window_part=1280x720+0+0

# Keys $@ pressed, then wait (up to 20 s) until the window has changed by
# over 500 pixels: a file browser opened, a dialog closed.
press() {
  shot_settled press_before.png
  xdotool key "$@"
  wait_view_change press_before.png press_after.png 500 "$window_part"
}

# A click at x=$1 y=$2 once the pointer's hover there is drawn, then wait
# until the window has changed by over ${3:-500} pixels (a list dropped
# down or closed, a section opened).
click_at() {
  xdotool mousemove "$1" "$2"
  shot_settled press_before.png
  xdotool click 1
  wait_view_change press_before.png press_after.png "${3:-500}" "$window_part"
}

# Screenshots into $2 until its view is that of $1 again, up to 20 s.
wait_view_back() {
  for _ in $(seq 80); do
    shot "$2"
    [ "$(view_diff "$1" "$2")" -eq 0 ] 2>/dev/null && return
    sleep 0.25
  done
}

# A screenshot into $1 once two in a row show the same view (the window
# has drawn what it was asked to), up to 20 s.
shot_settled() {
  shot "$1"
  for _ in $(seq 40); do
    sleep 0.25
    mv "$1" settle_prev.png
    shot "$1"
    [ "$(view_diff settle_prev.png "$1")" -eq 0 ] 2>/dev/null && return
  done
}

# Type a path into the file browser's focused path field and press Enter.
# The keys are tapped as a hand would, press and release within a frame:
# the interface's input queue must not lose them.
type_path() {
  xdotool key ctrl+a
  xdotool type --delay 10 "$1"
  xdotool key Return
}

quit_drape() {
  xdotool key ctrl+q
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    fail "drape did not close on Ctrl+Q"
  fi
  wait "$pid"
  local rc=$?
  [ "$rc" -eq 0 ] || { cat "$mode.log" >&2; fail "drape exited with $rc after Ctrl+Q, expected 0"; }
}
