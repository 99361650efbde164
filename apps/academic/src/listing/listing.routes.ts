import { administrativeListingRoute, contract } from '@academy/contracts';
import { implement } from '../shared/academic-context.ts';
import { JSON_TEXT, sentAsIs } from '../shared/sent-as-is.ts';
import { listStudentsAdministratively } from './list-students-administratively.ts';

/** The administrative listing by name (`/api/students/administrative`). */
export const listingContract = contract({ administrative: administrativeListingRoute });

/** Admin-only (the route's role): a teacher gets 403 (they see their events' students instead). */
export const listingRoutes = implement(listingContract, {
  administrative: async ({ query }, ctx, actor) => ({ status: 200, body: sentAsIs(Buffer.from(await listStudentsAdministratively(ctx, query, actor))), headers: JSON_TEXT }),
});
