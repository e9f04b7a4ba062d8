#!/usr/bin/env bash
# ./trimus service-credential: prints the service credential of this Trimus (TRIMUS_ENCRYPTION_KEY or
# .trimus/encryption.key), which a worker on another host whose sandboxes join an egress network gets as
# TRIMUS_EGRESS_SERVICE_CREDENTIAL. It lets the holder register sandboxes with egress-service, nothing else.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

master=$(master_key)
[ -n "$master" ] || die "no TRIMUS_ENCRYPTION_KEY and no .trimus/encryption.key (./trimus up generates one)"
service_credential "$master"
