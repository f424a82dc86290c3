#!/usr/bin/env bash
# The app check in CI (docs/ci.md): start the sandbox, register your app's client in it, drive your app through
# every outcome with the app check, write JUnit XML and a Markdown report, stop the sandbox. Exits as the check
# does: 0 all passed, 1 a check failed, 2 it could not run.
#
# Your app must already be running, pointed at the sandbox (its authorisation host on SANDBOX_PORT+1, its accounts
# host on SANDBOX_PORT+2), with the client below. Settings, from the environment:
#   APP_START_URL        where a user starts signing in to your app, e.g. http://localhost:8080/login (required)
#   APP_CLIENT_ID        your app's client id in the sandbox (required)
#   APP_CLIENT_SECRET    its secret (required; it stays in the sandbox and never reaches the reports)
#   APP_REDIRECT_URI     its registered redirect URI, without query (required)
#   APP_COUNTRIES        its plan's countries, comma-separated (uk)
#   SANDBOX_PORT         the explorer's port; the sandbox takes the next two (3000)
#   REPORT_DIR           where junit.xml, report.md and sandbox.log go (app-check-report)
set -euo pipefail

: "${APP_START_URL:?Set APP_START_URL to where a user starts signing in to your app}"
: "${APP_CLIENT_ID:?Set APP_CLIENT_ID to the client id of your app}"
: "${APP_CLIENT_SECRET:?Set APP_CLIENT_SECRET to the client secret of your app}"
: "${APP_REDIRECT_URI:?Set APP_REDIRECT_URI to the redirect URI of your app}"
port="${SANDBOX_PORT:-3000}"
out="${REPORT_DIR:-app-check-report}"
mkdir -p "$out"

# 1. The sandbox, in the background, with a throwaway database; stopped however this script ends.
data="$(mktemp -d)"
# (The package's own bin, not npx: npx would run it as a child that stopping npx leaves running.)
./node_modules/.bin/sso-flow-explorer --port "$port" --data-dir "$data" >"$out/sandbox.log" 2>&1 &
sandbox=$!
trap 'kill "$sandbox" 2>/dev/null || true; wait "$sandbox" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 60); do
	curl -fsS "http://localhost:$port/health" >/dev/null 2>&1 && break
	kill -0 "$sandbox" 2>/dev/null || { cat "$out/sandbox.log"; exit 2; }
	sleep 1
done
curl -fsS "http://localhost:$port/health" >/dev/null || { echo "The sandbox did not answer within 60 s:"; cat "$out/sandbox.log"; exit 2; }

# 2. Your app's client, in the sandbox's default workspace (this machine administers it).
node -e 'const e = process.env; console.log(JSON.stringify({ client_id: e.APP_CLIENT_ID, client_secret: e.APP_CLIENT_SECRET,
	redirect_uris: [e.APP_REDIRECT_URI], countries: (e.APP_COUNTRIES || "uk").split(",") }))' |
	curl -fsS -o /dev/null -X POST -H 'content-type: application/json' --data-binary @- "http://localhost:$((port + 2))/sandbox/clients"

# 3. The app check: a table on the console, JUnit XML and the Markdown report in $out.
npx --no-install sso-flow-explorer app-check --start-url "$APP_START_URL" \
	--auth-url "http://localhost:$((port + 1))" --accounts-url "http://localhost:$((port + 2))" \
	--junit "$out/junit.xml" --report "$out/report.md"
