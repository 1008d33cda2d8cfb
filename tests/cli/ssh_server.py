"""A real OpenSSH server for tests and benchmarks: sshd on a free loopback port taking this
user's login with a key generated in a temporary folder (DESIGN §22). Shared by
tests/cli/cli_remote_test.py and bench/remote_latency_bench.py."""
import os
import pwd
import socket
import subprocess

SSHD = "/usr/sbin/sshd"  # sshd wants its absolute path (it re-executes itself)
USER = pwd.getpwuid(os.getuid()).pw_name


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keygen(path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path], check=True)
    with open(path + ".pub") as f:
        return f.read().strip()


class SshServer:
    """sshd on 127.0.0.1:PORT taking this user's login with the key in `dir`/user_key only,
    and the ssh configurations a client uses to reach it."""

    def __init__(self, directory):
        self.dir = directory
        self.port = free_port()
        host_public = keygen(os.path.join(directory, "host_key"))
        user_public = keygen(os.path.join(directory, "user_key"))
        keygen(os.path.join(directory, "stranger_key"))
        with open(os.path.join(directory, "authorized_keys"), "w") as f:
            f.write(user_public + "\n")
        with open(os.path.join(directory, "known_hosts"), "w") as f:
            f.write(f"[127.0.0.1]:{self.port} {host_public}\n")
        open(os.path.join(directory, "empty_known_hosts"), "w").close()
        # What known_hosts says after the server's key changed (or someone is in between).
        impostor_public = keygen(os.path.join(directory, "impostor_host_key"))
        with open(os.path.join(directory, "changed_known_hosts"), "w") as f:
            f.write(f"[127.0.0.1]:{self.port} {impostor_public}\n")
        config = os.path.join(directory, "sshd_config")
        with open(config, "w") as f:
            f.write(f"Port {self.port}\nListenAddress 127.0.0.1\n"
                    f"HostKey {directory}/host_key\n"
                    f"AuthorizedKeysFile {directory}/authorized_keys\n"
                    "StrictModes no\nUsePAM no\nPidFile none\nPrintMotd no\nPrintLastLog no\n"
                    "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                    "PermitRootLogin prohibit-password\n")
        if os.getuid() == 0:
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # its privilege separation
        self.process = subprocess.Popen([SSHD, "-D", "-e", "-f", config],
                                        stderr=subprocess.PIPE, text=True)
        self.log = []
        for line in self.process.stderr:  # ready when it says it listens
            self.log.append(line)
            if "Server listening on 127.0.0.1 port" in line:
                break
        else:
            raise AssertionError("sshd did not start:\n" + "".join(self.log))

    def ssh_command(self, key="user_key", known_hosts="known_hosts"):
        """RIO_SSH: ssh with its own configuration (a name with a space in it)."""
        path = os.path.join(self.dir, f"ssh config {key} {known_hosts}")
        with open(path, "w") as f:
            f.write(f"Host *\n  IdentityFile {self.dir}/{key}\n  IdentitiesOnly yes\n"
                    f"  UserKnownHostsFile {self.dir}/{known_hosts}\n"
                    "  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n")
        return "ssh -F '" + path + "'"

    def url(self, path):
        return f"ssh://{USER}@127.0.0.1:{self.port}{path}"

    def stop(self):
        self.process.terminate()
        self.process.wait(10)
        self.process.stderr.close()
