/*
 * sim_util.h -- fixtures of the simulator test suites (sim_util.c).
 */
#ifndef DLSIM_TESTS_SIM_UTIL_H
#define DLSIM_TESTS_SIM_UTIL_H

#include "dlsim.h"

struct sim_rig {
	struct hw_device dev;
	struct hw_link intra, nic;
	struct hw_node node;
	struct hw_system sys;
};

/* A device so fast (1e20 FLOP/s and B/s) that only its 1 ms launch
 * overheads take time, per_node to a node of 1 GB/s links, `nodes`
 * nodes on 1 GB/s NICs. */
void sim_rig_init(struct sim_rig *r, int64_t per_node, int64_t nodes);

/* input 1x1x1 -> fc 1000 -> fc 1000 -> loss: 1,003,000 parameters. */
struct model *sim_two_fc(void);

#endif /* DLSIM_TESTS_SIM_UTIL_H */
