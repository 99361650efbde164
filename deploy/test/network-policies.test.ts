import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { defaultDenyProblems, dnsProblems, egressProblems, gatewayIngressProblems, serviceIngressProblems, type Cluster, type Endpoint } from './network-policies.ts';
import { kubernetesDir, render, renderProduction, type K8sObject } from './render.ts';

const pod = (name: string, ip: string, namespace: string, labels: Record<string, string>): Endpoint => ({ name, ip, namespace, namespaceLabels: { 'kubernetes.io/metadata.name': namespace }, labels });

// The clusters the manifests are written for: the base's defaults, and what the production overlay
// sets (deploy/README.md "Network policies"). Change one with the overlay it describes.
const around = {
  ingressController: pod('the ingress controller', '10.244.2.1', 'ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller' }),
  scraper: pod('the metrics scraper', '10.244.3.1', 'monitoring', { 'app.kubernetes.io/name': 'prometheus' }),
  dns: pod('kube-dns', '10.244.4.1', 'kube-system', { 'k8s-app': 'kube-dns' }),
  internetHttps: ['notifications'],
  collector: { endpoint: pod('the trace collector', '10.244.6.1', 'observability', { 'app.kubernetes.io/name': 'opentelemetry-collector' }), port: 4318 },
};
const baseCluster: Cluster = {
  namespace: 'default',
  ...around,
  dependencies: {
    DATABASE_URL: { endpoint: pod('PostgreSQL', '10.244.5.1', 'postgresql', { app: 'postgresql' }), port: 5432 },
    RABBITMQ_URL: { endpoint: pod('RabbitMQ', '10.244.5.2', 'rabbitmq', { app: 'rabbitmq' }), port: 5672 },
    REDIS_URL: { endpoint: pod('Redis', '10.244.5.3', 'redis', { app: 'redis' }), port: 6379 },
    SMTP_URL: { endpoint: pod('SMTP', '10.244.5.4', 'mail', { app: 'smtp' }), port: 465 },
  },
};
const productionCluster: Cluster = {
  namespace: 'academy',
  ...around,
  dependencies: {
    DATABASE_URL: { endpoint: { name: 'PostgreSQL', ip: '10.30.1.10' }, port: 5432 },
    RABBITMQ_URL: { endpoint: { name: 'RabbitMQ', ip: '10.30.2.10' }, port: 5672 },
    REDIS_URL: { endpoint: { name: 'Redis', ip: '10.30.3.10' }, port: 6379 },
    SMTP_URL: { endpoint: { name: 'SMTP', ip: '10.30.4.10' }, port: 465 },
  },
};

const base = render(path.join(kubernetesDir, 'base'));
const production = renderProduction();
/** The apps (the gateway and every service): a new service counts without editing the checks below. */
const apps = base.filter((object) => object.kind === 'Deployment').length;

describe.each([
  ['base', base, baseCluster],
  ['overlays/production', production, productionCluster],
])('%s network policies', (_name, objects, cluster) => {
  test('a default-deny policy selects every pod, for ingress and egress', () => {
    expect(defaultDenyProblems(objects, cluster)).toEqual([]);
  });

  test("each service's HTTP port is reached by the gateway and the metrics scraper only, its other ports by nobody", () => {
    expect(serviceIngressProblems(objects, cluster)).toEqual([]);
  });

  test("the gateway's HTTP port is reached by the ingress controller and the metrics scraper only", () => {
    expect(gatewayIngressProblems(objects, cluster)).toEqual([]);
  });

  test("every Deployment's pods are under an egress policy that lets DNS through (UDP and TCP)", () => {
    expect(dnsProblems(objects, cluster)).toEqual([]);
  });

  test('the gateway reaches every service; each app reaches the dependencies its URLs name, and nothing else', () => {
    expect(egressProblems(objects, cluster)).toEqual([]);
  });
});

describe('the checks refuse what they should', () => {
  const policy = (name: string, spec: K8sObject['spec']): K8sObject => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec });
  const academic = { matchLabels: { 'app.kubernetes.io/name': 'academic' } };
  const http = [{ port: 'http', protocol: 'TCP' }];
  const withPolicy = (extra: K8sObject) => [...base, extra];
  const without = (name: string) => base.filter((object) => !(object.kind === 'NetworkPolicy' && object.metadata.name === name));

  test.each([
    ['every source to academic', policy('open-academic', { podSelector: academic, ingress: [{}] }), 'a pod of another namespace'],
    ['every pod of the namespace to academic', policy('pods-to-academic', { podSelector: academic, ingress: [{ from: [{ podSelector: {} }], ports: http }] }), 'a stranger pod in the namespace'],
    ['every namespace to academic', policy('namespaces-to-academic', { podSelector: academic, ingress: [{ from: [{ namespaceSelector: {} }], ports: http }] }), 'the ingress controller'],
    ['the other services to academic', policy('services-to-academic', { podSelector: academic, ingress: [{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/component': 'service' } } }] }] }), 'hours-bank'],
    ['the internet to academic', policy('internet-to-academic', { podSelector: academic, ingress: [{ from: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }] }), 'an internet address'],
  ])('a policy allowing %s is refused', (_what, bad, intruder) => {
    const problems = serviceIngressProblems(withPolicy(bad), baseCluster);
    expect(problems.join('\n')).toMatch(new RegExp(`^academic: HTTP port 3001 reached by \\[.*${intruder}.*\\]`, 'm'));
    expect(problems.filter((problem) => !problem.startsWith('academic:'))).toEqual([]);
  });

  test('a scraper allowed from every namespace is refused, on the gateway and on each service', () => {
    const bad = policy('metrics-from-anywhere', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: {} }], ports: http }] });
    expect(gatewayIngressProblems(withPolicy(bad), baseCluster)).toEqual([expect.stringMatching(/^gateway: HTTP port reached by .*a pod of another namespace/)]);
    expect(serviceIngressProblems(withPolicy(bad), baseCluster)).toHaveLength(apps - 1);
  });

  test('a gateway open to every port of every source is refused', () => {
    const bad = policy('open-gateway', { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } }, ingress: [{}] });
    expect(gatewayIngressProblems(withPolicy(bad), baseCluster)).toEqual([expect.stringMatching(/^gateway: HTTP port reached by/), expect.stringMatching(/^gateway: port 9229 reached by/)]);
  });

  test('without the default-deny policy, the check says so', () => {
    expect(defaultDenyProblems(without('default-deny'), baseCluster)).toEqual([expect.stringMatching(/no default-deny NetworkPolicy/)]);
  });

  test('without the DNS policy, every app is named', () => {
    const problems = dnsProblems(without('dns'), baseCluster);
    expect(problems).toHaveLength(2 * apps); // every app, UDP and TCP
    expect(problems).toContain('notifications: DNS (53/UDP) refused');
  });

  test('without any egress isolation, every app is named', () => {
    const problems = dnsProblems(base.filter((object) => object.kind !== 'NetworkPolicy'), baseCluster);
    expect(problems).toContain('academic: no egress policy selects its pods (egress is open)');
    expect(problems).toHaveLength(apps);
  });

  test('an app let out everywhere is refused: another service, a stranger pod, a dependency it has no URL for', () => {
    const bad = policy('hours-bank-anywhere', { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'hours-bank' } }, policyTypes: ['Egress'], egress: [{}] });
    const problems = egressProblems(withPolicy(bad), baseCluster);
    expect(problems).toEqual(
      expect.arrayContaining(['hours-bank → incidents HTTP: allowed', 'hours-bank → a stranger pod in the namespace: allowed', 'hours-bank: SMTP:465 allowed, but it has no SMTP_URL']),
    );
    expect(problems.filter((problem) => !problem.startsWith('hours-bank'))).toEqual([]);
  });

  test('academic cut off from the services is refused: it reads their parts of a personal data request', () => {
    const problems = egressProblems(without('academic-to-services'), baseCluster);
    expect(problems).toEqual(expect.arrayContaining(['academic → hours-bank HTTP: refused (the parts of a personal data request)', 'academic → payslips HTTP: refused (the parts of a personal data request)']));
  });

  test('an app let out to the internet is refused, and notifications without FCM too', () => {
    const bad = policy('incidents-out', { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'incidents' } }, policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }] });
    expect(egressProblems(withPolicy(bad), baseCluster)).toEqual(expect.arrayContaining(['incidents → an internet address:443: allowed', 'incidents → an internet address:80: allowed']));
    expect(egressProblems(without('notifications-to-fcm'), baseCluster)).toEqual(['notifications → an internet address:443: refused']);
  });

  test('without the collector policy, every app is named: its traces would not leave', () => {
    const problems = egressProblems(without('to-otel-collector'), baseCluster);
    expect(problems).toHaveLength(apps);
    expect(problems).toContain('academic: the trace collector:4318 refused (its traces)');
  });

  test('a service without its dependency is refused', () => {
    expect(egressProblems(without('services-to-rabbitmq'), baseCluster)).toContain("incidents: RabbitMQ:5672 refused, but its RABBITMQ_URL points there");
  });

  // A new service (payslips on 3005, say) needs its pod label `app.kubernetes.io/component: service`
  // and a port named http, no policy edit.
  const newService = (labels: Record<string, string>) => {
    const academicDeployment = base.find((object) => object.kind === 'Deployment' && object.metadata.name === 'academic')!;
    const copy = structuredClone(academicDeployment);
    copy.metadata.name = 'payslips';
    copy.spec.template.metadata.labels = labels;
    copy.spec.template.spec.containers[0].ports = [{ name: 'http', containerPort: 3005, protocol: 'TCP' }];
    return [...base, copy];
  };

  test('a new service labelled as one is covered by the policies as they are', () => {
    const objects = newService({ 'app.kubernetes.io/name': 'payslips', 'app.kubernetes.io/component': 'service' });
    expect([...serviceIngressProblems(objects, baseCluster), ...dnsProblems(objects, baseCluster), ...egressProblems(objects, baseCluster)]).toEqual([]);
  });

  test('a new service without the label is refused: the gateway cannot reach it, nor it its database', () => {
    const objects = newService({ 'app.kubernetes.io/name': 'payslips' });
    expect(serviceIngressProblems(objects, baseCluster)).toEqual(['payslips: HTTP port 3005 reached by [], expected [gateway, academic, the metrics scraper]']);
    expect(egressProblems(objects, baseCluster)).toEqual(expect.arrayContaining(['gateway → payslips HTTP: refused', 'payslips: PostgreSQL:5432 refused, but its DATABASE_URL points there']));
  });
});
