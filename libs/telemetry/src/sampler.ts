import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';

/**
 * The sampler named by `OTEL_TRACES_SAMPLER` (default `parentbased_traceidratio`) and
 * `OTEL_TRACES_SAMPLER_ARG` (the ratio, default 1). At the edge (`edge`: the gateway) a remote
 * parent (a client's `traceparent`) is still the parent, but whether the trace is recorded is the
 * root sampler's decision, not the client's sampled flag: a client cannot have every request recorded.
 */
export function samplerFromEnv(edge: boolean, env: NodeJS.ProcessEnv = process.env): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER || 'parentbased_traceidratio').trim().toLowerCase();
  const parsed = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const ratio = env.OTEL_TRACES_SAMPLER_ARG && Number.isFinite(parsed) && parsed >= 0 && parsed <= 1 ? parsed : 1;
  const root: Sampler =
    name.endsWith('always_off') ? new AlwaysOffSampler() : name.endsWith('traceidratio') ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  if (!name.startsWith('parentbased_')) return root;
  return new ParentBasedSampler(edge ? { root, remoteParentSampled: root, remoteParentNotSampled: root } : { root });
}
