/* SPDX-License-Identifier: MIT */
/*
 * The floor under a lookup that is one round trip between two processes:
 * the same exchanges as dt_getaddrinfo and glibc's getaddrinfo make, with
 * no DNS work at either end, so that what is left of a lookup's time
 * above it is the code's.
 *
 *   unix  a client writes one 64-octet message (dt_getaddrinfo's A and
 *         AAAA questions, framed, in one send) on a connected Unix
 *         stream socket; the server, waiting in epoll as dnstrustd's
 *         workers do, reads it and writes one 160-octet reply; the
 *         client waits in poll and reads it.
 *   udp   a client sends two 40-octet datagrams with one sendmmsg (as
 *         glibc does for A and AAAA) on loopback; the server, in epoll
 *         as Unbound is, reads each with recvfrom and answers each with
 *         sendto (80 octets); the client waits in poll for the two.
 *
 *   rtt_floor SERVER_CPU CLIENT_CPU CALLS
 *
 * Each process is pinned to its CPU (-1: not pinned). Prints the median,
 * 10th and 90th percentile of each kind in microseconds, after 1,000
 * calls of warm-up. Not a test: nothing is asserted.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_time.h"

#define WARMUP 1000

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static void report(const char *kind, double *t, int n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	printf("%-5s calls=%d median_us=%.1f p10_us=%.1f p90_us=%.1f\n", kind,
	       n, t[n / 2], t[n / 10], t[n * 9 / 10]);
}

/* The server: epoll_wait, then answer what is there, until killed. */
static void serve_unix(int fd)
{
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN}, out;
	char in[256], reply[160];

	memset(reply, 'r', sizeof(reply));
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	for (;;) {
		if (epoll_wait(ep, &out, 1, -1) < 1)
			continue;
		ssize_t n = read(fd, in, sizeof(in));
		if (n <= 0)
			_exit(0);
		if (write(fd, reply, sizeof(reply)) < 0)
			_exit(1);
	}
}

static void serve_udp(int fd)
{
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN}, out;
	char in[256], reply[80];
	struct sockaddr_in peer;
	socklen_t plen;

	memset(reply, 'r', sizeof(reply));
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	for (;;) {
		if (epoll_wait(ep, &out, 1, -1) < 1)
			continue;
		for (;;) {
			plen = sizeof(peer);
			ssize_t n = recvfrom(fd, in, sizeof(in), MSG_DONTWAIT,
					     (struct sockaddr *)&peer, &plen);
			if (n < 0)
				break;
			sendto(fd, reply, sizeof(reply), 0,
			       (struct sockaddr *)&peer, plen);
		}
	}
}

static pid_t spawn(int cpu, void (*serve)(int), int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		pin(cpu);
		serve(fd);
		_exit(0);
	}
	return pid;
}

static void wait_in(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	while (poll(&p, 1, -1) < 1)
		;
}

static void run_unix(int scpu, int ccpu, int calls, double *t)
{
	int sv[2];
	char q[64], in[256];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		perror("socketpair");
		exit(1);
	}
	memset(q, 'q', sizeof(q));
	pid_t pid = spawn(scpu, serve_unix, sv[1]);
	close(sv[1]);
	pin(ccpu);
	for (int i = -WARMUP; i < calls; i++) {
		double t0 = now_us();
		if (write(sv[0], q, sizeof(q)) < 0)
			exit(1);
		size_t got = 0;
		while (got < 160) {
			wait_in(sv[0]);
			ssize_t n = read(sv[0], in, sizeof(in));
			if (n <= 0)
				exit(1);
			got += n;
		}
		if (i >= 0)
			t[i] = now_us() - t0;
	}
	/* The server holds its own copy of sv[0] from the fork: it would
	 * never read end-of-file. */
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(sv[0]);
}

static void run_udp(int scpu, int ccpu, int calls, double *t)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof(a);
	int s = socket(AF_INET, SOCK_DGRAM, 0),
	    c = socket(AF_INET, SOCK_DGRAM, 0);
	char q[2][40], in[256];

	if (s < 0 || c < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &alen) < 0 ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)) < 0) {
		perror("udp");
		exit(1);
	}
	memset(q, 'q', sizeof(q));
	pid_t pid = spawn(scpu, serve_udp, s);
	close(s);
	pin(ccpu);
	struct iovec iov[2] = {{q[0], 40}, {q[1], 40}};
	struct mmsghdr mm[2] = {
		{.msg_hdr = {.msg_iov = &iov[0], .msg_iovlen = 1}},
		{.msg_hdr = {.msg_iov = &iov[1], .msg_iovlen = 1}}};
	for (int i = -WARMUP; i < calls; i++) {
		double t0 = now_us();
		if (sendmmsg(c, mm, 2, 0) != 2)
			exit(1);
		for (int got = 0; got < 2;) {
			wait_in(c);
			while (recv(c, in, sizeof(in), MSG_DONTWAIT) > 0)
				got++;
		}
		if (i >= 0)
			t[i] = now_us() - t0;
	}
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(c);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr,
			"usage: rtt_floor SERVER_CPU CLIENT_CPU CALLS\n");
		return 2;
	}
	int scpu = atoi(argv[1]), ccpu = atoi(argv[2]), calls = atoi(argv[3]);
	if (calls < 10) {
		fprintf(stderr, "rtt_floor: at least 10 calls\n");
		return 2;
	}
	double *t = calloc(calls, sizeof(*t));
	if (!t)
		return 1;
	run_unix(scpu, ccpu, calls, t);
	report("unix", t, calls);
	run_udp(scpu, ccpu, calls, t);
	report("udp", t, calls);
	free(t);
	return 0;
}
