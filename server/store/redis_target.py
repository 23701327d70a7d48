"""Which Redis a store URL names, and the clients that reach it.

Three topologies, one key layout (``server.store.redis_keys``):

* ``redis://[USER:PASSWORD@]HOST:PORT[/DB]`` (also ``rediss://`` for TLS,
  ``unix://``): one Redis.
* ``redis+sentinel://[USER:PASSWORD@]HOST:PORT[,HOST:PORT…]/SERVICE[/DB]``
  (``rediss+sentinel://`` for TLS): a master and its replicas watched by
  Sentinel. Every connection asks the sentinels for the master when it
  connects, so each one (the commit lane, redis-py's pool that serves
  leases, the lobby and the bus) follows a failover by itself: a
  connection to the old master breaks or answers ``READONLY``, and the next
  one goes to the new master. A sentinel late to see the failover can still
  name the old master once it is back as a replica: the pool's connections
  check ``ROLE`` as they open (``server.store.sentinel_master``). The user
  and password are the Redis nodes'; ``?sentinel_password=…`` gives the
  sentinels' own if they have one.
* ``redis+cluster://[USER:PASSWORD@]HOST:PORT[,HOST:PORT…]`` (``rediss+cluster://``):
  Redis Cluster, the nodes given being seeds (any live node is enough to
  learn the others). Commits go to each master on a pipelined connection
  of their own (``server.store.redis_cluster_lanes``), followed there by
  their ``WAIT`` (with TLS too).

``?ca=PATH`` names the CA file that signs the servers' TLS certificates.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any, Literal, cast
from urllib.parse import parse_qs, unquote

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from .redis_cluster_lanes import ClusterLanes
from .redis_lane import RedisLane, tls_context
from .sentinel_master import MasterCheckedConnection, MasterCheckedSSLConnection

Topology = Literal["redis", "sentinel", "cluster"]
SCHEMES: dict[str, tuple[Topology, bool]] = {
    "redis": ("redis", False),
    "rediss": ("redis", True),
    "unix": ("redis", False),
    "redis+sentinel": ("sentinel", False),
    "rediss+sentinel": ("sentinel", True),
    "redis+cluster": ("cluster", False),
    "rediss+cluster": ("cluster", True),
}
URL_FORMS = (
    "redis://HOST:PORT/DB, redis+sentinel://HOST:PORT[,HOST:PORT…]/SERVICE[/DB]"
    " or redis+cluster://HOST:PORT[,HOST:PORT…]"
)


class BadRedisUrl(ValueError):
    """A store URL that names no Redis we can reach (a configuration mistake)."""


@dataclass(frozen=True)
class RedisTarget:
    """A parsed Redis store URL (see the module docstring)."""

    url: str
    topology: Topology
    tls: bool
    nodes: tuple[tuple[str, int], ...] = ()
    service: str = ""
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None
    ca: str | None = None

    @property
    def has_replicas(self) -> bool:
        """Whether the topology keeps replicas (Sentinel and Cluster do; a
        lone Redis is taken to have none)."""
        return self.topology != "redis"

    def label(self) -> str:
        """Where the tables are, for the start-up line (no password)."""
        scheme = self.url.partition("://")[0]
        if self.topology == "redis":
            return _plain_label(self.url)
        hosts = ",".join(f"{h}:{p}" for h, p in self.nodes)
        tail = f"/{self.service}/{self.db}" if self.topology == "sentinel" else ""
        return f"{scheme}://{hosts}{tail}"

    def _tls_options(self) -> dict[str, Any]:
        if not self.tls:
            return {}
        options: dict[str, Any] = {"ssl": True}
        if self.ca is not None:
            options["ssl_ca_certs"] = self.ca
        return options

    def sentinel(self, timeout: float) -> Sentinel:
        """A redis-py ``Sentinel`` over this URL's sentinels."""
        sentinel_kwargs: dict[str, Any] = {
            # One try per sentinel per question: the store's retries decide.
            "retry": Retry(NoBackoff(), 0),
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            **self._tls_options(),
        }
        if self.sentinel_password is not None:
            sentinel_kwargs["password"] = self.sentinel_password
        # Untyped before redis-py 8, typed since: either is clean.
        return Sentinel(  # type: ignore[no-untyped-call, unused-ignore]
            list(self.nodes),
            sentinel_kwargs=sentinel_kwargs,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            username=self.username,
            password=self.password,
            db=self.db,
            **self._tls_options(),
        )

    def client(self, timeout: float) -> Redis:
        """redis-py's client (its pool connects lazily). Its own retry is
        off: ``RedisStore`` decides what may be sent again."""
        options: dict[str, Any] = {
            "retry": Retry(NoBackoff(), 0),
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
        }
        if self.topology == "sentinel":
            # Each new connection checks that the node it was sent to is
            # the master (server.store.sentinel_master says why).
            checked = MasterCheckedSSLConnection if self.tls else MasterCheckedConnection
            master: Redis = self.sentinel(timeout).master_for(
                self.service, connection_class=checked, **options
            )
            return master
        if self.topology == "cluster":
            cluster = RedisCluster(
                startup_nodes=[ClusterNode(host, port) for host, port in self.nodes],
                username=self.username,
                password=self.password,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                **self._tls_options(),
            )
            # The store uses the commands both clients share (keyed
            # commands, scripts, pipelines, sharded pub/sub).
            return cast(Redis, cluster)
        return Redis.from_url(self.url, **options)

    async def diagnose(self, timeout: float) -> str:
        """Why this target does not answer, in one line for an operator
        (start-up: unreachable sentinels, an unknown service, a master that
        does not answer)."""
        if self.topology == "cluster":
            return f"no node of the Redis Cluster answers at {self.label()}"
        if self.topology != "sentinel":
            return f"Redis does not answer at {self.label()}"
        hosts = ",".join(f"{h}:{p}" for h, p in self.nodes)
        sentinel = self.sentinel(min(timeout, 2.0))
        known: list[str] | None = None
        for node in sentinel.sentinels:
            try:
                masters: Any = await node.sentinel_masters()
            except RedisError:
                continue
            finally:
                await node.aclose()
            known = sorted(str(name) for name in masters)
            if self.service in known:
                state = masters[self.service]
                return (
                    f"the master of {self.service!r} ({state.get('ip')}:{state.get('port')},"
                    " as the sentinels say) does not answer"
                )
            break
        if known is None:
            return f"no sentinel answers at {hosts}"
        return f"the sentinels at {hosts} know no service {self.service!r}"

    def _tls_context(self) -> ssl.SSLContext | None:
        """The lanes' TLS context (as redis-py's: the CA of ``?ca=`` or
        the system's, the host name checked)."""
        return tls_context(self.ca) if self.tls else None

    def lane(self, timeout: float, client: Redis) -> RedisLane | ClusterLanes:
        """The pipelined commit connection(s). ``client``: ``client()``'s,
        whose slot map a Cluster's lanes share."""
        if self.topology == "cluster":
            credentials: dict[str, Any] = {}
            if self.password is not None:
                credentials["password"] = self.password
            if self.username is not None:
                credentials["username"] = self.username
            return ClusterLanes(
                cast(RedisCluster, client), credentials, timeout, tls=self._tls_context()
            )
        if self.topology == "sentinel":
            sentinel = self.sentinel(timeout)
            service = self.service

            async def master() -> tuple[str, int]:
                host, port = await sentinel.discover_master(service)
                return str(host), int(port)

            settings: dict[str, Any] = {"db": self.db}
            if self.password is not None:
                settings["password"] = self.password
            if self.username is not None:
                settings["username"] = self.username
            return RedisLane(settings, timeout, resolve=master, tls=self._tls_context())
        return RedisLane.for_url(self.url, timeout)


def _plain_label(url: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port is not None else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _host_port(text: str) -> tuple[str, int]:
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BadRedisUrl(f"{text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


def _options(scheme: str, query: str) -> dict[str, list[str]]:
    try:
        options = parse_qs(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise BadRedisUrl(f"the query of {scheme}:// is not NAME=VALUE&…") from None
    unknown = set(options) - {"sentinel_password", "ca"}
    if unknown:
        raise BadRedisUrl(f"unknown option {sorted(unknown)[0]!r} in the Redis URL")
    return options


def _credentials(userinfo: str) -> tuple[str | None, str | None]:
    """(ACL user, password) of ``USER:PASSWORD``, ``:PASSWORD`` or ``USER``."""
    user, colon, secret = userinfo.partition(":")
    return unquote(user) or None, unquote(secret) if colon else None


def _service_and_db(scheme: str, topology: str, path: str) -> tuple[str, int]:
    """(service, database) of a Sentinel URL's ``/SERVICE[/DB]``; a Cluster
    URL has no path."""
    segments = [s for s in path.split("/") if s]
    if topology != "sentinel":
        if segments:
            raise BadRedisUrl("redis+cluster://HOST:PORT[,HOST:PORT…] takes no path (one database)")
        return "", 0
    if not segments or len(segments) > 2:
        raise BadRedisUrl(f"{scheme}://HOST:PORT[,HOST:PORT…]/SERVICE[/DB] needs the service")
    if len(segments) == 2 and not segments[1].isdigit():
        raise BadRedisUrl(f"the database {segments[1]!r} is not a number")
    return unquote(segments[0]), int(segments[1]) if len(segments) == 2 else 0


def parse_redis_url(url: str) -> RedisTarget:
    """The target a Redis store URL names; ``BadRedisUrl`` (one line that
    says what is wrong) for anything else."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in SCHEMES:
        raise BadRedisUrl(f"a Redis store URL is {URL_FORMS}")
    topology, tls = SCHEMES[scheme]
    if topology == "redis":
        return RedisTarget(url, topology, tls)
    rest, _, query = rest.partition("?")
    options = _options(scheme, query)
    userinfo, at, hostpart = rest.rpartition("@")
    username, password = _credentials(userinfo) if at else (None, None)
    hosts, _, path = hostpart.partition("/")
    if not hosts:
        raise BadRedisUrl(f"{scheme}:// needs at least one HOST:PORT")
    nodes = tuple(_host_port(h) for h in hosts.split(","))
    service, db = _service_and_db(scheme, topology, path)
    return RedisTarget(
        url,
        topology,
        tls,
        nodes,
        service,
        db,
        username,
        password,
        options.get("sentinel_password", [None])[-1],
        options.get("ca", [None])[-1],
    )
