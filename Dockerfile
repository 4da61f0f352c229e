# esign-sandbox as a container: a service in CI (GitHub Actions / GitLab CI `services:`, Docker Compose).
# docs/ci.md says how to run it; test/container/container.test.ts builds and runs this file.
#
# The base is an argument so the image can be built where no registry is reachable (the test builds a
# stand-in under this name). node:22-bookworm-slim: Node 22 is a maintained LTS line the package supports
# (engines: >= 20.19; Node 20 is out of support), its dependencies' engines include it (no EBADENGINE warning),
# and bookworm-slim is Debian without compilers or docs.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
# A CA to trust for npm ci behind a TLS-inspecting network (a build argument: not kept in the image).
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off: the build below is the only one wanted, and no dependency's install script runs.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY fixtures ./fixtures
COPY scenarios ./scenarios
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production
# The build bundles every runtime dependency into dist/ (scripts/bundle.mjs), so the image needs no node_modules
# (hono and zod, the package's two dependencies, are there for the TypeScript types only).
COPY package.json ./
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY scenarios ./scenarios
# /data belongs to the image's non-root user (node, uid 1000, from the Node image) so it can write there.
# No VOLUME: a declared volume leaves an anonymous volume behind every run without --rm (docker rm -v needed).
# The state lives in the container unless you mount a volume there yourself (docs/ci.md, "The container image").
RUN mkdir /data && chown node:node /data
# Every flag has an ESIGN_SANDBOX_* twin (README "Options"): override any of these with -e / environment:.
# Inside a container the sandbox listens on every interface, keeps its state in /data (mount a volume to keep it)
# and answers requests addressed to the service name esign (compose, GitLab alias, a job container: docs/ci.md).
ENV ESIGN_SANDBOX_HOST=0.0.0.0 \
    ESIGN_SANDBOX_PORT=4010 \
    ESIGN_SANDBOX_DATA=/data/sandbox.json \
    ESIGN_SANDBOX_ALLOWED_HOST=esign
USER node
EXPOSE 4010
# No curl in the image: Node's own fetch asks the health route on the port the sandbox listens on.
HEALTHCHECK --interval=2s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.ESIGN_SANDBOX_PORT||4010)+'/__sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1: the sandbox handles SIGTERM itself (writes /data, exits 0), so no init wrapper is needed.
ENTRYPOINT ["node", "dist/cli.js"]
