"""make debug: QEMU waits for gdb, symbols load, a breakpoint on kmain is hit."""
import os
import shutil
import subprocess

from lucid import BUILD, ROOT, free_port, iso_for, qemu_cmd


def test_gdb_breaks_in_kmain():
    assert shutil.which("gdb"), "gdb is needed for make debug (tools/deps.sh installs it)"
    port = free_port()
    # make debug's command line (tools/qemu-cmd), with no console: only gdb talks to it here.
    qemu = subprocess.Popen(qemu_cmd(iso_for(), smp=2, console="none",
                                     extra=["-S", "-gdb", "tcp::%d" % port]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with open(os.path.join(ROOT, "scripts", "gdbinit.tmpl")) as f:
            script = f.read().replace("@GDBPORT@", str(port))
        # The symbols of the kernel booted (LUCID_BUILD picks another build, the UBSAN one).
        elf = os.path.join(os.environ.get("LUCID_BUILD") or BUILD, "lucid.elf")
        script = script.replace("file build/lucid.elf", "file " + elf)
        init = os.path.join(ROOT, "build", "test.gdbinit")
        with open(init, "w") as f:
            f.write(script + "hbreak kmain\ncontinue\nbt 1\n")
        out = subprocess.run(["gdb", "-batch", "-nx", "-x", init], cwd=ROOT, capture_output=True,
                             text=True, timeout=120).stdout
        assert "Breakpoint 1, " in out and "kmain" in out, out
    finally:
        qemu.kill()
        qemu.wait()
