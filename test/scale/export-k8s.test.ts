// `vouch export k8s` through the binary, held to a maintained Kubernetes model
// (kubernetes-models validates against the API's OpenAPI schema).
import { describe, expect, test } from "vitest";
import YAML from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { ensureBinary, tempDir, vouch } from "../e2e/helpers.ts";
import { gracePeriodSeconds, workerDeployment } from "../../src/executor/k8s/deployment.ts";

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
    expect(c.args).toEqual(["worker", "redis://redis.vouch.svc:6379/2", "--concurrency", "3", "--workdir", "/work"]);
    expect(c.envFrom).toEqual([{ secretRef: { name: "agent-keys" } }]);
    expect(c.resources.requests).toEqual({ cpu: "1500m", memory: "3072Mi" });
    expect(r.stdout).not.toMatch(/password|token|sk-/i);
  });

  test("the model catches what a broken manifest would get wrong (the check can fail)", () => {
    const good = workerDeployment({
      name: "w",
      image: "i",
      redis: "redis://r:6379",
      replicas: 1,
      concurrency: 1,
      secrets: [],
      wallMs: 1000,
    });
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
      [["--executor", "redis://:hunter2@h:1", "--image", "x"], "has a password"],
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
