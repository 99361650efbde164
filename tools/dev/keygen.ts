// Generates the ES256 signing key pair `dev-1` into a folder (default .local/keys) unless present.
// Usage: node tools/dev/keygen.ts [dir]
import { generateKeyPairFiles } from '@academy/auth';
import { DEV_KEYS_DIR, DEV_KID } from './system.ts';

const dir = process.argv[2] ?? DEV_KEYS_DIR;
console.log(generateKeyPairFiles(dir, DEV_KID) ? `generated ${DEV_KID} in ${dir}` : `${DEV_KID} already in ${dir}`);
