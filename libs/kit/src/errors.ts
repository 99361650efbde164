/**
 * Known errors carry their HTTP status, a SNAKE_CASE code and a human message. The error handler
 * turns them into `{ code, message, details?, requestId }`; routes whose spec fixes another body
 * (see `errorStyle`) get that body instead.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(status: number, code: string, message: string, options: { details?: unknown; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export class BadRequestError extends AppError {
  constructor(code: string, message: string, details?: unknown) {
    super(400, code, message, { details });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthorized', code = 'UNAUTHORIZED') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden', code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(code: string, message: string) {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string, details?: unknown) {
    super(409, code, message, { details });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'Service unavailable', code = 'SERVICE_UNAVAILABLE') {
    super(503, code, message);
  }
}

/**
 * An answer recorded earlier and sent again as it was (an `Idempotency-Key`'s replay), from where
 * a handler cannot answer itself: the error handler sends it, status, type and body unchanged.
 */
export class RecordedAnswer extends Error {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;

  constructor(status: number, contentType: string | null, body: string) {
    super(`a recorded ${status} answer`);
    this.name = new.target.name;
    this.status = status;
    this.contentType = contentType;
    this.body = body;
  }
}
