# kill and wait: a background job killed, its status 128 + signal; kill -0 of a live job.
# Needs: kill(2), and SIGCHLD for wait (rt_sigsuspend), signals' default actions.
sleep 10 &
pid=$!
kill -0 $pid && echo "alive"
kill $pid
wait $pid
echo "status $?"
sleep 10 &
kill -9 $!
wait $!
echo "status $?"
