#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""DNS questions pipelined on one TCP connection, timed by the client.

usage: tcppipe.py [-b SOURCE] SERVER PORT NAME COUNT [TIMEOUT]

Connects to SERVER@PORT (IPv4 or IPv6; from SOURCE when given), writes
COUNT questions for NAME (type A, class IN, RD, no EDNS; each its own ID)
at once, reads the answers until all have come, the server closes or
TIMEOUT seconds (default 30) pass without one, and prints one line:

  sent=N answered=M rcodes=NOERROR:M elapsed_ms=E

answered counts replies whose ID and question match one sent, each once;
elapsed_ms runs from before the first write to the last answer read.
"""
import socket
import struct
import sys
import time

from dnstally import Tally


def read_frames(sock, buf):
    """Reads once more; returns the new buffer and the whole frames in it,
    or None when the connection is closed or quiet too long."""
    try:
        data = sock.recv(65536)
    except OSError:
        return None
    if not data:
        return None
    buf += data
    frames = []
    while len(buf) >= 2 and len(buf) - 2 >= struct.unpack("!H", buf[:2])[0]:
        n = struct.unpack("!H", buf[:2])[0]
        frames.append(buf[2:2 + n])
        buf = buf[2 + n:]
    return buf, frames


def main():
    args = sys.argv[1:]
    source = None
    if args[:1] == ["-b"]:
        source, args = args[1], args[2:]
    server, port, name, count = args[0], int(args[1]), args[2], int(args[3])
    timeout = float(args[4]) if len(args) > 4 else 30.0
    sock = socket.socket(socket.AF_INET6 if ":" in server
                         else socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    if source:
        sock.bind((source, 0))
    sock.connect((server, port))
    tally = Tally()
    out = b""
    for i in range(count):
        msg = tally.question(i, name)
        tally.sent_one(msg)
        out += struct.pack("!H", len(msg)) + msg
    start = time.monotonic()
    last = start
    sock.sendall(out)
    buf = b""
    while tally.answered < len(tally.sent):
        got = read_frames(sock, buf)
        if got is None:
            break
        buf, frames = got
        for pkt in frames:
            if tally.count(pkt) is not None:
                last = time.monotonic()
    sock.close()
    print("sent=%d answered=%d rcodes=%s elapsed_ms=%.0f" %
          (len(tally.sent), tally.answered, tally.rcodes_text(),
           (last - start) * 1000))


main()
