import { contract, downloadPrivacyExportRoute, listPrivacyRequestsRoute, openPrivacyRequestRoute, readPrivacyRequestRoute } from '@academy/contracts';
import { implement } from '../shared/academic-context.ts';
import { listPrivacyRequests } from './list-privacy-requests.ts';
import { openPrivacyRequest } from './open-privacy-request.ts';
import { readPrivacyRequest } from './read-privacy-request.ts';
import { streamPrivacyExport } from './stream-privacy-export.ts';

/** The personal data requests' routes by name (`/api/v2/privacy-requests`, admin only). */
export const privacyRequestsContract = contract({ open: openPrivacyRequestRoute, list: listPrivacyRequestsRoute, read: readPrivacyRequestRoute, export: downloadPrivacyExportRoute });

export const privacyRequestRoutes = implement(privacyRequestsContract, {
  open: async ({ body }, ctx, actor) => {
    const { created, request } = await openPrivacyRequest(ctx, body, actor);
    return created ? { status: 201, body: request } : { status: 200, body: request };
  },
  list: async (_input, ctx, actor) => ({ status: 200, body: await listPrivacyRequests(ctx, {}, actor) }),
  read: async ({ params }, ctx, actor) => ({ status: 200, body: await readPrivacyRequest(ctx, { id: params.id }, actor) }),
  export: async ({ params }, ctx, actor) => {
    const file = await streamPrivacyExport(ctx, { id: params.id }, actor);
    return { status: 200, body: file.content, headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${file.fileName}"`, 'cache-control': 'private, no-store' } };
  },
});
