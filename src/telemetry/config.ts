// Whether a run exports traces, from the standard OpenTelemetry variables (ADR 0059).
// This file loads no OpenTelemetry package: with no endpoint set nothing else of
// src/telemetry/ is imported, so a run without tracing starts as it always did.
import { parseTraceparent } from "./trace-ids.ts";

export interface OtlpTarget {
  /** Where spans are POSTed (OTLP/HTTP, JSON). */
  url: string;
  /** The URL without user, password, query or fragment: what messages show. */
  display: string;
  /** OTEL_SERVICE_NAME, or "vouch". */
  serviceName: string;
}

export type TelemetryChoice =
  /** Nothing is loaded, nothing is sent. */
  | { kind: "off" }
  /** A variable asks for something vouch does not do: one warning, then as "off". */
  | { kind: "refused"; warning: string }
  | { kind: "on"; target: OtlpTarget };

/** The URL of OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT
 *  with the signal's path `v1/traces` added (the OTLP exporter specification). */
function endpointOf(env: Record<string, string | undefined>): { value: string; name: string } | null {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return { value: traces, name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" };
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return { value: `${base.replace(/\/+$/, "")}/v1/traces`, name: "OTEL_EXPORTER_OTLP_ENDPOINT" };
  return null;
}

function displayOf(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export function telemetryChoice(env: Record<string, string | undefined>): TelemetryChoice {
  const endpoint = endpointOf(env);
  if (endpoint === null) return { kind: "off" };
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { kind: "off" };
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === "none") return { kind: "off" };
  const refused = (what: string): TelemetryChoice => ({ kind: "refused", warning: `${what}; traces are not exported` });
  if (exporter && exporter !== "otlp")
    return refused(`OTEL_TRACES_EXPORTER=${JSON.stringify(exporter)}: vouch exports traces over OTLP only`);
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim().toLowerCase();
  if (protocol === "grpc")
    return refused("OTLP protocol grpc: vouch sends OTLP over HTTP (http/json); point the endpoint at the collector's HTTP port (4318)");
  let url: URL;
  try {
    url = new URL(endpoint.value);
  } catch {
    return refused(`${endpoint.name} is not a URL (${JSON.stringify(endpoint.value.slice(0, 200))})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refused(`${endpoint.name} must be an http:// or https:// URL`);
  // A parent that was not sampled: its trace is not recorded, so vouch records none of it either.
  const parent = parseTraceparent(env.TRACEPARENT);
  if (parent && !parent.sampled) return { kind: "off" };
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || "vouch";
  return { kind: "on", target: { url: url.href, display: displayOf(url), serviceName } };
}
