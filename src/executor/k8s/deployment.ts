// A Kubernetes Deployment of `vouch worker`s (docs/scale-out.md): a pure function of
// the options, so a test can hold it to a maintained Kubernetes model. The pod is one
// the "restricted" Pod Security Standard admits (non-root, no privilege escalation, no
// capabilities, seccomp RuntimeDefault), mounts no service-account token, is probed
// through the worker's health file, bounds its work volume, and takes the fleet key and
// the Redis password from a Secret (ADR 0045): the manifest names it, never a value.
export interface DeploymentSpec {
  name: string;
  image: string;
  /** The executor URL as the workers dial it (never a password: that is in `fleetSecret`). */
  redis: string;
  replicas: number;
  concurrency: number;
  /** Secrets whose keys become the workers' environment (by name: nothing secret is printed). */
  secrets: string[];
  /** The Secret with `fleet-key` (required) and `redis-password` (optional). */
  fleetSecret: string;
  /** The longest wall cap a branch may run under: the grace period covers it. */
  wallMs: number;
  /** The work volume's size limit, a Kubernetes quantity ("20Gi"). */
  workSize: string;
  /** The user (and group) the worker runs as: not root. */
  uid: number;
}

export const WORKDIR = "/work";
export const HEALTH_FILE = `${WORKDIR}/.vouch-health`;
/** The keys of the fleet Secret. */
export const FLEET_KEY_KEY = "fleet-key";
export const REDIS_PASSWORD_KEY = "redis-password";

/** SIGTERM hands running jobs back at once; the grace period still covers a branch's whole
 *  wall cap plus a minute, for process groups that take their time to die. */
export function gracePeriodSeconds(wallMs: number): number {
  return Math.ceil(wallMs / 1000) + 60;
}

const probe = (kind: "live" | "ready") => ({ exec: { command: ["vouch", "worker", "--probe", kind, "--health-file", HEALTH_FILE] } });

/** What the restricted Pod Security Standard asks of a container; the pod adds the user and seccomp. */
function containerSecurity(uid: number): Record<string, unknown> {
  return {
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: uid,
    allowPrivilegeEscalation: false,
    capabilities: { drop: ["ALL"] },
    seccompProfile: { type: "RuntimeDefault" },
  };
}

function workerEnv(s: DeploymentSpec): Record<string, unknown>[] {
  const fromSecret = (name: string, key: string, optional: boolean) => ({
    name,
    valueFrom: { secretKeyRef: { name: s.fleetSecret, key, ...(optional ? { optional: true } : {}) } },
  });
  return [
    { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
    fromSecret("VOUCH_FLEET_KEY", FLEET_KEY_KEY, false),
    fromSecret("VOUCH_REDIS_PASSWORD", REDIS_PASSWORD_KEY, true),
  ];
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
          automountServiceAccountToken: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: s.uid,
            runAsGroup: s.uid,
            fsGroup: s.uid,
            seccompProfile: { type: "RuntimeDefault" },
          },
          containers: [
            {
              name: "worker",
              image: s.image,
              args: ["worker", s.redis, "--concurrency", String(s.concurrency), "--workdir", WORKDIR, "--health-file", HEALTH_FILE],
              env: workerEnv(s),
              ...(s.secrets.length > 0 ? { envFrom: s.secrets.map((name) => ({ secretRef: { name } })) } : {}),
              resources: { requests: { cpu, memory }, limits: { memory } },
              securityContext: containerSecurity(s.uid),
              // The worker's health file (rewritten every 2 s): live while its loop runs, ready while connected.
              livenessProbe: { ...probe("live"), initialDelaySeconds: 10, periodSeconds: 20, timeoutSeconds: 10, failureThreshold: 3 },
              readinessProbe: { ...probe("ready"), initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 10, failureThreshold: 2 },
              volumeMounts: [{ name: "work", mountPath: WORKDIR }],
            },
          ],
          volumes: [{ name: "work", emptyDir: { sizeLimit: s.workSize } }],
        },
      },
    },
  };
}
