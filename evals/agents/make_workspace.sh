#!/bin/bash
# make_workspace.sh TASK CONDITION DEST [REF]
#
# The folder a fresh eval agent is given (evals/README.md "Running agents"):
#   CONDITION pack:    this repository at REF (default HEAD) without evals/ (no task's reference, naive
#                      form or recorded attempt), with build/port-check copied from this checkout's build;
#   CONDITION control: pypto-lib at REF (a commit of PYPTO_LIB_GIT, a pypto-lib git directory), its own
#                      skills, golden harness and examples, and no port-check.
# Both get the task's prompt as projects/TASK/TASK.md and its PyTorch original as projects/TASK/original/,
# and start as a one-commit git repository (no history to find other work in).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 TASK pack|control DEST [REF]" >&2
  exit 2
fi
task=$1 condition=$2 dest=$3 ref=${4:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
task_dir=$here/evals/tasks/$task
[ -f "$task_dir/task.json" ] || { echo "error: no task $task under evals/tasks" >&2; exit 2; }
[ -e "$dest" ] && { echo "error: $dest exists; give a new folder" >&2; exit 2; }
mkdir -p "$dest"
case $condition in
  pack)
    git -C "$here" archive "${ref:-HEAD}" | tar -x -C "$dest"
    rm -rf "$dest/evals"
    if [ -e "$dest/projects/$task" ]; then
      echo "error: the pack has a port named $task in projects/: rename the task" >&2
      exit 2
    fi
    [ -x "$here/build/port-check" ] || { echo "error: build port-check first (scripts/build.sh)" >&2; exit 2; }
    mkdir -p "$dest/build" && cp "$here/build/port-check" "$dest/build/port-check"
    ;;
  control)
    : "${PYPTO_LIB_GIT:?set PYPTO_LIB_GIT to a pypto-lib git directory}"
    git --git-dir="$PYPTO_LIB_GIT" archive "${ref:-HEAD}" | tar -x -C "$dest"
    ;;
  *) echo "error: condition is pack or control, not $condition" >&2; exit 2 ;;
esac
mkdir -p "$dest/projects/$task"
cp -r "$task_dir/original" "$dest/projects/$task/original"
cp "$task_dir/task.md" "$dest/projects/$task/TASK.md"
git -C "$dest" init -q
git -C "$dest" add -A
git -C "$dest" -c user.name=eval -c user.email=eval@invalid commit -qm "the task"
echo "$dest"
