import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import type { z } from 'zod';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { kubernetesDir, render, renderProduction, type K8sObject } from './render.ts';

/** Every app of apps/ (a service made by `nx g @academy/tools:service` included): each must have its Deployment. */
const APPS = readdirSync(path.resolve(kubernetesDir, '../../apps')).filter((name) => existsSync(path.resolve(kubernetesDir, '../../apps', name, 'src/config.ts')));
/** Each app's configuration schema, by Deployment name (imported one after another: Jest's ESM loader fails concurrent imports of a shared module). */
const schemas: Record<string, z.ZodObject> = {};
for (const app of APPS) schemas[app] = ((await import(`../../apps/${app}/src/config.ts`)) as { ConfigSchema: z.ZodObject }).ConfigSchema;

/** Variables libs/telemetry reads (the tracing preload, before the app's config): named in its sources. */
const TELEMETRY_VARIABLES = new Set(
  readdirSync(path.resolve(kubernetesDir, '../../libs/telemetry/src')).flatMap((file) =>
    [...readFileSync(path.resolve(kubernetesDir, '../../libs/telemetry/src', file), 'utf8').matchAll(/\b(OTEL_[A-Z_]+|TRACE_EDGE)\b/g)].map((match) => match[1]),
  ),
);

/** Values that hold credentials: only ever from a Secret. */
const SECRET_VARIABLES = ['DATABASE_URL', 'RABBITMQ_URL', 'REDIS_URL', 'SMTP_URL', 'PUSH_NOTIFICATIONS_API_KEY', 'PAYSLIP_FILE_KEYS', 'UNSUBSCRIBE_SECRET', 'TAX_ID_DIGEST_KEY', 'PRIVACY_API_KEY', 'PRIVACY_FILE_KEYS'];

/** How long a service may take to stop after SIGTERM: closeServer's 10 s for in-flight requests, then consumers, relay, connections. */
const SHUTDOWN_SECONDS = 15;

const models: Record<string, { new (data: never): { validate(): void } }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

const base = render(path.join(kubernetesDir, 'base'));
const production = renderProduction();

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found;
};
const containerOf = (deployment: K8sObject) => deployment.spec.template.spec.containers[0];

/** Every variable a container gets, and where from (`ConfigMap/<name>`, `Secret/<name>`, `env`). */
function environmentOf(objects: K8sObject[], deployment: K8sObject) {
  const values: Record<string, string> = {};
  const sources: Record<string, string> = {};
  for (const from of containerOf(deployment).envFrom ?? []) {
    const [kind, ref] = from.configMapRef ? ['ConfigMap', from.configMapRef] : ['Secret', from.secretRef];
    const source = named(objects, kind, ref.name);
    const data: Record<string, string> =
      kind === 'ConfigMap' ? source.data : Object.fromEntries(Object.entries(source.data ?? {}).map(([key, value]) => [key, Buffer.from(String(value), 'base64').toString('utf8')]));
    for (const [key, value] of Object.entries(data)) {
      values[key] = value;
      sources[key] = `${kind}/${ref.name}`;
    }
  }
  for (const variable of containerOf(deployment).env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef;
    if (!ref) {
      values[variable.name] = variable.value;
      sources[variable.name] = 'env';
      continue;
    }
    const kind = variable.valueFrom.secretKeyRef ? 'Secret' : 'ConfigMap';
    const data = named(objects, kind, ref.name).data ?? {};
    // Kubernetes refuses to start the container when the key is missing (optional is not set here).
    if (!(ref.key in data)) throw new Error(`${deployment.metadata.name}: ${variable.name} names key ${ref.key}, missing from ${kind} ${ref.name}`);
    values[variable.name] = kind === 'Secret' ? Buffer.from(String(data[ref.key]), 'base64').toString('utf8') : data[ref.key];
    sources[variable.name] = `${kind}/${ref.name}`;
  }
  return { values, sources };
}

/** Secret names and keys a pod volume carries (secret or projected secrets). */
function secretKeysOfVolume(objects: K8sObject[], volume: K8sObject): string[] {
  const names: string[] = volume.secret ? [volume.secret.secretName] : (volume.projected?.sources ?? []).map((source: K8sObject) => source.secret?.name).filter(Boolean);
  return names.flatMap((name) => Object.keys(named(objects, 'Secret', name).data ?? {}));
}

function volumeMountedAt(deployment: K8sObject, directory: string) {
  const mount = (containerOf(deployment).volumeMounts ?? []).find((entry: K8sObject) => directory === entry.mountPath || directory.startsWith(`${entry.mountPath}/`));
  if (!mount) return undefined;
  return deployment.spec.template.spec.volumes.find((volume: K8sObject) => volume.name === mount.name);
}

describe.each([
  ['base', base],
  ['overlays/production', production],
])('%s', (_name, objects) => {
  test('every object is valid against the Kubernetes schema of its kind', () => {
    expect(objects.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const object of objects) {
      const Model = models[`${object.apiVersion}/${object.kind}`];
      if (!Model) {
        problems.push(`${object.apiVersion} ${object.kind} ${object.metadata.name}: no schema known to this test`);
        continue;
      }
      try {
        new Model(object as never).validate();
      } catch (error) {
        problems.push(`${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('each app has a Deployment, a Service, an autoscaling/v2 HorizontalPodAutoscaler and a PodDisruptionBudget', () => {
    expect(ofKind(objects, 'Deployment').map((object) => object.metadata.name).sort()).toEqual([...APPS].sort());
    for (const app of APPS) {
      const deployment = named(objects, 'Deployment', app);
      const podLabels = deployment.spec.template.metadata.labels;
      const selects = (selector: Record<string, string>) => Object.entries(selector).every(([key, value]) => podLabels[key] === value);
      expect(selects(deployment.spec.selector.matchLabels)).toBe(true);
      // The autoscaler owns the count: an apply must not reset it.
      expect(deployment.spec.replicas).toBeUndefined();

      const service = named(objects, 'Service', app);
      expect(selects(service.spec.selector)).toBe(true);
      expect(service.spec.ports[0].targetPort).toBe('http');

      const hpa = named(objects, 'HorizontalPodAutoscaler', app);
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);

      const pdb = named(objects, 'PodDisruptionBudget', app);
      expect(selects(pdb.spec.selector.matchLabels)).toBe(true);
      expect(pdb.spec.maxUnavailable ?? 0).toBeGreaterThan(0); // a drain can always proceed
    }
  });

  test('every pod is probed (startup and liveness on /healthz, readiness on /readyz), bounded in resources, non-root and drained before it stops', () => {
    for (const app of APPS) {
      const deployment = named(objects, 'Deployment', app);
      const pod = deployment.spec.template.spec;
      const container = containerOf(deployment);
      expect(container.ports).toEqual([{ name: 'http', containerPort: expect.any(Number), protocol: 'TCP' }]);
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      // migrations (and the wait for another pod's) run before the server listens: minutes, not seconds
      expect(container.startupProbe.periodSeconds * container.startupProbe.failureThreshold).toBeGreaterThanOrEqual(120);
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      // The gateway's /readyz fails while any one service is down: it would take the whole API out (see its Deployment).
      expect(container.readinessProbe.httpGet).toEqual({ path: app === 'gateway' ? '/healthz' : '/readyz', port: 'http' });
      for (const resource of ['cpu', 'memory']) {
        expect(container.resources.requests[resource]).toBeDefined();
        expect(container.resources.limits[resource]).toBeDefined();
      }
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
      const [command, seconds] = container.lifecycle.preStop.exec.command;
      expect(command).toBe('sleep');
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(Number(seconds) + SHUTDOWN_SECONDS);
      expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    }
  });

  test('the gateway is reached through an Ingress that keeps WebSockets open and needs no sticky sessions', () => {
    const [ingress] = ofKind(objects, 'Ingress');
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend).toEqual({ name: 'gateway', port: { name: 'http' } });
    const annotations = ingress.metadata.annotations ?? {};
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThanOrEqual(3600);
    // Socket.IO is WebSocket-only: no long-polling session to pin to a pod.
    expect(Object.keys(annotations).filter((key) => /affinity|session-cookie/.test(key))).toEqual([]);
    expect(named(objects, 'Service', 'gateway').spec.sessionAffinity).toBeUndefined();
  });
});

describe('overlays/production configuration', () => {
  test.each(APPS)('%s: every variable its config schema requires is provided, every variable provided is one the schema knows, and they parse', (app) => {
    const schema = schemas[app];
    const { values } = environmentOf(production, named(production, 'Deployment', app));
    const known = Object.keys(schema.shape);
    const required = known.filter((key) => !(schema.shape[key] as z.ZodType).safeParse(undefined).success);
    expect(required.filter((key) => !(key in values))).toEqual([]);
    expect(Object.keys(values).filter((key) => !known.includes(key) && !TELEMETRY_VARIABLES.has(key))).toEqual([]);
    // Every variable is named, defaults included, so the operator sees every setting in one place.
    expect(known.filter((key) => !(key in values))).toEqual([]);
    const parsed = schema.safeParse(values);
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([]);
    expect(values.HOST).toBe('0.0.0.0');
    expect(Number(values.PORT)).toBe(containerOf(named(production, 'Deployment', app)).ports[0].containerPort);
  });

  test.each(APPS)('%s: sends its traces to the collector the configuration names, OTLP/HTTP on the port and namespace the to-otel-collector policy opens, sampled by a parent-based ratio', (app) => {
    const { values } = environmentOf(production, named(production, 'Deployment', app));
    expect(Object.keys(values).filter((key) => key.startsWith('OTEL_') && !TELEMETRY_VARIABLES.has(key))).toEqual([]);
    const endpoint = new URL(values.OTEL_EXPORTER_OTLP_ENDPOINT);
    const [serviceName, namespace] = endpoint.hostname.split('.');
    const rule = named(production, 'NetworkPolicy', 'to-otel-collector').spec.egress[0];
    expect({ protocol: endpoint.protocol, port: Number(endpoint.port), namespace, svc: endpoint.hostname.endsWith('.svc.cluster.local') }).toEqual({
      protocol: 'http:',
      port: rule.ports[0].port,
      namespace: rule.to[0].namespaceSelector.matchLabels['kubernetes.io/metadata.name'],
      svc: true,
    });
    expect(serviceName).toBe(rule.to[0].podSelector.matchLabels['app.kubernetes.io/name']);
    expect(values.OTEL_SDK_DISABLED).toBeUndefined();
    expect(values.OTEL_TRACES_SAMPLER).toBe('parentbased_traceidratio');
    expect(Number(values.OTEL_TRACES_SAMPLER_ARG)).toBeGreaterThan(0);
    expect(Number(values.OTEL_TRACES_SAMPLER_ARG)).toBeLessThanOrEqual(1);
  });

  test.each(APPS)('%s: credentials and the push API key come from Secrets key by key (a missing key stops the pod), never from a ConfigMap', (app) => {
    const deployment = named(production, 'Deployment', app);
    const { sources } = environmentOf(production, deployment);
    for (const variable of containerOf(deployment).env ?? []) {
      if (SECRET_VARIABLES.includes(variable.name)) expect(variable.valueFrom.secretKeyRef.optional).toBeUndefined();
    }
    for (const variable of SECRET_VARIABLES.filter((name) => name in sources)) {
      expect(`${variable} from ${sources[variable]}`).toMatch(new RegExp(`^${variable} from Secret/`));
    }
    const schemaKnows = (name: string) => name in schemas[app].shape;
    expect(SECRET_VARIABLES.filter((name) => schemaKnows(name) && !(name in sources))).toEqual([]);
  });

  test.each(APPS)('%s: the JWT keys are Secret files mounted at JWT_KEYS_DIR, the signing key in academic only', (app) => {
    const deployment = named(production, 'Deployment', app);
    const { values } = environmentOf(production, deployment);
    const volume = volumeMountedAt(deployment, values.JWT_KEYS_DIR);
    expect(volume).toBeDefined();
    const files = secretKeysOfVolume(production, volume);
    const kids = values.JWT_KEY_IDS.split(',').map((kid) => kid.trim());
    for (const kid of kids) expect(files).toContain(`${kid}.public.pem`);
    const privateKeys = files.filter((file) => file.endsWith('.private.pem'));
    expect(privateKeys).toEqual(app === 'academic' ? [`${kids[0]}.private.pem`] : []);
  });

  test('the gateway reaches each service through its Kubernetes Service', () => {
    const { values } = environmentOf(production, named(production, 'Deployment', 'gateway'));
    for (const [variable, app] of Object.entries({ ACADEMIC_URL: 'academic', HOURS_BANK_URL: 'hours-bank', INCIDENTS_URL: 'incidents', NOTIFICATIONS_URL: 'notifications', PAYSLIPS_URL: 'payslips' })) {
      const url = new URL(values[variable]);
      const service = named(production, 'Service', app);
      expect([url.hostname, Number(url.port)]).toEqual([service.metadata.name, service.spec.ports[0].port]);
    }
  });

  test.each(['incidents', 'payslips'])('%s files live on a ReadWriteMany volume shared by every pod', (app) => {
    const deployment = named(production, 'Deployment', app);
    const { values } = environmentOf(production, deployment);
    const volume = volumeMountedAt(deployment, values.FILES_DIR);
    const claim = named(production, 'PersistentVolumeClaim', volume.persistentVolumeClaim.claimName);
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany']);
  });

  test('the FCM service account is a Secret file at FIREBASE_CREDENTIALS_FILE', () => {
    const deployment = named(production, 'Deployment', 'notifications');
    const { values } = environmentOf(production, deployment);
    const volume = volumeMountedAt(deployment, values.FIREBASE_CREDENTIALS_FILE);
    expect(secretKeysOfVolume(production, volume)).toContain(path.basename(values.FIREBASE_CREDENTIALS_FILE));
  });

  test('every object lands in the academy namespace and every image comes from the registry with a tag', () => {
    for (const object of production.filter((entry) => entry.kind !== 'Namespace')) expect(`${object.kind}/${object.metadata.name} in ${object.metadata.namespace}`).toMatch(/ in academy$/);
    for (const app of APPS) expect(containerOf(named(production, 'Deployment', app)).image).toMatch(new RegExp(`^[\\w.-]+/academy/${app}:[\\w.-]+$`));
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(path.resolve(kubernetesDir, '../../docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, { environment?: Record<string, unknown> }> };

  test.each(APPS)('%s: every variable it sets is one the config schema knows, and they parse', (app) => {
    const environment = Object.fromEntries(Object.entries(compose.services[app].environment ?? {}).map(([key, value]) => [key, String(value)]));
    expect(Object.keys(environment).filter((key) => !(key in schemas[app].shape))).toEqual([]);
    expect(schemas[app].safeParse(environment).success).toBe(true);
  });
});
