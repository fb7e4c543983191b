/* SPDX-License-Identifier: MIT */
/*
 * Every limit of dnstrust, each with the reason for its value.
 * Limits an administrator may need to tune are also configuration keys;
 * the values here are then their defaults.
 */
#ifndef DT_COMMON_LIMITS_H
#define DT_COMMON_LIMITS_H

/* --- memory (src/common) --- */

/* Chunk size of a per-query arena: one chunk holds a typical response's
 * scratch data (RRset indexes, canonical forms) without a second malloc. */
#define DT_ARENA_CHUNK (16 * 1024)
/* Default cap on one arena: a 64 KiB message decompresses to at most a few
 * MiB (see DT_EDDSA_DATA_MAXLEN); 32 MiB stops a runaway, never a query. */
#define DT_ARENA_MAXSIZE (32u * 1024 * 1024)

/* --- names (src/wire) --- */

/* RFC 1035 §2.3.4: a name is at most 255 octets in wire form, root included. */
#define DT_NAME_MAXLEN 255
/* RFC 1035 §2.3.4: a label is at most 63 octets. */
#define DT_LABEL_MAXLEN 63
/* 255 octets hold at most 127 one-octet labels plus the root label. */
#define DT_NAME_MAXLABELS 127
/* DS responses validated one inside another by the chain-of-trust walk
 * (src/validator/walk.c): validating the DS RRset of a zone needs its
 * parent's keys, which may need the parent's DS, and so on up to the
 * anchor, so a real chain nests as deep as it has zone cuts (names five
 * cuts below the root are common; see bench/cold.sh's deep.lab.). Never
 * the same name twice; crafted input went round in circles until the
 * stack overflowed, and bounded by the label limit alone took 0.7 s for
 * 292 octets, before the per-answer work budget (DT_VAL_CRYPTO_PER_ANSWER)
 * bounded it too. */
#define DT_VAL_DS_PROOF_NEST_MAX 24
/* Presentation form: every octet may need \DDD (4 chars); 255 * 4 + NUL. */
#define DT_NAME_TEXT_MAXLEN 1024
/* Compression pointers followed while reading one name. A name has at most
 * 127 labels and a sane encoder uses one pointer per name; 128 allows any
 * legal encoding while capping the work a crafted chain of pointers causes. */
#define DT_NAME_MAXPTRS 128

/* --- messages (src/wire) --- */

/* RFC 1035 §4.2.2: the two-octet length prefix caps a message at 65535. */
#define DT_MSG_MAXLEN 65535
/* Smallest header: RFC 1035 §4.1.1. */
#define DT_MSG_HDRLEN 12
/* Records held by one parsed message. The smallest RR (root owner, empty
 * RDATA) takes 11 octets, so a 65535-octet message holds at most 5957. */
#define DT_MSG_MAXRR 5957
/* The largest query this project sends (libdnstrust to the daemon, the
 * fallback, the daemon upstream): header, a question of a 255-octet name
 * with type and class (4), and an OPT record (11) holding at most the
 * status option of common/protocol.h (4-octet option header, 1-octet
 * version). */
#define DT_QUERY_MAXLEN (DT_MSG_HDRLEN + DT_NAME_MAXLEN + 4 + 11 + 4 + 1)
/* Names remembered for compression while building one message; names past
 * this many are written in full, so this bounds work, never correctness. */
#define DT_COMPRESS_MAXNAMES 256
/* RFC 1035 §4.1.4: pointers are 14 bits, so only offsets below 16384 can be
 * pointed to. */
#define DT_COMPRESS_MAXOFF 0x3FFF
/* RFC 8914 §2: EXTRA-TEXT is limited by the option size; we cap what we
 * build at 255 octets to keep answers small (a reason, not an essay). */
#define DT_EDE_TEXT_MAXLEN 255

/* --- RDATA (src/wire) --- */

/* RFC 1035 §3.2.1: RDLENGTH is 16 bits. */
#define DT_RDATA_MAXLEN 65535
/* RFC 4034 §4.1.2: 256 windows of at most 32 octets each. */
#define DT_BITMAP_MAXWINDOWLEN 32

/* --- presentation format (src/wire/zone) --- */

/* One token (a name, a number, a base64 chunk, a quoted string). A
 * character-string is 255 octets, each up to 4 characters escaped; base64
 * of a large RSA key is written without spaces by some tools (4096-bit
 * key = 700 characters), so 64 KiB is generous and still bounded. */
#define DT_ZONE_TOKEN_MAXLEN 65536
/* Tokens in one record (RDATA split over many lines in parentheses). */
#define DT_ZONE_MAXTOKENS 16384
/* Characters in one logical record, parentheses included: bounds the memory
 * a single malformed record (an unclosed parenthesis) can claim. */
#define DT_ZONE_RECORD_MAXLEN (1024 * 1024)
/* Largest zone file read (wire_zreader_open, dnstrust verify): the whole
 * text is held in memory; a trust-anchor file is a few lines and a large
 * signed zone a few hundred MiB, so 1 GiB bounds memory without refusing
 * real zones. */
#define DT_ZONE_FILE_MAXSIZE ((size_t)1 << 30)

/* --- crypto (src/crypto) --- */

/* Smallest RSA modulus we verify with. RFC 5702 §6.1's example key and the
 * RFC 4035/5155 example zones use 512 bits; anything shorter is factorable
 * for pocket money and no signer has produced it in this century. */
#define DT_RSA_MIN_BITS 512
/* Largest RSA modulus: RFC 3110 §2 limits it to 4096 bits "for
 * interoperability", and every extra bit makes each verification (and so a
 * KeyTrap-style flood of colliding keys, CVE-2023-50387) more expensive. */
#define DT_RSA_MAX_BITS 4096
/* Octets of the RSA public exponent. Verification cost grows with the
 * exponent's length; real keys use 3, 65537 or 2^32+1 (5 octets), and
 * OpenSSL itself refuses exponents over 64 bits for moduli over 3072. */
#define DT_RSA_EXP_MAXLEN 8
/* Largest DS digest we compute (SHA-384, RFC 6605 §3). */
#define DT_DS_DIGEST_MAXLEN 48
/* Hard cap on NSEC3 iterations, whatever the caller's own budget: RFC 5155
 * §10.3 allowed at most 2500 (for 4096-bit keys); RFC 9276 says 0, and the
 * validator's (tunable) limit is far lower. Above this we never hash. */
#define DT_NSEC3_MAX_ITERATIONS 2500
/* Data signed with EdDSA must be handed to OpenSSL in one piece. An RRset
 * from one 65535-octet message decompresses to at most about 2.5 MiB of
 * canonical records (4681 records of 14 octets, owner and RDATA name each a
 * 2-octet pointer expanding to 255 octets); 4 MiB bounds a caller's mistake,
 * never a real RRset. */
#define DT_EDDSA_DATA_MAXLEN (4 * 1024 * 1024)

/* --- validator (src/validator); all tunable in dnstrust.conf --- */

/* Signature verifications for one RRset, key-tag collisions counted
 * (Unbound's choice): an RRset is signed by one or two keys, three during an
 * algorithm roll; 8 leaves room and stops KeyTrap (CVE-2023-50387), where
 * a crafted zone pairs many colliding keys with many signatures. */
#define DT_VAL_SIGS_PER_RRSET 8
/* Signature verifications for one question's validation (Knot Resolver
 * uses 32): an answer, its denial and a CNAME chain need well under 32
 * once the zones' keys are validated, which happens once per zone. */
#define DT_VAL_CRYPTO_PER_QUERY 32
/* Signature verifications for one answer and everything its chain of
 * trust needs (each key set and DS denial is validated with a budget of
 * its own, DT_VAL_CRYPTO_PER_QUERY): a real chain costs 2 per zone cut
 * plus the answer, ~15 for five zones; 256 allows long chains and bounds
 * what a name of 127 labels, each a DS probe, can cost. */
#define DT_VAL_CRYPTO_PER_ANSWER 256
/* NSEC3 hashes for one answer and its chain of trust, as above: eight
 * worst-case closest-encloser proofs. */
#define DT_VAL_NSEC3_HASHES_PER_ANSWER 1200
/* DS responses the chain-of-trust walk takes up (validated inside it)
 * for one answer, across every run of its question: a real chain takes
 * one per zone cut and name probed, each once (the verdicts are kept),
 * so ~10 for five cuts and at most 127 for a name of one-octet labels.
 * Crafted DS denials whose proofs need the keys of other names, each of
 * many labels, nest DT_VAL_DS_PROOF_NEST_MAX deep with a fan-out of up
 * to 127 at every level and need no signature check to do so: 493
 * octets took 0.66 s of CPU before this bound. */
#define DT_VAL_DS_CHECKS_PER_ANSWER 1024
/* Keys tried for one RRSIG that share its key tag and algorithm. Real
 * collisions are rare and involve two keys; 4 covers a roll coinciding. */
#define DT_VAL_KEYS_PER_TAG 4
/* RRSIGs looked at for one RRset: one per algorithm and key in use,
 * two or three during a roll; 8 is Unbound's count too. Those beyond it are
 * neither verified nor shown to a client (render.c). */
#define DT_VAL_RRSIGS_PER_RRSET 8
/* Records in one RRset: each costs canonicalisation and sorting. Real
 * RRsets hold dozens; a 64 KiB message cannot hold more than ~4,000. */
#define DT_VAL_RRS_PER_RRSET 1024
/* NSEC3 iterations above which an answer is treated as insecure with EDE
 * 27 (RFC 9276 §3.2). BIND and Knot Resolver use 50, Unbound 150,
 * systemd-resolved 100; RFC 9276 asks signers for 0. */
#define DT_VAL_NSEC3_ITERATIONS 50
/* NSEC3 hash computations for one question: a closest-encloser proof
 * hashes at most one name per label (127) plus the wildcard; 150 with at
 * most 51 SHA-1 rounds each bounds CVE-2023-50868's amplification. */
#define DT_VAL_NSEC3_HASHES_PER_QUERY 150
/* CNAME and DNAME links followed in one answer (Unbound 11, Knot
 * Resolver 13): more is a loop or an attack, never a real zone. */
#define DT_VAL_CHAIN_MAX 12
/* Seconds of clock skew allowed on each side of an RRSIG's validity
 * period: hosts without a synchronised clock still validate. */
#define DT_VAL_SKEW 300
/* Successful signature verifications remembered per resolver (one per
 * daemon worker; src/validator/sigcache.h), 2 to a set: 4096 digests of 32
 * octets, 132 KiB. What is verified again is small: the RRsets a
 * question's validation verifies again after each fetch, and the RRSIGs
 * that every name under a popular wildcard shares (the expanded RRset's
 * and the NSEC or NSEC3 record's); an entry pushed out costs one
 * verification more, never a verdict. */
#define DT_VAL_SIGCACHE_SETS 2048
#define DT_VAL_SIGCACHE_WAYS 2

/* --- RFC 5011 trust-anchor state (src/validator/autotrust.c) --- */

/* Trust points followed by one state file: the root, and a few islands of
 * trust an admin may add. */
#define DT_AT_MAX_POINTS 8
/* Keys remembered per trust point: a roll has two or three KSKs at once;
 * revoked and removed ones are kept so that they cannot come back, and
 * the oldest removed one makes room when the table is full. */
#define DT_AT_MAX_KEYS 16
/* DNSKEY RDATA of one tracked key: a 4096-bit RSA key with an 8-octet
 * exponent takes 4 + 1 + 8 + 512 = 525 octets (DT_RSA_MAX_BITS); larger
 * keys are not followed. */
#define DT_AT_KEY_MAXLEN 1024
/* A state-file line: "key", its state and timers, and the DNSKEY record in
 * presentation form (1,368 characters of base64 at DT_AT_KEY_MAXLEN). */
#define DT_AT_LINE_MAXLEN 4096
/* The whole state file: DT_AT_MAX_POINTS x DT_AT_MAX_KEYS such lines. */
#define DT_AT_FILE_MAXSIZE (DT_AT_MAX_POINTS * (DT_AT_MAX_KEYS + 8) * 4096)
/* RFC 5011 §2.2: a new key is trusted after 30 days in every validated
 * DNSKEY RRset; a revoked key is forgotten 30 days after its revocation.
 * Both are configuration keys, shortened only in tests. */
#define DT_AT_HOLDDOWN (30 * 86400)

/* --- upstream (src/upstream) --- */

/* glibc's MAXNS: resolv.conf nameserver lines past the third are ignored,
 * by glibc and so by us (the same servers an application would use). */
#define DT_UP_MAXNS 3
/* The reason of an upstream's DNSSEC verdict (capab.h), with its NUL:
 * the longest is a captive portal's, "captive portal (answers rewritten
 * to ADDR)", 39 characters and an IPv6 address of at most 45. */
#define DT_CAPAB_REASON_LEN 96
/* A DNS-over-TLS server's authentication name (RFC 8310 §8), checked
 * against its certificate: a host name in text, at most 253 octets
 * (RFC 1035 §2.3.4), with its NUL. */
#define DT_UP_TLS_NAME_MAX 254
/* The text of a TLS failure kept for `dnstrust status`: the server, its
 * name (cut at 60) and OpenSSL's reason (cut at 120). */
#define DT_UP_TLS_WHY_LEN 320
/* DNS over TLS: the standard port (RFC 7858 §3.1). */
#define DT_UP_TLS_PORT 853
/* resolv.conf is a few hundred octets; 64 KiB is far past any real one
 * and bounds what a hostile writer of the file can make us read. */
#define DT_UP_CONF_MAXSIZE (64 * 1024)
/* glibc: options timeout defaults to 5 s and is capped at 30 s
 * (RES_MAXRETRANS); attempts defaults to 2 and is capped at 5 (RES_MAXRETRY).
 */
#define DT_UP_TIMEOUT_DEFAULT_MS 5000
#define DT_UP_TIMEOUT_MAX_MS 30000
#define DT_UP_ATTEMPTS_DEFAULT 2
#define DT_UP_ATTEMPTS_MAX 5
/* Quiet time after a burst of inotify events before resolv.conf is read:
 * tools write it in several steps (truncate, write, rename). */
#define DT_UP_WATCH_SETTLE_MS 100
/* A server that timed out is tried after the others for this long. */
#define DT_UP_PENALTY_MS 30000
/* EDNS buffer size we advertise (DNS flag day 2020): no IP fragmentation. */
#define DT_UP_EDNS_BUFSIZE 1232
/* DNS cookies (RFC 7873) one transport client remembers, one per
 * authoritative server asked lately (UP_Q_COOKIE, recursion): the
 * servers of a host's working set; the least recently used goes first,
 * and a forgotten server is sent a new client cookie. */
#define DT_UP_COOKIES_MAX 256
/* Matching-failed packets read per try before the socket is abandoned:
 * bounds the work a flood of spoofed answers costs. */
#define DT_UP_MAX_BAD_PACKETS 64
/* Probes of what a server can do (src/upstream/probe.c): one try each,
 * at most this long (a probe must not outlast the network it tests). */
#define DT_UP_PROBE_TIMEOUT_MS 2000
/* With resolution auto, how long after the resolv.conf servers are set
 * (start, a rewrite) fetches wait for the probe's judgement to settle
 * (capab_settled) rather than go to servers that may strip what
 * validation needs (their answers would be bogus, and cached so for
 * bogus-ttl): the probe's three steps decide within a few round trips
 * on a usable network; past this
 * wait, fetches go as they did, so a slow or silent network costs its
 * first questions this once. */
#define DT_UP_JUDGE_WAIT_MS 1000
/* libdnstrust's in-process engine looks at a directory upstream source
 * (resolvconf's, networkd's: a readdir and a stat per file) and at what
 * upstream-source auto finds at most once a second, on a call, where
 * dnstrustd watches them (inotify): a VPN coming up is seen within a
 * second, and a warm answer (a few microseconds) does not pay a
 * directory scan. A file source is looked at (one stat) on every call. */
#define DT_INPROC_SOURCE_LOOK_MS 1000
/* A server not known to do DNSSEC is probed again after 1 s, doubling up
 * to 5 min: a network's resolver is not fixed in seconds, and a broken
 * one costs at most a probe every 5 min. */
#define DT_UP_PROBE_BACKOFF_MIN_MS 1000
#define DT_UP_PROBE_BACKOFF_MAX_MS 300000
/* While every server is unreachable, each is probed every second: the
 * network coming back is noticed within a second (one small query a
 * second to a network that does not answer). */
#define DT_UP_PROBE_DOWN_MS 1000
/* Notices of an upstream's changed verdict (and of the auto-mode
 * judgement) logged per server in one window: a real change and its
 * settling (unknown, no, yes again) fit in 5, while a server flapping
 * between answers with and without RRSIGs every second would write a
 * line a second. The rest are counted and summed up in one line when
 * the window ends (status always shows the verdict in force). */
#define DT_UP_NOTICE_BURST     5
#define DT_UP_NOTICE_WINDOW_MS 300000
/* Upstream TCP connections open at once in the daemon (every worker,
 * the probe and the iterator), and to any one server; a request over
 * the cap waits for a connection to close, within its try's timeout.
 * A server that sets TC over UDP and never answers over TCP would
 * otherwise hold a connection per question for the whole timeout: 992
 * open at 500 questions a second, until file descriptors ran short and
 * health probes failed (Unbound keeps at most 10 per thread,
 * outgoing-num-tcp). 64 in all is far past what honest truncation needs
 * (answers over 1232 octets are rare, and each takes one round trip),
 * 8 per server keeps one hanging server from taking them all. Queued
 * requests are looked at again every DT_UP_TCP_QUEUE_POLL_MS (a
 * connection closed by another thread's client) and at once when one of
 * their own client's closes. */
#define DT_UP_TCP_MAX 64
#define DT_UP_TCP_PER_SERVER 8
#define DT_UP_TCP_QUEUE_POLL_MS 20
/* UDP source ports are drawn by the daemon, uniformly from 1024-65535
 * (RFC 5452 §10: the whole unprivileged range, about 16 bits, where the
 * kernel's ephemeral range, 32768-60999 by default, gives 14.8), so an
 * off-path forger must guess them as well as the ID. A port in use is
 * drawn again, at most DT_UP_PORT_TRIES times (with 64,512 ports and a
 * few hundred in use, 8 draws all failing is vanishingly rare); then
 * the kernel's choice is taken rather than the query lost. */
#define DT_UP_PORT_MIN 1024
#define DT_UP_PORT_TRIES 8
/* Bogus answers logged at notice by each worker in one window: enough to
 * see which names an attack or a broken zone hits, not a line per
 * question of a client asking in a loop. The rest are counted and summed
 * up in one line at the next bogus answer after the window (dnstrust
 * monitor and the statistics see every one). */
#define DT_BOGUS_LOG_BURST    10
#define DT_BOGUS_LOG_WINDOW_S 60
/* resolv.conf search list: glibc before 2.26 kept 6 domains of 256
 * characters in all (MAXDNSRCH); a DHCP or VPN client writes one or two.
 * Those past either bound are ignored. Kept in wire form, back to back. */
#define DT_UP_MAXSEARCH 6
#define DT_UP_SEARCH_MAXLEN 256
/* Per-interface files read from a resolvconf directory (upstream-source
 * resolvconf): a host has a link, a Wi-Fi and a VPN or two with DNS
 * servers; 16 is far past that and bounds the reading. Only DT_UP_MAXNS
 * servers are used in all, as from one resolv.conf. */
#define DT_UP_MAXIFACES 16
/* Split-DNS routes learnt from those interfaces' search and routing-only
 * domains (policy/route.h): a VPN pushes a domain or a few, a Wi-Fi or a
 * link one; 32 is far past what hosts have, bounds the linear lookup
 * made for every question sent upstream and each worker's copy of the
 * table (about 70 KB). Domains past it are not routed (they go where
 * other names go) and the log and status say how many. */
#define DT_UP_MAXROUTES 32

/* --- recursion from the root (src/iterator/iterate.c) --- */

/* Referrals followed for one name: each goes at least one label down,
 * and a name has at most 127 labels, so no chain of referrals runs for
 * ever; a real name meets a few (root, TLD, a registrar's zone, a
 * subzone or two), but delegation chains dozens of cuts deep are legal
 * and resolve elsewhere: Unbound's MAX_REFERRAL_COUNT, 130 (16 failed
 * names 16 cuts deep that Unbound answers down to 45). */
#define DT_IT_REFERRALS_MAX 130
/* NS names of one zone cut kept and tried: real zones list 2 to 13 (the
 * root); past 8 a zone whose servers all fail would cost too many
 * queries (NXNSAttack, CVE-2020-12662: a referral of many glueless NS
 * names multiplied the queries of one question). */
#define DT_IT_NS_MAX 8
/* Addresses of one zone cut kept: two per NS name (IPv4, IPv6). */
#define DT_IT_ADDRS_MAX (2 * DT_IT_NS_MAX)
/* Queries sent for one iterated question, NS-address lookups included,
 * besides one per referral followed (at most DT_IT_REFERRALS_MAX more):
 * a cold name needs one per zone cut plus a few for NS addresses and
 * lame servers; 48 allows retries on every level of a name and bounds
 * the amplification one question can cause (Unbound: 32 queries sent
 * per zone cut, MAX_SENT_COUNT, and 64 name-server lookups, Knot
 * Resolver 50 iterations), while each cut of a deep delegation earns
 * its own query: at most 178 in all. */
#define DT_IT_QUERIES_MAX 48
/* CNAME links followed across zones while iterating one question: the
 * validator accepts DT_VAL_CHAIN_MAX, one more link would be refused by
 * it anyway. */
#define DT_IT_CNAME_MAX DT_VAL_CHAIN_MAX
/* Nesting of NS-address lookups (the address of an NS name whose zone's
 * own NS names have no glue, and so on): real delegations need one or
 * two; 4 stops loops of zones whose servers are named in each other. */
#define DT_IT_NS_DEPTH_MAX 4
/* NS-address lookups one iterated question may start, A and AAAA each
 * counted: each is a validated question of its own (it_set_lookup), so
 * a delegation to many names without glue (NXNS, CVE-2020-12662 in
 * other resolvers) must not become many questions; 8 is the A and AAAA
 * of four names, and the first name that answers usually ends it. */
#define DT_IT_NS_LOOKUPS_MAX 8
/* Zone cuts one iterator remembers (NS names and addresses): the zones
 * of a host's working set; the least recently used goes first. */
#define DT_IT_ZONES_MAX 512
/* Authoritative servers whose round-trip time and lameness one iterator
 * remembers; more reuse the slot of the least recently used. */
#define DT_IT_SERVERS_MAX 1024
/* A zone cut is remembered at most this long (seconds), whatever its NS
 * TTL, so that a redelegation is seen within a day (Unbound's
 * cache-max-ttl, 1 day). */
#define DT_IT_ZONE_TTL_MAX 86400
/* Per-try timeout of a query to an authoritative server: 3 times the
 * smoothed round-trip time, within these bounds (ms). Loopback and LAN
 * answer in under a millisecond, the far side of the world in 300 ms;
 * waiting longer than 1.5 s per server means the next one is a better
 * bet (Unbound starts at 376 ms and backs off to 12 s). */
#define DT_IT_TIMEOUT_MIN_MS 200
#define DT_IT_TIMEOUT_MAX_MS 1500
/* How long one zone's servers are tried, in rounds over them with the
 * timeout backing off, before the question gives up on the zone when
 * none has answered (ms): a lost datagram or a server stalled for a
 * second is retried, and the verdict that no root server answers (EDE
 * 23) comes within the default query-timeout (5 s) even with 26 root
 * addresses that all drop packets. */
#define DT_IT_ZONE_WAIT_MS 2000
/* Rounds over a zone's servers within DT_IT_ZONE_WAIT_MS. */
#define DT_IT_ROUNDS_MAX 3
/* Round-trip time assumed for a server never asked (Unbound's 376 ms):
 * servers already known to be fast are preferred, unknown ones still
 * get their turn. */
#define DT_IT_RTT_UNKNOWN_MS 376
/* A server that answered REFUSED, SERVFAIL or a lame referral is avoided
 * this long (ms); it is still asked when no other server is left. */
#define DT_IT_LAME_MS 60000
/* An authoritative server that gave no answer at all (timeout, ICMP
 * unreachable) this many times in a row is taken as dead: questions
 * skip it, and one probe at a time asks it again after a back-off of
 * DT_IT_DEAD_MIN_MS, doubled for each probe that gets no answer, up to
 * DT_IT_DEAD_MAX_MS (Unbound's infrastructure cache: a host whose
 * timeout has backed off to the top is skipped and probed, at most
 * 120 s apart). Three is one question's rounds over a zone of one
 * server, or three questions in a row: a lost datagram or two does not
 * bury a server, and a black-holed zone costs a few packets per
 * back-off, not one per server per question (a flood of random names
 * under such a zone cost 2.0 packets a name). The silences must span
 * DT_IT_DEAD_SPAN_MS (the shortest per-try timeout): queries that time
 * out together (sent together, one burst lost) are one event, not
 * three. Any answer revives the server. */
#define DT_IT_DEAD_TIMEOUTS 3
#define DT_IT_DEAD_SPAN_MS  DT_IT_TIMEOUT_MIN_MS
#define DT_IT_DEAD_MIN_MS   1000
#define DT_IT_DEAD_MAX_MS   120000
/* Out of this many server choices, one goes to a random usable server
 * instead of the fastest, so that the RTT of the others stays known. */
#define DT_IT_EXPLORE 20
/* QNAME minimisation (RFC 9156 §2.3, MAX_MINIMISE_COUNT): minimised
 * queries sent for one name, one label at a time; past this the full
 * name is sent, so that a name of many labels under one zone (a reverse
 * name, a tracking label chain) costs at most this many extra queries. */
#define DT_IT_QMIN_MAX 10
/* Root-server addresses held (13 servers, IPv4 and IPv6 each). */
#define DT_IT_HINTS_MAX 32
/* DS RRsets (or NSEC/NSEC3 proofs of no DS) an iterator core keeps from
 * referrals (it_referral_ds), so that the DS question of a cut needs no
 * query of its own: one per zone
 * cut recently followed; each a response of at most a few KiB. */
#define DT_IT_DS_MAX 256
/* DNSKEY responses an iterator core keeps from the queries it asks
 * beside a question (it_set_keys_ahead), until the chain walk of that
 * question asks for them: one per zone cut of the questions under way,
 * each a response of a few KiB. */
#define DT_IT_KEYS_MAX 64
/* How long such a response waits for its question (ms): the chain walk
 * asks for it as soon as the answer is in, within the default
 * query-timeout (5 s); what is not asked by then was not needed. */
#define DT_IT_KEYS_KEEP_MS 10000
/* DNSKEY queries asked beside one question: one per signed zone cut on
 * its way down; real names cross a few, and past this the chain walk
 * asks the rest once the answer is in. Each is charged to the
 * question's DT_IT_QUERIES_MAX. */
#define DT_IT_KEYS_AHEAD_MAX 8
/* Queries one such DNSKEY question sends before it gives up (nobody waits
 * on it yet): one per round over the zone's servers. */
#define DT_IT_KEYS_AHEAD_QUERIES DT_IT_ROUNDS_MAX
/* Names an iterator core keeps as proven absent by a signed-looking
 * NXDOMAIN (RFC 8020: nothing exists below them; iter_nxd.h), each with
 * the response (a few KiB), so that a later question below one is
 * answered from it and validated rather than sent. A small table: the
 * oldest goes first, and a name not kept is only asked again. */
#define DT_IT_NXD_MAX 64
/* DNAME RRsets an iterator core keeps (iter_dname.h), with their
 * RRSIGs, so that a later name below one is synthesised from it (RFC
 * 6672 §3.2) instead of asked of a server that may answer only the
 * names it was asked before: one per redirected subtree in use, each a
 * few hundred octets. */
#define DT_IT_DNAME_MAX 64
/* Wildcard expansions an iterator core keeps (iter_wild.h): a signed
 * RRset expanded from a wildcard with the NSEC records that proved the
 * expansion, so that another name the same NSEC covers is answered from
 * them (RFC 8198 §5.4); one per wildcard in use, each a few KiB. */
#define DT_IT_WILD_MAX 64
/* Stub zones an iterator core holds (it_add_stub): a test scenario's
 * root hints and stub-zone clauses, a handful each. */
#define DT_IT_STUBS_MAX 16
/* The root's servers learnt by priming (RFC 8109) are used at most this
 * long (seconds), whatever the NS TTL (the root's is 6 days), so that a
 * renumbered root server is seen within a day, as for any zone cut. */
#define DT_IT_PRIME_TTL_MAX DT_IT_ZONE_TTL_MAX
/* ... and at least this long: a TTL of 0 would send a priming query
 * before every question. */
#define DT_IT_PRIME_TTL_MIN 60
/* Hint addresses one priming query is sent to, one after another (the
 * transport's list of servers): RFC 8109 asks for another hint when one
 * does not answer; three at DT_IT_PRIME_TIMEOUT_MS each stay within
 * DT_IT_ZONE_WAIT_MS, the time the root's servers get anyway. */
#define DT_IT_PRIME_TRIES      DT_UP_MAXNS
#define DT_IT_PRIME_TIMEOUT_MS 600
/* After a failed priming the hints are used as the root's servers and
 * priming is tried again after this back-off (ms), doubled at each
 * failure: a network that answers nothing or a root that answers oddly
 * costs one priming exchange per back-off, not one per question. */
#define DT_IT_PRIME_RETRY_MIN_MS 5000
#define DT_IT_PRIME_RETRY_MAX_MS 600000

/* --- caches (src/cache) --- */

/* Shards, each with its own lock: with a worker per core, 16 keeps the
 * chance of two threads wanting one lock small. */
#define DT_CACHE_SHARDS 16
/* Smallest budget accepted: below this a shard cannot hold one large
 * answer (64 KiB) and the cache would only churn. */
#define DT_CACHE_MINSIZE (2u * 1024 * 1024)
/* Longest key: kind octet, type, class, flags and a 255-octet name. */
#define DT_CACHE_KEY_MAXLEN 300

/* --- daemon configuration (src/daemon) --- */

/* `listen` lines: a loopback listener or two per address family is what
 * anyone needs; 16 bounds the sockets a typo loop could open. */
#define DT_CFG_MAX_LISTEN 16
/* allow-remote networks: a site's client networks, a few per family. */
#define DT_CFG_MAX_ALLOW 32
/* Default of ratelimit: questions per second one remote client address
 * (an IPv4 /32, an IPv6 /64) may ask; a host asks a few dozen at most,
 * a reflection attack thousands. */
#define DT_DMN_RATELIMIT 100
/* Remote client addresses whose rate is followed (one table for all the
 * workers): a hash
 * table of this many buckets; a new address takes the slot of the one it
 * collides with, so memory is fixed whatever the number of sources. */
#define DT_DMN_RATE_SLOTS 4096
/* Default of max-connections-per-address: TCP connections one remote
 * client address (an IPv4 /32, an IPv6 /64) may hold, so that one
 * address cannot take every connection of the remote clients' pool
 * (max-connections-per-user): a stub resolver keeps one or two open, a
 * NAT's few hosts a dozen; 16 leaves the default pool of 128 to at least
 * eight addresses. */
#define DT_DMN_CONNS_PER_ADDRESS 16
/* The table counting them (one for all the workers), hashed with a
 * secret key: this many sets of this many entries (96 KiB). An entry is
 * held only while its address has a connection counted, so at most
 * max-connections-per-user (at most 1,024) are in use; a new address
 * whose set is full (16 others there: with 1,024 addresses spread over
 * 256 sets, about once in 3,000 tables) is treated as over its limit. */
#define DT_DMN_REMOTE_CONN_SETS 256
#define DT_DMN_REMOTE_CONN_WAYS 16
/* dnstrust.conf size: policy for thousands of domains fits in 1 MiB. */
#define DT_CFG_MAXSIZE (1024 * 1024)
/* Entries of each policy list (negative trust anchors, require-secure,
 * domain rules): policy names a handful of domains; 128 each keeps the
 * configuration a fixed-size value that is copied on reload and looked
 * up linearly per question. */
#define DT_CFG_MAX_POLICY 128
/* private-domain lines: a site's internal suffixes, a few dozen at most;
 * looked up linearly per question, beside the built-in list. */
#define DT_CFG_MAX_PRIVATE 64
/* dnstrust hotspot --minutes: sign-on at a portal takes a minute or two;
 * 5 by default, at most 60, so that a forgotten sign-on ends by itself. */
#define DT_DMN_HOTSPOT_DEFAULT_MIN 5
#define DT_DMN_HOTSPOT_MAX_MIN 60
/* Supplementary groups of a socket peer looked at for hotspot-group
 * (SO_PEERGROUPS): the kernel allows 65536, but a user in more than 64
 * groups is rare; such a peer is judged by its primary group alone. */
#define DT_DMN_PEER_GROUPS 64

/* --- the daemon (src/daemon) --- */

/* Questions being resolved at once by one worker: beyond this a new
 * question is answered SERVFAIL at once (EDE 14, Not Ready) rather than
 * queued without bound when the upstream is slow or under attack. */
#define DT_DMN_MAX_TASKS 4096
/* Client connections (socket and TCP) per worker, root's and the
 * daemon user's not counted: they always get one. */
#define DT_DMN_MAX_CONNS 1024
/* Default of max-connections-per-user: connections one peer user (by
 * SO_PEERCRED; loopback TCP clients together are one, remote ones
 * another) may hold across the daemon, so that one user cannot take
 * every slot and leave the others' resolvers "unavailable". A busy
 * multi-threaded program opens a few dozen at once; 128 of them pin at
 * most 128 x DT_DMN_MAX_OUTBUF_HARD. */
#define DT_DMN_CONNS_PER_USER 128
/* Users with open connections counted at once: more than any host has
 * logged in; the next user is answered as over its limit. */
#define DT_DMN_MAX_USERS 1024
/* Connections over a limit kept open per worker just long enough to
 * answer SERVFAIL with EDE 14 (Not Ready), so that the client retries
 * rather than fall back to unvalidated DNS; past this many they are
 * closed at once. */
#define DT_DMN_MAX_REJECTING 64
/* How long such a connection is kept to read its question. */
#define DT_DMN_REJECT_MS 2000
/* Questions one stream connection may have pending; more are read only
 * when answers have gone out (backpressure, not loss). */
#define DT_DMN_MAX_PENDING 64
/* Questions under way (not answered from the cache) for the socket
 * connections of one user, root's and the daemon user's not counted:
 * a quarter of a worker's DT_DMN_MAX_TASKS, so that one user asking slow
 * names leaves room for the others; more get SERVFAIL, EDE 14. */
#define DT_DMN_QUESTIONS_PER_USER 1024
/* Client questions waiting for an answer per worker, UDP included: each
 * holds about 400 octets until its answer or query-timeout; 16,384 is
 * four per task slot and bounds a flood of questions for slow names to
 * a few MiB. More get SERVFAIL, EDE 14. */
#define DT_DMN_MAX_WAITERS 16384
/* Clients waiting for one question under way: more identical questions
 * from everywhere are one flood; they get SERVFAIL, EDE 14. */
#define DT_DMN_WAITERS_PER_TASK 256
/* A client connection with nothing pending is closed after this. */
#define DT_DMN_IDLE_MS 30000
/* A frame begun must be complete within this: a local client writes a
 * frame in one call, a remote one in a few round trips; a client
 * trickling octets to hold a connection loses it. */
#define DT_DMN_FRAME_MS 5000
/* Replies waiting this long without the client reading
 * DT_DMN_WRITE_PROGRESS octets of them close the connection. */
#define DT_DMN_WRITE_STALL_MS 10000
#define DT_DMN_WRITE_PROGRESS 4096
/* Accepting is paused this long when the process is out of file
 * descriptors (EMFILE, ENFILE): the listener would stay readable and spin
 * the loop; closing connections make room meanwhile. */
#define DT_DMN_ACCEPT_PAUSE_MS 100
/* RLIMIT_NOFILE raised to at least this at start (the usual soft limit,
 * 1024, is less than one worker's connections): each worker holds up to
 * DT_DMN_MAX_CONNS + DT_DMN_MAX_REJECTING client sockets, root's and
 * upstream sockets beside them. */
#define DT_DMN_NOFILE 65536
/* Upstream queries one question may cause (the answer, and DS and DNSKEY
 * along the chain of trust: about 2 per zone cut; a 127-label name under
 * an insecure cut needs one DS probe per label). */
#define DT_DMN_FETCHES_PER_TASK 64
/* Signers of one answer whose chains of trust are fetched at once, before
 * validation asks for them (resolver.c speculate()): an answer is signed
 * by one zone, a CNAME chain or a proof by a few more; past this, the
 * rest are fetched as validation asks, one after another. */
#define DT_RSV_SPECULATE_SIGNERS 4
/* Ancestors of a question below its trust anchor whose DS and DNSKEY are
 * asked together with the question (resolver.c speculate_ahead()): 2 per
 * ancestor plus the anchor's DNSKEY, 17 of DT_DMN_FETCHES_PER_TASK at
 * most, so that a long name under an unsigned cut keeps the budget for
 * the DS probe of each label it needs; real names have a few cuts. */
#define DT_RSV_SPECULATE_AHEAD_LABELS 8
/* Answers with a TTL below this are not prefetched: a few seconds' TTL
 * says the owner wants them asked again, and prefetching them would
 * double the upstream queries of a busy name. */
#define DT_RSV_PREFETCH_MIN_TTL 10
/* NSEC RRsets kept per zone for their aggressive use (RFC 8198): a zone
 * with many missing names asked for fills it; more would make every merge
 * (a copy of the zone's entry) costly. */
#define DT_RSV_NSEC_PER_ZONE 64
/* Times one question is asked again from the start when what came back
 * was bogus, malformed or an unusable RCODE (resolver.c retry()): the
 * first retry goes to another server over TCP (the lying one penalised),
 * the second again, or, with resolution auto while forwarding, from the
 * root (src/drive/fetch_net.c iterated()); a genuinely broken zone then
 * costs three resolutions, not an open-ended number (Unbound: a few,
 * each to other servers). */
#define DT_RSV_RETRY_MAX 2
/* CNAME targets asked when a response stops at an alias
 * (resolver/chase.c): one question per link of a chain the
 * validator would accept (DT_VAL_CHAIN_MAX), no more. */
#define DT_RSV_CHASE_MAX DT_VAL_CHAIN_MAX
/* The TTL of an answer served stale (RFC 8767 §4: 30 s). */
#define DT_RSV_STALE_TTL 30
/* Memory the parsed upstream responses of one question may hold: a real
 * chain of trust is a few KiB per zone cut; a crafted 64 KiB response
 * decompresses to a few MiB, and DT_DMN_FETCHES_PER_TASK of them would be
 * hundreds. Past it a response counts as not received. */
#define DT_DMN_BYTES_PER_TASK (8u * 1024 * 1024)
/* Seconds an answer that failed because no upstream answered is kept:
 * long enough to stop a retry storm, short enough to recover at once. */
#define DT_DMN_FAIL_TTL 5
/* Octets of replies waiting to be written to one connection before we
 * stop reading questions from it (answers from the cache count as soon
 * as they are made): pipelining keeps going, a client that does not
 * read pins at most this plus one reply. */
#define DT_DMN_MAX_OUTBUF (128 * 1024)
/* Replies to questions already taken may still come past
 * DT_DMN_MAX_OUTBUF (up to DT_DMN_MAX_PENDING of them, each up to 64 KiB);
 * past this the client is not reading and its connection is closed. */
#define DT_DMN_MAX_OUTBUF_HARD (1024 * 1024)

#endif
