# The service image: API (default command), worker (`node dist/boot/worker.js`) and the one-shot
# migration (`node dist/boot/migrate.js`). Node 22 LTS; runs as the unprivileged `node` user.
# The build stage has the dev dependencies (TypeScript, the Prisma CLI that generates the client);
# the runtime stage gets production dependencies only: migrations are plain SQL applied by
# dist/boot/migrate.js through pg, so no Prisma CLI ships in it. .dockerignore keeps the host's
# node_modules, .data (development keys) and build output out of the context.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
ENV BILLING_DATA_DIR=/app/.data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
COPY --from=build /app/bin ./bin
# The API reference attaches the recorded examples from this file (docs/openapi.md "Examples").
COPY --from=build /app/docs/openapi-examples.json ./docs/openapi-examples.json
COPY package.json ./
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
CMD ["node", "dist/boot/api.js"]
