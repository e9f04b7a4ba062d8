// Client of scripts/capture-dns-corpus.sh: Node's c-ares resolver (dns.Resolver, dns.promises.Resolver) and
// dns.lookup (libuv -> getaddrinfo) against the capture server. Usage: node node-resolve.js SERVER:PORT MODE NAME...
// MODE: callback-<method> | promises-<method> | lookup-<0|4|6>, method one of resolve4, resolve6, resolveAny, ...
'use strict';
const dns = require('dns');
const [server, mode, ...names] = process.argv.slice(2);
const [api, method] = mode.split('-');

function report(name, err, res) {
  console.log(mode, name, err ? err.code : JSON.stringify(res));
}

async function main() {
  for (const name of names) {
    if (api === 'lookup') {
      await new Promise((done) => dns.lookup(name, { family: Number(method), all: true },
        (err, res) => { report(name, err, res); done(); }));
    } else if (api === 'promises') {
      const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 1 });
      resolver.setServers([server]);
      try { report(name, null, await resolver[method](name)); } catch (err) { report(name, err); }
    } else {
      const resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
      resolver.setServers([server]);
      await new Promise((done) => resolver[method](name, (err, res) => { report(name, err, res); done(); }));
    }
  }
}
main();
