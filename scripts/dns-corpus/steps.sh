# The capture steps of scripts/capture-dns-corpus.sh, sourced by it inside the unshare -rmn namespace with WORK
# set (WORK/bin holds the built clients, WORK/raw receives the packets). Not meant to be run on its own: it
# bind-mounts over /etc/resolv.conf, which is only harmless inside that namespace.
set -euo pipefail
[ -n "${WORK:-}" ] && [ -d "$WORK/raw" ] || { echo "steps.sh: run scripts/capture-dns-corpus.sh instead" >&2; exit 2; }
# Refuse to touch /etc unless this really is a private network namespace (no interface but lo).
[ "$(ip -o link show | grep -vc ': lo:')" = 0 ] || { echo "steps.sh: not in a private network namespace" >&2; exit 2; }

PY=${PY:-/usr/bin/python3}
BIN=$WORK/bin
ip link set lo up
# Non-loopback addresses so that AI_ADDRCONFIG (glibc, musl, Go) asks for both A and AAAA.
ip addr add 10.9.0.1/32 dev lo
ip addr add fd00::1/128 dev lo nodad 2>/dev/null || true

printf 'nameserver 127.0.0.1\n' >"$WORK/resolv.conf"
printf 'hosts: files dns\n' >"$WORK/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$WORK/hosts"
mount --bind "$WORK/resolv.conf" /etc/resolv.conf
mount --bind "$WORK/nsswitch.conf" /etc/nsswitch.conf
mount --bind "$WORK/hosts" /etc/hosts

echo none >"$WORK/label"
"$PY" "$BIN/server.py" 127.0.0.1 53 "$WORK/raw" "$WORK/label" >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q ready "$WORK/server.log" 2>/dev/null && break; sleep 0.05; done
grep -q ready "$WORK/server.log" || { echo "capture server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }

# The stub resolvers go first and dig last: de-duplication keeps the first sender of a packet under its name.
# cap LABEL COMMAND...: runs one client step, its packets are recorded under LABEL.
cap() {
  echo "$1" >"$WORK/label"
  local label=$1
  shift
  echo "== $label: $*" >>"$WORK/clients.log"
  timeout 30 "$@" >>"$WORK/clients.log" 2>&1 || echo "step $label exited $?: $*" >>"$WORK/clients.log"
}
# resolv OPTION-LINES...: the resolv.conf the next steps see (same inode, so the bind mount shows it).
resolv() { { echo "nameserver 127.0.0.1"; for l in "$@"; do echo "$l"; done; } >"$WORK/resolv.conf"; }

L63=l63-$(printf 'a%.0s' $(seq 59))
LONG253=$L63.$L63.$L63.$(printf 'b%.0s' $(seq 49)).example.com
# tag:name pairs asked by most clients; names starting with nx get NXDOMAIN, with tcp a truncated UDP answer.
NAMES=(
  plain:example.com www:www.example.com mixed:Api.Example.COM mixed2:MiXeD.CaSe.ExAmPlE.oRg
  hyphen:my-host-1.example.net underscore:_dmarc.example.com srvname:_sip._tcp.example.com
  underlabel:under_score.example.com idn:xn--bcher-kva.example label63:$L63.example.com long253:$LONG253
  dot:example.org. nodot:example.org nx:nx-missing.example.com
)
names() { for p in "${NAMES[@]}"; do echo "${p#*:}"; done; }

# ---- glibc: getent, python3's getaddrinfo, a C program's getaddrinfo/res_query, under resolv.conf variants ----
PYGAI='import socket, sys
for n in sys.argv[1:]:
    try: print(n, socket.getaddrinfo(n, 443, proto=socket.IPPROTO_TCP))
    except OSError as e: print(n, e)'
glibc_round() {  # glibc_round VARIANT: a few clients, a few names, under the current resolv.conf
  local v=$1
  cap "glibc-$v-getent-ahosts" getent ahosts example.com
  cap "glibc-$v-getent-hosts" getent hosts Api.Example.COM
  cap "glibc-$v-python-gai" "$PY" -c "$PYGAI" www.example.com
  [ -x "$BIN/resolve-glibc" ] && cap "glibc-$v-gai-inet6" "$BIN/resolve-glibc" gai inet6 my-host-1.example.net
  [ -x "$BIN/resolve-glibc" ] && cap "glibc-$v-res_query-txt" "$BIN/resolve-glibc" query 16 _dmarc.example.com
  return 0
}
resolv; glibc_round plain
for p in "${NAMES[@]}"; do cap "glibc-plain-getent-ahosts-${p%%:*}" getent ahosts "${p#*:}"; done
for p in "${NAMES[@]}"; do cap "glibc-plain-python-gai-${p%%:*}" "$PY" -c "$PYGAI" "${p#*:}"; done
cap glibc-plain-getent-ahostsv4 getent ahostsv4 example.com
cap glibc-plain-getent-ahostsv6 getent ahostsv6 example.com
cap glibc-plain-getent-hosts-v4-mixed getent -s dns hosts MiXeD.CaSe.ExAmPlE.oRg
cap glibc-plain-tcfallback getent ahosts tcp-truncated.example.com
if [ -x "$BIN/resolve-glibc" ]; then
  for m in unspec inet inet6 addrconfig canon; do cap "glibc-plain-gai-$m" "$BIN/resolve-glibc" gai "$m" www.example.com; done
  for t in 1:a 28:aaaa 5:cname 16:txt 15:mx 33:srv 65:https 255:any 2:ns 6:soa 257:caa; do
    cap "glibc-plain-res_query-${t#*:}" "$BIN/resolve-glibc" query "${t%%:*}" Api.Example.COM
  done
  cap glibc-plain-res_query-ptr "$BIN/resolve-glibc" query 12 1.0.0.127.in-addr.arpa
  cap glibc-plain-res_query-long253 "$BIN/resolve-glibc" query 1 "$LONG253"
fi
resolv "options edns0"; glibc_round edns0
resolv "options single-request"; glibc_round single-request
resolv "options single-request-reopen"; glibc_round single-request-reopen
resolv "options trust-ad"; glibc_round trust-ad
resolv "options edns0 trust-ad"; glibc_round edns0-trust-ad
resolv "options no-aaaa"; glibc_round no-aaaa
resolv "options use-vc"; glibc_round use-vc
resolv "options rotate"; glibc_round rotate
resolv "search corp.example svc.cluster.local" "options ndots:5"
glibc_round search-ndots5
cap glibc-search-ndots5-getent-ahosts-single getent ahosts nx-api
[ -x "$BIN/resolve-glibc" ] && cap glibc-search-ndots5-res_search-txt "$BIN/resolve-glibc" search 16 nx-api.team
resolv

# ---- musl: the same C program, linked statically with musl ----------------------------------------------------
if [ -x "$BIN/resolve-musl" ]; then
  for m in unspec inet inet6 addrconfig canon; do cap "musl-plain-gai-$m" "$BIN/resolve-musl" gai "$m" www.example.com; done
  for p in "${NAMES[@]}"; do cap "musl-plain-gai-unspec-${p%%:*}" "$BIN/resolve-musl" gai unspec "${p#*:}"; done
  for t in 1:a 28:aaaa 5:cname 16:txt 15:mx 33:srv 65:https 255:any 2:ns 6:soa 257:caa; do
    cap "musl-plain-res_query-${t#*:}" "$BIN/resolve-musl" query "${t%%:*}" Api.Example.COM
  done
  cap musl-plain-res_query-ptr "$BIN/resolve-musl" query 12 1.0.0.127.in-addr.arpa
  cap musl-plain-res_query-long253 "$BIN/resolve-musl" query 1 "$LONG253"
  cap musl-plain-tcfallback "$BIN/resolve-musl" gai unspec tcp-truncated.example.com
  resolv "options edns0 trust-ad"
  cap musl-edns0-trust-ad-gai-unspec "$BIN/resolve-musl" gai unspec example.com
  resolv "search corp.example svc.cluster.local" "options ndots:5"
  cap musl-search-ndots5-gai-unspec "$BIN/resolve-musl" gai unspec nx-api
  cap musl-search-ndots5-res_search-txt "$BIN/resolve-musl" search 16 nx-api.team
  resolv
fi

# ---- Node: c-ares (dns.Resolver, dns.promises.Resolver) and dns.lookup (libuv -> glibc getaddrinfo) -----------
if command -v node >/dev/null; then
  NR=(node "$BIN/node-resolve.js" 127.0.0.1:53)
  for m in resolve4 resolve6 resolveCname resolveAny resolveTxt resolveMx resolveSrv resolveNs resolveSoa \
    resolveCaa resolveNaptr resolvePtr; do
    cap "node-callback-${m,,}" "${NR[@]}" "callback-$m" Api.Example.COM
    cap "node-promises-${m,,}" "${NR[@]}" "promises-$m" www.example.com
  done
  cap node-callback-reverse "${NR[@]}" callback-reverse 127.0.0.1
  for p in "${NAMES[@]}"; do cap "node-callback-resolve4-${p%%:*}" "${NR[@]}" callback-resolve4 "${p#*:}"; done
  cap node-callback-tcfallback "${NR[@]}" callback-resolve4 tcp-truncated.example.com
  cap node-lookup-any "${NR[@]}" lookup-0 example.com
  cap node-lookup-v6 "${NR[@]}" lookup-6 Api.Example.COM
fi

# ---- Go: the pure-Go resolver, dialled explicitly and reading resolv.conf itself ------------------------------
if [ -x "$BIN/go-resolve" ]; then
  G=("$BIN/go-resolve" 127.0.0.1:53)
  for m in host ipaddr ip4 ip6 cname txt mx srv ns; do cap "go-dial-$m" "${G[@]}" "$m" Api.Example.COM; done
  cap go-dial-addr "${G[@]}" addr 127.0.0.1
  for p in "${NAMES[@]}"; do cap "go-dial-host-${p%%:*}" "${G[@]}" host "${p#*:}"; done
  cap go-dial-tcfallback "${G[@]}" host tcp-truncated.example.com
  for v in "plain:" "edns0:options edns0" "trust-ad:options trust-ad" "single-request:options single-request" \
    "use-vc:options use-vc" "edns0-trust-ad:options edns0 trust-ad"; do
    resolv "${v#*:}"
    cap "go-resolvconf-${v%%:*}-host" "$BIN/go-resolve" resolv.conf host www.example.com
    cap "go-resolvconf-${v%%:*}-txt" "$BIN/go-resolve" resolv.conf txt _dmarc.example.com
  done
  resolv "search corp.example svc.cluster.local" "options ndots:5"
  cap go-resolvconf-search-ndots5-host "$BIN/go-resolve" resolv.conf host nx-api
  resolv
fi
# ---- BusyBox nslookup: its own DNS client (the nslookup of Alpine/BusyBox images) --------------------------------
if command -v busybox >/dev/null && busybox --list | grep -qx nslookup; then
  cap busybox-nslookup-default busybox nslookup example.com 127.0.0.1
  cap busybox-nslookup-mixed busybox nslookup Api.Example.COM 127.0.0.1
  for t in aaaa cname mx txt srv ns soa ptr any; do cap "busybox-nslookup-$t" busybox nslookup -type=$t www.example.com 127.0.0.1; done
  cap busybox-nslookup-long253 busybox nslookup "$LONG253" 127.0.0.1
  cap busybox-nslookup-nx busybox nslookup nx-missing.example.com 127.0.0.1
fi

# ---- dig (BIND 9): default is EDNS with a fresh client COOKIE and AD set -------------------------------------
D=(dig @127.0.0.1 +time=2 +tries=1)
if command -v dig >/dev/null; then
  for t in A AAAA CNAME TXT MX HTTPS SVCB ANY NS SOA SRV CAA PTR DS DNSKEY NAPTR TYPE65280; do
    cap "dig-default-${t,,}" "${D[@]}" -t "$t" example.com
  done
  for p in "${NAMES[@]}"; do cap "dig-default-a-${p%%:*}" "${D[@]}" "${p#*:}"; done
  cap dig-default-ns-root "${D[@]}" -t NS .
  cap dig-default-a-longdot "${D[@]}" "$LONG253."
  cap dig-default-a-single "${D[@]}" intranet
  for p in "${NAMES[@]}"; do cap "dig-nocookie-a-${p%%:*}" "${D[@]}" +nocookie "${p#*:}"; done
  for t in AAAA CNAME TXT MX HTTPS ANY; do cap "dig-nocookie-${t,,}" "${D[@]}" +nocookie -t "$t" Api.Example.COM; done
  for p in "${NAMES[@]}"; do cap "dig-noedns-a-${p%%:*}" "${D[@]}" +noedns "${p#*:}"; done
  for t in AAAA CNAME TXT MX HTTPS ANY; do cap "dig-noedns-${t,,}" "${D[@]}" +noedns -t "$t" www.example.com; done
  for t in A AAAA DNSKEY DS; do cap "dig-dnssec-${t,,}" "${D[@]}" +dnssec -t "$t" example.com; done
  cap dig-dnssec-nocookie-a "${D[@]}" +dnssec +nocookie example.com
  cap dig-subnet4-a "${D[@]}" +subnet=10.0.0.0/24 example.com
  cap dig-subnet4-nocookie-a "${D[@]}" +subnet=10.0.0.0/24 +nocookie example.com
  cap dig-subnet6-aaaa "${D[@]}" +subnet=2001:db8::/56 -t AAAA example.com
  cap dig-subnet0-a "${D[@]}" +subnet=0 example.com
  cap dig-norec-a "${D[@]}" +norec example.com
  cap dig-norec-nocookie-a "${D[@]}" +norec +nocookie example.com
  cap dig-cd-a "${D[@]}" +cd +nocookie example.com
  cap dig-noad-a "${D[@]}" +noad +nocookie example.com
  cap dig-aaflag-a "${D[@]}" +aaflag +nocookie example.com
  cap dig-raflag-a "${D[@]}" +raflag +nocookie example.com
  cap dig-tcflag-a "${D[@]}" +tcflag +nocookie example.com
  cap dig-zflag-a "${D[@]}" +zflag +nocookie example.com
  cap dig-bufsize512-a "${D[@]}" +bufsize=512 +nocookie example.com
  cap dig-bufsize0-a "${D[@]}" +bufsize=0 +nocookie example.com
  cap dig-bufsize65535-a "${D[@]}" +bufsize=65535 +nocookie example.com
  cap dig-nsid-a "${D[@]}" +nsid +nocookie example.com
  cap dig-expire-soa "${D[@]}" +expire +nocookie -t SOA example.com
  cap dig-padding-a "${D[@]}" +padding=128 +nocookie example.com
  cap dig-ednsopt-a "${D[@]}" +ednsopt=65001:cafe +nocookie example.com
  cap dig-ednsopt-empty-a "${D[@]}" +ednsopt=65002 +nocookie example.com
  cap dig-edns1-a "${D[@]}" +edns=1 +nocookie +noednsnegotiation example.com
  cap dig-ednsflags-a "${D[@]}" +ednsflags=0x0001 +nocookie example.com
  cap dig-coflag-a "${D[@]}" +coflag +nocookie example.com
  cap dig-cookie-server-a "${D[@]}" +cookie=0123456789abcdef00112233445566778899aabbccddeeff example.com
  cap dig-tcp-a "${D[@]}" +tcp +nocookie example.com
  cap dig-tcp-aaaa "${D[@]}" +tcp +nocookie -t AAAA Api.Example.COM
  cap dig-tcp-default-a "${D[@]}" +tcp www.example.com
  cap dig-keepalive-a "${D[@]}" +tcp +keepalive +nocookie example.com
  cap dig-tcfallback-a "${D[@]}" +nocookie tcp-truncated.example.com
  cap dig-chaos-txt "${D[@]}" +nocookie -c CH -t TXT version.bind
  cap dig-class-any-a "${D[@]}" +nocookie -c ANY example.com
  cap dig-ptr-v4 "${D[@]}" +nocookie -x 127.0.0.1
  cap dig-ptr-v6 "${D[@]}" +nocookie -x ::1
  cap dig-ixfr-udp "${D[@]}" +notcp +nocookie -t IXFR=2024010101 example.com
  cap dig-header-only "${D[@]}" +header-only +nocookie example.com
  cap dig-opcode-status "${D[@]}" +opcode=2 +nocookie example.com
  cap dig-opcode-notify-soa "${D[@]}" +opcode=4 +nocookie -t SOA example.com
  cap host-default "host" -W 2 example.com 127.0.0.1
  cap host-txt "host" -W 2 -t TXT Api.Example.COM 127.0.0.1
  cap host-any "host" -W 2 -a example.com 127.0.0.1
  cap nslookup-default "nslookup" -timeout=2 example.com 127.0.0.1
  cap nslookup-mx "nslookup" -timeout=2 -type=MX example.com 127.0.0.1
fi

echo none >"$WORK/label"
