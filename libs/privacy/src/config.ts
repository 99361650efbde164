import path from 'node:path';
import { z } from 'zod';
import { diskStorage, encryptedStorage, fileKeysSetting, type FileStorage } from '@academy/files';

/** A dev-only key (as payslips' dev file key): a deployment sets PRIVACY_FILE_KEYS from a Secret. */
const DEV_PRIVACY_FILE_KEY = 'dev-1:ZGV2LW9ubHktcHJpdmFjeS1rZXktbm90LWZvci11c2U=';
/** The internal key academic presents to read the parts; one Secret shared by the services. */
export const DEV_PRIVACY_API_KEY = 'dev-privacy-api-key-change-me';

/**
 * The settings every answering service adds to its config schema (`.extend(privacySettings('incidents').shape)`):
 * its queue, the internal key, where its parts are kept and the keys they are encrypted with.
 */
export function privacySettings(service: string) {
  return z.object({
    PRIVACY_QUEUE: z.string().min(1).default(`${service}.privacy`),
    PRIVACY_API_KEY: z.string().min(16).default(DEV_PRIVACY_API_KEY),
    PRIVACY_FILES_DIR: z.string().min(1).default(`.local/dev/${service}/privacy`),
    /** `id:base64(32 bytes)` separated by commas, the first encrypts (as PAYSLIP_FILE_KEYS). */
    PRIVACY_FILE_KEYS: fileKeysSetting(DEV_PRIVACY_FILE_KEY),
  });
}
export type PrivacySettings = z.infer<ReturnType<typeof privacySettings>>;

/** The encrypted storage of a service's parts, from its settings. */
export const privacyStorage = (settings: Pick<PrivacySettings, 'PRIVACY_FILES_DIR' | 'PRIVACY_FILE_KEYS'>): FileStorage =>
  encryptedStorage(diskStorage(path.resolve(settings.PRIVACY_FILES_DIR)), settings.PRIVACY_FILE_KEYS);
