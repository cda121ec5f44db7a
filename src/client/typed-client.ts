// How the typed clients are typed: the generated `paths` of each API (openapi-typescript: the wire as
// the spec states it) with two client-side conveniences that change no byte on the wire and no validator:
//   - every failure reads as the library's ErrorEnvelope: `error.content.error.code` is the contract's
//     known codes, open to new ones (`ErrorCode | (string & {})`), and `details` is ErrorItem[];
//   - the Admin API's request bodies take event names from the catalog (`events` of createWebhook and of
//     any operation whose body has that field, `event` of sendTestWebhook), so a misspelled name does not
//     compile. The contract accepts any string there (unknown names are ignored and reported in
//     `ignored_events`); to send one on purpose, cast it: `'order.archived' as WebhookEventName`.
// The client's methods are openapi-fetch's with one change of type: `error` is the envelope as it is.
// openapi-fetch reads every body through its `Readable<T>`, which turns the open half of the code
// (`string & {}`) into an object of String's members. Types only: nothing here exists at run time.
import type { Client, ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths as AdminGeneratedPaths } from '../../generated/types/admin.js';
import type { paths as StorefrontGeneratedPaths } from '../../generated/types/storefront.js';
import type { WebhookEventName } from '../../generated/types/webhooks.js';
import type { ErrorEnvelope } from '../contract/envelope.js';

// ---- the paths ----------------------------------------------------------------------------------------

/** A media type's body: a failure (`success: false`) reads as `Failure`, anything else as it is. */
type FailureAs<B, Failure> = B extends { success: false } ? Failure : B;

type TypedResponse<R, Failure> = R extends { content: infer C } ? { [K in keyof R]: K extends 'content' ? { [M in keyof C]: FailureAs<C[M], Failure> } : R[K] } : R;

/** Body fields replaced by name, at the top level of a JSON request body. */
type WithFields<B, Fields> = B extends object ? { [K in keyof B]: K extends keyof Fields ? Fields[K] : B[K] } : B;

type TypedRequestBody<R, Fields> = R extends { content: infer C } ? { [K in keyof R]: K extends 'content' ? { [M in keyof C]: WithFields<C[M], Fields> } : R[K] } : R;

type TypedOperation<O, Fields, Failure> = O extends { responses: infer R }
  ? {
      [K in keyof O]: K extends 'responses' ? { [S in keyof R]: TypedResponse<R[S], Failure> } : K extends 'requestBody' ? TypedRequestBody<O[K], Fields> : O[K];
    }
  : O;

/** An API's `paths` with each operation's failures read as `Failure` and the named request body fields replaced. */
export type ClientPaths<Paths, Fields = {}, Failure = ErrorEnvelope> = {
  [P in keyof Paths]: { [M in keyof Paths[P]]: TypedOperation<Paths[P][M], Fields, Failure> };
};

/** What the Admin client sends as event names: the catalog's. */
export interface AdminEventFields {
  events: WebhookEventName[];
  event: WebhookEventName;
}

/** The Storefront API as `createStorefrontClient` types it. */
export type StorefrontClientPaths = ClientPaths<StorefrontGeneratedPaths>;

/** The Admin webhook API as `createAdminClient` types it: event names from the catalog. */
export type AdminClientPaths = ClientPaths<AdminGeneratedPaths, AdminEventFields>;

// ---- the methods ----------------------------------------------------------------------------------------

type Media = `${string}/${string}`;
type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
// openapi-fetch states its own constraint loosely enough for paths with optional `put?: never` methods.
type AnyPaths = Record<string, any>;

// openapi-fetch's own rule for the `init` argument (optional when nothing in it is required).
type RequiredKeysOfHelper<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** openapi-fetch's answer, its failure branch carrying the envelope as the paths type it. */
type TypedFetchResponse<R> = R extends { error: infer E } ? (E extends { success: false } ? { data?: never; error: ErrorEnvelope; response: Response } : R) : R;

type TypedMethod<Paths extends AnyPaths, M extends Method> = <Path extends ClientPathsWithMethod<Client<Paths, Media>, M>, Init extends MaybeOptionalInit<Paths[Path], M>>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<TypedFetchResponse<FetchResponse<Paths[Path][M], Init, Media>>>;

/** openapi-fetch's `Client` over `Paths`, whose calls give the failure's envelope as `error`. */
export type TypedClient<Paths extends AnyPaths> = Omit<Client<Paths, Media>, 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE'> & {
  GET: TypedMethod<Paths, 'get'>;
  PUT: TypedMethod<Paths, 'put'>;
  POST: TypedMethod<Paths, 'post'>;
  DELETE: TypedMethod<Paths, 'delete'>;
  OPTIONS: TypedMethod<Paths, 'options'>;
  HEAD: TypedMethod<Paths, 'head'>;
  PATCH: TypedMethod<Paths, 'patch'>;
  TRACE: TypedMethod<Paths, 'trace'>;
};
