# SPDX-License-Identifier: MIT
"""What udpburst.py and tcppipe.py share: the question they send, and the
tally of the replies that match one of them."""
import struct

RCODE_NAMES = {0: "NOERROR", 2: "SERVFAIL", 3: "NXDOMAIN", 5: "REFUSED"}


def question(qid, name):
    """NAME A IN, RD set, no EDNS, with ID qid."""
    wire = b"".join(bytes([len(p)]) + p.encode()
                    for p in name.rstrip(".").split(".")) + b"\0"
    return struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + wire + \
        struct.pack("!HH", 1, 1)


class Tally:
    """Replies counted once each, only those whose ID and question match
    a question sent."""

    def __init__(self):
        self.sent = {}
        self.seen = set()
        self.answered = 0
        self.rcodes = {}

    @staticmethod
    def question(i, name):
        """The i-th question: NAME A IN with an ID of its own."""
        return question((i * 7919 + 1) & 0xffff, name)

    def sent_one(self, msg):
        """msg went out: its reply may count."""
        self.sent[struct.unpack("!H", msg[:2])[0]] = msg[12:]

    def count(self, pkt):
        """The reply's flags when it counts (first match), else None."""
        if len(pkt) < 12:
            return None
        qid, flags = struct.unpack("!HH", pkt[:4])
        if qid not in self.sent or qid in self.seen or \
                not pkt[12:].startswith(self.sent[qid]):
            return None
        self.seen.add(qid)
        self.answered += 1
        rc = flags & 0xf
        self.rcodes[rc] = self.rcodes.get(rc, 0) + 1
        return flags

    def rcodes_text(self):
        """NOERROR:M,SERVFAIL:K... or "-"."""
        return ",".join("%s:%d" % (RCODE_NAMES.get(k, str(k)), v)
                        for k, v in sorted(self.rcodes.items())) or "-"
