// `vouch export k8s` through the binary, held to a maintained Kubernetes model
// (kubernetes-models validates against the API's OpenAPI schema).
import { describe, expect, test } from "vitest";
import YAML from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { ensureBinary, tempDir, vouch } from "../e2e/helpers.ts";
import { gracePeriodSeconds, workerDeployment } from "../../src/executor/k8s/deployment.ts";

const SPEC = {
  name: "w",
  image: "i",
  redis: "redis://r:6379",
  replicas: 1,
  concurrency: 1,
  secrets: [],
  fleetSecret: "vouch-fleet",
  wallMs: 1000,
  workSize: "1Gi",
  uid: 10001,
};

interface Security {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
  privileged?: boolean;
}
interface Pod {
  securityContext?: Security;
  containers: { securityContext?: Security }[];
  volumes?: Record<string, unknown>[];
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
}

/** What the Kubernetes "restricted" Pod Security Standard checks of a pod (the policy's
 *  controls, kubernetes.io/docs/concepts/security/pod-security-standards), as far as this
 *  manifest can be wrong: each container's effective settings, the pod's as defaults. */
function restrictedViolations(pod: Pod): string[] {
  const out: string[] = [];
  const volumeTypes = new Set(["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"]);
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) out.push("host namespaces");
  for (const v of pod.volumes ?? []) if (!Object.keys(v).some((k) => volumeTypes.has(k))) out.push(`volume type of ${JSON.stringify(v)}`);
  for (const c of pod.containers) {
    const eff = (k: keyof Security) => c.securityContext?.[k] ?? pod.securityContext?.[k];
    if (eff("runAsNonRoot") !== true) out.push("runAsNonRoot is not true");
    if (eff("runAsUser") === 0) out.push("runs as user 0");
    const seccomp = (eff("seccompProfile") as Security["seccompProfile"])?.type;
    if (seccomp !== "RuntimeDefault" && seccomp !== "Localhost") out.push("seccompProfile is not RuntimeDefault or Localhost");
    if (c.securityContext?.privileged) out.push("privileged");
    if (c.securityContext?.allowPrivilegeEscalation !== false) out.push("allowPrivilegeEscalation is not false");
    if (!c.securityContext?.capabilities?.drop?.includes("ALL")) out.push("capabilities do not drop ALL");
    for (const cap of c.securityContext?.capabilities?.add ?? []) if (cap !== "NET_BIND_SERVICE") out.push(`adds capability ${cap}`);
  }
  return out;
}

async function exportK8s(args: string[]) {
  await ensureBinary();
  const d = tempDir("k8s");
  try {
    return await vouch(["export", "k8s", ...args], { home: d.path, cwd: d.path });
  } finally {
    d.cleanup();
  }
}

describe("vouch export k8s", () => {
  test("prints a Deployment the Kubernetes schema accepts: replicas, resources, grace period past the wall cap, secrets by name", async () => {
    const r = await exportK8s([
      "--executor",
      "redis://redis.vouch.svc:6379/2",
      "--image",
      "ghcr.io/acme/vouch:1.2",
      "--replicas",
      "5",
      "--concurrency",
      "3",
      "--secret",
      "agent-keys",
      "--wall",
      "45m",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const doc = YAML.parse(r.stdout);
    expect(() => new Deployment(doc).validate()).not.toThrow();
    expect(doc.spec.replicas).toBe(5);
    const pod = doc.spec.template.spec;
    expect(pod.terminationGracePeriodSeconds).toBe(45 * 60 + 60);
    const c = pod.containers[0];
    expect(c.image).toBe("ghcr.io/acme/vouch:1.2");
    expect(c.args).toEqual([
      "worker",
      "redis://redis.vouch.svc:6379/2",
      "--concurrency",
      "3",
      "--workdir",
      "/work",
      "--health-file",
      "/work/.vouch-health",
    ]);
    expect(c.envFrom).toEqual([{ secretRef: { name: "agent-keys" } }]);
    expect(c.resources.requests).toEqual({ cpu: "1500m", memory: "3072Mi" });
    expect(r.stdout).not.toMatch(/sk-|hunter2/i);
  });

  test("the pod is one the restricted Pod Security Standard admits; no token; probes, a bounded work volume, the fleet Secret", async () => {
    const r = await exportK8s(["--executor", "redis://r:6379", "--image", "i", "--fleet-secret", "fleet-a", "--work-size", "8Gi"]);
    expect(r.code, r.stderr).toBe(0);
    const doc = YAML.parse(r.stdout);
    expect(() => new Deployment(doc).validate()).not.toThrow();
    const pod = doc.spec.template.spec;
    expect(restrictedViolations(pod)).toEqual([]);
    expect(pod.automountServiceAccountToken).toBe(false);
    const c = pod.containers[0];
    for (const probe of [c.livenessProbe, c.readinessProbe]) expect(probe.exec.command.slice(0, 3)).toEqual(["vouch", "worker", "--probe"]);
    expect(c.livenessProbe.exec.command).toEqual(["vouch", "worker", "--probe", "live", "--health-file", "/work/.vouch-health"]);
    expect(c.readinessProbe.exec.command[3]).toBe("ready");
    expect(pod.volumes).toEqual([{ name: "work", emptyDir: { sizeLimit: "8Gi" } }]);
    const env = Object.fromEntries(c.env.map((e: { name: string; valueFrom: unknown }) => [e.name, e.valueFrom]));
    expect(env.VOUCH_FLEET_KEY).toEqual({ secretKeyRef: { name: "fleet-a", key: "fleet-key" } });
    expect(env.VOUCH_REDIS_PASSWORD).toEqual({ secretKeyRef: { name: "fleet-a", key: "redis-password", optional: true } });
  });

  test("the restricted check can fail: each field a broken manifest gets wrong is named", () => {
    const good = workerDeployment(SPEC) as { spec: { template: { spec: Pod } } };
    expect(restrictedViolations(good.spec.template.spec)).toEqual([]);
    const broken = structuredClone(good.spec.template.spec);
    const c = broken.containers[0]!;
    delete (c.securityContext as Record<string, unknown>).allowPrivilegeEscalation;
    c.securityContext!.capabilities = { drop: ["NET_RAW"] };
    broken.securityContext = { runAsUser: 0 };
    delete c.securityContext!.seccompProfile;
    delete c.securityContext!.runAsNonRoot;
    delete c.securityContext!.runAsUser;
    expect(restrictedViolations(broken)).toEqual([
      "runAsNonRoot is not true",
      "runs as user 0",
      "seccompProfile is not RuntimeDefault or Localhost",
      "allowPrivilegeEscalation is not false",
      "capabilities do not drop ALL",
    ]);
  });

  test("the model catches what a broken manifest would get wrong (the check can fail)", () => {
    const good = workerDeployment(SPEC);
    expect(() => new Deployment(good as never).validate()).not.toThrow();
    const bad = structuredClone(good) as { spec: { replicas: unknown } };
    bad.spec.replicas = "three";
    expect(() => new Deployment(bad as never).validate()).toThrow();
    expect(gracePeriodSeconds(1)).toBe(61);
  });

  test("refuses what it cannot print safely or correctly, exit 2", async () => {
    const cases: [string[], string][] = [
      [["--image", "x"], "needs --executor"],
      [["--executor", "redis://h:1"], "needs --image"],
      [["--executor", "redis://:hunter2@h:1", "--image", "x"], "VOUCH_REDIS_PASSWORD"],
      [["--executor", "redis://h:1", "--image", "x", "--fleet-secret", "Fleet"], "not a Kubernetes name"],
      [["--executor", "redis://h:1", "--image", "x", "--work-size", "lots"], "--work-size"],
      [["--executor", "redis://h:1", "--image", "x", "--uid", "0"], "--uid"],
      [["--executor", "http://h:1", "--image", "x"], "redis:// or rediss://"],
      [["--executor", "redis://h:1", "--image", "x", "--secret", "__proto__"], "not a Kubernetes name"],
      [["--executor", "redis://h:1", "--image", "x", "--replicas", "-1"], "--replicas"],
    ];
    for (const [args, message] of cases) {
      const r = await exportK8s(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain("hunter2");
    }
  });
});
