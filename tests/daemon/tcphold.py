#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Holds TCP connections open to a DNS server.

usage: tcphold.py [-b SOURCE] SERVER PORT COUNT

Opens COUNT connections to SERVER@PORT (IPv4 or IPv6; from SOURCE when
given), prints "open=N" (those that connected) and keeps them, asking
nothing, until it is killed or its standard input closes.
"""
import socket
import sys


def main():
    args = sys.argv[1:]
    source = None
    if args[:1] == ["-b"]:
        source, args = args[1], args[2:]
    server, port, count = args[0], int(args[1]), int(args[2])
    family = socket.AF_INET6 if ":" in server else socket.AF_INET
    held = []
    for _ in range(count):
        s = socket.socket(family, socket.SOCK_STREAM)
        s.settimeout(2)
        try:
            if source:
                s.bind((source, 0))
            s.connect((server, port))
            held.append(s)
        except OSError:
            s.close()
    print("open=%d" % len(held), flush=True)
    sys.stdin.read()


main()
