#!/usr/bin/env python3
"""Writes tests/replay/dt_*.rpl and selftest/st_*.rpl from gen/templates/
(and templates/selftest/) and the
zones signed by make-zones.sh.

usage: expand.py OUTDIR_OF_MAKE_ZONES [TEMPLATE...]

Template lines starting with '@' are replaced:
  @TA                     trust-anchor: line for example.'s key (DS)
  @TAROOT                 trust-anchor: line for the root's key (DS)
  @RR ZONE OWNER TYPE     the RRset and the RRSIGs that cover it
  @DATA ZONE OWNER TYPE   the RRset alone
  @SIG ZONE OWNER TYPE    its RRSIGs alone
  @RRAS ZONE OWNER TYPE NAME  the RRset with RRSIGs, owner NAME instead
                          (a wildcard expanded)
  @RRTTL ZONE OWNER TYPE TTL  the RRset with RRSIGs, every TTL set to TTL
  @INCLUDE FILE           templates/FILE, expanded
  @NSEC3MATCH ZONE NAME   the NSEC3 record whose hash is NAME's, with RRSIG
  @NSEC3COVER ZONE NAME   the NSEC3 record covering NAME's hash, with RRSIG
ZONE names OUTDIR/ZONE.signed (example, example-evil, secure, ...).
Everything else is copied as it is.
"""
import base64
import glob
import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(out, zone, cache={}):
    if zone not in cache:
        recs = []
        with open(os.path.join(out, zone + '.signed')) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith(';'):
                    continue
                parts = line.split(None, 4)
                recs.append((parts[0].lower(), parts[3].upper(), line))
        cache[zone] = recs
    return cache[zone]


def fq(name):
    name = name.lower()
    return name if name.endswith('.') else name + '.'


def covers(line, typ):
    return line.split(None, 5)[4].upper() == typ


def rrset(out, zone, owner, typ, data=True, sig=True):
    res = []
    for o, t, line in load(out, zone):
        if o != fq(owner):
            continue
        if data and t == typ:
            res.append(line)
        if sig and t == 'RRSIG' and covers(line, typ):
            res.append(line)
    if not res:
        sys.exit('no %s %s in %s' % (owner, typ, zone))
    return res


def wire(name):
    out = b''
    for label in fq(name).split('.')[:-1]:
        out += bytes([len(label)]) + label.encode()
    return out + b'\0'


B32 = str.maketrans('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
                    '0123456789abcdefghijklmnopqrstuv')


def nsec3_hash(name):
    # The zones use NSEC3PARAM 1 0 0 - (no salt, no extra iteration).
    h = hashlib.sha1(wire(name)).digest()
    return base64.b32encode(h).decode().translate(B32)


def nsec3(out, zone, name, cover):
    want = nsec3_hash(name)
    for o, t, line in load(out, zone):
        if t != 'NSEC3':
            continue
        h = o.split('.')[0]
        nxt = line.split()[8].lower()
        hit = (h == want) if not cover else (
            (h < want < nxt) or (nxt <= h and (want > h or want < nxt)))
        if hit:
            return [line] + rrset(out, zone, o, 'NSEC3', data=False)
    sys.exit('no NSEC3 %s %s in %s' % ('covering' if cover else 'for',
                                        name, zone))


def expand(out, line):
    w = line.split()
    if w[0] in ('@TA', '@TAROOT'):
        base = 'Kexample.+013+*.ksk.ds' if w[0] == '@TA' else 'K.+013+*.ksk.ds'
        with open(glob.glob(os.path.join(HERE, 'keys', base))[0]) as f:
            return ['\ttrust-anchor: "%s"' % ' '.join(f.read().split())]
    if w[0] in ('@RR', '@DATA', '@SIG'):
        return rrset(out, w[1], w[2], w[3].upper(), w[0] != '@SIG',
                     w[0] != '@DATA')
    if w[0] == '@RRAS':
        return ['\t'.join([w[4]] + l.split('\t')[1:])
                for l in rrset(out, w[1], w[2], w[3].upper())]
    if w[0] == '@RRTTL':
        return [re.sub(r'^(\S+\s+)\d+', lambda m: m.group(1) + w[4], l)
                for l in rrset(out, w[1], w[2], w[3].upper())]
    if w[0] == '@INCLUDE':
        res = []
        with open(os.path.join(HERE, 'templates', w[1])) as f:
            for l in f:
                l = l.rstrip('\n')
                res.extend(expand(out, l) if l.startswith('@') else [l])
        return res
    if w[0] in ('@NSEC3MATCH', '@NSEC3COVER'):
        return nsec3(out, w[1], w[2], w[0] == '@NSEC3COVER')
    sys.exit('unknown directive ' + line)


def main():
    out = sys.argv[1]
    tmpls = sys.argv[2:] or sorted(
        glob.glob(os.path.join(HERE, 'templates', '*.rpl.in')) +
        glob.glob(os.path.join(HERE, 'templates', 'selftest', '*.rpl.in')))
    for t in tmpls:
        lines = []
        with open(t) as f:
            for line in f:
                line = line.rstrip('\n')
                if line.startswith('@'):
                    lines.extend(expand(out, line))
                else:
                    lines.append(line)
        sub = 'selftest' if os.path.basename(os.path.dirname(t)) == 'selftest' else ''
        dest = os.path.join(HERE, '..', sub, os.path.basename(t)[:-3])
        with open(dest, 'w') as f:
            f.write('\n'.join(lines) + '\n')


main()
