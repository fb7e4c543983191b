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


def question(qid, name):
    wire = b"".join(bytes([len(p)]) + p.encode()
                    for p in name.rstrip(".").split(".")) + b"\0"
    return struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + wire + \
        struct.pack("!HH", 1, 1)


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
    sent = {}
    out = b""
    for i in range(count):
        qid = (i * 7919 + 1) & 0xffff
        msg = question(qid, name)
        sent[qid] = msg[12:]
        out += struct.pack("!H", len(msg)) + msg
    start = time.monotonic()
    last = start
    sock.sendall(out)
    answered = 0
    rcodes = {}
    seen = set()
    buf = b""
    while answered < len(sent):
        got = read_frames(sock, buf)
        if got is None:
            break
        buf, frames = got
        for pkt in frames:
            if len(pkt) < 12:
                continue
            qid, flags = struct.unpack("!HH", pkt[:4])
            if qid not in sent or qid in seen or \
                    not pkt[12:].startswith(sent[qid]):
                continue
            seen.add(qid)
            answered += 1
            last = time.monotonic()
            rc = flags & 0xf
            rcodes[rc] = rcodes.get(rc, 0) + 1
    sock.close()
    names = {0: "NOERROR", 2: "SERVFAIL", 3: "NXDOMAIN", 5: "REFUSED"}
    rc_text = ",".join("%s:%d" % (names.get(k, str(k)), v)
                       for k, v in sorted(rcodes.items())) or "-"
    print("sent=%d answered=%d rcodes=%s elapsed_ms=%.0f" %
          (len(sent), answered, rc_text, (last - start) * 1000))


main()
