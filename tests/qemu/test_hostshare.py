"""A folder shared with the host over virtio-9p (issue 18): PCI, virtio, the 9P2000.L client.

One kernel is booted for the file with a fresh host directory shared (BOOT below); tests that
need a kernel without the device boot their own.
"""
import os
import tempfile

from lucid import Lucid

SHARE = tempfile.mkdtemp(prefix="lucid-share-")
BOOT = {"share": SHARE}

# QEMU's i440fx machine with the defaults tools/qemu-cmd leaves in: host bridge, PIIX3 ISA, IDE
# and ACPI functions, the VGA card, the e1000 network card; then the virtio-9p device.
LSPCI = ("00:00.0 Host bridge: Device 8086:1237 (rev 02)\n"
         "00:01.0 ISA bridge: Device 8086:7000\n"
         "00:01.1 IDE interface: Device 8086:7010\n"
         "00:01.3 Bridge: Device 8086:7113 (rev 03)\n"
         "00:02.0 VGA compatible controller: Device 1234:1111 (rev 02)\n"
         "00:03.0 Ethernet controller: Device 8086:100e (rev 03)\n"
         "00:04.0 Unclassified device [0002]: Device 1af4:1009\n")


def test_lspci(lucid):
    assert lucid.run("lspci") == LSPCI
    out = lucid.run("lspci -n")
    assert out.splitlines()[0] == "00:00.0 0600: 8086:1237 (rev 02)", out
    assert out.splitlines()[-1] == "00:04.0 0002: 1af4:1009", out
    assert "PCI: 7 devices found" in lucid.boot_output
