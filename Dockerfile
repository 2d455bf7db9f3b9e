# One image for the api and the workers; the client is built into it.
# ffmpeg: the api checks uploaded videos with ffprobe, workers cut keyframes; colmap: the generate-ply step (CPU build).
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends poppler-utils qpdf fonts-dejavu-core ca-certificates ffmpeg colmap \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY core/package.json core/
COPY api/package.json api/
COPY workers/package.json workers/
COPY client/package.json client/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -w client && node scripts/build-server.mjs
ENV NODE_ENV=production PORT=8080
EXPOSE 8080
# The compiled server (dist/server): plain node, no TypeScript compiler in memory.
CMD ["node", "dist/server/server.js"]
