#!/bin/sh
# Debian's Chromium for the site's browser tests. Idempotent. Never `playwright install`:
# it downloads its own browser builds, which this project's machines cannot reach.
set -eu
if [ -x /usr/bin/chromium ]; then
    echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
