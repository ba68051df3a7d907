#!/usr/bin/env bash
# Builds .vercel/output exactly as the platform does, with the pinned CLI and no account: a project
# that was never linked gets a local project file naming no framework (the "Other" preset).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f .vercel/project.json ]; then
  mkdir -p .vercel
  printf '{"projectId":"local","orgId":"local","settings":{"framework":null}}\n' > .vercel/project.json
fi
export VERCEL_TELEMETRY_DISABLED=1
exec npx vercel build --yes "$@"
