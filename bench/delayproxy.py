#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A DNS forwarder that answers late and logs every question, for
bench/cold.sh.

Listens on ADDR port 53 (UDP and TCP), forwards each question to UPSTREAM
port 53 at once and sends the answer back DELAY milliseconds after the
question arrived (each question on its own thread: questions asked
together are answered together, as by a distant server). DELAY is the
first word of the file DELAYFILE, read for every question (0 when the
file is missing). One line per question is appended to LOG:

    ARRIVAL-TIME PEER-ADDRESS udp|tcp QNAME QTYPE

ARRIVAL-TIME is seconds since the epoch (time.time(), as bash's
EPOCHREALTIME). Prints "ready" once both sockets are bound; stops on
SIGTERM. Loopback addresses only.

In front of an authoritative server (bench/cold.sh's recursive mode),
MAP (FROM=TO,FROM=TO...) rewrites the address of every A record FROM in
the authority and additional sections of the responses (the glue) to
TO: the lab's referrals then name the proxies, so that a resolver
recursing from the proxies' hints keeps asking through them. The RRSIGs
of those sections that cover A records are made to cover type 65534
instead (NSD signs the addresses of name servers named in its own
zone, and a resolver that validates them would find the rewritten one
bogus): the rewritten address is then glue, as unsigned. Answers
are left as they are (their A records are signed): a resolver that asks
a name server's address itself and uses the answer rather than the glue
asks that server directly, without the delay.

usage: delayproxy.py ADDR UPSTREAM DELAYFILE LOG [MAP]
"""
import os
import signal
import socket
import struct
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "lab"))
from dnsio import ask_tcp, ask_udp, recv_frame, send_frame  # noqa: E402

lock = threading.Lock()


def delay(path):
    try:
        with open(path) as f:
            return float(f.read().split()[0]) / 1000
    except (OSError, IndexError, ValueError):
        return 0.0


def question(q):
    """(QNAME, QTYPE) of a query, or ("?", "?")."""
    try:
        i, labels = 12, []
        while q[i]:
            labels.append(q[i + 1:i + 1 + q[i]].decode("ascii", "replace"))
            i += 1 + q[i]
        qtype = struct.unpack("!H", q[i + 1:i + 3])[0]
        names = {1: "A", 2: "NS", 5: "CNAME", 6: "SOA", 28: "AAAA",
                 43: "DS", 48: "DNSKEY"}
        return ".".join(labels) + ".", names.get(qtype, "TYPE%d" % qtype)
    except (IndexError, struct.error):
        return "?", "?"


def skip_name(m, i):
    """The offset after the (possibly compressed) name at m[i]."""
    while m[i]:
        if m[i] & 0xC0 == 0xC0:
            return i + 2
        i += 1 + m[i]
    return i + 1


def rewrite(m, amap):
    """m with every A record whose address is in amap (4 octets to 4
    octets) rewritten; m itself when it cannot be parsed."""
    if not amap or len(m) < 12:
        return m
    out = bytearray(m)
    try:
        qd, an, ns, ar = struct.unpack("!4H", m[4:12])
        i = 12
        for _ in range(qd):
            i = skip_name(m, i) + 4
        for k in range(an + ns + ar):
            i = skip_name(m, i)
            rtype, _, _, rdlen = struct.unpack("!HHIH", m[i:i + 10])
            i += 10
            if k >= an and rtype == 1 and rdlen == 4 and \
                    bytes(m[i:i + 4]) in amap:
                out[i:i + 4] = amap[bytes(m[i:i + 4])]
            if k >= an and rtype == 46 and rdlen >= 2 and \
                    struct.unpack("!H", m[i:i + 2])[0] == 1:
                out[i:i + 2] = struct.pack("!H", 65534)
            i += rdlen
    except (IndexError, struct.error):
        return m
    return bytes(out)


def log(logfile, t, peer, transport, q):
    name, qtype = question(q)
    with lock:
        logfile.write("%.6f %s %s %s %s\n" % (t, peer, transport, name, qtype))
        logfile.flush()


def late(t0, d):
    left = t0 + d - time.time()
    if left > 0:
        time.sleep(left)


AMAP = {}


def serve_udp(sock, upstream, delayfile, logfile):
    while True:
        query, peer = sock.recvfrom(65535)
        t0 = time.time()
        d = delay(delayfile)
        log(logfile, t0, peer[0], "udp", query)

        def reply(q=query, p=peer, t0=t0, d=d):
            r = ask_udp(q, upstream)
            if r is None:
                return
            r = rewrite(r, AMAP)
            late(t0, d)
            try:
                sock.sendto(r, p)
            except OSError:
                pass
        threading.Thread(target=reply, daemon=True).start()


def serve_tcp_conn(conn, peer, upstream, delayfile, logfile):
    with conn:
        conn.settimeout(30)
        while True:
            try:
                query = recv_frame(conn)
            except OSError:
                return
            if query is None:
                return
            t0 = time.time()
            d = delay(delayfile)
            log(logfile, t0, peer[0], "tcp", query)
            r = ask_tcp(query, upstream)
            if r is None:
                return
            r = rewrite(r, AMAP)
            late(t0, d)
            try:
                send_frame(conn, r)
            except OSError:
                return


def serve_tcp(sock, upstream, delayfile, logfile):
    while True:
        conn, peer = sock.accept()
        threading.Thread(target=serve_tcp_conn,
                         args=(conn, peer, upstream, delayfile, logfile),
                         daemon=True).start()


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    addr, upstream, delayfile, logpath = sys.argv[1:5]
    for pair in (sys.argv[5].split(",") if len(sys.argv) == 6 else []):
        a, b = pair.split("=")
        AMAP[socket.inet_aton(a)] = socket.inet_aton(b)
    for a in (addr, upstream):
        if not a.startswith("127."):
            sys.exit("delayproxy: loopback addresses only")
    logfile = open(logpath, "a")
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind((addr, 53))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((addr, 53))
    tcp.listen(64)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Thread(target=serve_tcp,
                     args=(tcp, upstream, delayfile, logfile),
                     daemon=True).start()
    print("ready", flush=True)
    serve_udp(udp, upstream, delayfile, logfile)


if __name__ == "__main__":
    main()
