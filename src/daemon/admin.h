/* SPDX-License-Identifier: MIT */
/*
 * Administrative names (CH class): status, anchors, flush, reload, and
 * the operations of admin_ops.c.
 */
#ifndef DT_DAEMON_ADMIN_H
#define DT_DAEMON_ADMIN_H

#include <stddef.h>
#include <stdint.h>

struct qinfo;
struct worker;

/* Answers a CH-class question. Returns the reply length. */
size_t admin_answer(struct worker *w, const struct qinfo *q, uint8_t *buf,
		    size_t cap);

#endif
