// The back office's clock routes, outside the contract: GET, POST and DELETE
// /__simulator/stores/{store_id}/clock. Declared like every control route (../http/control-routes.ts):
// the pipeline matches, reads the body and writes the answer; failures go through the one error writer.
import { successEnvelope } from 'storefront-contract/contract';
import { DATE_TIME_WANTED, parseDateTime } from '../http/date-time.js';
import { fail } from '../http/errors.js';
import type { ControlRoute, Reply } from '../http/extension.js';
import { ADVANCE_WAIT_MS, advanceClock, parseDuration, type DueWork } from './advance.js';
import { ClockError, EARLIEST, LATEST, type Clocks } from './clocks.js';
import { BACK_OFFICE_CALLS, BACK_OFFICE_PREFIX, FIELDS as BODY_FIELDS } from '../sandbox/back-office-api.js';

const PATH = `${BACK_OFFICE_PREFIX}${BACK_OFFICE_CALLS.getClock.path}`;
const FIELDS: readonly string[] = BODY_FIELDS.setClock;

/** The three routes, method and path from the back office's table of calls (so its typed client matches). */
export const CLOCK_ROUTES: ReadonlyArray<Pick<ControlRoute, 'method' | 'path' | 'summary'>> = [
  { method: BACK_OFFICE_CALLS.getClock.method, path: PATH, summary: "the store's clock: {now, frozen, offset_ms, wall_clock, advancing}" },
  {
    method: BACK_OFFICE_CALLS.setClock.method,
    path: `${BACK_OFFICE_PREFIX}${BACK_OFFICE_CALLS.setClock.path}`,
    summary:
      'set or advance the store\'s clock: {"now": "2026-12-24T10:00:00Z"} | {"advance": "P1DT2H"} (ISO 8601 duration), "frozen": true|false; webhook attempts due on the way are sent at their due times, in order',
  },
  { method: BACK_OFFICE_CALLS.releaseClock.method, path: `${BACK_OFFICE_PREFIX}${BACK_OFFICE_CALLS.releaseClock.path}`, summary: 'put the store back on the wall clock' },
];

const done = (status: number, message: string, content: unknown): Reply => ({ status, body: successEnvelope(message, content) });

/** The clock routes over `clocks`; `work` (the simulator) plays the webhook attempts that fall due. */
export function clockRoutes(clocks: Clocks, work: DueWork | undefined): ControlRoute[] {
  const advancing = new Map<string, Promise<number>>();
  const view = (storeId: string) => ({ ...clocks.view(storeId), advancing: advancing.has(storeId) });
  const busy = (storeId: string) =>
    fail(409, 'conflict', `The clock of store ${storeId} is still advancing through due webhook attempts; GET ${PATH.replace('{store_id}', storeId)} shows when it is done.`);
  const [get, post, del] = CLOCK_ROUTES;
  return [
    { ...get, handle: ({ params }) => done(200, `Clock of store ${params.store_id} (outside the contract)`, view(params.store_id)) },
    {
      ...post,
      body: 'json-object',
      handle: async ({ params, body }) => {
        const storeId = params.store_id;
        const input = body ?? {};
        const unknown = Object.keys(input).filter((k) => !FIELDS.includes(k));
        if (unknown.length) return invalid(unknown[0], `unknown field; give "now" (a date-time) or "advance" (an ISO 8601 duration such as "P1DT2H"), and optionally "frozen"`);
        const { now, advance, frozen } = input;
        if (frozen !== undefined && typeof frozen !== 'boolean') return invalid('frozen', 'must be true or false');
        if (now !== undefined && advance !== undefined) return invalid('advance', 'give "now" or "advance", not both');
        if (advancing.has(storeId)) return busy(storeId);
        const current = clocks.now(storeId);
        let target = current;
        if (now !== undefined) {
          const at = parseDateTime(now);
          if (at === undefined) return invalid('now', DATE_TIME_WANTED);
          target = at;
        } else if (advance !== undefined) {
          const ms = typeof advance === 'string' ? parseDuration(advance) : undefined;
          if (ms === undefined || ms <= 0) return invalid('advance', 'must be a positive ISO 8601 duration of weeks, days, hours, minutes, seconds, e.g. "PT90S", "P1DT2H", "P2W"');
          target = current + ms;
        } else if (frozen === undefined) {
          return invalid('(body)', 'give "now" (a date-time), "advance" (an ISO 8601 duration) or "frozen"');
        }
        if (target < EARLIEST || target >= LATEST) {
          const range = `between ${new Date(EARLIEST).toISOString()} and ${new Date(LATEST).toISOString()}`;
          // A running clock set near the end of the range runs past it: "frozen" alone names what it can do.
          if (now === undefined && advance === undefined) return invalid('frozen', `cannot be changed while the clock reads ${new Date(target).toISOString()}, past the range a clock is set in (${range}): set "now" to a time in it, or DELETE the clock`);
          return invalid(now !== undefined ? 'now' : 'advance', `the clock stays ${range}`);
        }
        const keepFrozen = frozen ?? clocks.view(storeId).frozen;
        // `{"frozen": false}` on a store on the wall clock leaves it there: nothing to set, no place taken.
        if (!keepFrozen && target === current && clocks.onWallClock(storeId)) {
          return done(200, `The clock of store ${storeId} is the wall clock (running).`, { ...view(storeId), attempts_due_on_the_way: 0 });
        }
        try {
          // Checked before anything moves: a full registry refuses here, not half-way through an advance.
          clocks.ensureRoom(storeId);
        } catch (e) {
          if (e instanceof ClockError) return fail(409, 'conflict', `${e.message}.`);
          throw e;
        }
        const run = advanceClock(clocks, work, storeId, target, keepFrozen).finally(() => advancing.delete(storeId));
        advancing.set(storeId, run);
        let stop = (_: undefined) => {};
        const waited = new Promise<undefined>((r) => (stop = r));
        const timer = setTimeout(() => stop(undefined), ADVANCE_WAIT_MS);
        const sent = await Promise.race([run, waited]);
        clearTimeout(timer);
        if (sent === undefined) {
          return done(202, `The clock of store ${storeId} is advancing through due webhook attempts; GET the clock to see when it is done.`, view(storeId));
        }
        const what = target === current ? (keepFrozen ? 'frozen' : 'running') : `at ${new Date(target).toISOString()}${keepFrozen ? ', frozen' : ''}`;
        return done(200, `The clock of store ${storeId} is ${what}${sent ? `; ${sent} webhook attempt${sent === 1 ? '' : 's'} fell due on the way and ${sent === 1 ? 'was' : 'were'} sent` : ''}.`, {
          ...view(storeId),
          attempts_due_on_the_way: sent,
        });
      },
    },
    {
      ...del,
      handle: ({ params }) => {
        if (advancing.has(params.store_id)) return busy(params.store_id);
        clocks.release(params.store_id);
        return done(200, `Store ${params.store_id} is back on the wall clock.`, view(params.store_id));
      },
    },
  ];
}

function invalid(name: string, message: string): Reply {
  return fail(400, 'invalid_body', `Invalid body: '${name}' ${message}.`, [{ location: 'body', name, message }]);
}
