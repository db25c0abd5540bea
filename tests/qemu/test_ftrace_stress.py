"""The function tracer on every function while run_test runs on 4 CPUs for a minute."""
import re
import time

LINE = re.compile(r"^ {0,16}\S.{0,15}-\d+ +\[\d{3}\] [d.][Nn.][hs.][0-9a-f.] +\d+\.\d{6}: \S+( <-\S+)?$")


def test_function_tracer_under_run_test_for_a_minute(lucid):
    lucid.run("cd /sys/kernel/debug/tracing")
    lucid.run("echo function > current_tracer")
    assert lucid.run("cat current_tracer") == "function\n"
    end = time.monotonic() + 60
    rounds = 0
    while time.monotonic() < end:
        out = lucid.run("run_test", timeout=120)
        assert out.endswith("ok\n"), out
        rounds += 1
    lucid.run("echo 0 > tracing_on")
    lines = lucid.run("cat trace | head -300", timeout=120).splitlines()
    events = [l for l in lines if not l.startswith("#")]
    assert len(events) > 200, lines[:20]
    bad = [l for l in events if not LINE.match(l)]
    assert not bad, bad[:5]
    lucid.run("echo nop > current_tracer")
    lucid.run("echo 1 > tracing_on")
    assert "Oops" not in lucid.run("dmesg") and rounds > 0
