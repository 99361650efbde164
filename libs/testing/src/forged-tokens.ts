import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { generateKeyPairFiles, loadKeyRing, type KeyRing, type TokenOptions } from '@academy/auth';
import { TEST_AUDIENCE, TEST_ISSUER, TEST_KEYS_DIR, TEST_KID } from './test-keys.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function es256(header: object, payload: object, key: KeyObject): string {
  const data = `${b64(header)}.${b64(payload)}`;
  return `${data}.${sign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** The test key ring (the key is generated on first use) and the test issuer and audience. */
function testSigning(): { ring: KeyRing; options: TokenOptions } {
  generateKeyPairFiles(TEST_KEYS_DIR, TEST_KID);
  return { ring: loadKeyRing(TEST_KEYS_DIR, [TEST_KID], TEST_KID), options: { issuer: TEST_ISSUER, audience: TEST_AUDIENCE } };
}

/**
 * Tokens every verifier must refuse, keyed by what is wrong with them, for tests of each service
 * and of the gateway. Built from the real signing key (by default the test key, issuer and
 * audience) so only the named flaw differs.
 */
export function forgedTokens(
  ring: KeyRing = testSigning().ring,
  options: TokenOptions = testSigning().options,
  claims: { sub: string; role: 'admin' | 'user' } = { sub: '1', role: 'admin' },
): Record<string, string> {
  const signing = ring.signing;
  if (!signing) throw new Error('forgedTokens needs the signing key');
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'ES256', typ: 'JWT', kid: signing.kid };
  const good = { ...claims, iss: options.issuer, aud: options.audience, iat: now, exp: now + 600 };
  const publicPem = ring.publicKeys.get(signing.kid)!.export({ type: 'spki', format: 'pem' }).toString();
  const hsData = `${b64({ alg: 'HS256', typ: 'JWT', kid: signing.kid })}.${b64(good)}`;
  const valid = es256(header, good, signing.privateKey);
  const [validHeader, , validSignature] = valid.split('.');
  const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  return {
    'alg none': `${b64({ alg: 'none', typ: 'JWT', kid: signing.kid })}.${b64(good)}.`,
    'HS256 signed with the public key': `${hsData}.${createHmac('sha256', publicPem).update(hsData).digest('base64url')}`,
    expired: es256(header, { ...good, iat: now - 1200, exp: now - 600 }, signing.privateKey),
    'not yet valid': es256(header, { ...good, nbf: now + 600 }, signing.privateKey),
    'wrong issuer': es256(header, { ...good, iss: 'someone-else' }, signing.privateKey),
    'wrong audience': es256(header, { ...good, aud: 'another-api' }, signing.privateKey),
    'unknown kid': es256({ ...header, kid: 'unknown-kid' }, good, stranger),
    'known kid, foreign key': es256(header, good, stranger),
    'no kid': es256({ alg: 'ES256', typ: 'JWT' }, good, signing.privateKey),
    'tampered payload': `${validHeader}.${b64({ ...good, sub: '999' })}.${validSignature}`,
    'missing exp': es256(header, { ...claims, iss: options.issuer, aud: options.audience, iat: now }, signing.privateKey),
    'unknown role': es256(header, { ...good, role: 'root' }, signing.privateKey),
    // Correctly signed, but claims without the shape every verifier requires (libs/auth's AccessTokenPayload).
    'sub "abc"': es256(header, { ...good, sub: 'abc' }, signing.privateKey),
    'sub " 1"': es256(header, { ...good, sub: ' 1' }, signing.privateKey),
    'sub "0x1"': es256(header, { ...good, sub: '0x1' }, signing.privateKey),
    'missing iat': es256(header, { ...good, iat: undefined }, signing.privateKey),
    'iat an hour ahead': es256(header, { ...good, iat: now + 3600, exp: now + 3900 }, signing.privateKey),
    'exp millions of years ahead': es256(header, { ...good, exp: now + 1e14 }, signing.privateKey),
    'a lifetime over the 15-minute maximum': es256(header, { ...good, exp: now + 3600 }, signing.privateKey),
    garbage: 'this-is-not-a-jwt',
    'three garbage parts': 'a.b.c',
    '100 KB token': `${valid}${'A'.repeat(100 * 1024)}`,
  };
}
