# SPDX-License-Identifier: MIT
#
# The markdown table of bench/daemon.sh from its raw measurements
# (bench/results/daemon-raw.txt; the line formats are in its header).
# Medians over the clean results of each measurement (other load on the
# core at most othermax percent; all results, and the cell marked with *,
# when none was clean), with the smallest and largest value beside.
#
# TABLE_ROWS="name=label|name=label..." awk -v hz=CLK_TCK -v cmd=COMMAND \
#     -v secs=S -v names=N -v othermax=PERCENT -f table.awk RAW

function push(k, v) { val[k, ++cnt[k]] = v }

# median(k): also sets LO and HI.
function median(k,    n, i, j, t, a) {
	n = cnt[k]
	if (!n) { LO = HI = ""; return "" }
	for (i = 1; i <= n; i++) a[i] = val[k, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	LO = a[1]; HI = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function cell(k, fmt,    m, mark) {
	m = median(k)
	if (m == "") return "n/a"
	mark = (k in noisy) ? "*" : ""
	if (cnt[k] == 1) return sprintf(fmt "%s", m, mark)
	return sprintf(fmt "%s (" fmt "–" fmt ")", m, mark, LO, HI)
}

# keep(k, v, other): a result of measurement k; the noisy ones are used
# only when k has no clean one.
function keep(k, v, other) {
	if (other <= othermax) push(k, v)
	else nval[k, ++ncnt[k]] = v
}

function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "n/a" : sprintf("%.2f", a / b) }
function change(a, b) { return (a == "" || b == "" || b == 0) ? "n/a" : sprintf("%+.1f%%", (a / b - 1) * 100) }

/^# rep / { next }
/^#/ { hdr[++nhdr] = substr($0, 3); next }
$2 == "load" { load[$1] = $3 " " $4 " " $5; state[$1] = $6; if ($6 == "clean") nclean++; nrep++; next }
{ rows[++nrows] = $0 }

END {
	for (i = 1; i <= nrows; i++) {
		split(rows[i], f, " ")
		rep = f[1]
		if (f[2] == "openssl") { push("ssl " f[3], f[4] * 1e6); continue }
		if (f[3] == "rss") { push(f[2] " rss", f[4] / 1024); continue }
		r = f[2]; kind = f[3]
		if (f[5] > 0) keep(r " " kind, f[8] / hz * 1e6 / f[5], f[11])
		if (kind == "cached") keep(r " qps", f[7], f[11])
		if (f[6] != f[4]) bad = bad sprintf("\n- repetition %s, %s, %s: %d of %d answers NOERROR", rep, r, kind, f[6], f[4])
		nres++
		if (f[11] <= othermax) { nclean_res++; if (f[11] > other) other = f[11] }
	}
	for (k in ncnt)
		if (!cnt[k]) {
			noisy[k] = 1
			for (i = 1; i <= ncnt[k]; i++) push(k, nval[k, i])
		}
	p256 = median("ssl ecdsap256"); rsa = median("ssl rsa2048")
	used = nrep " repetitions, " nclean_res " clean results of " nres
	nr = split(ENVIRON["TABLE_ROWS"], rl, "|")
	for (i = 1; i <= nr; i++) {
		j = index(rl[i], "=")
		rname[i] = substr(rl[i], 1, j - 1); rlabel[i] = substr(rl[i], j + 1)
		if (rname[i] ~ /^dnstrustd/) fwd = 1
	}

	print "Command (as root, 2 cores; resolvers pinned to one core, dnsperf, NSD and the upstream Unbound to the other):"
	print ""
	print "    " cmd
	print ""
	print "Medians of the clean results (" used "; smallest–largest in"
	print "parentheses; clean: at most " othermax "% of the core went to other work). CPU is the"
	print "resolver process's utime+stime per answer; cached: " secs " s of dnsperf over"
	print "the " 2 * names " names already cached; cold: " names " new names, each one"
	print "signature verification with an already validated zone key."
	print ""
	print "| resolver | cached QPS | cached CPU µs/answer | cold P-256 CPU µs/answer | ÷ P-256 verify | cold RSA-2048 CPU µs/answer | ÷ RSA-2048 verify | VmRSS MiB after |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nr; i++) {
		r = rname[i]
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", rlabel[i],
			cell(r " qps", "%.0f"), cell(r " cached", "%.2f"),
			cell(r " cold-p256", "%.1f"), ratio(median(r " cold-p256"), p256),
			cell(r " cold-rsa", "%.1f"), ratio(median(r " cold-rsa"), rsa),
			cell(r " rss", "%.1f")
	}
	if (cnt["floor cached"])
		printf "| floor: UDP echo, recvfrom/sendto² | %s | %s | | | | | |\n",
			cell("floor qps", "%.0f"), cell("floor cached", "%.2f")
	if (cnt["floor-mmsg cached"])
		printf "| floor: UDP echo, recvmmsg/sendmmsg ×32² | %s | %s | | | | | |\n",
			cell("floor-mmsg qps", "%.0f"), cell("floor-mmsg cached", "%.2f")
	printf "| `openssl speed -seconds 3 ecdsap256 rsa2048`, verify | | | %s | 1 | %s | 1 | |\n",
		cell("ssl ecdsap256", "%.1f"), cell("ssl rsa2048", "%.1f")
	print ""
	if (fwd) {
		print "¹ dnstrustd forwards to an iterator-only Unbound on the other core,"
		print "whose cache already holds the names: only dnstrustd's CPU is counted."
		print "Unbound and kresd iterate to NSD themselves, and their CPU includes that."
	}
	if (cnt["floor cached"]) {
		print ""
		print "² bench/daemon/udp_floor: no DNS work at all, each query sent back"
		print "with QR set, in an epoll loop on the same core under the same dnsperf"
		print "run: the kernel's cost of one UDP receive and one send on loopback."
	}
	print ""
	if (cnt["dnstrustd cached"]) {
		dc = median("dnstrustd cached"); uc = median("unbound cached")
		dr = median("dnstrustd rss"); ur = median("unbound rss")
		print "Goals for dnstrustd:"
		print ""
		printf "- cached CPU per answer ÷ Unbound's: %s (goal ≤ 0.5)\n", ratio(dc, uc)
		printf "- cold CPU per answer ÷ openssl verify: P-256 %s, RSA-2048 %s (goal ≤ 1.2; Unbound: %s, %s)\n",
			ratio(median("dnstrustd cold-p256"), p256), ratio(median("dnstrustd cold-rsa"), rsa),
			ratio(median("unbound cold-p256"), p256), ratio(median("unbound cold-rsa"), rsa)
		printf "- RSS ÷ Unbound's, same " 2 * names " names cached: %s (goal ≤ 1)\n", ratio(dr, ur)
		print ""
	}
	if (cnt["dnstrustd1 cached"] && nr > 1) {
		print "Against " rlabel[1] " (medians):"
		print ""
		for (i = 2; i <= nr; i++)
			printf "- %s: cached CPU %s, cold P-256 CPU %s, cold RSA-2048 CPU %s, RSS %s\n",
				rlabel[i],
				change(median(rname[i] " cached"), median(rname[1] " cached")),
				change(median(rname[i] " cold-p256"), median(rname[1] " cold-p256")),
				change(median(rname[i] " cold-rsa"), median(rname[1] " cold-rsa")),
				change(median(rname[i] " rss"), median(rname[1] " rss"))
		print ""
	}
	printf "Load average at the start of each repetition:"
	for (i = 1; i <= nrep; i++) printf " %s[%s]", i, load[i]
	print "."
	printf "Largest share of the resolvers' core that went to other work during a clean result: %d%%.\n", other
	for (k in noisy) { print "* no clean result: the median of all of them."; break }
	if (bad != "") print "\nNot every answer was NOERROR:" bad
	print ""
	for (i = 1; i <= nhdr; i++) print "    " hdr[i]
}
