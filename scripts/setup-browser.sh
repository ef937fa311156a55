#!/usr/bin/env bash
# Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
# The browser of test/e2e/browser/clients.test.ts: Debian's Chromium (playwright-core drives it; no browser
# download). Does nothing when it is there (or CHROMIUM_PATH names one); else installs it with
# apt-get as root, or says what to run.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  echo "browser: $browser"
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  echo "browser: installed $(/usr/bin/chromium --version 2>/dev/null | tail -1)"
  exit 0
fi
echo "test/e2e/browser/clients.test.ts needs Chromium: run 'sudo apt-get install chromium' (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary" >&2
exit 1
