// `vouch export k8s --executor redis://... --image IMAGE [--replicas N]`: prints a
// Deployment of workers as YAML (docs/scale-out.md): a pod the restricted Pod Security
// Standard admits, its fleet key and Redis password from a Secret it names (ADR 0045).
// `vouch export otlp RUN`: sends a recorded run's spans to an OpenTelemetry collector
// (export-otlp.ts, docs/ci.md).
import YAML from "yaml";
import { EXIT, UsageError } from "../engine/errors.ts";
import { parseCommandArgs, positiveInt } from "./args.ts";
import { durationFlag } from "./run-command.ts";
import type { Command } from "./io.ts";

const OPTIONS = {
  executor: { type: "string" },
  image: { type: "string" },
  replicas: { type: "string" },
  concurrency: { type: "string" },
  secret: { type: "string", multiple: true },
  wall: { type: "string" },
  name: { type: "string" },
  "fleet-secret": { type: "string" },
  "work-size": { type: "string" },
  uid: { type: "string" },
  endpoint: { type: "string" },
} as const;

/** A DNS-1123 label: what Kubernetes takes as a Deployment's and a Secret's name. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DEFAULT_WALL_MS = 30 * 60_000;
/** A Kubernetes quantity of bytes, as `emptyDir.sizeLimit` takes it ("20Gi", "500Mi", "1G"). */
const QUANTITY = /^[1-9][0-9]{0,8}(Ki|Mi|Gi|Ti|k|M|G|T)?$/;
const OTLP_USAGE = "usage: vouch export otlp RUN [--endpoint URL]";

const exportCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("export", args, OPTIONS);
  if (positionals[0] === "otlp") {
    if (positionals.length !== 2) throw new UsageError("export otlp takes one RUN: a run id, a unique prefix of one, or last", OTLP_USAGE);
    const k8sOnly = Object.keys(values).filter((k) => k !== "endpoint");
    if (k8sOnly.length > 0) throw new UsageError(`export otlp does not take --${k8sOnly[0]}`, OTLP_USAGE);
    return (await import("./export-otlp.ts")).exportOtlp(positionals[1]!, values.endpoint, io);
  }
  if (positionals[0] !== "k8s" || positionals.length !== 1)
    throw new UsageError(
      "export knows two targets: k8s and otlp",
      "usage: vouch export k8s --executor redis://HOST:PORT --image IMAGE [--replicas N], or vouch export otlp RUN",
    );
  if (values.endpoint !== undefined) throw new UsageError("export k8s does not take --endpoint (that is export otlp's)");
  if (values.executor === undefined)
    throw new UsageError("export k8s needs --executor redis://HOST:PORT[/DB]: the Redis the workers take jobs from");
  if (values.image === undefined || values.image.trim() === "" || /\s/.test(values.image))
    throw new UsageError("export k8s needs --image IMAGE: a container image with vouch and the agent CLIs (docs/scale-out.md)");
  const { executorEndpoint } = await import("../executor/registry.ts");
  // A URL with a password is refused here as everywhere: the password goes in the fleet Secret.
  const endpoint = await executorEndpoint(values.executor, "--executor", {}, io.cwd);
  const name = values.name ?? "vouch-worker";
  const fleetSecret = values["fleet-secret"] ?? "vouch-fleet";
  for (const n of [name, fleetSecret, ...(values.secret ?? [])])
    if (!DNS_LABEL.test(n))
      throw new UsageError(`${JSON.stringify(n)} is not a Kubernetes name (lower-case letters, digits and -, at most 63)`);
  const workSize = values["work-size"] ?? "20Gi";
  if (!QUANTITY.test(workSize)) throw new UsageError(`--work-size ${JSON.stringify(workSize)}: a size such as 20Gi or 500Mi`);
  const uid = positiveInt("--uid", values.uid) ?? 10001;
  const { workerDeployment } = await import("../executor/k8s/deployment.ts");
  const manifest = workerDeployment({
    name,
    image: values.image,
    redis: endpoint.display,
    replicas: positiveInt("--replicas", values.replicas) ?? 1,
    concurrency: positiveInt("--concurrency", values.concurrency) ?? 4,
    secrets: [...new Set(values.secret ?? [])],
    fleetSecret,
    wallMs: durationFlag("--wall", values.wall) ?? DEFAULT_WALL_MS,
    workSize,
    uid,
  });
  io.out(YAML.stringify(manifest));
  return EXIT.passed;
};
export default exportCommand;
