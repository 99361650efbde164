import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { es } from './es';
import { ApiError } from '../api/client';

export type Language = 'es' | 'en';

void i18next.use(initReactI18next).init({
  resources: { es: { translation: es }, en: { translation: en } },
  lng: navigator.language.startsWith('en') ? 'en' : 'es',
  fallbackLng: 'es',
  interpolation: { escapeValue: false },
});

export function setLanguage(language: Language): void {
  if (i18next.language !== language) void i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

/** What an error means, in the user's language: the API's code when known, else its status; never its body. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const key = `errors.${error.code}`;
    return i18next.exists(key) ? i18next.t(key) : i18next.t('errors.generic', { status: error.status });
  }
  return i18next.t('errors.network');
}

export { i18next };
