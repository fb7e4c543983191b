# SPDX-License-Identifier: MIT
"""DNS messages over UDP and TCP for the test and benchmark proxies
(tests/lab/netproxy.py, tests/load/faultproxy.py, bench/delayproxy.py):
asking an upstream, and reading and writing TCP frames (RFC 1035 4.2.2:
a two-octet length, then the message). Standard library only."""
import socket
import struct

TIMEOUT = 4  # seconds an upstream has to answer


def recv_exact(s, n):
    """n octets from stream s, or None when it closes first."""
    buf = b""
    while len(buf) < n:
        part = s.recv(n - len(buf))
        if not part:
            return None
        buf += part
    return buf


def recv_frame(s):
    """One message from TCP stream s, or None when it closes."""
    head = recv_exact(s, 2)
    return recv_exact(s, struct.unpack("!H", head)[0]) if head else None


def send_frame(s, msg):
    s.sendall(struct.pack("!H", len(msg)) + msg)


def ask_udp(query, upstream, same_id=False):
    """upstream's answer to query over UDP (port 53), or None; with
    same_id, datagrams with another ID are skipped."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(TIMEOUT)
        try:
            s.sendto(query, (upstream, 53))
            while True:
                r = s.recv(65535)
                if not same_id or r[:2] == query[:2]:
                    return r
        except OSError:
            return None


def ask_tcp(query, upstream):
    """upstream's answer to query over TCP (port 53), or None."""
    try:
        with socket.create_connection((upstream, 53), timeout=TIMEOUT) as s:
            send_frame(s, query)
            return recv_frame(s)
    except OSError:
        return None
