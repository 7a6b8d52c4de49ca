/**
 * Flags a failure's answer carries beside its message, so that a client can act on the reason
 * without reading the text: a generated password to change, a two-factor code to send, two-factor
 * to set up.
 */
export type FailureFlags = Readonly<
  Partial<Record<'passwordChangeRequired' | 'twoFactorRequired' | 'twoFactorSetupRequired', true>>
>;

/** One hierarchy for every failure the API reports on purpose; anything else is a 500. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent as Retry-After: when the client may try again (a limit, a busy server). */
    readonly retryAfterSeconds?: number,
    readonly flags: FailureFlags = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', flags: FailureFlags = {}) {
    super(401, message, undefined, flags);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this', flags: FailureFlags = {}) {
    super(403, message, undefined, flags);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

/** Well-formed, but refused for what it asks (an Idempotency-Key sent again with another request). */
export class UnprocessableEntityError extends AppError {
  constructor(message: string) {
    super(422, message);
  }
}

/** A body of a type the route does not read (the CSV import takes text/csv only). */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}

/** A body over the route's own limit (an image upload past its size). */
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, retryAfterSeconds);
  }
}

/** The process runs but cannot serve yet (a readiness probe: the database does not answer, say). */
export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(503, message, retryAfterSeconds);
  }
}
