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
# spelling-error-in-binary is not checked: strings(1) finds fragments such as "buil" and "ment" in the
# machine code and the embedded tree-sitter parse tables, different ones in every build, so neither a
# fix nor a fixed override is possible (an override that stops matching is itself a warning).
lintian --fail-on error,warning --info --display-info --show-overrides --suppress-tags spelling-error-in-binary "$deb"
echo "lint_package: lintian found no error or warning in $(basename "$deb")"
