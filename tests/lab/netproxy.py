#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Imitations of the resolvers real networks hand out, for
tests/daemon/lab_networks.sh.

Listens on ADDR port 53 (UDP and TCP), forwards to UPSTREAM (the lab's
honest iterating resolver) and behaves like one kind of network resolver,
as the words of the file MODEFILE say when the question arrives (re-read
for every question; a missing or empty file is "pass"), or as the words
after -m say for the whole run:

  pass           forward, return the answer untouched
  blackhole      never answer (UDP dropped, TCP connections held silent),
                 as a firewall that drops the packets
  strip          an old dnsmasq or home router: asks the upstream without
                 EDNS (DO ignored), removes RRSIG, NSEC, NSEC3, DS and
                 DNSKEY records from every section (DS and DNSKEY
                 questions get NOERROR and no data), clears AD, answers
                 without EDNS (TC=1 above 512 octets over UDP)
  formerr-edns   an old middlebox: FORMERR without OPT to every query with
                 EDNS; plain queries forwarded plain, answered without EDNS
                 (so without DNSSEC records)
  trunc512       UDP answers above 512 octets come back with TC=1 and no
                 records; TCP connections are closed at once
  ad-strip       sets AD and drops every RRSIG (keeps the rest)
  ds-servfail    SERVFAIL to every DS question, the rest forwarded
  ds-nxdomain    NXDOMAIN to every DS question, the rest forwarded
  ds-empty       NOERROR without records (no DS, no NSEC) to every DS
                 question, DO copied; the rest forwarded
  nodata-dnskey  a resolver that drops the DNSSEC types: NOERROR without
                 records to every DNSKEY and DS question (the root's
                 DNSKEY too), EDNS and DO kept; the rest forwarded
  no-do          speaks EDNS but ignores DO: asks the upstream with DO=0
                 (so no RRSIG, NSEC or NSEC3 come) and answers with DO=0
  ds-servfail-slownx [MS]
                 as ds-servfail, and every NXDOMAIN answer comes after MS
                 milliseconds (300): a resolver whose misses take long,
                 so that a validator's questions for existing names meet
                 the DS failure before its probe (whose second step asks
                 for a name that does not exist) does
  portal ADDR [NAME]
                 a hotspot before sign-on: every A question answered with
                 ADDR (TTL 0..60, AA=0, unsigned), every AAAA with NOERROR
                 and no data, the rest forwarded; NAME (the portal's own
                 name, for the log only) is answered the same way
  slow MS        forwards and answers after MS milliseconds, each question
                 in its own thread (others are not held up)
  router [SUFFIX]
                 a good resolver that also knows the local names: answers
                 itself, unsigned and AA=0, router.lan. and fritz.box.
                 (A 192.168.1.1), every name below home.arpa. (A
                 192.168.1.2) and every name below SUFFIX (the DHCP search
                 domain: A 192.168.1.3); other types there NOERROR and no
                 data, other names below lan. and box. NXDOMAIN; passes
                 everything else through untouched (DNSSEC works)
  hijack SUFFIX ADDR
                 a hostile network that hands out SUFFIX as its DHCP
                 search domain and claims it: every A question at or
                 below SUFFIX answered with ADDR (unsigned, AA=0), every
                 other type there (DS and DNSKEY included) NOERROR and no
                 data; names elsewhere forwarded untouched

Every question is one line on stdout, flushed, as it is answered:

  q NAME TYPE edns=0|1 do=0|1 tcp=0|1 -> RCODE|TC|DROP|CLOSE ACTION

(ACTION: forwarded, stripped, formerr, truncated, ad-set, ds-refused,
portal, local, hijacked, dropped...), so tests count questions and FORMERRs.
Prints "ready" once both sockets are bound. Stops on SIGTERM. Traffic
only to the loopback addresses it is given.

usage: netproxy.py ADDR UPSTREAM MODEFILE
       netproxy.py ADDR UPSTREAM -m MODE [ARG...]
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
from dnsio import ask_tcp, ask_udp, recv_frame, send_frame  # noqa: E402

T_A, T_NS, T_CNAME, T_SOA, T_AAAA, T_OPT = 1, 2, 5, 6, 28, 41
T_DS, T_RRSIG, T_NSEC, T_DNSKEY, T_NSEC3 = 43, 46, 47, 48, 50
DNSSEC_TYPES = {T_DS, T_RRSIG, T_NSEC, T_DNSKEY, T_NSEC3}
TYPE_NAMES = {1: "A", 2: "NS", 5: "CNAME", 6: "SOA", 12: "PTR", 15: "MX",
              16: "TXT", 28: "AAAA", 33: "SRV", 39: "DNAME", 41: "OPT",
              43: "DS", 44: "SSHFP", 46: "RRSIG", 47: "NSEC", 48: "DNSKEY",
              50: "NSEC3", 51: "NSEC3PARAM", 52: "TLSA", 65: "HTTPS",
              257: "CAA"}
RCODES = ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"]
F_QR, F_AA, F_TC, F_RD, F_RA, F_AD = 0x8000, 0x0400, 0x0200, 0x0100, \
    0x0080, 0x0020
UDP_PLAIN = 512     # RFC 1035 4.2.1: the UDP limit without EDNS
EDNS_SIZE = 1232    # what the imitations that speak EDNS offer

# The layout of RDATA with domain names that a server may compress
# (RFC 3597 4: the types of RFC 1035 and a few later ones): N a name,
# a number a run of that many octets.
RDATA_NAMES = {2: "N", 3: "N", 4: "N", 5: "N", 7: "N", 8: "N", 9: "N",
               12: "N", 39: "N", 6: ("N", "N", 20), 14: ("N", "N"),
               17: ("N", "N"), 15: (2, "N"), 18: (2, "N"), 21: (2, "N"),
               36: (2, "N"), 33: (6, "N"), 26: (2, "N", "N")}

ROUTER_ADDR = {"router.lan.": "192.168.1.1", "fritz.box.": "192.168.1.1"}
HOME_ADDR = "192.168.1.2"
SEARCH_ADDR = "192.168.1.3"

PASSED = ("forwarded", "slow", "forwarded+slow")

out_lock = threading.Lock()


class Bad(Exception):
    """A message that cannot be parsed."""


# --- the wire format (RFC 1035 4) ---

def read_name(msg, off):
    """The name at off (pointers followed) in presentation form, its case
    kept, and the offset after it in place."""
    labels, end, hops = [], None, 0
    while True:
        if off >= len(msg):
            raise Bad("name runs off the end")
        n = msg[off]
        if n & 0xC0 == 0xC0:
            if off + 1 >= len(msg) or hops > 64:
                raise Bad("bad pointer")
            if end is None:
                end = off + 2
            off = ((n & 0x3F) << 8) | msg[off + 1]
            hops += 1
            continue
        if n & 0xC0:
            raise Bad("label type")
        off += 1
        if n == 0:
            break
        if off + n > len(msg):
            raise Bad("label runs off the end")
        labels.append(msg[off:off + n].decode("latin-1"))
        off += n
    return ".".join(labels) + ".", (end if end is not None else off)


def name_wire(name):
    out = b""
    for label in name.rstrip(".").split(".") if name != "." else []:
        out += bytes([len(label)]) + label.encode("latin-1")
    return out + b"\0"


class Writer:
    """A message being built, names compressed against earlier ones."""

    def __init__(self):
        self.buf = bytearray()
        self.seen = {}

    def name(self, name):
        labels = [] if name == "." else name.rstrip(".").split(".")
        for i in range(len(labels)):
            suffix = ".".join(labels[i:]).lower()
            if suffix in self.seen:
                self.buf += struct.pack("!H", 0xC000 | self.seen[suffix])
                return
            if len(self.buf) < 0x3FFF:
                self.seen[suffix] = len(self.buf)
            self.buf += bytes([len(labels[i])]) + labels[i].encode("latin-1")
        self.buf += b"\0"


class RR:
    def __init__(self, name, rtype, rclass, ttl, rdata):
        self.name, self.type, self.rclass = name, rtype, rclass
        self.ttl, self.rdata = ttl, rdata   # rdata: list of str and bytes


class Msg:
    def __init__(self):
        self.id = 0
        self.flags = 0
        self.qname, self.qtype, self.qclass = ".", T_A, 1
        self.has_question = False
        self.sections = [[], [], []]    # answer, authority, additional
        self.raw = None     # the octets it was parsed from, if unchanged

    def opt(self):
        for rr in self.sections[2]:
            if rr.type == T_OPT:
                return rr
        return None

    def do_bit(self):
        o = self.opt()
        return bool(o and o.ttl & 0x8000)

    def rcode(self):
        return self.flags & 0xF


def parse_rdata(msg, off, end, rtype):
    layout = RDATA_NAMES.get(rtype)
    if layout is None:
        return [msg[off:end]]
    if isinstance(layout, str):
        layout = (layout,)
    parts = []
    for item in layout:
        if item == "N":
            name, off = read_name(msg, off)
            parts.append(name)
        else:
            parts.append(msg[off:off + item])
            off += item
    if off != end:
        raise Bad("rdata length")
    return parts


def parse(msg):
    if len(msg) < 12:
        raise Bad("short header")
    m = Msg()
    m.id, m.flags, qd, an, ns, ar = struct.unpack("!6H", msg[:12])
    off = 12
    if qd > 1:
        raise Bad("more than one question")
    if qd == 1:
        m.qname, off = read_name(msg, off)
        if off + 4 > len(msg):
            raise Bad("short question")
        m.qtype, m.qclass = struct.unpack("!HH", msg[off:off + 4])
        m.has_question = True
        off += 4
    for sec, count in enumerate((an, ns, ar)):
        for _ in range(count):
            name, off = read_name(msg, off)
            if off + 10 > len(msg):
                raise Bad("short record")
            rtype, rclass, ttl, rdlen = struct.unpack("!HHIH",
                                                      msg[off:off + 10])
            off += 10
            if off + rdlen > len(msg):
                raise Bad("rdata runs off the end")
            rdata = parse_rdata(msg, off, off + rdlen, rtype)
            m.sections[sec].append(RR(name, rtype, rclass, ttl, rdata))
            off += rdlen
    m.raw = msg
    return m


def build(m):
    w = Writer()
    w.buf += struct.pack("!6H", m.id, m.flags, 1 if m.has_question else 0,
                         *(len(s) for s in m.sections))
    if m.has_question:
        w.name(m.qname)
        w.buf += struct.pack("!HH", m.qtype, m.qclass)
    for sec in m.sections:
        for rr in sec:
            w.name(rr.name)
            w.buf += struct.pack("!HHI", rr.type, rr.rclass, rr.ttl)
            at = len(w.buf)
            w.buf += b"\0\0"
            for part in rr.rdata:
                if isinstance(part, str):
                    w.name(part)
                else:
                    w.buf += part
            struct.pack_into("!H", w.buf, at, len(w.buf) - at - 2)
    return bytes(w.buf)


def reply_to(q, rcode=0, flags=0):
    """An answer to q with no records: its ID, question and RD kept."""
    r = Msg()
    r.id, r.qname, r.qtype, r.qclass = q.id, q.qname, q.qtype, q.qclass
    r.has_question = q.has_question
    r.flags = F_QR | (q.flags & F_RD) | F_RA | flags | rcode
    return r


def add_opt(r, size=EDNS_SIZE, do=False):
    r.sections[2].append(RR(".", T_OPT, size, 0x8000 if do else 0, [b""]))


def drop_opt(m):
    m.sections[2] = [rr for rr in m.sections[2] if rr.type != T_OPT]


def truncated(r):
    """r with TC=1 and no records (OPT kept): what a server sends when
    the answer does not fit."""
    t = reply_to(r, r.rcode(), F_TC | (r.flags & (F_AA | F_AD)))
    t.id = r.id
    opt = r.opt()
    if opt:
        t.sections[2].append(opt)
    return t


# --- the upstream ---

def ask(upstream, query, tcp):
    """The upstream's answer to query (bytes), over TCP or UDP, or None."""
    return ask_tcp(query, upstream) if tcp else ask_udp(query, upstream,
                                                         same_id=True)


def forward(upstream, q, tcp, plain=False):
    """The upstream's answer to q (a Msg, or None); plain: asked without
    EDNS, as resolvers that know nothing of it do."""
    if plain:
        q = copy_query(q)
        drop_opt(q)
    raw = ask(upstream, build(q), tcp)
    if raw is None:
        return None
    try:
        return parse(raw)
    except Bad:
        return None


def copy_query(q):
    c = Msg()
    c.id, c.flags, c.qname, c.qtype, c.qclass = \
        q.id, q.flags, q.qname, q.qtype, q.qclass
    c.has_question = q.has_question
    c.sections = [list(s) for s in q.sections]
    return c


# --- the imitations: (Msg or None, action) for a question ---

def m_strip(q, up, tcp):
    r = forward(up, q, tcp, plain=True)
    if r is None:
        return None, "no-upstream"
    r.sections = [[rr for rr in s if rr.type not in DNSSEC_TYPES and
                   rr.type != T_OPT] for s in r.sections]
    r.flags &= ~F_AD
    return r, "stripped"


def m_formerr(q, up, tcp):
    if q.opt():
        return reply_to(q, 1), "formerr"
    r = forward(up, q, tcp)
    if r is None:
        return None, "no-upstream"
    drop_opt(r)
    return r, "forwarded"


def m_trunc(q, up, tcp):
    r = forward(up, q, False)
    if r is None:
        return None, "no-upstream"
    if len(r.raw) > UDP_PLAIN:
        return truncated(r), "truncated"
    return r, "forwarded"


def m_adstrip(q, up, tcp):
    r = forward(up, q, tcp)
    if r is None:
        return None, "no-upstream"
    r.sections = [[rr for rr in s if rr.type != T_RRSIG]
                  for s in r.sections]
    r.flags |= F_AD
    return r, "ad-set"


def m_ds(rcode):
    def imitation(q, up, tcp):
        if q.qtype == T_DS:
            r = reply_to(q, rcode)
            if q.opt():
                add_opt(r)
            return r, "ds-refused"
        return m_pass(q, up, tcp)
    return imitation


def m_ds_empty(q, up, tcp):
    if q.qtype == T_DS:
        r = reply_to(q)
        if q.opt():
            add_opt(r, do=q.do_bit())
        return r, "ds-empty"
    return m_pass(q, up, tcp)


def m_nodata_keys(q, up, tcp):
    if q.qtype in (T_DS, T_DNSKEY):
        r = reply_to(q)
        if q.opt():
            add_opt(r, do=q.do_bit())
        return r, "keys-nodata"
    return m_pass(q, up, tcp)


def m_no_do(q, up, tcp):
    c = copy_query(q)
    opt = c.opt()
    if opt:
        c.sections[2] = [rr for rr in c.sections[2] if rr.type != T_OPT]
        c.sections[2].append(RR(".", T_OPT, opt.rclass, opt.ttl & ~0x8000,
                                opt.rdata))
    r = forward(up, c, tcp)
    if r is None:
        return None, "no-upstream"
    r.raw = None
    o = r.opt()
    if o:
        o.ttl &= ~0x8000
    return r, "do-cleared"


def m_ds_slownx(args):
    ms = float(args[0]) if args else 300.0
    ds = m_ds(2)

    def imitation(q, up, tcp):
        r, action = ds(q, up, tcp)
        if r is not None and r.rcode() == 3:
            time.sleep(ms / 1000.0)
            action += "+slow"
        return r, action
    return imitation


def m_portal(args):
    addr = socket.inet_aton(args[0] if args else "10.77.0.1")

    def imitation(q, up, tcp):
        if q.qtype not in (T_A, T_AAAA):
            return m_pass(q, up, tcp)
        r = reply_to(q)
        if q.qtype == T_A:
            r.sections[0].append(RR(q.qname, T_A, 1, random.randint(0, 60),
                                    [addr]))
        if q.opt():
            add_opt(r)
        return r, "portal"
    return imitation


def m_slow(args):
    ms = float(args[0]) if args else 800.0

    def imitation(q, up, tcp):
        time.sleep(ms / 1000.0)
        r, _ = m_pass(q, up, tcp)
        return r, "slow"
    return imitation


def below(name, suffix):
    return name != suffix and name.endswith("." + suffix)


def m_router(args):
    search = args[0].lower().rstrip(".") + "." if args else None

    def imitation(q, up, tcp):
        name, addr = q.qname.lower(), None
        if name in ROUTER_ADDR:
            addr = ROUTER_ADDR[name]
        elif below(name, "home.arpa."):
            addr = HOME_ADDR
        elif search and below(name, search):
            addr = SEARCH_ADDR
        elif not (below(name, "lan.") or below(name, "box.")):
            return m_pass(q, up, tcp)
        r = reply_to(q, 0 if addr else 3)
        if addr and q.qtype == T_A:
            r.sections[0].append(RR(q.qname, T_A, 1, 60,
                                    [socket.inet_aton(addr)]))
        if q.opt():
            add_opt(r)
        return r, "local"
    return imitation


def m_hijack(args):
    suffix = args[0].lower().rstrip(".") + "."
    addr = socket.inet_aton(args[1])

    def imitation(q, up, tcp):
        name = q.qname.lower()
        if name != suffix and not below(name, suffix):
            return m_pass(q, up, tcp)
        r = reply_to(q)
        if q.qtype == T_A:
            r.sections[0].append(RR(q.qname, T_A, 1, 300, [addr]))
        if q.opt():
            add_opt(r)
        return r, "hijacked"
    return imitation


def m_pass(q, up, tcp):
    r = forward(up, q, tcp)
    return r, "forwarded" if r else "no-upstream"


def imitation(words):
    simple = {"pass": m_pass, "strip": m_strip, "formerr-edns": m_formerr,
              "trunc512": m_trunc, "ad-strip": m_adstrip,
              "ds-servfail": m_ds(2), "ds-nxdomain": m_ds(3),
              "ds-empty": m_ds_empty, "nodata-dnskey": m_nodata_keys,
              "no-do": m_no_do}
    made = {"portal": m_portal, "slow": m_slow, "router": m_router,
            "ds-servfail-slownx": m_ds_slownx, "hijack": m_hijack}
    if words[0] in simple:
        return simple[words[0]]
    if words[0] in made:
        return made[words[0]](words[1:])
    return None


# --- serving ---

class Proxy:
    def __init__(self, upstream, modefile, fixed):
        self.upstream, self.modefile, self.fixed = upstream, modefile, fixed

    def mode(self):
        if self.fixed:
            return self.fixed
        try:
            with open(self.modefile) as f:
                words = f.read().split()
        except OSError:
            words = []
        return words or ["pass"]

    def handle(self, raw, tcp):
        """(answer bytes or None, what happened) for one query."""
        try:
            q = parse(raw)
        except Bad:
            return None, "unparsable"
        words = self.mode()
        if not q.has_question or q.flags & F_QR:
            return None, "not-a-question"
        if words[0] == "blackhole":
            return None, "dropped"
        if words[0] == "trunc512" and tcp:
            return None, "tcp-closed"
        fn = imitation(words)
        if fn is None:
            return None, "unknown-mode-" + words[0]
        r, action = fn(q, self.upstream, tcp)
        if r is None:
            return None, action
        r.id = q.id
        # What is passed through goes out as the upstream sent it.
        wire = r.raw if r.raw is not None and action in PASSED else build(r)
        # Without EDNS in the answer the client's UDP limit is 512.
        limit = UDP_PLAIN
        if q.opt() and r.opt():
            limit = max(UDP_PLAIN, min(q.opt().rclass, 65535))
        if not tcp and len(wire) > limit:
            wire = build(truncated(r))
            action += "+tc"
        return wire, action

    def log(self, raw, tcp, wire, action):
        try:
            q = parse(raw)
            name, qtype = q.qname, TYPE_NAMES.get(q.qtype, str(q.qtype))
            edns, do = int(q.opt() is not None), int(q.do_bit())
        except Bad:
            name, qtype, edns, do = "?", "?", 0, 0
        if wire is None:
            what = "DROP" if action == "dropped" else "NONE"
        else:
            flags = struct.unpack("!H", wire[2:4])[0]
            what = "TC" if flags & F_TC else RCODES[flags & 0xF] \
                if flags & 0xF < len(RCODES) else str(flags & 0xF)
        with out_lock:
            print(f"q {name} {qtype} edns={edns} do={do} tcp={int(tcp)} "
                  f"-> {what} {action}", flush=True)

    def serve_udp(self, sock):
        while True:
            raw, peer = sock.recvfrom(65535)

            def reply(raw=raw, peer=peer):
                wire, action = self.handle(raw, False)
                self.log(raw, False, wire, action)
                if wire is not None:
                    try:
                        sock.sendto(wire, peer)
                    except OSError:
                        pass
            threading.Thread(target=reply, daemon=True).start()

    def serve_conn(self, conn):
        send_lock = threading.Lock()

        def reply(raw):
            wire, action = self.handle(raw, True)
            self.log(raw, True, wire, action)
            if wire is None:
                if action == "tcp-closed":
                    conn.close()
                return
            with send_lock:
                try:
                    send_frame(conn, wire)
                except OSError:
                    pass

        conn.settimeout(30)
        try:
            while True:
                if self.mode()[0] == "trunc512":
                    # a middlebox refusing DNS over TCP: closed unread
                    with out_lock:
                        print("q - - edns=0 do=0 tcp=1 -> CLOSE "
                              "tcp-closed", flush=True)
                    return
                raw = recv_frame(conn)
                if raw is None:
                    return
                threading.Thread(target=reply, args=(raw,),
                                 daemon=True).start()
        except OSError:
            return
        finally:
            conn.close()

    def serve_tcp(self, sock):
        while True:
            conn, _ = sock.accept()
            threading.Thread(target=self.serve_conn, args=(conn,),
                             daemon=True).start()


def main():
    args = sys.argv[1:]
    fixed = None
    if len(args) >= 4 and args[2] == "-m":
        fixed, args = args[3:], args[:2] + [None]
    if len(args) != 3:
        sys.exit(__doc__)
    addr, upstream, modefile = args
    for a in (addr, upstream):
        if not a.startswith("127."):
            sys.exit("netproxy: loopback addresses only")
    if fixed and imitation(fixed) is None and fixed[0] != "blackhole":
        sys.exit(f"netproxy: unknown mode {fixed[0]}")
    proxy = Proxy(upstream, modefile, fixed)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind((addr, 53))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    tcp.bind((addr, 53))
    tcp.listen(64)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Thread(target=proxy.serve_tcp, args=(tcp,), daemon=True).start()
    print("ready", flush=True)
    proxy.serve_udp(udp)


if __name__ == "__main__":
    main()
