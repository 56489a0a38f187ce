#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 25: on a real terminal 80 columns wide (a tmux pane), a sweep whose
# cell name is longer than the terminal shows a progress line of at most 80
# columns: tmux's pane, its wrapped lines joined (-J), has no progress line
# wider.  Skips (77) without tmux.
set -u
builddir=${AORTA_TEST_BUILDDIR:?}
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed"; exit 77; }
work=$(mktemp -d) || exit 99
socket=aorta-test-$$
cleanup() { tmux -L "$socket" kill-server 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
long=a_mitigation_whose_name_is_far_longer_than_any_terminal_is_wide_at_eighty_columns_$$
cat >"$work/r.yaml" <<YAML
schema_version: 1
mode: probe
trials: 2
mitigations:
  $long: {X: "1"}
mitigation_axis: [$long]
diagnostic_axis: [none]
YAML
cd "$work" || exit 99
# Neither COLUMNS nor the environment's terminal: the pane's size decides.
tmux -L "$socket" -f /dev/null new-session -d -x 80 -y 24 \
    "env -u COLUMNS '$builddir/core/aorta-run' --recipe r.yaml --output D -- sleep 1; \
     echo EXIT=\$?; sleep 60" || { echo "FAIL: tmux cannot start a session"; exit 1; }
screen=
for _ in $(seq 1 100); do
    screen=$(tmux -L "$socket" capture-pane -p -J -t 0)
    case $screen in *EXIT=*) break ;; esac
    sleep 0.2
done
status=0
case $screen in
*EXIT=0*) ;;
*) echo "FAIL: the run did not end with 0:"; printf '%s\n' "$screen"; exit 1 ;;
esac
lines=$(printf '%s\n' "$screen" | grep -c '^aorta-run: cell 1/1 ')
[ "$lines" -ge 1 ] || { echo "FAIL: no progress line:"; printf '%s\n' "$screen"; status=1; }
printf '%s\n' "$screen" | grep '^aorta-run: cell 1/1 ' | while IFS= read -r line; do
    width=$(printf '%s' "$line" | wc -m)
    if [ "$width" -gt 80 ]; then
        echo "FAIL: a progress line of $width columns: $line"
        exit 1
    fi
done || status=1
[ "$status" -ne 0 ] || echo "ok: the progress line fits 80 columns"
exit "$status"
