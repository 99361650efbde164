# syntax=docker/dockerfile:1
# One image per service: docker build --build-arg SERVICE=academic .
FROM node:22-bookworm-slim AS deps
WORKDIR /repo
COPY package.json package-lock.json ./
COPY libs ./libs
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npx nx run-many -t build --projects=tag:type:app

FROM node:22-bookworm-slim AS prod-deps
WORKDIR /repo
COPY package.json package-lock.json ./
COPY libs ./libs
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
ARG SERVICE
ENV NODE_ENV=production HOST=0.0.0.0 SERVICE=${SERVICE}
WORKDIR /app
COPY --from=prod-deps /repo/node_modules ./node_modules
COPY --from=build /repo/dist/apps/${SERVICE} ./dist
USER node
CMD ["node", "--enable-source-maps", "dist/main.js"]
