"""Redis topologies the tests start themselves from Debian's ``redis-server``
(no containers): a Sentinel set (a master, one replica, three sentinels)
and a Cluster (three masters, three replicas), either with TLS and an ACL
user (``Secure``).

Ports come from 21000–21999 (a Cluster's bus ports would be 10000 above,
below the ephemeral range). Nodes keep nothing on disk (``save ""``, no AOF):
what a killed master had not sent to its replica is really gone, which is
what the failover tests need. Replicas sync without delay
(``repl-diskless-sync-delay 0``). Every wait is for a condition Redis
reports, with a deadline.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from redis.exceptions import RedisError

from tests.ci import in_ci

PORTS = range(21000, 22000)
SERVICE = "hearts"
DOWN_AFTER_MS = 1000


def port_in_range() -> int:
    """A free port of 21000–21999 on 127.0.0.1."""
    for _ in range(200):
        port = random.choice(PORTS)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 21000-21999")


def redis_server_binary() -> str:
    """Debian's redis-server; fails in CI and skips elsewhere without it."""
    binary = shutil.which("redis-server")
    if binary is None:
        if in_ci():
            pytest.fail("redis-server is not installed")
        pytest.skip("redis-server is not installed")
    return binary


def until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Wait until ``condition()`` holds (errors count as "not yet")."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():
                return
        except (RedisError, OSError):
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.05)  # polling a condition Redis reports


@dataclass(frozen=True)
class Secure:
    """TLS and an ACL user for every node a test starts: a throwaway CA
    (``make``, by openssl) signs the nodes' certificate (for 127.0.0.1);
    clients present none. Data nodes turn the default user off and know
    only ``user``; sentinels keep theirs (the URLs' credentials are the data
    nodes', ``server.store.redis_target``)."""

    ca: Path
    cert: Path
    key: Path
    user: str = "hearts"
    password: str = "acl-s3cret"

    @classmethod
    def make(cls, workdir: Path) -> Secure:
        """A CA and a node certificate signed by it, in ``workdir``."""
        openssl = shutil.which("openssl")
        if openssl is None:
            if in_ci():
                pytest.fail("openssl is not installed")
            pytest.skip("openssl is not installed")
        ca, ca_key = workdir / "ca.crt", workdir / "ca.key"
        cert, key, csr = workdir / "redis.crt", workdir / "redis.key", workdir / "redis.csr"
        ext = workdir / "san.ext"
        ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for command in (
            ["req", "-x509", *curve, "-keyout", ca_key, "-out", ca, "-days", "2",
             "-subj", "/CN=hearts test CA"],
            ["req", *curve, "-keyout", key, "-out", csr, "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
             "-out", cert, "-days", "2", "-extfile", ext],
        ):  # fmt: skip
            subprocess.run([openssl, *map(str, command)], check=True, capture_output=True)
        return cls(ca, cert, key)

    def tls_args(self, port: int) -> list[str]:
        """TLS only, on ``port`` (no plain port), replication over TLS too."""
        return [
            "--port", "0", "--tls-port", str(port),
            "--tls-cert-file", str(self.cert), "--tls-key-file", str(self.key),
            "--tls-ca-cert-file", str(self.ca), "--tls-auth-clients", "no",
            "--tls-replication", "yes",
        ]  # fmt: skip

    def acl_args(self) -> list[str]:
        """The default user off, ``user`` allowed everything; a replica
        logs in to its master as ``user``."""
        return [
            "--user", "default", "off",
            "--user", self.user, "on", f">{self.password}", "~*", "&*", "+@all",
            "--masteruser", self.user, "--masterauth", self.password,
        ]  # fmt: skip

    def client_options(self, acl: bool = True) -> dict[str, Any]:
        """redis-py's options for a node (a sentinel: ``acl`` False)."""
        options: dict[str, Any] = {"ssl": True, "ssl_ca_certs": str(self.ca)}
        if acl:
            options |= {"username": self.user, "password": self.password}
        return options


@dataclass
class Node:
    """One redis-server process (a data node or a sentinel)."""

    port: int
    args: list[str]
    workdir: Path
    proc: subprocess.Popen[bytes] | None = None
    secure: Secure | None = None
    sentinel: bool = False

    def start(self) -> None:
        """Start it and wait until it answers PING."""
        log = (self.workdir / f"{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [redis_server_binary(), *self.args], stdout=log, stderr=log, cwd=self.workdir
        )
        until(lambda: bool(self.client().ping()), f"port {self.port} answers")

    def client(self) -> Redis:
        """A short-lived synchronous client (with the node's password, if any)."""
        password = None
        if "--requirepass" in self.args:
            password = self.args[self.args.index("--requirepass") + 1]
        options: dict[str, Any] = {"password": password}
        if self.secure is not None:
            options = self.secure.client_options(acl=not self.sentinel)
        return Redis(port=self.port, socket_timeout=2, socket_connect_timeout=2, **options)

    def signal(self, sig: int) -> None:
        """Send a signal (SIGSTOP, SIGCONT, SIGKILL)."""
        assert self.proc is not None
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL, and reap."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait(10)


def data_node_args(
    port: int,
    workdir: Path,
    replica_of: int | None = None,
    password: str | None = None,
    secure: Secure | None = None,
) -> list[str]:
    """A data node with nothing on disk and diskless, immediate replication
    (with ``password``, required of clients and given to its master; with
    ``secure``, TLS only and its ACL user)."""
    listen = ["--port", str(port)] if secure is None else secure.tls_args(port)
    args = [
        *listen, "--bind", "127.0.0.1", "--dir", str(workdir),
        "--save", "", "--appendonly", "no",
        "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0",
        "--dbfilename", f"dump-{port}.rdb",
    ]  # fmt: skip
    if replica_of is not None:
        args += ["--replicaof", "127.0.0.1", str(replica_of)]
    if password is not None:
        args += ["--requirepass", password, "--masterauth", password]
    if secure is not None:
        args += secure.acl_args()
    return args


@dataclass
class SentinelSet:
    """A master, one replica and three sentinels on 127.0.0.1."""

    workdir: Path
    password: str | None = None  # the data nodes'; the sentinels have none
    secure: Secure | None = None  # TLS everywhere, the data nodes' ACL user
    nodes: dict[int, Node] = field(default_factory=dict)
    sentinels: list[Node] = field(default_factory=list)
    master_port: int = 0

    def start(self) -> None:
        """Start everything and wait until the sentinels see the replica and
        each other."""
        master = port_in_range()
        replica = port_in_range()
        while replica == master:
            replica = port_in_range()
        self.master_port = master
        pw, sec = self.password, self.secure
        self.nodes[master] = Node(
            master, data_node_args(master, self.workdir, None, pw, sec), self.workdir, secure=sec
        )
        self.nodes[master].start()
        self.nodes[replica] = Node(
            replica,
            data_node_args(replica, self.workdir, master, pw, sec),
            self.workdir,
            secure=sec,
        )
        self.nodes[replica].start()
        until(lambda: self.in_sync(replica), "the replica is in sync")
        taken = {master, replica}
        for _ in range(3):
            port = port_in_range()
            while port in taken:
                port = port_in_range()
            taken.add(port)
            conf = self.workdir / f"sentinel-{port}.conf"
            listen = f"port {port}\n"
            if sec is not None:
                # TLS to clients, to the data nodes and between sentinels.
                listen = " ".join(sec.tls_args(port)).replace("--", "\n")[1:] + "\n"
                listen += f"sentinel auth-user {SERVICE} {sec.user}\n"
                listen += f"sentinel auth-pass {SERVICE} {sec.password}\n"
            conf.write_text(
                f"{listen}bind 127.0.0.1\ndir {self.workdir}\n"
                f"sentinel monitor {SERVICE} 127.0.0.1 {master} 2\n"
                f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
                f"sentinel failover-timeout {SERVICE} 10000\n"
                f"sentinel parallel-syncs {SERVICE} 1\n"
                + (f"sentinel auth-pass {SERVICE} {pw}\n" if pw is not None else "")
            )
            node = Node(port, [str(conf), "--sentinel"], self.workdir, secure=sec, sentinel=True)
            node.start()
            self.sentinels.append(node)
        until(self._sentinels_ready, "the sentinels know the replica and each other")

    def _sentinels_ready(self) -> bool:
        for node in self.sentinels:
            state: Any = node.client().sentinel_master(SERVICE)
            if int(state["num-other-sentinels"]) < 2 or int(state["num-slaves"]) < 1:
                return False
        return True

    @property
    def url(self) -> str:
        """The store URL naming this set (with the password, if any)."""
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        if self.secure is not None:
            sec = self.secure
            return f"rediss+sentinel://{sec.user}:{sec.password}@{hosts}/{SERVICE}?ca={sec.ca}"
        auth = f":{self.password}@" if self.password is not None else ""
        return f"redis+sentinel://{auth}{hosts}/{SERVICE}"

    def master(self) -> Node:
        """The node the sentinels say is master now."""
        return self.nodes[self._master_port(self.sentinels[0])]

    @staticmethod
    def _master_port(sentinel: Node) -> int:
        address: Any = sentinel.client().sentinel_get_master_addr_by_name(SERVICE)
        return int(address[1])

    def replica(self) -> Node:
        """The other data node."""
        master = self.master()
        return next(n for n in self.nodes.values() if n is not master)

    def in_sync(self, port: int) -> bool:
        """Whether the node at ``port`` is a replica with its link up and
        the master's offset."""
        info = self.nodes[port].client().info("replication")
        if info.get("master_link_status") != "up":
            return False
        master = self.nodes[int(info["master_port"])].client().info("replication")
        return bool(master["master_repl_offset"] == info["slave_repl_offset"])

    def wait_for_failover(self, old_master: int, timeout: float = 20.0) -> Node:
        """Wait until every sentinel names another master; that master."""

        def moved() -> bool:
            ports = {self._master_port(node) for node in self.sentinels}
            if len(ports) != 1 or old_master in ports:
                return False
            (port,) = ports
            info: Any = self.nodes[port].client().info("replication")
            return bool(info["role"] == "master")

        until(moved, "the sentinels promoted the replica", timeout)
        return self.master()

    def restart_as_replica(self, port: int) -> None:
        """Start the killed node ``port`` again as a replica of the master
        (so it can never come back as an empty master) and wait until it is
        in sync."""
        master = self.master()
        node = self.nodes[port]
        node.args = data_node_args(port, self.workdir, master.port, self.password, self.secure)
        node.start()
        until(lambda: self.in_sync(port), "the restarted node is in sync", 30.0)

    def stop(self) -> None:
        """Kill every process."""
        for node in [*self.sentinels, *self.nodes.values()]:
            node.kill()


def cluster_port() -> int:
    """A free port of 21000–21999 whose cluster bus port (+10000) is free too."""
    for _ in range(200):
        port = port_in_range()
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port pair for a cluster node")


def cluster_node_args(port: int, workdir: Path, secure: Secure | None = None) -> list[str]:
    """A cluster node with nothing on disk, quick failure detection, and
    serving its slots while another master's fail over (as docs/deploy.md
    asks of a Cluster; with ``secure``: TLS on the cluster bus too)."""
    tls_bus = ["--tls-cluster", "yes"] if secure is not None else []
    return [
        *data_node_args(port, workdir, secure=secure),
        *tls_bus,
        "--cluster-enabled", "yes",
        "--cluster-config-file", f"nodes-{port}.conf",
        "--cluster-node-timeout", "1500",
        "--cluster-replica-validity-factor", "0",
        "--cluster-require-full-coverage", "no",
    ]  # fmt: skip


@dataclass
class ClusterSet:
    """A Redis Cluster of three masters, each with one replica, on 127.0.0.1."""

    workdir: Path
    secure: Secure | None = None  # TLS everywhere, an ACL user
    nodes: dict[int, Node] = field(default_factory=dict)

    def start(self) -> None:
        """Start six nodes, join them (``redis-cli --cluster create``) and
        wait until every node says the cluster is ok."""
        ports: list[int] = []
        while len(ports) < 6:
            port = cluster_port()
            if port not in ports:
                ports.append(port)
        for port in ports:
            args = cluster_node_args(port, self.workdir, self.secure)
            self.nodes[port] = Node(port, args, self.workdir, secure=self.secure)
            self.nodes[port].start()
        cli = shutil.which("redis-cli")
        assert cli is not None, "redis-cli is not installed"
        nodes = [f"127.0.0.1:{p}" for p in ports]
        create = [cli, "--cluster", "create", *nodes, "--cluster-replicas", "1", "--cluster-yes"]
        if self.secure is not None:
            sec = self.secure
            create += ["--tls", "--cacert", str(sec.ca), "--user", sec.user, "--pass", sec.password]
        subprocess.run(
            create,
            check=True,
            capture_output=True,
            timeout=60,
        )
        until(self.healthy, "the cluster is ok on every node", 30.0)

    def healthy(self) -> bool:
        """Every live node reports ``cluster_state:ok`` and knows three
        masters, each with a replica in sync."""
        for node in self.live():
            info: Any = node.client().execute_command("CLUSTER", "INFO")
            text = info.decode() if isinstance(info, bytes) else str(info)
            if "cluster_state:ok" not in text:
                return False
        masters = self.masters()
        return len(masters) == 3 and all(self.replica_of(m) is not None for m in masters)

    def live(self) -> list[Node]:
        """The nodes whose process runs."""
        return [n for n in self.nodes.values() if n.proc is not None and n.proc.poll() is None]

    def role(self, node: Node) -> str:
        """``master`` or ``slave``, as the node says."""
        info: Any = node.client().info("replication")
        return str(info["role"])

    def masters(self) -> list[Node]:
        """The live masters."""
        return [n for n in self.live() if self.role(n) == "master"]

    def replica_of(self, master: Node) -> Node | None:
        """The live replica of ``master`` with its link up, if any."""
        for node in self.live():
            info: Any = node.client().info("replication")
            if (
                info["role"] == "slave"
                and int(info["master_port"]) == master.port
                and info.get("master_link_status") == "up"
            ):
                return node
        return None

    @property
    def url(self) -> str:
        """The store URL naming this cluster (two seed nodes)."""
        seeds = ",".join(f"127.0.0.1:{p}" for p in list(self.nodes)[:2])
        if self.secure is not None:
            sec = self.secure
            return f"rediss+cluster://{sec.user}:{sec.password}@{seeds}?ca={sec.ca}"
        return "redis+cluster://" + seeds

    def stop(self) -> None:
        """Kill every process."""
        for node in self.nodes.values():
            node.kill()
