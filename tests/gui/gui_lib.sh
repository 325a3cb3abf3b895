# Shared by the GUI test scripts: driving drape in a virtual X server.
# Source it; it needs $drape (the binary) and $mode (names the log file).

fail() {
  echo "FAIL: $*" >&2
  exit 1
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

# Type a path into the file browser's focused path field and press Enter.
# The keys are tapped as a hand would, press and release within a frame:
# the interface's input queue must not lose them.
type_path() {
  xdotool key ctrl+a
  xdotool type --delay 10 "$1"
  xdotool key Return
  sleep 1
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
