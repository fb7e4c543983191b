# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Sourced by run_peer.sh and update-expected.sh: the short reason
# category of a runner's "FAIL file: why" line (stdin), one word.
# The first rules name the differences docs/CONFORMANCE.md keeps, each
# with the RFC that makes dnstrust's answer right, by file and failure.
category() {
	sed -n '
		/val_nsec3_cnametocnamewctoposwc\.rpl: .*authority: missing [^ ]*	[0-9]*	IN	NS	/{s/.*/kept-minimal-authority-rfc1034/;p;q;}
		/val_dnametoolong\.rpl: .*AD set, expected clear/{s/.*/kept-ad-yxdomain-proven-rfc6672/;p;q;}
		/nsec_cross_zone\.rpl: .*AD set, expected clear/{s/.*/kept-ad-signed-nsec-data-rfc4035/;p;q;}
		/val_faildnskey_ok\.rpl: .*DNSKEY query for .* failed/{s/.*/kept-dnskey-required-rfc4035/;p;q;}
		/val_any_cap\.rpl: .*signature verifications per question/{s/.*/kept-work-limit-keytrap/;p;q;}
		/val_anchor_nx_nosig\.rpl: .*no DNSKEY RRset for sub\.example\.com/{s/.*/kept-anchor-keys-required-rfc4033/;p;q;}
		/chaos_trustanchor\.rpl: .*rcode REFUSED, expected NOERROR/{s/.*/kept-no-anchor-disclosure/;p;q;}
		/iter_dname_ttl0\(_grace\)\{0,1\}\.rpl: step 40: .*no usable upstream answer for foo2\.test-dname\.example\.com/{s/.*/kept-ttl0-not-cached-rfc1035/;p;q;}
		/TIME_PASSES: ELAPSE n or EVAL\|CHECK_AUTOTRUST:\|AUTOTRUST_FILE\|TEMPFILE_NAME\|CHECK_TEMPFILE/{s/.*/unsupported-step/;p;q;}
		/, Unbound.s \|Unbound has none\|not in range \[/{s/.*/rfc5011-state/;p;q;}
		/algorithms not supported here/{s/.*/alg-unsupported-rfc8624/;p;q;}
		/NSEC3 iterations [0-9]* above the limit/{s/.*/nsec3-iterations-rfc9276/;p;q;}
		/not supported\|not understood/{s/.*/unsupported-format/;p;q;}
		/the DS query for .* failed: timed out/{s/.*/ds-probe-unanswered/;p;q;}
		/no usable upstream answer for .*timed out/{s/.*/query-unanswered/;p;q;}
		/no root server answered\|network blocks/{s/.*/root-unanswered/;p;q;}
		/no trust anchor at or above/{s/.*/anchor-missing/;p;q;}
		/has no DNSKEY RRset\|no RRSIG over [^ ]*DNSKEY/{s/.*/dnskey-missing/;p;q;}
		/RRSIG over .* expired\|not yet valid/{s/.*/sig-time/;p;q;}
		/does not verify/{s/.*/sig-invalid/;p;q;}
		/DNAME/{s/.*/dname/;p;q;}
		/NSEC/{s/.*/denial-proof/;p;q;}
		/RDATA not valid\|bad base64/{s/.*/unreadable-record/;p;q;}
		/val-override-date/{s/.*/unsupported-format/;p;q;}
		/more than [0-9]* fetches/{s/.*/fetch-limit/;p;q;}
		/AD set, expected clear/{s/.*/ad-set/;p;q;}
		/AD clear, expected set/{s/.*/ad-clear/;p;q;}
		/rcode [A-Z0-9]*, expected/{s/.*rcode \([A-Z0-9]*\), expected \([A-Z0-9]*\).*/rcode-\1-not-\2/;p;q;}
		/answer: \|authority: \|additional: \|section/{s/.*/sections-differ/;p;q;}
		/EDE /{s/.*/ede-differs/;p;q;}
		/upstream queries, expected\|round trips, expected/{s/.*/fetch-count/;p;q;}
		s/.*/other/;p;q;
	'
}
