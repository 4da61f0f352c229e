/**
 * One error type for every refusal the sandbox makes, rendered in one place (app.ts `onError`) in the
 * service's error format: `{"code": <HTTP status>, "message": "...", "errors"?: [{path, message}]}`, built by
 * `errorBody`, which every other answer in that format (not-found, internal errors, assets, the TLS redirect
 * refusal, malformed requests answered on the socket) uses too.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return errorBody(this.status, this.message, this.errors);
  }

  static badRequest(message: string, errors?: FieldError[]): ApiError {
    return new ApiError(400, message, errors);
  }
  static unauthorized(message: string): ApiError {
    return new ApiError(401, message);
  }
  static forbidden(message: string): ApiError {
    return new ApiError(403, message);
  }
  static notFound(message: string): ApiError {
    return new ApiError(404, message);
  }
  static conflict(message: string): ApiError {
    return new ApiError(409, message);
  }
}

const MAX_MESSAGE = 1000;

/**
 * A caller's value as it appears inside an error message: quoted, and cut after `max` characters (whole code
 * points, so a cut never leaves half a surrogate pair), because callers send megabyte keys too.
 */
export function quote(value: unknown, max = 60): string {
  const text = typeof value === 'string' ? value : String(value);
  const points = Array.from(text.slice(0, max * 2));
  return `"${points.length > max || text.length > max * 2 ? `${points.slice(0, max).join('')}…` : text}"`;
}

export interface ErrorBody {
  code: number;
  message: string;
  errors?: FieldError[];
}

/** The service's error body: the status as `code`, the message, and the field errors when there are any. */
export function errorBody(status: number, message: string, errors?: FieldError[]): ErrorBody {
  // A message that echoes input is cut short, so no refusal can answer with megabytes.
  const cut = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
  return { code: status, message: cut, ...(errors?.length ? { errors } : {}) };
}

/** `errorBody` as JSON text, for answers written straight to a node response or a socket. */
export function errorJson(status: number, message: string): string {
  return JSON.stringify(errorBody(status, message));
}
