"""The deployment files people would use, checked offline: the Kubernetes manifests (rendered as kustomize
would, then validated against the bundled Kubernetes schemas), the compose file (against the Compose spec),
and the properties issue 19 and 16 ask of them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import kubernetes_validate
import orjson
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
K8S = DEPLOY / "k8s"
KUBERNETES = "1.30.0"  # the oldest release still supported when this was written; newer ones accept the same
CLUSTER_SCOPED = {"Namespace"}


def rendered() -> list[dict[str, Any]]:
    """The base as `kubectl kustomize deploy/k8s` renders it: every resource file, namespace, labels and images
    applied (the only kustomize features the base uses: the test refuses any other)."""
    spec = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert set(spec) <= {"apiVersion", "kind", "namespace", "labels", "resources", "images"}, set(spec)
    images = {i["name"]: f"{i.get('newName', i['name'])}:{i['newTag']}" for i in spec.get("images", [])}
    labels = {k: v for entry in spec.get("labels", []) for k, v in entry["pairs"].items()}
    docs = []
    for resource in spec["resources"]:
        for doc in yaml.safe_load_all((K8S / resource).read_text()):
            if doc is None:
                continue
            if doc["kind"] not in CLUSTER_SCOPED and "namespace" in spec:
                doc["metadata"]["namespace"] = spec["namespace"]
            doc["metadata"].setdefault("labels", {}).update(labels)
            for container in _containers(doc):
                container["image"] = images.get(container["image"], container["image"])
            docs.append(doc)
    return docs


def _containers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    spec = doc.get("spec", {})
    spec = spec.get("jobTemplate", {}).get("spec", spec)  # a CronJob's pod is one level further down
    pod = spec.get("template", {}).get("spec", {})
    return pod.get("containers", []) + pod.get("initContainers", [])


def by_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for d in rendered() if d["kind"] == kind}


@pytest.mark.parametrize("doc", rendered(), ids=lambda d: f"{d['kind']}/{d['metadata']['name']}")
def test_every_manifest_is_valid_against_the_kubernetes_schema(doc):
    kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_the_services_and_workers_have_probes_resources_and_room_to_stop():
    deployments = by_kind("Deployment")
    assert set(deployments) == {"session", "rules", "worker"}
    for name in ("session", "rules"):
        pod = deployments[name]["spec"]["template"]["spec"]
        container = pod["containers"][0]
        assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
        assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
        pre_stop = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
        assert pod["terminationGracePeriodSeconds"] > pre_stop + _graceful_timeout(name)
    for deployment in deployments.values():
        assert deployment["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]
    assert {h["spec"]["scaleTargetRef"]["name"] for h in by_kind("HorizontalPodAutoscaler").values()} == set(deployments)
    assert {"session", "rules", "worker", "redis-cluster", "redis-queue", "redis-sentinel"} <= set(by_kind("PodDisruptionBudget"))


def _graceful_timeout(service: str) -> int:
    """gunicorn's graceful timeout for the service, as its config file sets it (its default: 30 s)."""
    namespace: dict[str, Any] = {}
    exec((DEPLOY / f"gunicorn_{service}.py").read_text(), namespace)
    return int(namespace.get("graceful_timeout", 30))


def test_the_rules_service_is_reachable_inside_the_cluster_only():
    assert by_kind("Service")["rules"]["spec"]["type"] == "ClusterIP"
    backends = {p["backend"]["service"]["name"] for i in by_kind("Ingress").values()
                for r in i["spec"]["rules"] for p in r["http"]["paths"]}
    assert backends == {"session"}


def test_the_redis_cluster_runs_the_project_s_redis_configuration_and_never_evicts():
    config = by_kind("ConfigMap")["redis-config"]["data"]
    assert config["redis.conf"] == (DEPLOY / "redis.conf").read_text()
    assert config["redis-cluster.conf"] == (DEPLOY / "redis-cluster.conf").read_text()
    assert "maxmemory-policy noeviction" in config["redis.conf"].splitlines()
    assert by_kind("StatefulSet")["redis-cluster"]["spec"]["replicas"] == 6


def test_the_compose_file_follows_the_compose_spec():
    checked = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec",
                              str(DEPLOY / "docker-compose.yml")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_compose_stack_publishes_the_balancer_alone():
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"balancer"}
    assert services["balancer"]["ports"] == ["8000:8000"]
    assert services["session"]["environment"]["REDIS_URL"].startswith("redis+cluster://")
    assert services["session"]["environment"]["RQ_REDIS_URL"].startswith("redis://redis-queue")


def test_behind_the_balancer_each_client_is_still_its_own_address(tmp_path):
    """Rate limits, table quotas, stream caps and the scope of a retried create or join go by the client's address:
    behind HAProxy (make cluster, compose) or ingress-nginx (k8s) the session processes must take it from the
    X-Forwarded-For the balancer writes, or every client is the balancer and they all share one of each."""
    from deploy.stacks.cluster import ScaledStack

    haproxy = (DEPLOY / "haproxy.cfg").read_text()
    api_frontend = haproxy.split("frontend api", 1)[1].split("frontend ", 1)[0]
    assert "option forwardfor" in api_frontend
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    assert services["session"]["environment"]["TRUSTED_PROXIES"] == "1"
    assert services["session"]["environment"]["REDIS_URL"] == services["worker"]["environment"]["REDIS_URL"]
    config = next(d for d in rendered() if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "mythos")
    assert config["data"]["TRUSTED_PROXIES"] == "1"
    stack = ScaledStack(port=1, rules_port=2, redis_port=3, data_dir=tmp_path, log_dir=tmp_path)
    assert stack.env()["TRUSTED_PROXIES"] == "1"


LOOPBACK_ONLY = "127.0.0.1/32"


def test_metrics_are_not_public_through_the_ingress_and_prometheus_scrapes_the_pods():
    """GET /metrics (what every route costs, how many streams each process holds) is the operator's: the public
    Ingress serves everything under / but /metrics, which an Ingress of its own admits no address to."""
    ingresses = by_kind("Ingress")
    exact = [(name, p) for name, i in ingresses.items() for r in i["spec"]["rules"] for p in r["http"]["paths"]
             if p["path"] == "/metrics"]
    assert [p["pathType"] for _, p in exact] == ["Exact"]
    closing = ingresses[exact[0][0]]["metadata"]["annotations"]
    assert closing["nginx.ingress.kubernetes.io/whitelist-source-range"] == LOOPBACK_ONLY
    assert closing["nginx.ingress.kubernetes.io/allowlist-source-range"] == LOOPBACK_ONLY
    public = [i for name, i in ingresses.items() if name != exact[0][0]]
    assert all("source-range" not in key for i in public for key in i["metadata"].get("annotations", {}))
    hosts = {r["host"] for i in ingresses.values() for r in i["spec"]["rules"]}
    assert len(hosts) == 1  # the closing Ingress is merged into the public one's server
    deployments = by_kind("Deployment")
    for name, port in (("session", "8000"), ("rules", "8001")):
        annotations = deployments[name]["spec"]["template"]["metadata"]["annotations"]
        assert annotations == {"prometheus.io/scrape": "true", "prometheus.io/port": port, "prometheus.io/path": "/metrics"}


def haproxy_defaults() -> dict[str, str]:
    text = (DEPLOY / "haproxy.cfg").read_text()
    section = text.split("\ndefaults\n", 1)[1].split("\nfrontend ", 1)[0]
    lines = [line.split("#", 1)[0].split() for line in section.splitlines()]
    return {" ".join(words[:-1]): words[-1] for words in lines if words and words[0] == "timeout"}


def test_haproxy_gives_a_client_ten_seconds_at_most_to_send_its_request_head():
    timeouts = haproxy_defaults()
    assert timeouts["timeout http-request"] == "10s"
    assert int(timeouts["timeout http-request"][:-1]) < int(timeouts["timeout client"][:-1])


class Backend(ThreadingHTTPServer):
    """Stands for the session processes behind HAProxy: answers every GET 200 and remembers its paths."""

    def __init__(self) -> None:
        seen: list[str] = []
        self.seen = seen

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's spelling
                seen.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)


@pytest.fixture
def balancer(tmp_path):
    """deploy/haproxy.cfg in front of one stand-in session process, as make cluster runs it."""
    from deploy.stacks.cluster import haproxy_binary
    from deploy.stacks.dev import free_port

    backend = Backend()
    threading.Thread(target=backend.serve_forever, daemon=True).start()
    servers = tmp_path / "servers.cfg"
    servers.write_text(f"backend session\n    server s0 127.0.0.1:{backend.server_port}\n"
                       f"backend rules\n    server r0 127.0.0.1:{backend.server_port}\n"
                       f"backend rules_hop\n    mode tcp\n    server h0 127.0.0.1:{backend.server_port}\n")
    port = free_port()
    env = {**os.environ, "MYTHOS_API_BIND": f"127.0.0.1:{port}", "MYTHOS_RULES_BIND": f"127.0.0.1:{free_port()}",
           "MYTHOS_RULES_HOP_BIND": f"127.0.0.1:{free_port()}"}
    process = subprocess.Popen([haproxy_binary(), "-db", "-f", str(DEPLOY / "haproxy.cfg"), "-f", str(servers)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}", backend
    finally:
        process.terminate()
        process.wait(10)
        backend.shutdown()


def raw_get(base: str, path: str) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (no client-side normalisation of dots, slashes or escapes)."""
    host, port = base.rsplit("/", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


@pytest.mark.parametrize("path", ["/metrics", "/metrics?format=text", "/metrics/", "//metrics", "/./metrics",
                                  "/%6detrics", "/%2Fmetrics", "/.//metrics"])
def test_haproxy_answers_metrics_itself_and_never_forwards_it(balancer, path):
    base, backend = balancer
    status, body = raw_get(base, path)
    assert status == 404
    assert orjson.loads(body)["error"]["code"] == "request/not_found"
    assert raw_get(base, "/v1/catalog")[0] == 200  # everything else goes through
    assert backend.seen == ["/v1/catalog"]


def test_retention_is_on_in_the_kubernetes_base_with_a_volume_for_its_exports():
    """Issue 33: a public deployment must not grow without bound. The base retires games over for RETENTION_DAYS, from
    one CronJob pod that exports them to a claim of its own before deleting them; every other pod deletes nothing
    (an empty export directory), since replicated pods cannot share a ReadWriteOnce claim."""
    config = by_kind("ConfigMap")["mythos"]["data"]
    assert float(config["RETENTION_DAYS"]) > 0
    assert config["RETENTION_EXPORT_DIR"] == ""
    job = by_kind("CronJob")["retention"]
    assert job["spec"]["concurrencyPolicy"] == "Forbid"
    pod = job["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["command"] == ["mythos", "retention"]
    assert container["image"] == "mythos-tables:0.1.0"
    export_dir = next(e["value"] for e in container["env"] if e["name"] == "RETENTION_EXPORT_DIR")
    mount = next(m for m in container["volumeMounts"] if m["mountPath"] == export_dir)
    volume = next(v for v in pod["volumes"] if v["name"] == mount["name"])
    assert volume["persistentVolumeClaim"]["claimName"] in by_kind("PersistentVolumeClaim")
    assert pod["securityContext"]["fsGroup"] == 65534  # the image's user, nobody, writes there
    assert [e["name"] for e in container["env"]].count("REDIS_URL") == 1


def test_the_image_and_compose_keep_retention_exports_on_a_volume():
    dockerfile = (DEPLOY / "Dockerfile").read_text().splitlines()
    export_dir = next(line.split("=", 1)[1] for line in dockerfile if line.startswith("ENV RETENTION_EXPORT_DIR="))
    assert f"VOLUME {export_dir}" in dockerfile
    assert any(line.startswith("RUN mkdir -p") and export_dir in line and "chown nobody" in line for line in dockerfile)
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    assert services["worker"]["volumes"] == [f"exports:{export_dir}"]


def test_only_the_session_service_holds_the_token_secret_and_the_base_s_placeholder_is_refused():
    """The key of derived seat tokens (README, TOKEN_SECRET) is given to the session pods only, from a Secret whose
    placeholder the service refuses (an overlay must put a random one there); compose demands one."""
    from session_service.bootstrap import BadTokenSecret, token_secret
    from session_service.config import Settings

    deployments = by_kind("Deployment")
    holders = {name for name, d in deployments.items()
               for e in d["spec"]["template"]["spec"]["containers"][0].get("env", []) if e["name"] == "TOKEN_SECRET"}
    assert holders == {"session"}
    session_env = {e["name"]: e for e in deployments["session"]["spec"]["template"]["spec"]["containers"][0]["env"]}
    ref = session_env["TOKEN_SECRET"]["valueFrom"]["secretKeyRef"]
    placeholder = by_kind("Secret")[ref["name"]]["stringData"][ref["key"]]
    with pytest.raises(BadTokenSecret):
        token_secret(Settings(token_secret=placeholder))
    assert "TOKEN_SECRET" not in by_kind("ConfigMap")["mythos"]["data"]
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    assert services["session"]["environment"]["TOKEN_SECRET"].startswith("${TOKEN_SECRET:?")
    assert "TOKEN_SECRET" not in services["worker"]["environment"]


def test_the_rules_service_the_session_pods_and_the_workers_hold_the_hop_s_secret_and_nothing_else_does():
    """Issue 41, M1: the hop answers only holders of HOP_SECRET; the base's placeholder is refused and compose
    demands one (for every service of its app anchor: rules, session, workers)."""
    from session_service.bootstrap import hop_secret
    from session_service.config import Settings
    from shared.wire.keys import BadSecret

    deployments = by_kind("Deployment")
    holders = {name for name, d in deployments.items()
               for e in d["spec"]["template"]["spec"]["containers"][0].get("env", []) if e["name"] == "HOP_SECRET"}
    assert holders == {"rules", "session", "worker"}
    refs = {str(e["valueFrom"]["secretKeyRef"]) for d in deployments.values()
            for e in d["spec"]["template"]["spec"]["containers"][0].get("env", []) if e["name"] == "HOP_SECRET"}
    assert refs == {str({"name": "mythos-hop", "key": "HOP_SECRET"})}
    with pytest.raises(BadSecret):
        hop_secret(Settings(hop_secret=by_kind("Secret")["mythos-hop"]["stringData"]["HOP_SECRET"]))
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    for name in ("rules", "session", "worker"):
        assert services[name]["environment"]["HOP_SECRET"].startswith("${HOP_SECRET:?"), name
    assert "HOP_SECRET" not in services["balancer"].get("environment", {})


def test_mythos_run_serves_no_metrics_on_its_public_port_unless_asked(tmp_path, monkeypatch):
    """Issue 41, L6: `mythos run`'s API port (its only door: no balancer closes /metrics there) served /metrics to
    anyone. Its processes now run with SERVE_METRICS=0 unless the environment says 1; every other deployment
    scrapes each process's own address, so the services' default stays on."""
    from deploy.stacks.cluster import ScaledStack
    from deploy.stacks.dev import Stack
    from rules_service.app import create_app

    monkeypatch.delenv("SERVE_METRICS", raising=False)
    assert Stack(data_dir=tmp_path).env()["SERVE_METRICS"] == "0"
    assert ScaledStack(data_dir=tmp_path).env()["SERVE_METRICS"] == "1"
    assert create_app().test_client().get("/metrics").status_code == 200
    for value, status in (("0", 404), ("1", 200)):
        monkeypatch.setenv("SERVE_METRICS", value)
        assert Stack(data_dir=tmp_path).env()["SERVE_METRICS"] == value
        answer = create_app().test_client().get("/metrics")
        assert answer.status_code == status
        assert status == 200 or answer.json["error"]["code"] == "request/not_found"


def test_each_gunicorn_master_has_its_own_control_socket_or_none(tmp_path, monkeypatch):
    """Issue 41: the rules and session masters of one host both listened on the default control socket
    (~/.gunicorn/gunicorn.ctl), the second silently taking it. Neither opens one unless told its own path."""
    from deploy.stacks.dev import free_port

    for service, setting in (("rules", "RULES_CONTROL_SOCKET"), ("session", "SESSION_CONTROL_SOCKET")):
        monkeypatch.delenv(setting, raising=False)
        namespace: dict[str, Any] = {}
        exec((DEPLOY / f"gunicorn_{service}.py").read_text(), namespace)
        assert namespace.get("control_socket_disable") is True and "control_socket" not in namespace, service
        monkeypatch.setenv(setting, str(tmp_path / f"{service}.ctl"))
        namespace = {}
        exec((DEPLOY / f"gunicorn_{service}.py").read_text(), namespace)
        assert namespace["control_socket"] == str(tmp_path / f"{service}.ctl") and not namespace.get("control_socket_disable")
    # A real master started as the stacks start it opens none where gunicorn's default would put one.
    runtime, port = tmp_path / "runtime", free_port()
    runtime.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_CONTROL_SOCKET")}
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn_rules.py"), "--bind",
                                f"127.0.0.1:{port}", "rules_service.app:create_app()"], cwd=DEPLOY.parent,
                               env={**env, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(tmp_path), "RULES_HOP_BIND": "",
                                    "RULES_WORKERS": "1"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not _answers(f"http://127.0.0.1:{port}/healthz"):
            assert process.poll() is None and time.monotonic() < deadline, "the rules service did not start"
            time.sleep(0.1)
        assert list(runtime.iterdir()) == [] and not (tmp_path / ".gunicorn").exists()
    finally:
        process.terminate()
        process.wait(30)


def _answers(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def _pod_names() -> dict[str, dict[str, str]]:
    """Every pod the base runs, by its app.kubernetes.io/name, with its template's labels."""
    pods = {}
    for doc in rendered():
        spec = doc.get("spec", {})
        spec = spec.get("jobTemplate", {}).get("spec", spec)
        labels = spec.get("template", {}).get("metadata", {}).get("labels")
        if "template" in spec:
            assert labels and "app.kubernetes.io/name" in labels, f"{doc['kind']}/{doc['metadata']['name']} has no name label"
            pods[labels["app.kubernetes.io/name"]] = labels
    return pods


def _may_reach(target: str, port: int) -> set[str]:
    """The pods (by name; ``*`` for any pod of any namespace) the NetworkPolicies let reach ``target`` on ``port``,
    as Kubernetes reads them: a pod no policy selects takes anything; one that is selected, only what a rule admits."""
    pods = _pod_names()
    selecting = [p for p in by_kind("NetworkPolicy").values()
                 if p["spec"]["podSelector"]["matchLabels"].items() <= pods[target].items()]
    if not selecting:
        return {"*"}
    admitted: set[str] = set()
    for policy in selecting:
        assert policy["spec"]["policyTypes"] == ["Ingress"]
        for rule in policy["spec"].get("ingress", []):
            if not any(p["port"] == port for p in rule["ports"]):
                continue
            for peer in rule["from"]:
                if "namespaceSelector" in peer:
                    assert peer == {"namespaceSelector": {}}
                    admitted.add("*")
                else:
                    admitted |= {name for name, labels in pods.items()
                                 if peer["podSelector"]["matchLabels"].items() <= labels.items()}
    return admitted


def test_only_the_session_and_worker_pods_reach_the_hop_and_only_the_services_reach_redis():
    """Issue 41, M1: any pod of the cluster reached the hop (0.0.0.0:8002 behind a ClusterIP) and Redis. The
    NetworkPolicies (validated against the Kubernetes schema with the rest of the base, above) admit only these."""
    assert _may_reach("rules", 8002) == {"session", "worker"}
    assert _may_reach("rules", 8001) == {"*"}  # the stateless HTTP API: probes, Prometheus
    clients = {"session", "worker", "retention"}
    assert _may_reach("redis-cluster", 6379) == clients | {"redis-cluster-init", "redis-cluster"}
    assert _may_reach("redis-cluster", 16379) == {"redis-cluster"}
    assert _may_reach("redis-queue", 6379) == clients | {"redis-queue", "redis-sentinel"}
    assert _may_reach("redis-sentinel", 26379) == clients | {"redis-queue", "redis-sentinel"}
    assert _may_reach("session", 8000) == {"*"}  # the public API, behind the Ingress
    for name in ("rules", "redis-cluster", "redis-queue", "redis-sentinel"):
        ports = {p["containerPort"] for d in rendered() for c in _containers(d)
                 if d.get("spec", {}).get("template", {}).get("metadata", {}).get("labels", {}).get("app.kubernetes.io/name") == name
                 for p in c.get("ports", [])}
        assert ports and all(_may_reach(name, port) != {"*"} or port == 8001 for port in ports), name


def test_compose_keeps_redis_on_a_network_of_the_services_that_use_it():
    """Issue 41: every container shared one network, so the balancer and the rules service reached Redis too."""
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    on = {name: set(s.get("networks", [])) for name, s in compose["services"].items()}
    assert {name for name, nets in on.items() if "data" in nets} == {
        "session", "worker", "redis-queue-0", "redis-queue-1", *(f"redis-sentinel-{i}" for i in range(3)),
        "redis-cluster-init", *(f"redis-{i}" for i in range(6))}
    assert {name for name, nets in on.items() if "internal" in nets} == {"session", "worker", "rules", "balancer"}
    assert compose["networks"]["data"] == {"internal": True}


def test_every_part_is_restarted_and_a_cluster_node_keeps_its_nodes_conf_to_rejoin():
    """What ``mythos cluster``'s supervisor does (issue 47), compose's restart policies and the StatefulSet do: a
    part that exits comes back, and a Redis node comes back on its own data, nodes.conf included, so it rejoins."""
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    for name, service in services.items():
        assert service["restart"] == ("no" if name == "redis-cluster-init" else "unless-stopped"), name
    for name in (f"redis-{i}" for i in range(6)):
        command, volumes = services[name]["command"], services[name]["volumes"]
        assert command[command.index("--dir") + 1] == "/data" and f"{name}:/data" in volumes
    node = by_kind("StatefulSet")["redis-cluster"]["spec"]["template"]["spec"]["containers"][0]
    assert node["args"][node["args"].index("--dir") + 1] == "/data"
    assert {"name": "data", "mountPath": "/data"} in node["volumeMounts"]
    assert {"readinessProbe", "livenessProbe"} <= set(node)
    cluster_conf = (DEPLOY / "redis-cluster.conf").read_text().splitlines()
    assert {"cluster-config-file nodes.conf", "cluster-migration-barrier 1", "cluster-allow-replica-migration yes"} <= set(cluster_conf)


def test_the_queue_s_redis_has_a_replica_and_three_sentinels_everywhere_started_by_one_script(tmp_path):
    """Issue 47: the queue's one Redis was a single point (its loss stopped every AI seat and timer). make cluster,
    compose and Kubernetes each run two nodes and three Sentinels, all started by deploy/redis-queue.sh with
    deploy/sentinel.conf, and point every service at the Sentinels."""
    from deploy.stacks.cluster import QUEUE_MASTER, SENTINELS, ScaledStack

    sentinels = [f"redis-sentinel-{i}:26379" for i in range(3)]
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    for name in ("redis-queue-0", "redis-queue-1", *(s.split(":")[0] for s in sentinels)):
        command = services[name]["command"]
        assert command[:2] == ["sh", "/etc/mythos/redis-queue.sh"] and command[3:] == [name, command[4], "/data"], name
        assert "./redis-queue.sh:/etc/mythos/redis-queue.sh:ro" in services[name]["volumes"] and f"{name}:/data" in services[name]["volumes"]
        assert services[name]["environment"]["SENTINELS"].split() == sentinels
    for name in ("session", "worker"):
        assert services[name]["environment"]["QUEUE_SENTINELS"].split(",") == sentinels
        assert services[name]["environment"]["QUEUE_SENTINEL_MASTER"] == QUEUE_MASTER
    config = by_kind("ConfigMap")
    assert config["redis-queue-config"]["data"] == {"redis-queue.sh": (DEPLOY / "redis-queue.sh").read_text(),
                                                    "sentinel.conf": (DEPLOY / "sentinel.conf").read_text()}
    in_k8s = [f"redis-sentinel-{i}.redis-sentinel:26379" for i in range(3)]
    assert config["mythos"]["data"]["QUEUE_SENTINELS"].split(",") == in_k8s
    sets = by_kind("StatefulSet")
    assert (sets["redis-queue"]["spec"]["replicas"], sets["redis-sentinel"]["spec"]["replicas"]) == (2, len(SENTINELS))
    for name, role in (("redis-queue", "node"), ("redis-sentinel", "sentinel")):
        (container,) = sets[name]["spec"]["template"]["spec"]["containers"]
        assert container["command"][:4] == ["sh", "/etc/mythos-queue/redis-queue.sh", role, f"$(POD_NAME).{name}"]
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert env["SENTINELS"].split() == in_k8s and {"readinessProbe", "livenessProbe"} <= set(container)
        assert by_kind("Service")[name]["spec"]["clusterIP"] == "None"
    stack = ScaledStack(data_dir=tmp_path, log_dir=tmp_path)
    assert stack.env()["QUEUE_SENTINEL_MASTER"] == QUEUE_MASTER
    assert f"sentinel monitor {QUEUE_MASTER} PRIMARY 6379 2" in (DEPLOY / "sentinel.conf").read_text().splitlines()
