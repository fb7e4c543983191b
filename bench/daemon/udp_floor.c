/* SPDX-License-Identifier: MIT */
/*
 * The floor under any UDP DNS server's cost per answer on this machine:
 * a responder that does no DNS work at all. It waits in epoll like
 * dnstrustd's workers, reads every datagram from a non-blocking socket
 * and sends it straight back with QR set (the question echoed, no
 * records), so dnsperf counts an answer. What it costs per answer is
 * what the kernel costs for one receive and one send on loopback (and
 * the wake-ups); bench/daemon.sh measures it beside the resolvers.
 *
 *   udp_floor ADDR PORT [BATCH]
 *
 * BATCH 1 (default): recvfrom and sendto per datagram, as dnstrustd,
 * Unbound and kresd do. BATCH > 1: recvmmsg and sendmmsg of up to BATCH
 * datagrams, to show what batching the system calls could save.
 * Runs until killed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXBATCH 64
#define MAXLEN 1232

int main(int argc, char **argv)
{
	static unsigned char buf[MAXBATCH][MAXLEN];
	struct sockaddr_in sa = {.sin_family = AF_INET};
	int batch = argc > 3 ? atoi(argv[3]) : 1;

	if (argc < 3 || inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1 ||
	    batch < 1 || batch > MAXBATCH) {
		fprintf(stderr, "usage: udp_floor ADDR PORT [BATCH 1..%d]\n",
			MAXBATCH);
		return 2;
	}
	sa.sin_port = htons((unsigned short)atoi(argv[2]));
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("udp_floor: socket/bind");
		return 1;
	}
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN};
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		perror("udp_floor: epoll");
		return 1;
	}

	struct sockaddr_in peer[MAXBATCH];
	struct iovec iov[MAXBATCH];
	struct mmsghdr msg[MAXBATCH];
	for (;;) {
		if (epoll_wait(ep, &ev, 1, -1) < 0 && errno != EINTR)
			return 1;
		for (;;) {
			int n;
			if (batch == 1) {
				socklen_t pl = sizeof(peer[0]);
				ssize_t len = recvfrom(fd, buf[0], MAXLEN, 0,
						       (struct sockaddr *)&peer[0],
						       &pl);
				if (len < 0)
					break;
				if (len < 12)
					continue;
				buf[0][2] |= 0x80;
				sendto(fd, buf[0], (size_t)len, 0,
				       (struct sockaddr *)&peer[0], pl);
				continue;
			}
			for (int i = 0; i < batch; i++) {
				iov[i] = (struct iovec){buf[i], MAXLEN};
				msg[i].msg_hdr = (struct msghdr){
					.msg_name = &peer[i],
					.msg_namelen = sizeof(peer[i]),
					.msg_iov = &iov[i],
					.msg_iovlen = 1,
				};
			}
			n = recvmmsg(fd, msg, (unsigned)batch, 0, NULL);
			if (n <= 0)
				break;
			for (int i = 0; i < n; i++) {
				iov[i].iov_len = msg[i].msg_len;
				if (msg[i].msg_len >= 12)
					buf[i][2] |= 0x80;
			}
			sendmmsg(fd, msg, (unsigned)n, 0);
		}
	}
}
