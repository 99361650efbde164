import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { sendError, type ErrorStyle, type Logger } from '@academy/kit';

/** What the edge knows of a request it took: the error style of its route family. */
type EdgeRequest = IncomingMessage & { errorStyle?: ErrorStyle };

export function setErrorStyle(req: IncomingMessage, style: ErrorStyle): void {
  (req as EdgeRequest).errorStyle = style;
}

const securityHeaders = helmet();

/**
 * An answer the gateway makes itself on a proxied route (a refusal, an upstream failure): the route
 * family's JSON error body, with the security headers the services set on their own answers (a
 * proxied answer carries the service's). Half-sent answers are cut off instead.
 */
export function answerError(req: IncomingMessage, res: ServerResponse, error: unknown, logger: Logger): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  securityHeaders(req, res, () => sendError(req, res, error, (req as EdgeRequest).errorStyle ?? 'default', logger));
}
