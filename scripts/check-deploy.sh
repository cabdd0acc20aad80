#!/usr/bin/env bash
# Checks the deployment files without a container engine: compose.yaml as Docker Compose reads it
# (`docker compose config`, or the standalone `docker-compose`) and the nginx site with `nginx -t`,
# its upstream processes pointed at this machine. A check whose tool is missing is skipped and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

# compose.yaml requires these; any value will do for a parse.
export POSTGRES_PASSWORD=check JWT_SECRET=check-0123456789-0123456789-0123456789
if docker compose version >/dev/null 2>&1; then
  docker compose config --quiet
  echo "compose.yaml: valid (docker compose config)"
elif command -v docker-compose >/dev/null; then
  docker-compose config --quiet
  echo "compose.yaml: valid (docker-compose config)"
else
  echo "compose.yaml: not checked (no docker compose client)"
fi

if command -v nginx >/dev/null; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  mkdir "$dir/conf.d"
  cp deploy/nginx/portal-locations.nginx "$dir/conf.d/"
  sed -E 's/portal-[0-9]+:8080/127.0.0.1:8080/' deploy/nginx/portal.conf >"$dir/conf.d/portal.conf"
  cat >"$dir/nginx.conf" <<NGINX
pid $dir/nginx.pid;
error_log stderr;
events {}
http {
  access_log off;
  include conf.d/portal.conf;
}
NGINX
  nginx -q -t -p "$dir" -c "$dir/nginx.conf"
  echo "deploy/nginx: valid (nginx -t)"
else
  echo "deploy/nginx: not checked (no nginx)"
fi
