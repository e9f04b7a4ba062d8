#!/usr/bin/env python3
"""Capture server of scripts/capture-dns-corpus.sh: records every DNS query it receives and answers it.

Listens on UDP and TCP HOST:PORT. Each UDP datagram, and each TCP message without its 2-byte length, is
written to OUT_DIR/<seq>_<label>[-tcp].bin, where <label> is the current content of LABEL_FILE (the
driver writes the name of the step before running each client). Answers are minimal but valid, so
clients neither retry nor time out:
  - A -> 127.0.0.1, AAAA -> ::1 (TTL 60, name compressed to the question);
  - a first label starting with "nx" -> NXDOMAIN (so glibc/musl/Go walk their search lists);
  - a first label starting with "tcp" -> over UDP an empty answer with TC set (clients retry over TCP),
    over TCP the normal answer;
  - any other type -> NOERROR without answers (no data);
  - a packet that is not one parseable question -> FORMERR echoing the id (header only).
"""
import os
import socket
import struct
import sys
import threading

HOST, PORT, OUT_DIR, LABEL_FILE = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
seq_lock = threading.Lock()
seq = [0]


def record(data, tcp):
    try:
        with open(LABEL_FILE) as f:
            label = f.read().strip() or "unlabelled"
    except OSError:
        label = "unlabelled"
    with seq_lock:
        seq[0] += 1
        n = seq[0]
    name = "%06d_%s%s.bin" % (n, label, "-tcp" if tcp else "")
    with open(os.path.join(OUT_DIR, name), "wb") as f:
        f.write(data)


def question(data):
    """(first label lower-cased, end offset of the question, qtype) or None."""
    if len(data) < 12 or struct.unpack(">H", data[4:6])[0] != 1:
        return None
    i, first = 12, None
    while True:
        if i >= len(data):
            return None
        n = data[i]
        if n == 0:
            i += 1
            break
        if n & 0xC0:
            return None
        if first is None:
            first = data[i + 1:i + 1 + n].lower()
        i += 1 + n
    if i + 4 > len(data):
        return None
    qtype = struct.unpack(">H", data[i:i + 2])[0]
    return first or b"", i + 4, qtype


def answer(data, tcp):
    qid = data[0:2] if len(data) >= 2 else b"\0\0"
    flags_in = struct.unpack(">H", data[2:4])[0] if len(data) >= 4 else 0
    opcode_rd_cd = flags_in & (0x7800 | 0x0100 | 0x0010)
    q = question(data)
    if q is None:
        return qid + struct.pack(">HHHHH", 0x8000 | 0x0080 | opcode_rd_cd | 1, 0, 0, 0, 0)
    first, end, qtype = q
    rcode, tc, answers = 0, 0, b""
    if first.startswith(b"nx"):
        rcode = 3
    elif first.startswith(b"tcp") and not tcp:
        tc = 0x0200
    elif qtype == 1:
        answers = struct.pack(">HHHIH", 0xC00C, 1, 1, 60, 4) + bytes([127, 0, 0, 1])
    elif qtype == 28:
        answers = struct.pack(">HHHIH", 0xC00C, 28, 1, 60, 16) + bytes(15) + b"\x01"
    flags = 0x8000 | 0x0080 | opcode_rd_cd | tc | rcode
    header = qid + struct.pack(">HHHHH", flags, 1, 1 if answers else 0, 0, 0)
    return header + data[12:end] + answers


def serve_udp(sock):
    while True:
        data, peer = sock.recvfrom(65535)
        record(data, False)
        sock.sendto(answer(data, False), peer)


def read_exact(conn, n):
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def serve_tcp_conn(conn):
    with conn:
        while True:
            head = read_exact(conn, 2)
            if head is None:
                return
            data = read_exact(conn, struct.unpack(">H", head)[0])
            if data is None:
                return
            record(data, True)
            out = answer(data, True)
            conn.sendall(struct.pack(">H", len(out)) + out)


def serve_tcp(sock):
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=serve_tcp_conn, args=(conn,), daemon=True).start()


def main():
    family = socket.AF_INET6 if ":" in HOST else socket.AF_INET
    udp = socket.socket(family, socket.SOCK_DGRAM)
    udp.bind((HOST, PORT))
    tcp = socket.socket(family, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((HOST, PORT))
    tcp.listen(64)
    threading.Thread(target=serve_tcp, args=(tcp,), daemon=True).start()
    print("ready", flush=True)
    serve_udp(udp)


if __name__ == "__main__":
    main()
