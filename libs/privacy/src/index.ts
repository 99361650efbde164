export { PERSONAL_DATA_CATEGORIES, personalFieldNames, checkProviders, type PersonalDataCategory, type PersonalField, type PersonalDataDeclaration, type ProviderContext, type ExportFile, type ExportAnswer, type EraseAnswer, type PrivacyProvider } from './provider.ts';
export { PrivacyAnswer, privacyEntities, type StoredEntry } from './entities.ts';
export { subscribePrivacy, privacyRequestHandler, type PrivacyHost, type PrivacyOptions, type PrivacySubscription } from './answer.ts';
export { PART_RETENTION_DAYS, readLocalPart, sweepExpiredParts, safeEntryPath, type PartReader } from './parts.ts';
export { PART_PATH, API_KEY_HEADER, apiKeyMatches, privacyPartRoutes, readRemotePart, type PartRoutesOptions } from './part-routes.ts';
export { privacySettings, privacyStorage, DEV_PRIVACY_API_KEY, type PrivacySettings } from './config.ts';
