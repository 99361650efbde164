import { RefreshToken } from '../auth/refresh-token.entity.ts';
import { User } from './user.entity.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging). */
export const entities = [User, RefreshToken];
