// The links a guardian's mail carries to stop a type of mail: signed tokens (unsubscribe-token.ts)
// on the page's address as mail readers reach it.
import type { NotificationType } from '@academy/contracts';
import { unsubscribeToken, type TokenRefusal } from './unsubscribe-token.ts';

export interface UnsubscribeSettings {
  secret: string;
  /** How long a link in a mail stays valid. */
  ttlDays: number;
  /** The page's address as mail readers reach it (through the gateway). */
  pageUrl: string;
}

/** The settings from the service's configuration. */
export const unsubscribeSettings = (config: { UNSUBSCRIBE_SECRET: string; UNSUBSCRIBE_TOKEN_DAYS: number; PUBLIC_API_URL: string }): UnsubscribeSettings => ({
  secret: config.UNSUBSCRIBE_SECRET,
  ttlDays: config.UNSUBSCRIBE_TOKEN_DAYS,
  pageUrl: `${config.PUBLIC_API_URL.replace(/\/+$/, '')}/api/v2/notifications/unsubscribe`,
});

/** The link to put in a mail to `address` about `type`, valid `ttlDays` from `now`. */
export function unsubscribeLink(settings: UnsubscribeSettings, type: NotificationType, address: string, now: Date): string {
  const token = unsubscribeToken(settings.secret, { type, address, expiresAt: new Date(now.getTime() + settings.ttlDays * 86_400_000) });
  return `${settings.pageUrl}?token=${token}`;
}

/** What a token names, and whether its address is already unsubscribed from its type; or why it was refused. */
export type UnsubscribeOutcome = { ok: true; type: NotificationType; address: string; already: boolean } | { ok: false; reason: TokenRefusal };
