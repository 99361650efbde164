// Reads rendered NetworkPolicies the way a cluster enforces them, and checks who can reach whom.
// Rather than compare the YAML with a copy of itself, each check asks the policies about sample
// endpoints: every app's pods (their Deployment's pod labels and named ports), a stranger pod in
// the apps' namespace, a stranger in another namespace, an address on the internet, and the
// cluster's outside parts as a test describes them (ingress controller, scraper, DNS, databases…).
// Kubernetes semantics followed: a pod no policy selects for a direction is open in it; selected
// pods are open only to the union of the selecting policies' rules; a connection needs the
// source's egress and the destination's ingress; named ports resolve on the destination pod.
import { BlockList, isIPv6 } from 'node:net';
import type { K8sObject } from './render.ts';

/** A pod (labels, named ports) or, without labels, an address outside the pod network. */
export type Endpoint = {
  name: string;
  ip: string;
  namespace?: string;
  namespaceLabels?: Record<string, string>;
  labels?: Record<string, string>;
  ports?: Record<string, number>;
};

/** The cluster around the apps, as the manifests are written for it. */
export type Cluster = {
  namespace: string;
  ingressController: Endpoint;
  scraper: Endpoint;
  dns: Endpoint;
  /** Where each credential variable's URL points: DATABASE_URL → PostgreSQL, and so on. */
  dependencies: Record<'DATABASE_URL' | 'RABBITMQ_URL' | 'REDIS_URL' | 'SMTP_URL', { endpoint: Endpoint; port: number }>;
  /** The apps that call a public API over HTTPS (notifications: Firebase Cloud Messaging); no other reaches the internet. */
  internetHttps: string[];
  /** The OpenTelemetry Collector OTEL_EXPORTER_OTLP_ENDPOINT names: every app sends its traces there, OTLP/HTTP. */
  collector: { endpoint: Endpoint; port: number };
};

type Port = { port: number; protocol: 'TCP' | 'UDP' };
type Selector = { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };

/** The Deployment treated as the gateway; every other Deployment is a service. */
export const GATEWAY = 'gateway';
/** A port no app listens on: nobody may reach it (the Node inspector's, say). */
const OTHER_PORT: Port = { port: 9229, protocol: 'TCP' };

export function selects(selector: Selector | undefined, labels: Record<string, string>): boolean {
  const matchLabels = Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const matchExpressions = (selector?.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In': return key in labels && values.includes(labels[key]);
      case 'NotIn': return !(key in labels) || !values.includes(labels[key]);
      case 'Exists': return key in labels;
      case 'DoesNotExist': return !(key in labels);
      default: throw new Error(`unknown label selector operator ${operator}`);
    }
  });
  return matchLabels && matchExpressions;
}

function inBlock(ipBlock: { cidr: string; except?: string[] }, ip: string): boolean {
  const family = (cidr: string) => (isIPv6(cidr.split('/')[0]) ? 'ipv6' : 'ipv4');
  const list = (cidrs: string[]) => {
    const blocks = new BlockList();
    for (const cidr of cidrs) {
      const [address, prefix] = cidr.split('/');
      blocks.addSubnet(address, Number(prefix), family(cidr));
    }
    return blocks;
  };
  const ipFamily = isIPv6(ip) ? 'ipv6' : 'ipv4';
  if (family(ipBlock.cidr) !== ipFamily) return false;
  return list([ipBlock.cidr]).check(ip, ipFamily) && !list(ipBlock.except ?? []).check(ip, ipFamily);
}

function peerMatches(peer: K8sObject, policyNamespace: string, other: Endpoint): boolean {
  if (peer.ipBlock) return inBlock(peer.ipBlock, other.ip);
  if (!other.labels) return false; // pod and namespace selectors never match an outside address
  const namespaceOk = peer.namespaceSelector ? selects(peer.namespaceSelector, other.namespaceLabels ?? {}) : other.namespace === policyNamespace;
  const podOk = peer.podSelector ? selects(peer.podSelector, other.labels) : true;
  return namespaceOk && podOk;
}

function portMatches(rulePorts: K8sObject[] | undefined, port: Port, destination: Endpoint): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((entry) => {
    if ((entry.protocol ?? 'TCP') !== port.protocol) return false;
    if (entry.port === undefined) return true;
    if (typeof entry.port === 'string') return destination.ports?.[entry.port] === port.port;
    return entry.endPort ? port.port >= entry.port && port.port <= entry.endPort : port.port === entry.port;
  });
}

const policyTypesOf = (policy: K8sObject): string[] => policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);

/** The policies that isolate `pod` in a direction (none: the pod is open in that direction). */
function isolating(policies: K8sObject[], pod: Endpoint, direction: 'Ingress' | 'Egress'): K8sObject[] {
  if (!pod.labels) return [];
  return policies.filter((policy) => policy.metadata.namespace === pod.namespace && policyTypesOf(policy).includes(direction) && selects(policy.spec.podSelector, pod.labels!));
}

function directionAllows(policies: K8sObject[], direction: 'Ingress' | 'Egress', self: Endpoint, other: Endpoint, port: Port, destination: Endpoint): boolean {
  const selecting = isolating(policies, self, direction);
  if (selecting.length === 0) return true;
  return selecting.some((policy) =>
    (direction === 'Ingress' ? policy.spec.ingress ?? [] : policy.spec.egress ?? []).some((rule: K8sObject) => {
      const peers: K8sObject[] | undefined = direction === 'Ingress' ? rule.from : rule.to;
      return portMatches(rule.ports, port, destination) && (!peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, policy.metadata.namespace!, other)));
    }),
  );
}

/** Whether a connection from `source` to `destination` on `port` gets through both ends' policies. */
export function allows(policies: K8sObject[], source: Endpoint, destination: Endpoint, port: Port): boolean {
  return directionAllows(policies, 'Egress', source, destination, port, destination) && directionAllows(policies, 'Ingress', destination, source, port, destination);
}

/** The rendered objects as the checks read them: policies and app pods in the cluster's namespace. */
export function endpointsOf(objects: K8sObject[], cluster: Cluster) {
  const namespaced = (object: K8sObject): K8sObject => ({ ...object, metadata: { ...object.metadata, namespace: object.metadata.namespace ?? cluster.namespace } });
  const policies = objects.filter((object) => object.kind === 'NetworkPolicy').map(namespaced);
  const namespaceLabels = { 'kubernetes.io/metadata.name': cluster.namespace };
  const apps: (Endpoint & { env: string[] })[] = objects
    .filter((object) => object.kind === 'Deployment')
    .map((deployment, index) => {
      const containers: K8sObject[] = deployment.spec.template.spec.containers;
      return {
        name: deployment.metadata.name,
        ip: `10.244.1.${index + 1}`,
        namespace: deployment.metadata.namespace ?? cluster.namespace,
        namespaceLabels,
        labels: deployment.spec.template.metadata.labels ?? {},
        ports: Object.fromEntries(containers.flatMap((container) => container.ports ?? []).filter((port: K8sObject) => port.name).map((port: K8sObject) => [port.name, port.containerPort])),
        env: containers.flatMap((container) => (container.env ?? []).map((variable: K8sObject) => variable.name as string)),
      };
    });
  const stranger: Endpoint = { name: 'a stranger pod in the namespace', ip: '10.244.9.1', namespace: cluster.namespace, namespaceLabels, labels: { 'app.kubernetes.io/name': 'curious' }, ports: { http: 8080 } };
  const foreigner: Endpoint = { name: 'a pod of another namespace', ip: '10.244.9.2', namespace: 'elsewhere', namespaceLabels: { 'kubernetes.io/metadata.name': 'elsewhere' }, labels: { 'app.kubernetes.io/name': 'curious' }, ports: { http: 8080 } };
  const internet: Endpoint = { name: 'an internet address', ip: '203.0.113.7' };
  return { policies, apps, stranger, foreigner, internet };
}

const httpOf = (app: Endpoint): Port => {
  if (!app.ports?.http) throw new Error(`${app.name}: no container port named http`);
  return { port: app.ports.http, protocol: 'TCP' };
};

/**
 * Who, of every sample endpoint, `target`'s ingress lets in on `port`. Its ingress alone, whatever
 * the sources' egress: a pod that some other policy lets out must still find the door shut.
 */
function sourcesOf(objects: K8sObject[], cluster: Cluster, target: Endpoint, port: Port): string[] {
  const { policies, apps, stranger, foreigner, internet } = endpointsOf(objects, cluster);
  const sources = [...apps, stranger, foreigner, internet, cluster.ingressController, cluster.scraper].filter((source) => source.name !== target.name);
  return sources.filter((source) => directionAllows(policies, 'Ingress', target, source, port, target)).map((source) => source.name);
}

const same = (actual: string[], expected: string[]) => actual.length === expected.length && expected.every((name) => actual.includes(name));

/** A policy selecting every pod of the namespace, isolating both directions, allowing nothing. */
export function defaultDenyProblems(objects: K8sObject[], cluster: Cluster): string[] {
  const { policies } = endpointsOf(objects, cluster);
  const denies = policies.filter((policy) => {
    const selector: Selector = policy.spec.podSelector ?? {};
    const everyPod = Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
    const types = policyTypesOf(policy);
    return everyPod && types.includes('Ingress') && types.includes('Egress') && !policy.spec.ingress?.length && !policy.spec.egress?.length;
  });
  return denies.length > 0 ? [] : [`no default-deny NetworkPolicy (podSelector {}, policyTypes Ingress and Egress, no rules) in ${cluster.namespace}`];
}

/** The one service that calls the others: academic reads their parts of a personal data request. */
const PRIVACY_COORDINATOR = 'academic';

/** Each service's HTTP port hears the gateway and the scraper only; its other ports, nobody. */
export function serviceIngressProblems(objects: K8sObject[], cluster: Cluster): string[] {
  const { apps } = endpointsOf(objects, cluster);
  return apps
    .filter((app) => app.name !== GATEWAY)
    .flatMap((service) => {
      const problems: string[] = [];
      const http = sourcesOf(objects, cluster, service, httpOf(service));
      // academic reads the other services' parts of a personal data request (libs/privacy's internal route)
      const expected = [GATEWAY, ...(service.name === PRIVACY_COORDINATOR ? [] : [PRIVACY_COORDINATOR]), cluster.scraper.name];
      if (!same(http, expected)) problems.push(`${service.name}: HTTP port ${httpOf(service).port} reached by [${http.join(', ')}], expected [${expected.join(', ')}]`);
      const other = sourcesOf(objects, cluster, service, OTHER_PORT);
      if (other.length > 0) problems.push(`${service.name}: port ${OTHER_PORT.port} reached by [${other.join(', ')}], expected nobody`);
      return problems;
    });
}

/** The gateway's HTTP port hears the ingress controller and the scraper only; its other ports, nobody. */
export function gatewayIngressProblems(objects: K8sObject[], cluster: Cluster): string[] {
  const gateway = endpointsOf(objects, cluster).apps.find((app) => app.name === GATEWAY);
  if (!gateway) return [`no Deployment named ${GATEWAY}`];
  const problems: string[] = [];
  const http = sourcesOf(objects, cluster, gateway, httpOf(gateway));
  if (!same(http, [cluster.ingressController.name, cluster.scraper.name])) problems.push(`${GATEWAY}: HTTP port reached by [${http.join(', ')}], expected [${cluster.ingressController.name}, ${cluster.scraper.name}]`);
  const other = sourcesOf(objects, cluster, gateway, OTHER_PORT);
  if (other.length > 0) problems.push(`${GATEWAY}: port ${OTHER_PORT.port} reached by [${other.join(', ')}], expected nobody`);
  return problems;
}

/** Every app's pods are under an egress policy (default-deny or other), and one of them lets DNS through. */
export function dnsProblems(objects: K8sObject[], cluster: Cluster): string[] {
  const { policies, apps } = endpointsOf(objects, cluster);
  return apps.flatMap((app) => {
    if (isolating(policies, app, 'Egress').length === 0) return [`${app.name}: no egress policy selects its pods (egress is open)`];
    return (['UDP', 'TCP'] as const).filter((protocol) => !allows(policies, app, cluster.dns, { port: 53, protocol })).map((protocol) => `${app.name}: DNS (53/${protocol}) refused`);
  });
}

/**
 * Where the apps' connections may go: the gateway to every service's HTTP port (through both ends'
 * policies); each app to the dependencies its credential variables name (DATABASE_URL →
 * PostgreSQL…) and to no other; no app to another service, a stranger pod, or another namespace
 * (its egress alone refuses, whatever the other end's ingress).
 */
export function egressProblems(objects: K8sObject[], cluster: Cluster): string[] {
  const { policies, apps, stranger, foreigner, internet } = endpointsOf(objects, cluster);
  const letsOut = (source: Endpoint, destination: Endpoint, port: Port) => directionAllows(policies, 'Egress', source, destination, port, destination);
  const problems: string[] = [];
  for (const app of apps) {
    for (const [variable, { endpoint, port }] of Object.entries(cluster.dependencies)) {
      const needed = app.env.includes(variable);
      if (letsOut(app, endpoint, { port, protocol: 'TCP' }) !== needed) problems.push(`${app.name}: ${endpoint.name}:${port} ${needed ? `refused, but its ${variable} points there` : `allowed, but it has no ${variable}`}`);
    }
    for (const other of apps.filter((entry) => entry !== app && entry.name !== GATEWAY)) {
      if (app.name === GATEWAY && !allows(policies, app, other, httpOf(other))) problems.push(`${app.name} → ${other.name} HTTP: refused`);
      if (app.name === PRIVACY_COORDINATOR && !allows(policies, app, other, httpOf(other))) problems.push(`${app.name} → ${other.name} HTTP: refused (the parts of a personal data request)`);
      if (app.name !== GATEWAY && app.name !== PRIVACY_COORDINATOR && letsOut(app, other, httpOf(other))) problems.push(`${app.name} → ${other.name} HTTP: allowed`);
    }
    for (const outsider of [stranger, foreigner]) {
      if (letsOut(app, outsider, httpOf(outsider))) problems.push(`${app.name} → ${outsider.name}: allowed`);
    }
    if (!letsOut(app, cluster.collector.endpoint, { port: cluster.collector.port, protocol: 'TCP' })) problems.push(`${app.name}: ${cluster.collector.endpoint.name}:${cluster.collector.port} refused (its traces)`);
    const https = cluster.internetHttps.includes(app.name);
    if (letsOut(app, internet, { port: 443, protocol: 'TCP' }) !== https) problems.push(`${app.name} → ${internet.name}:443: ${https ? 'refused' : 'allowed'}`);
    if (letsOut(app, internet, { port: 80, protocol: 'TCP' })) problems.push(`${app.name} → ${internet.name}:80: allowed`);
  }
  return problems;
}
