# syntax=docker/dockerfile:1
# The portal's image: the built web app and server, production dependencies only, run as `node` (not root),
# data (uploads, avatars, the SQLite file when no DATABASE_URL) in the /data volume. compose.yaml runs it.

FROM node:20-bookworm-slim AS base
# Native addons (argon2, better-sqlite3) compile from source when no prebuilt binary fits the platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/

FROM base AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs

# Only what the bundled server loads at run time: the API workspace's production dependencies
# (the web app's and the root's development ones stay behind).
FROM base AS prod-deps
RUN npm ci --omit=dev --workspace @portal/api --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
# The workspaces' package.json files and node_modules folders (npm nests a few packages under apps/api).
COPY --from=prod-deps /app ./
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Ready once the database answers (the slim image has no curl: Node's fetch asks).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Migrations run at start; SIGTERM lets in-flight requests finish.
CMD ["node", "apps/api/dist/server.js"]
