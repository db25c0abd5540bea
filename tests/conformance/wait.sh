# wait: for one job, for all, the status of a job that exited, and $! set.
# Needs: SIGCHLD (busybox waits in rt_sigsuspend; bash reaps on SIGCHLD).
(exit 5) &
wait $!
echo "job status $?"
for i in 1 2 3; do (echo "job $i" > /dev/null) & done
wait
echo "all done $?"
(sleep 0.1; echo "late job") &
wait
echo "after late"
