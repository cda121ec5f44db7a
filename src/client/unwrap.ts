// Turns an openapi-fetch result into its data, or throws the envelope's failure as a typed error.
import { StorefrontApiError, type ErrorEnvelopeLike } from './errors.js';

export interface FetchResultLike<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export async function unwrap<T>(result: Promise<FetchResultLike<T>> | FetchResultLike<T>, operationId = 'request'): Promise<T> {
  const { data, error, response } = await result;
  if (data !== undefined && response.ok) return data;
  throw new StorefrontApiError(response.status, operationId, error as ErrorEnvelopeLike | undefined);
}
