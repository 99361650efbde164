import { dataDir } from '@academy/infra';

/** The key ring, issuer and audience that test tokens are signed with (keys generated on first use). */
export const TEST_KEYS_DIR = dataDir('test', 'keys');
export const TEST_KID = 'test-1';
export const TEST_ISSUER = 'academy';
export const TEST_AUDIENCE = 'academy-api';
