#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A DNS upstream that misbehaves on demand, for tests/load/load.sh.

Listens on ADDR port 53 (UDP and TCP) and forwards each question to
UPSTREAM (the lab's honest resolver), or does not, as the first word of
the file MODE says at the time the question arrives (re-read every time):

  pass       forward, return the answer
  blackhole  never answer (UDP dropped, TCP connections held silent)
  garbage    answer with random octets (the question's ID kept half the
             time, so some of them reach the parser)
  delay N    forward, answer after N seconds
  flap       pass during even seconds of the clock, blackhole in odd ones
  refuse     close TCP at once, answer UDP with REFUSED
  strip      forward with the DO bit cleared: no DNSSEC records come back
             (an old dnsmasq, a home router)
  formerr-edns  answer FORMERR (header and question) to every query with
             an OPT record, printing "formerr" for each; forward the others
  ad-strip   as strip, with AD=1 set on every answer
  servfail-ds  SERVFAIL to DS queries; forward the others
  tc-notcp   over UDP, an answer above 512 octets becomes the header and
             question with TC=1; TCP connections closed at once
  portal A   a captive portal: every A question answered with the IPv4
             address A (TTL 30, no signature), AAAA with an empty
             NOERROR, everything else forwarded
  portal A nokeys
             the same, and DNSKEY and DS questions answered SERVFAIL

Prints "ready" once both sockets are bound. Stops on SIGTERM. Traffic
only to the loopback addresses it is given.

usage: faultproxy.py ADDR UPSTREAM MODEFILE
"""
import os
import random
import signal
import socket
import struct
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lab"))
from dnsio import ask_tcp, ask_udp, recv_frame, send_frame  # noqa: E402


def mode(path):
    try:
        with open(path) as f:
            words = f.read().split()
    except OSError:
        return ["pass"]
    w = words or ["pass"]
    if w[0] == "flap":
        return ["pass"] if int(time.time()) % 2 == 0 else ["blackhole"]
    return w


def question_end(query):
    """The offset past the question section, or None."""
    off = 12
    while off < len(query):
        n = query[off]
        if n == 0:
            off += 1
            return off + 4 if off + 4 <= len(query) else None
        if n & 0xC0:
            return None
        off += 1 + n
    return None


def portal(query, addr, nokeys=False):
    """The portal's own answer to an A or AAAA question (and with nokeys
    to DNSKEY and DS: SERVFAIL), else None."""
    end = question_end(query)
    if len(query) < 12 or end is None:
        return None
    qtype = struct.unpack("!H", query[end - 4:end - 2])[0]
    rd = struct.unpack("!H", query[2:4])[0] & 0x0100
    if nokeys and qtype in (43, 48):
        return query[:2] + struct.pack("!HHHHH", 0x8082 | rd, 1, 0, 0,
                                       0) + query[12:end]
    if qtype not in (1, 28):
        return None
    head = query[:2] + struct.pack("!HHHHH", 0x8080 | rd, 1,
                                   1 if qtype == 1 else 0, 0, 0)
    if qtype == 28:
        return head + query[12:end]
    rr = struct.pack("!HHHIH", 0xC00C, 1, 1, 30, 4) + socket.inet_aton(addr)
    return head + query[12:end] + rr


def clear_do(query):
    """The query with the DO bit of its OPT record cleared (a query of
    one question and one OPT record, as dnstrustd sends)."""
    end = question_end(query)
    if end is None or len(query) < end + 11 or query[end + 1:end + 3] != b"\0\x29":
        return query
    q = bytearray(query)
    q[end + 7] &= 0x7F
    return bytes(q)


def formerr(query):
    end = question_end(query)
    if end is None:
        return None
    flags = struct.unpack("!H", query[2:4])[0] | 0x8000
    return (query[:2] + struct.pack("!HHHHH", (flags & ~0xF) | 1, 1, 0, 0, 0)
            + query[12:end])


def with_flags(msg, set_bits, rcode=None):
    flags = struct.unpack("!H", msg[2:4])[0] | set_bits
    if rcode is not None:
        flags = (flags & ~0xF) | rcode
    return msg[:2] + struct.pack("!H", flags) + msg[4:]


def bare(msg, set_bits, rcode=None):
    """The header (flags changed) and question of msg alone, or msg."""
    end = question_end(msg)
    if end is None:
        return msg
    return (with_flags(msg[:4], set_bits, rcode)
            + struct.pack("!HHHH", 1, 0, 0, 0) + msg[12:end])


def answer(query, upstream, m, tcp):
    """What to send back for query under mode m, or None for nothing."""
    if m[0] == "blackhole":
        return None
    if m[0] in ("strip", "ad-strip"):
        query = clear_do(query)
    if m[0] == "servfail-ds":
        end = question_end(query)
        if end is not None and query[end - 4:end - 2] == b"\0\x2b":
            return bare(query, 0x8000, 2)
    if m[0] in ("ad-strip", "tc-notcp"):
        r = ask_tcp(query, upstream) if tcp else ask_udp(query, upstream)
        if r is None or len(r) < 12:
            return r
        if m[0] == "ad-strip":
            return with_flags(r, 0x0020)
        return bare(r, 0x0200) if len(r) > 512 else r
    if m[0] == "formerr-edns" and len(query) >= 12 and query[11] > 0:
        print("formerr", flush=True)
        return formerr(query)
    if m[0] == "portal" and len(m) > 1:
        r = portal(query, m[1], len(m) > 2 and m[2] == "nokeys")
        if r is not None:
            return r
    if m[0] == "garbage":
        junk = os.urandom(random.randint(0, 600))
        if random.random() < 0.5 and len(query) >= 2:
            junk = query[:2] + junk
        return junk
    if m[0] == "refuse":
        if len(query) < 12:
            return None
        flags = struct.unpack("!H", query[2:4])[0] | 0x8000
        return query[:2] + struct.pack("!H", (flags & ~0xF) | 5) + query[4:]
    if m[0] == "delay":
        time.sleep(float(m[1]) if len(m) > 1 else 10)
    return ask_tcp(query, upstream) if tcp else ask_udp(query, upstream)


def serve_udp(sock, upstream, modefile):
    while True:
        query, peer = sock.recvfrom(65535)
        m = mode(modefile)

        def reply(q=query, p=peer, m=m):
            r = answer(q, upstream, m, False)
            if r is not None:
                try:
                    sock.sendto(r, p)
                except OSError:
                    pass
        threading.Thread(target=reply, daemon=True).start()


def serve_tcp_conn(conn, upstream, modefile):
    with conn:
        conn.settimeout(30)
        while True:
            try:
                query = recv_frame(conn)
            except OSError:
                return
            if query is None:
                return
            m = mode(modefile)
            if m[0] in ("refuse", "tc-notcp"):
                return
            r = answer(query, upstream, m, True)
            if r is None:
                time.sleep(30)
                return
            try:
                send_frame(conn, r)
            except OSError:
                return


def serve_tcp(sock, upstream, modefile):
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=serve_tcp_conn,
                         args=(conn, upstream, modefile), daemon=True).start()


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    addr, upstream, modefile = sys.argv[1:]
    for a in (addr, upstream):
        if not a.startswith("127."):
            sys.exit("faultproxy: loopback addresses only")
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind((addr, 53))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((addr, 53))
    tcp.listen(64)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Thread(target=serve_tcp, args=(tcp, upstream, modefile),
                     daemon=True).start()
    print("ready", flush=True)
    serve_udp(udp, upstream, modefile)


if __name__ == "__main__":
    main()
