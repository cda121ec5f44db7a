// Turns an openapi-fetch result into its data, or throws the failure as a StorefrontApiError whose
// `body` is the operation's error: the contract's envelope (every failure of both APIs is one), with
// `code` typed as the known codes (open to new ones) and `details` as ErrorItem[].
import { StorefrontApiError } from './errors.js';

export interface FetchResultLike<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export async function unwrap<T>(result: Promise<FetchResultLike<T>> | FetchResultLike<T>, operationId = 'request'): Promise<T> {
  const { data, error, response } = await result;
  if (data !== undefined && response.ok) return data;
  throw new StorefrontApiError(response.status, operationId, error);
}
