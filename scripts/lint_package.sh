#!/usr/bin/env bash
# Runs lintian on a port-check .deb: any error or warning fails, except the tags the package overrides
# (packaging/lintian-overrides, installed as /usr/share/lintian/overrides/port-check, each with its
# reason). Informational tags are printed, not failed on.
#   usage: scripts/lint_package.sh path/to/port-check_<version>_<arch>.deb
set -euo pipefail
deb=$1
if ! command -v lintian >/dev/null 2>&1; then
  echo "lint_package: lintian is not installed (apt install lintian; scripts/bootstrap.sh installs it)" >&2
  exit 1
fi
lintian --fail-on error,warning --info --display-info --show-overrides "$deb"
echo "lint_package: lintian found no error or warning in $(basename "$deb")"
