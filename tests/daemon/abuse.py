#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Abusive stream clients of dnstrustd's Unix socket (tests only).

  abuse.py uaf SOCKET ROUNDS        pipeline 2,000 questions, close unread
  abuse.py pin SOCKET CONNS NAME TYPE CLASS DO [SECONDS]
                                    CONNS connections, each pipelining
                                    64 KiB of one question, never reading;
                                    prints "held" once written, then waits
                                    SECONDS and prints how many were closed
                                    by the daemon and the octets read
  abuse.py hold SOCKET CONNS SECONDS
                                    CONNS connections that send nothing
  abuse.py ask SOCKET NAME TYPE CLASS  one question: "rcode=N ede=N"
  abuse.py trickle SOCKET           one octet, then wait: "closed after N s"
  abuse.py flood SOCKET CONNS PER SECONDS
                                    CONNS connections asking PER distinct
                                    names each at once; the answers read
                                    for SECONDS: "answers=N ede14=N"
"""
import os
import resource
import socket
import struct
import sys
import time

CLASSES = {'IN': 1, 'CH': 3}
TYPES = {'A': 1, 'AAAA': 28, 'TXT': 16, 'DNSKEY': 48}


def query(qid, name, qtype, qclass, do=False):
    wire = b''.join(bytes([len(l)]) + l.encode()
                    for l in name.rstrip('.').split('.') if l) + b'\0'
    msg = struct.pack('!HHHHHH', qid, 0x0100, 1, 0, 0, 1 if do else 0)
    msg += wire + struct.pack('!HH', TYPES[qtype], CLASSES[qclass])
    if do:
        msg += b'\0' + struct.pack('!HHIH', 41, 1232, 0x8000, 0)
    return struct.pack('!H', len(msg)) + msg


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def send_all(s, data):
    s.setblocking(False)
    sent = 0
    while sent < len(data):
        try:
            sent += s.send(data[sent:])
        except BlockingIOError:
            break  # the daemon stopped reading: backpressure
        except OSError:
            break
    return sent


def uaf(path, rounds):
    for r in range(rounds):
        s = connect(path)
        data = b''.join(query(i & 0xffff, 'status.dnstrust.', 'TXT', 'CH')
                        for i in range(2000))
        send_all(s, data)
        time.sleep(0.01)
        s.close()
    print('done')


def pin(path, conns, name, qtype, qclass, do, wait):
    one = query(7, name, qtype, qclass, do == '1')
    data = one * (65536 // len(one))
    socks = []
    for _ in range(conns):
        s = connect(path)
        s.settimeout(1)
        try:
            s.sendall(data)
        except OSError:
            pass  # the daemon stopped reading: backpressure
        socks.append(s)
    print('held', flush=True)
    time.sleep(wait)
    closed = 0
    octets = 0
    for s in socks:
        s.setblocking(False)
        eof = False
        try:
            while True:
                b = s.recv(1 << 16)
                if not b:
                    eof = True
                    break
                octets += len(b)
        except BlockingIOError:
            pass
        except OSError:
            eof = True
        closed += eof
        s.close()
    print('closed=%d octets=%d' % (closed, octets), flush=True)


def hold(path, conns, wait):
    raise_nofile()
    socks = []
    for _ in range(conns):
        try:
            socks.append(connect(path))
        except OSError as e:
            print('connect failed after %d: %s' % (len(socks), e))
            break
    print('held %d' % len(socks), flush=True)
    time.sleep(wait)


def ask(path, name, qtype, qclass):
    s = connect(path)
    s.settimeout(5)
    s.sendall(query(0x4242, name, qtype, qclass, True))
    buf = b''
    try:
        while len(buf) < 2 or len(buf) < 2 + struct.unpack('!H', buf[:2])[0]:
            b = s.recv(65537)
            if not b:
                break
            buf += b
    except OSError as e:
        print('error %s' % e)
        return
    if len(buf) < 14:
        print('closed')
        return
    print('rcode=%d ede=%s tc=%d' % (buf[5] & 0xf, ede_of(buf[2:]),
                                      buf[4] >> 1 & 1))


def skip_name(m, i):
    while m[i]:
        if m[i] >= 0xc0:
            return i + 2
        i += 1 + m[i]
    return i + 1


def ede_of(m):
    """The first EDE info-code of message m, or '-'."""
    counts = struct.unpack('!HHHH', m[4:12])
    i = 12
    for _ in range(counts[0]):
        i = skip_name(m, i) + 4
    for _ in range(sum(counts[1:])):
        i = skip_name(m, i)
        rtype, _, _, rdlen = struct.unpack('!HHIH', m[i:i + 10])
        i += 10
        if rtype == 41:
            j = i
            while j + 4 <= i + rdlen:
                code, olen = struct.unpack('!HH', m[j:j + 4])
                if code == 15:
                    return str(struct.unpack('!H', m[j + 4:j + 6])[0])
                j += 4 + olen
        i += rdlen
    return '-'


def trickle(path):
    s = connect(path)
    s.sendall(b'\0')
    t = time.time()
    s.settimeout(30)
    try:
        b = s.recv(10)
    except OSError:
        b = None
    print('closed after %d s' % round(time.time() - t) if b == b'' else
          'not closed')


def flood(path, conns, per, seconds):
    raise_nofile()
    socks = []
    for c in range(conns):
        s = connect(path)
        s.sendall(b''.join(query(i, 'q%d-%d.flood.example.' % (c, i), 'A',
                                 'IN', True) for i in range(per)))
        socks.append([s, b''])
    answers = ede14 = 0
    end = time.time() + seconds
    for entry in socks:
        entry[0].settimeout(max(0.01, end - time.time()))
        try:
            while True:
                b = entry[0].recv(65536)
                if not b:
                    break
                entry[1] += b
        except OSError:
            pass
        buf = entry[1]
        while len(buf) >= 2 and len(buf) >= 2 + struct.unpack('!H', buf[:2])[0]:
            n = struct.unpack('!H', buf[:2])[0]
            answers += 1
            ede14 += buf[5] & 0xf == 2 and ede_of(buf[2:2 + n]) == '14'
            buf = buf[2 + n:]
    print('answers=%d ede14=%d' % (answers, ede14))


cmd = sys.argv[1]
if cmd == 'uaf':
    uaf(sys.argv[2], int(sys.argv[3]))
elif cmd == 'pin':
    pin(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6],
        sys.argv[7], float(sys.argv[8]) if len(sys.argv) > 8 else 0)
elif cmd == 'hold':
    hold(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
elif cmd == 'ask':
    ask(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
elif cmd == 'flood':
    flood(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
          float(sys.argv[5]))
elif cmd == 'trickle':
    trickle(sys.argv[2])
