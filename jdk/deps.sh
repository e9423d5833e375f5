#!/usr/bin/env bash
# Install the Debian packages the FlexHeap JDK build needs.
exec "$(dirname "$0")/../tools/apt-install-missing.sh" "JDK build" \
  autoconf make zip unzip file ccache patch xz-utils dpkg-dev python3 \
  libasound2-dev libcups2-dev libfontconfig1-dev libx11-dev libxext-dev \
  libxrender-dev libxrandr-dev libxtst-dev libxt-dev
