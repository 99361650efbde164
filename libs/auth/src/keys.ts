import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Public keys by `kid` (two during a rotation) and, for the signer only, the current private key. */
export interface KeyRing {
  publicKeys: Map<string, KeyObject>;
  signing?: { kid: string; privateKey: KeyObject };
}

/**
 * Reads `<dir>/<kid>.public.pem` for every kid listed and `<dir>/<signingKid>.private.pem` when a
 * signing kid is given. Keys are parsed once, at start.
 */
export function loadKeyRing(dir: string, kids: string[], signingKid?: string): KeyRing {
  if (!kids.length) throw new Error('JWT_KEY_IDS lists no key id');
  const publicKeys = new Map<string, KeyObject>();
  for (const kid of kids) {
    publicKeys.set(kid, createPublicKey(readKey(dir, `${kid}.public.pem`)));
  }
  const ring: KeyRing = { publicKeys };
  if (signingKid) {
    ring.signing = { kid: signingKid, privateKey: createPrivateKey(readKey(dir, `${signingKid}.private.pem`)) };
    if (!publicKeys.has(signingKid)) publicKeys.set(signingKid, createPublicKey(ring.signing.privateKey));
  }
  return ring;
}

function readKey(dir: string, file: string): string {
  const full = path.join(dir, file);
  if (!existsSync(full)) throw new Error(`JWT key ${full} not found: set JWT_KEYS_DIR and JWT_KEY_IDS, or let \`npm start\` generate dev keys`);
  return readFileSync(full, 'utf8');
}

/** Creates an ES256 key pair `<dir>/<kid>.{private,public}.pem` unless it exists (dev keys, never committed). */
export function generateKeyPairFiles(dir: string, kid: string): boolean {
  const privatePath = path.join(dir, `${kid}.private.pem`);
  if (existsSync(privatePath)) return false;
  mkdirSync(dir, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(path.join(dir, `${kid}.public.pem`), publicKey.export({ type: 'spki', format: 'pem' }));
  return true;
}
