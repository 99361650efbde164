// Renders the kustomizations with `kubectl kustomize` (kustomize built in), the way
// `kubectl apply -k` would, and reads the objects back.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export const kubernetesDir = path.resolve(import.meta.dirname, '../kubernetes');

// Kubernetes objects are loosely typed JSON; the checks read what they need.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; [key: string]: any };

function kubectl(args: string[]): string {
  const result = spawnSync('kubectl', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error('kubectl not found on PATH: the deploy tests render the manifests with `kubectl kustomize` (install Debian\'s kubernetes-client, or any kubectl ≥ 1.27)');
  }
  if (result.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

export function render(dir: string): K8sObject[] {
  const objects = parseAllDocuments(kubectl(['kustomize', dir]))
    .map((doc) => doc.toJS() as K8sObject)
    .filter(Boolean);
  // kustomize wraps long base64 values of Secrets over lines; the API server's decoder skips the
  // line breaks, the schema's "byte" format does not: join them as the server reads them.
  for (const secret of objects.filter((object) => object.kind === 'Secret')) {
    for (const key of Object.keys(secret.data ?? {})) secret.data[key] = String(secret.data[key]).replace(/\s+/g, '');
  }
  return objects;
}

/**
 * The production overlay as an operator renders it: a copy of deploy/kubernetes whose secrets/
 * folder holds every example under its real name and a fresh ES256 pair for each JWT key file the
 * overlay names. Returns the objects; the copy is removed.
 */
export function renderProduction(): K8sObject[] {
  const work = mkdtempSync(path.join(os.tmpdir(), 'academy-deploy-'));
  try {
    cpSync(kubernetesDir, work, { recursive: true });
    const overlay = path.join(work, 'overlays/production');
    const secrets = path.join(overlay, 'secrets');
    for (const file of readdirSync(secrets).filter((name) => name.endsWith('.example'))) {
      cpSync(path.join(secrets, file), path.join(secrets, file.slice(0, -'.example'.length)));
    }
    const kustomization = parse(readFileSync(path.join(overlay, 'kustomization.yaml'), 'utf8')) as { secretGenerator: { files?: string[] }[] };
    const keyFiles = kustomization.secretGenerator.flatMap((generator) => generator.files ?? []).map((entry) => entry.split('=').pop()!);
    const kids = new Set(keyFiles.map((file) => /^secrets\/jwt\/(.+)\.(public|private)\.pem$/.exec(file)?.[1]).filter((kid): kid is string => Boolean(kid)));
    mkdirSync(path.join(secrets, 'jwt'), { recursive: true });
    for (const kid of kids) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      writeFileSync(path.join(secrets, 'jwt', `${kid}.private.pem`), privateKey.export({ type: 'pkcs8', format: 'pem' }));
      writeFileSync(path.join(secrets, 'jwt', `${kid}.public.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
    }
    return render(overlay);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
