// A console page's live log (Server-Sent Events) as a bench reads it: connected, reading every event as it
// comes, counting the request events. `lastEventId` starts it after the entries already held, so what it
// counts are a round's own requests.
import http from 'node:http';

export interface LiveLog {
  events(): number;
  close(): void;
}

export function openLiveLog(origin: string, lastEventId?: number): Promise<LiveLog> {
  const headers: Record<string, string> = { accept: 'text/event-stream', 'sec-fetch-site': 'same-origin', ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.get(`${origin}/__simulator/console/requests/stream`, { headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`the console stream answered ${res.statusCode}`));
      let events = 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        for (let at = chunk.indexOf('event: request'); at !== -1; at = chunk.indexOf('event: request', at + 1)) events++;
      });
      res.on('error', () => undefined);
      resolve({ events: () => events, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}
