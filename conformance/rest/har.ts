// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the subset the recorder writes and the
// replayer reads. Fields starting with `_` are HAR custom fields (allowed by the format).

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  text: string;
  /** Custom: the body was longer than the recorder keeps; `text` is its start and `_padWith` fills it back to `bodySize` bytes. */
  _truncated?: boolean;
  _padWith?: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: {
    size: number;
    /** Bytes saved by the content coding (size decoded minus bytes on the wire). */
    compression?: number;
    mimeType: string;
    /** The body decoded (HAR's `text` is never content-coded). */
    text?: string;
    /** Custom: why the body is not in the entry (over the proxy's limit, or not decodable). */
    _omitted?: string;
  };
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The step name, when the client sent one in `x-conformance-step`. */
  comment?: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages?: unknown[];
    entries: HarEntry[];
    comment?: string;
  };
}

export function headerOf(headers: HarNameValue[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

/** The request body as bytes to send: the recorded text, padded back to its size when it was truncated. */
export function requestBodyText(post: HarPostData | undefined, bodySize: number): string | undefined {
  if (!post) return undefined;
  if (!post._truncated) return post.text;
  const fill = post._padWith || ' ';
  const missing = Math.max(0, bodySize - Buffer.byteLength(post.text));
  return post.text + fill.repeat(Math.ceil(missing / fill.length)).slice(0, missing);
}
