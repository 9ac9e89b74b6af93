# One image for both production processes; docker-compose.yml picks the command.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
COPY src/db/prisma-migrate-adapter.ts ./src/db/prisma-migrate-adapter.ts
RUN npm ci --omit=optional
COPY . .
RUN npx prisma generate
USER node
EXPOSE 3000
CMD ["npm", "run", "start:api"]
