#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A LAVA qemu device configuration for lava-run, from a job's context.

lava-run (LAVA's dispatcher run by hand, no server) takes the device
configuration already rendered.  A LAVA server renders it from the device
type template (qemu.jinja2), the device's dictionary and the job's
context; this does the same for the one device this test machine has,
with what qemu.jinja2 does for x86: the QEMU binary of the arch, no KVM
(the dictionary's no_kvm: this machine has none), -nographic, the NIC the
template always adds ("-net nic,model=virtio,macaddr=... -net NETDEVICE"),
-m MEMORY, -monitor none, and the job's extra_options.

usage: qemu-device.py JOB.yaml > device.yaml
"""
import sys

import yaml

QEMU = {"x86_64": "qemu-system-x86_64", "amd64": "qemu-system-x86_64",
        "i386": "qemu-system-i386"}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        job = yaml.safe_load(f)
    ctx = job.get("context", {})
    arch = ctx.get("arch", "x86_64")
    options = [
        "-nographic",
        "-net nic,model=virtio,macaddr=52:54:00:12:34:58 -net %s"
        % ctx.get("netdevice", "user"),
        "-m %s" % ctx.get("memory", 512),
        "-monitor none",
    ]
    device = {
        "device_type": "qemu",
        "available_architectures": sorted(QEMU),
        "constants": {
            "posix": {"lava_test_sh_cmd": "/bin/sh",
                      "lava_test_results_dir": "/lava-%s",
                      "lava_test_shell_file": "~/.bashrc"},
            "shutdown-message": "The system is going down for reboot NOW",
            "kernel-start-message": "Linux version [0-9]",
            "default-shell-prompt": "lava-test: # ",
            "spawn_maxread": "4092",
            # one try: a kernel that panics is not booted again
            "failure_retry": 1,
            "boot_retry": 1,
        },
        "parameters": {"pass": None},
        "actions": {
            "deploy": {"connections": {"serial": None},
                       "methods": {"image": {"parameters": {"guest": {
                           "size": 512, "interface": "ide",
                           "driveid": "lavatest"}}}}},
            "boot": {"connections": {"serial": None},
                     "methods": {"qemu": {"parameters": {
                         "command": QEMU[arch],
                         "boot_options": {"root": "/dev/sda1",
                                          "console": "ttyS0,115200",
                                          "boot_order": "c"},
                         "options": options,
                         "extra": ctx.get("extra_options", []),
                     }}}},
        },
        "timeouts": {"actions": {"http-download": {"minutes": 5}},
                     "connections": {"lava-test-shell": {"seconds": 10}}},
    }
    yaml.safe_dump(device, sys.stdout, sort_keys=False)


if __name__ == "__main__":
    main()
