// Client of scripts/capture-dns-corpus.sh: Go's own resolver (PreferGo) against the capture server.
// Usage: go-resolve SERVER:PORT|resolv.conf METHOD NAME...
// With SERVER:PORT every dial (udp, or tcp after a truncated answer) goes there; with "resolv.conf" the
// resolver reads /etc/resolv.conf itself (options edns0, trust-ad, search, ...). METHOD is one of
// host, ipaddr, ip4, ip6, cname, txt, mx, srv, ns, addr.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"
)

func main() {
	server, method, names := os.Args[1], os.Args[2], os.Args[3:]
	r := &net.Resolver{PreferGo: true}
	if server != "resolv.conf" {
		r.Dial = func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, server)
		}
	}
	for _, name := range names {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var res interface{}
		var err error
		switch method {
		case "host":
			res, err = r.LookupHost(ctx, name)
		case "ipaddr":
			res, err = r.LookupIPAddr(ctx, name)
		case "ip4":
			res, err = r.LookupIP(ctx, "ip4", name)
		case "ip6":
			res, err = r.LookupIP(ctx, "ip6", name)
		case "cname":
			res, err = r.LookupCNAME(ctx, name)
		case "txt":
			res, err = r.LookupTXT(ctx, name)
		case "mx":
			res, err = r.LookupMX(ctx, name)
		case "srv":
			_, res, err = r.LookupSRV(ctx, "", "", name)
		case "ns":
			res, err = r.LookupNS(ctx, name)
		case "addr":
			res, err = r.LookupAddr(ctx, name)
		default:
			fmt.Fprintln(os.Stderr, "unknown method", method)
			os.Exit(2)
		}
		cancel()
		fmt.Println(method, name, res, err)
	}
}
