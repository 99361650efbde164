# syntax=docker/dockerfile:1
# One image per app: docker build --build-arg SERVICE=<gateway|academic|hours-bank|incidents|notifications|payslips> -t <registry>/academy/<app>:<tag> .
# (README "Running at scale": building, pushing, deploying.)
FROM node:22-bookworm-slim AS deps
WORKDIR /repo
COPY package.json package-lock.json ./
COPY libs ./libs
RUN npm ci --no-audit --no-fund

# Bundles every app (esbuild: dist/apps/<app>/main.js, migrate.js, seed.js; the workspace libs inlined).
FROM deps AS build
COPY . .
RUN npx nx run-many -t build --projects=tag:type:app

# Production dependencies only: no compiler, test runner, Nx or the `node` devDependency.
FROM node:22-bookworm-slim AS prod-deps
WORKDIR /repo
COPY package.json package-lock.json ./
COPY libs ./libs
RUN npm ci --omit=dev --no-audit --no-fund \
  # the workspace links point at libs/, which the bundles already carry
  && rm -rf node_modules/@academy

FROM node:22-bookworm-slim AS runtime
ARG SERVICE
# The release this image is (contracts/releases.json: its version and commit), answered on /version.
ARG APP_VERSION=0.0.0-dev
ARG APP_COMMIT=unknown
ENV NODE_ENV=production HOST=0.0.0.0 SERVICE=${SERVICE} APP_VERSION=${APP_VERSION} APP_COMMIT=${APP_COMMIT}
WORKDIR /app
COPY --from=prod-deps /repo/node_modules ./node_modules
COPY --from=build /repo/dist/apps/${SERVICE} ./dist
# The web console's built files (hashed assets, index.html): the gateway serves them at / (CONSOLE_DIR); a few
# hundred KB that the other images carry unused, since a Dockerfile copies by build argument only by name.
COPY --from=build /repo/dist/apps/console ./console
# /data: the service's data folder (incidents keeps attachments there: FILES_DIR=/data/files), owned
# by the runtime user so a fresh volume mounted there is writable.
RUN mkdir -p /data && chown 1000:1000 /data
# The image's `node` user, by number: Kubernetes' runAsNonRoot can only verify a numeric user.
USER 1000:1000
# node is PID 1 and handles SIGTERM itself (stop taking work, finish in-flight, close, exit 0).
# `node dist/migrate.js` applies the migrations alone (the service also does at start, under a lock).
# dist/telemetry.js is the tracing preload (libs/telemetry): a no-op unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
# --experimental-async-context-frame: AsyncLocalStorage (the trace context, the request scope) without async
# hooks on every promise (Node 24's default; libs/telemetry README).
CMD ["node", "--enable-source-maps", "--experimental-async-context-frame", "--import", "./dist/telemetry.js", "dist/main.js"]
