# The academy's production image: the compiled server on Node 24 (see compose.yaml for a whole site).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/start.mjs ./scripts/start.mjs
COPY --from=build /app/media ./media
# The certificate PDF's embedded font.
COPY --from=build /app/assets ./assets
# The mail outbox (without SMTP_URL) and the embedded database, if used, live in ./data (mount a volume
# there). Backups: `node dist/runtime/backup.mjs backup data/backups/` (README, *Backup and restore*).
RUN mkdir -p data && chown node data
USER node
EXPOSE 4321
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:4321/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# `npm run serve`: the compiled server with its memory settings (scripts/start.mjs).
CMD ["node", "scripts/start.mjs", "--serve"]
