// One way every test reads an HTTP answer: status, headers, the text, and the JSON when it parses.
import type { Dispatcher } from 'undici';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export async function toReply(res: Dispatcher.ResponseData): Promise<Reply> {
  const text = await res.body.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}
