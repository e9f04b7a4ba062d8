#!/usr/bin/env bash
# The keys derived from TRIMUS_ENCRYPTION_KEY, as run-service and the adapter derive them (events' DispatchKey and
# ServiceCredential): sourced by scripts/lib.sh and bench/lib.sh, never run. Needs die and openssl.

# TRIMUS_ENCRYPTION_KEY (base64 or 64 hex digits) as 64 hex digits, or death with a sentence.
master_hex() {
  local master=$1 hex
  if [[ $master =~ ^[0-9a-fA-F]{64}$ ]]; then
    hex=$master
  else
    hex=$(printf '%s' "$master" | tr -d ' \n' | tr -- '-_' '+/' | base64 -d 2>/dev/null | od -An -v -tx1 | tr -d ' \n')
  fi
  [ ${#hex} -eq 64 ] || die "TRIMUS_ENCRYPTION_KEY is not 32 bytes written as base64 or 64 hex digits"
  printf '%s' "$hex"
}

# The dispatch key workers get, from TRIMUS_ENCRYPTION_KEY: HMAC-SHA256 of the key over "trimus/dispatch/v1", as 64
# hex digits, exactly what run-service derives (events' DispatchKey). One-way: the master key, and with it the key of
# the secrets stored at rest, cannot be computed back from it.
dispatch_key() {
  local hex; hex=$(master_hex "$1") || exit 1
  printf 'trimus/dispatch/v1' | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$hex" | sed 's/^.*= //'
}

# The service credential of a master key: what the adapter's sandbox registrations present to egress-service
# (events' ServiceCredential: "svc_" + base64url of HMAC-SHA256(master, "trimus/service-credential/v1")).
service_credential() {
  local hex; hex=$(master_hex "$1") || exit 1
  printf 'svc_%s\n' "$(printf 'trimus/service-credential/v1' | openssl dgst -sha256 -binary -mac HMAC -macopt "hexkey:$hex" \
    | base64 | tr '+/' '-_' | tr -d '=\n')"
}
