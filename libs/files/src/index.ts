export { diskStorage, removeFiles, type FileStorage } from './storage.ts';
export { parseMultipart, cleanFileName, type MultipartOptions, type ParsedMultipart, type StoredUpload } from './multipart.ts';
export { bodyStalled, fieldTooLarge, fileTooLarge, fileTypeNotAllowed, malformedMultipart, notMultipart, tooManyFiles } from './errors.ts';
export { encryptedStorage, parseFileKeys, FileDecryptionError, type FileKeys } from './encrypted-storage.ts';
export { fileKeysSetting } from './file-keys-setting.ts';
