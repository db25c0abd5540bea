UNIT_TESTS += sched_policy
sched_policy_SRCS := tests/unit/test_sched_policy.c kernel/sched/sched_policy.c
