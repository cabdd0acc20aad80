import { MSG } from '@portal/contract';

export type FieldErrors = Record<string, string[]>;

/** An expected failure with the Spanish message and status code the client sees. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { errors?: FieldErrors; exception?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const unauthorized = (message: string = MSG.unauthenticated) => new HttpError(401, message);
export const forbidden = (message: string = MSG.forbidden) => new HttpError(403, message);
export const notFound = (message: string = MSG.notFound) => new HttpError(404, message);
export const validationFailed = (errors: FieldErrors) => new HttpError(422, MSG.validation, { errors });
