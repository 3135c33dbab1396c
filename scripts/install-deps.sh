#!/usr/bin/env bash
# Installs everything memsched needs to build and test from Debian's
# packages. Run as root (or with sudo) on Debian bookworm.
set -euo pipefail

packages=(
  cmake ninja-build g++ git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  pybind11-dev python3-dev python3-numpy python3-matplotlib
  python3-torch python3-torchvision
  libgtest-dev pkg-config coinor-libcbc-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "memsched: all build dependencies are installed"
  exit 0
fi

echo "memsched: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  SUDO="sudo"
fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
  "${missing[@]}"
