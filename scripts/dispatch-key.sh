#!/usr/bin/env bash
# ./trimus dispatch-key: prints the dispatch key of this Trimus (TRIMUS_ENCRYPTION_KEY or .trimus/encryption.key), the
# one key a worker on another host gets as TRIMUS_DISPATCH_KEY. It opens run secrets in transit and authenticates
# remote tasks, never the secrets stored at rest.
set -euo pipefail
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

master=$(master_key)
[ -n "$master" ] || die "no TRIMUS_ENCRYPTION_KEY and no .trimus/encryption.key (./trimus up generates one)"
dispatch_key "$master"
