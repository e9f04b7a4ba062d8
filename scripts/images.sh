#!/usr/bin/env bash
# ./trimus images [--local] [--stack-only | --sandbox-only]: build Trimus's images: the four services, the egress
# firewall and (unless --stack-only) the CLI sandboxes (--sandbox-only: those alone); --local: on a Debian base
# bootstrapped here, with local Java, PostgreSQL and Kafka images. Sourced by .ci/compose-smoke.sh for images and TRIMUS_VERSION.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

LOCAL_BASE=trimus-base/debian:bookworm
DEBIAN_MIRROR=${TRIMUS_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# A Debian bookworm base made here with debootstrap, for machines that cannot pull debian:bookworm-slim (no registry).
local_debian_base() {
  if "$DOCKER" image inspect "$LOCAL_BASE" >/dev/null 2>&1; then
    log "base image $LOCAL_BASE exists"
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "building $LOCAL_BASE needs root (debootstrap); or set BASE_IMAGE to a Debian bookworm image"
  command -v debootstrap >/dev/null 2>&1 || { is_debian_root && apt_install debootstrap; }
  command -v debootstrap >/dev/null 2>&1 || die "debootstrap is needed to build $LOCAL_BASE (apt-get install debootstrap)"
  local rootfs started=$SECONDS
  rootfs=$(mktemp -d /var/tmp/trimus-rootfs.XXXXXX)
  log "building base image $LOCAL_BASE: debootstrap --variant=minbase bookworm from $DEBIAN_MIRROR (log: .trimus/debootstrap.log)"
  if ! debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >.trimus/debootstrap.log 2>&1; then
    tail -20 .trimus/debootstrap.log
    rm -rf "$rootfs"
    die "debootstrap failed (log: .trimus/debootstrap.log)"
  fi
  # Same apt sources as debian:bookworm-slim (with updates and security), no downloaded .debs or package lists.
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $DEBIAN_MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  # The host's own CA certificates (e.g. of a TLS-inspecting egress proxy) go along: the images install
  # ca-certificates, whose update-ca-certificates adds them, so npm inside the build trusts what the host trusts.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    log "adding the host's CA certificates from /usr/local/share/ca-certificates to $LOCAL_BASE"
    mkdir -p "$rootfs/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  fi
  tar --numeric-owner -C "$rootfs" -c . | "$DOCKER" import --change 'CMD ["bash"]' - "$LOCAL_BASE" >/dev/null
  rm -rf "$rootfs"
  log "built $LOCAL_BASE in $((SECONDS - started)) s"
}

SERVICES=(run-service adapter-lambda-service egress-service admin-ui)
# The tag of Trimus's own images: the project version without -SNAPSHOT (docker-compose.yml and k8s/ default to it).
TRIMUS_VERSION=${TRIMUS_VERSION:-$(sed -n 's:.*<version>\([0-9.]*\)\(-SNAPSHOT\)\{0,1\}</version>.*:\1:p' pom.xml | head -1)}

# Why a build failed, in one sentence where it is known: npm could not reach its registry from inside the build
# (the host may reach it while the build's containers cannot: DNS or a proxy only the host has).
build_failed() { # tag log
  if grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|network request to .* failed' "$2"; then
    die "building $1 failed: npm inside the build could not reach its registry ($(npm_registry)), although this
machine can (log: $2). Give the Docker build network access to it (DNS, HTTP(S)_PROXY as build args), or set
NPM_CONFIG_REGISTRY to a mirror it can reach."
  fi
  die "building $1 failed (log: $2)"
}

docker_build() { # tag context log [docker build args...]
  local tag=$1 context=$2 logname=$3 started=$SECONDS
  shift 3
  log "building $tag (log: .trimus/images-$logname.log)"
  "$DOCKER" build --pull=false --force-rm -t "$tag" "$@" "$context" >".trimus/images-$logname.log" 2>&1 \
    || { tail -30 ".trimus/images-$logname.log"; build_failed "$tag" ".trimus/images-$logname.log"; }
  log "built $tag in $((SECONDS - started)) s"
}

# The images docker-compose.local.yml runs instead of public ones: a Java 17 runtime, PostgreSQL and Apache Kafka
# (its jars from Maven Central), all on the debootstrapped Debian base. Present images are kept.
local_stack_bases() {
  local_debian_base
  "$DOCKER" image inspect trimus-base/jre:17 >/dev/null 2>&1 \
    || docker_build trimus-base/jre:17 deploy/images/jre jre --build-arg BASE_IMAGE="$LOCAL_BASE"
  "$DOCKER" image inspect trimus-base/postgres:15 >/dev/null 2>&1 \
    || docker_build trimus-base/postgres:15 deploy/images/postgres postgres --build-arg BASE_IMAGE="$LOCAL_BASE"
  if ! "$DOCKER" image inspect trimus-base/kafka:4.1.2 >/dev/null 2>&1; then
    log "copying the Apache Kafka jars from Maven Central (deploy/images/kafka/target/libs)"
    ./mvnw -B -f deploy/images/kafka/pom.xml dependency:copy-dependencies -DoutputDirectory=target/libs \
        -DincludeScope=runtime >.trimus/images-kafka-jars.log 2>&1 \
      || { tail -20 .trimus/images-kafka-jars.log; die "copying the Kafka jars failed (log: .trimus/images-kafka-jars.log)"; }
    docker_build trimus-base/kafka:4.1.2 deploy/images/kafka kafka --build-arg BASE_IMAGE=trimus-base/jre:17
  fi
}

# Trimus's own images, from the jars of the last build: the four services and the egress network's firewall.
stack_images() { # jre-base debian-base
  local jre=$1 debian=$2 service
  [ -f run-service/target/quarkus-app/quarkus-run.jar ] || build
  for service in "${SERVICES[@]}"; do
    [ -f "$service/target/quarkus-app/quarkus-run.jar" ] || die "$service/target/quarkus-app is missing: run ./mvnw -DskipTests install"
    docker_build "trimus/$service:$TRIMUS_VERSION" "$service" "$service" -f "$service/src/main/docker/Dockerfile.jvm" \
        --build-arg BASE_IMAGE="$jre"
  done
  docker_build "trimus/egress-firewall:$TRIMUS_VERSION" deploy/egress-firewall egress-firewall --build-arg BASE_IMAGE="$debian"
}

# The npm registry the CLI sandbox images install the pinned CLIs from: NPM_CONFIG_REGISTRY if set (a mirror), else
# npm's default. Checked before building, so a machine without it gets one clear sentence instead of an npm stack.
npm_registry() { printf '%s' "${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org/}"; }
check_npm_registry() {
  local registry
  registry=$(npm_registry)
  command -v curl >/dev/null 2>&1 || return 0
  if ! curl -sS -m 15 -o /dev/null "${registry%/}/-/ping" 2>.trimus/npm-registry-check.log \
      && ! curl -sS -m 15 -o /dev/null "$registry" 2>>.trimus/npm-registry-check.log; then
    die "the npm registry $registry cannot be reached from this machine ($(tail -1 .trimus/npm-registry-check.log)):
the CLI sandbox images install @anthropic-ai/claude-code and @openai/codex (pinned in sandbox-images/*/Dockerfile)
from it. Set NPM_CONFIG_REGISTRY to a reachable mirror, or build the images where npm works and docker load them."
  fi
}

# The sandbox images of the real CLIs (sandbox-images/) on a Debian base.
sandbox_images() { # debian-base
  local name
  check_npm_registry
  for name in claude-sandbox codex-sandbox; do
    docker_build "trimus/$name:latest" "sandbox-images/$name" "$name" --build-arg BASE_IMAGE="$1" \
        --build-arg NPM_CONFIG_REGISTRY="$(npm_registry)"
  done
}

# Every image Trimus runs: its services, and the CLI sandboxes. The Debian base is $BASE_IMAGE if set, else
# debian:bookworm-slim if present locally, else (or with --local) the debootstrapped $LOCAL_BASE; nothing is pulled.
# With --local, the Java, PostgreSQL and Kafka images are built here too (docker-compose.local.yml uses them).
images() {
  local force_local=0 base jre=eclipse-temurin:17-jre what=all
  for arg in "$@"; do
    case "$arg" in
      --local) force_local=1 ;;
      --stack-only) what=stack ;;
      --sandbox-only) what=sandbox ;;
      *) die "usage: ./trimus images [--local] [--stack-only | --sandbox-only]" ;;
    esac
  done
  ensure_docker
  if [ $force_local = 1 ]; then
    local_debian_base; base=$LOCAL_BASE
  elif [ -n "${BASE_IMAGE:-}" ]; then
    base=$BASE_IMAGE
  elif "$DOCKER" image inspect debian:bookworm-slim >/dev/null 2>&1; then
    base=debian:bookworm-slim
  else
    log "debian:bookworm-slim is not present locally and cannot be pulled here: using a local Debian base"
    local_debian_base; base=$LOCAL_BASE
  fi
  if [ $force_local = 1 ] && [ $what != sandbox ]; then
    local_stack_bases; jre=trimus-base/jre:17
  fi
  [ $what = sandbox ] || stack_images "$jre" "$base"
  [ $what = stack ] || sandbox_images "$base"
  "$DOCKER" image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' \
    | grep -E '^trimus(-base)?/' | sed 's/^/[trimus]   /' >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  images "$@"
fi
