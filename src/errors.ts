/**
 * One error type for every refusal the sandbox makes, rendered in one place (app.ts `onError`) in the
 * service's error format: `{"code": <HTTP status>, "message": "...", "errors"?: [{path, message}]}`.
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
    return { code: this.status, message: this.message, ...(this.errors?.length ? { errors: this.errors } : {}) };
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

export interface ErrorBody {
  code: number;
  message: string;
  errors?: FieldError[];
}
