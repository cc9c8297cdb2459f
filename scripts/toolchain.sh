#!/usr/bin/env sh
# Runs a command with the project's toolchain: Node >= 22, pnpm, and installed dependencies.
#
# Innkeep needs Node >= 22 (oidc-provider 9, the MCP conformance suite, vitest). Where the machine's
# `node` is older, the exact version pinned in .node-version is installed from the npm registry
# (package node-<os>-<arch>) into .toolchain/, so a fresh machine needs nothing but Node and npm.
# pnpm comes from the npm registry too, at the version package.json's "packageManager" pins.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
toolchain="$root/.toolchain"
node_version=$(tr -d ' \n' < "$root/.node-version")
pnpm_version=$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$root/package.json")

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "toolchain: unsupported OS $(uname -s)" >&2; exit 1 ;; esac
  case "$(uname -m)" in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) echo "toolchain: unsupported CPU $(uname -m)" >&2; exit 1 ;; esac
  node_dir="$toolchain/node-$node_version"
  if [ ! -x "$node_dir/node_modules/node-$os-$arch/bin/node" ]; then
    echo "toolchain: installing Node $node_version into .toolchain/ (the machine has $(node -v 2>/dev/null || echo none))" >&2
    mkdir -p "$node_dir"
    npm install --prefix "$node_dir" --no-save --no-package-lock --loglevel=error "node-$os-$arch@$node_version" >&2
  fi
  PATH="$node_dir/node_modules/node-$os-$arch/bin:$PATH"
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  pnpm_dir="$toolchain/pnpm-$pnpm_version"
  if [ ! -x "$pnpm_dir/node_modules/.bin/pnpm" ]; then
    echo "toolchain: installing pnpm $pnpm_version into .toolchain/" >&2
    mkdir -p "$pnpm_dir"
    npm install --prefix "$pnpm_dir" --no-save --no-package-lock --loglevel=error "pnpm@$pnpm_version" >&2
  fi
  PATH="$pnpm_dir/node_modules/.bin:$PATH"
fi
export PATH

# Install dependencies when they are missing or older than the lockfile.
marker="$root/node_modules/.modules.yaml"
if [ ! -f "$marker" ] || [ "$root/pnpm-lock.yaml" -nt "$marker" ]; then
  (cd "$root" && pnpm install --frozen-lockfile >&2)
fi

exec "$@"
