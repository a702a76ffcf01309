#!/usr/bin/env bash
# Installs a port-check .deb with apt (which brings its dependencies), runs the installed
# port-check --version and a lint of a bundled project with it, then removes the package.
# Needs root or sudo; refuses when a port-check package is already installed (it would remove it).
#   usage: scripts/deb_install_check.sh path/to/port-check_<version>_<arch>.deb
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "$1")
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
if dpkg-query -W -f='${Status}' port-check 2>/dev/null | grep -q "install ok installed"; then
  echo "deb_install_check: a port-check package is already installed; not touching it" >&2
  exit 1
fi
ws=$(mktemp -d)
trap 'rm -rf "$ws"; DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get purge -y -qq port-check >/dev/null' EXIT
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
/usr/bin/port-check --version
mkdir "$ws/projects" && cp -r projects/row_softmax "$ws/projects/"
(cd "$ws" && /usr/bin/port-check lint projects/row_softmax)
test -f /usr/share/man/man1/port-check.1.gz
test -f /usr/share/doc/port-check/copyright
test -f /usr/share/doc/port-check/cli.md
test -f /usr/share/bash-completion/completions/port-check
echo "deb_install_check: $(basename "$deb") installed and ran; removing it"
