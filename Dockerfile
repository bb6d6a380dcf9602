# One image for the api, projector and worker processes (docker-compose.yml picks the role).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json tsconfig.console.json nest-cli.json ./
COPY src ./src
COPY projections ./projections
COPY scripts ./scripts
COPY bench ./bench
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# A container's port is published from its own interface: bind them all (outside, HOST defaults to loopback).
ENV HOST=0.0.0.0
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts ./scripts
COPY package.json ./
USER node
EXPOSE 8080
# A larger young generation: fewer scavenges and less promoted garbage under load; an old-generation
# limit four times the live heap: a mark-compact about once a minute at 100 quote flows/s instead of
# every 7-10 s, whose pauses made the slow flows (bench/RESULTS.md). Keep equal to package.json's
# config.node_flags, which `npm start` and its variants use.
ENTRYPOINT ["node", "--max-semi-space-size=64", "--heap-growing-percent=300", "dist/src/main.js"]
