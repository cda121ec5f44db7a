// storefront-contract/contract: what the library and the tools share about the contract itself: where
// each API lives (base path split and join), the error envelope and its builders, JSON pointers.
export { basePathTemplate, basePath, apiBaseUrl, splitApiPath, type ApiName, type ApiPath } from './paths.js';
export { errorEnvelope, successEnvelope, isErrorEnvelope, type ErrorEnvelope, type ErrorDetail, type ErrorItem, type ErrorLocation, type ErrorCode, type SuccessEnvelope, type ErrorEnvelopeLike } from './envelope.js';
export { getPointer, escapePointerSegment, unescapePointerSegment, pointerSegments, toPointer } from './json-pointer.js';
