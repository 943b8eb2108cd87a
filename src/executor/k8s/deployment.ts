// A Kubernetes Deployment of `vouch worker`s (docs/scale-out.md): a pure function of
// the options, so a test can hold it to a maintained Kubernetes model.
export interface DeploymentSpec {
  name: string;
  image: string;
  /** The executor URL as the workers dial it (no password: put one in a Secret). */
  redis: string;
  replicas: number;
  concurrency: number;
  /** Secrets whose keys become the workers' environment (by name: nothing secret is printed). */
  secrets: string[];
  /** The longest wall cap a branch may run under: the grace period covers it. */
  wallMs: number;
}

/** SIGTERM hands running jobs back at once; the grace period still covers a branch's whole
 *  wall cap plus a minute, for process groups that take their time to die. */
export function gracePeriodSeconds(wallMs: number): number {
  return Math.ceil(wallMs / 1000) + 60;
}

export function workerDeployment(s: DeploymentSpec): Record<string, unknown> {
  const labels = { "app.kubernetes.io/name": "vouch-worker", "app.kubernetes.io/instance": s.name };
  // One CPU-heavy agent CLI per job is the expectation: ask for what `concurrency` of them need.
  const cpu = `${Math.max(250, 500 * s.concurrency)}m`;
  const memory = `${Math.max(512, 1024 * s.concurrency)}Mi`;
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: s.name, labels },
    spec: {
      replicas: s.replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: gracePeriodSeconds(s.wallMs),
          containers: [
            {
              name: "worker",
              image: s.image,
              args: ["worker", s.redis, "--concurrency", String(s.concurrency), "--workdir", "/work"],
              env: [{ name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }],
              ...(s.secrets.length > 0 ? { envFrom: s.secrets.map((name) => ({ secretRef: { name } })) } : {}),
              resources: { requests: { cpu, memory }, limits: { memory } },
              volumeMounts: [{ name: "work", mountPath: "/work" }],
            },
          ],
          volumes: [{ name: "work", emptyDir: {} }],
        },
      },
    },
  };
}
