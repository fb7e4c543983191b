/* SPDX-License-Identifier: MIT */
#include "common/errcode.h"
