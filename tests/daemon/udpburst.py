#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A burst of DNS questions over UDP, counted by the client itself.

usage: udpburst.py [-b SOURCE] SERVER PORT NAME COUNT SOCKETS [WAIT [SPREAD]]

Sends COUNT questions for NAME (type A, class IN, RD, no EDNS) to
SERVER@PORT (IPv4 or IPv6), round robin from SOCKETS sockets (each its
own source port, so that a server with one UDP socket per worker through
SO_REUSEPORT sees them on several workers), evenly over SPREAD seconds
(default 0: as fast as it can), then listens WAIT seconds (default 1.5)
more, and prints one line:

  sent=N answered=M tc=T rcodes=NOERROR:M send_ms=S

-b SOURCE sends from that address (each socket its own port).
answered counts replies whose ID and question match one sent; tc those
of them with TC set.
"""
import select
import socket
import sys
import time

from dnstally import Tally


def main():
    args = sys.argv[1:]
    source = None
    if args[:1] == ["-b"]:
        source, args = args[1], args[2:]
    server, port, name = args[0], int(args[1]), args[2]
    count, nsocks = int(args[3]), int(args[4])
    wait = float(args[5]) if len(args) > 5 else 1.5
    spread = float(args[6]) if len(args) > 6 else 0.0
    socks = []
    for _ in range(nsocks):
        s = socket.socket(socket.AF_INET6 if ":" in server
                          else socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        s.setblocking(False)
        if source:
            s.bind((source, 0))
        socks.append(s)
    tally = Tally()
    start = time.monotonic()
    for i in range(count):
        due = start + spread * i / count
        while time.monotonic() < due:
            time.sleep(max(0.0, min(0.001, due - time.monotonic())))
        msg = tally.question(i, name)
        try:
            socks[i % nsocks].sendto(msg, (server, port))
            tally.sent_one(msg)
        except BlockingIOError:
            pass
    send_ms = (time.monotonic() - start) * 1000
    tc = 0
    end = time.monotonic() + wait
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select(socks, [], [], left)
        for s in ready:
            while True:
                try:
                    pkt = s.recv(65535)
                except BlockingIOError:
                    break
                flags = tally.count(pkt)
                if flags is not None and flags & 0x0200:
                    tc += 1
    print("sent=%d answered=%d tc=%d rcodes=%s send_ms=%.1f" %
          (len(tally.sent), tally.answered, tc, tally.rcodes_text(),
           send_ms))


main()
