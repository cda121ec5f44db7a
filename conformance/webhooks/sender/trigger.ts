// How the sender certifier makes the sender send: a Trigger registers the certifier's endpoint and raises
// events. `adminTrigger` drives the contract's Admin API (and the simulator's own event route when the
// sender is the simulator); `manualTrigger` asks a person to raise events; tests pass their own.
export type RaiseKind = 'event' | 'test';

export type RaiseResult = { ok: true; eventId?: string; note?: string } | { ok: false; status?: number; note: string };

export interface SetupResult {
  /** The signing secret in force for the endpoint. Never printed or reported. */
  secret: string;
  /** Headers every delivery must carry (registered as the subscription's custom headers). */
  customHeaders: Record<string, string>;
  notes: string[];
}

export interface Trigger {
  /** One line for the report: how events are raised. */
  readonly description: string;
  /** True when test deliveries (Admin `POST /webhooks/{id}/test`) can be requested. */
  readonly canTest: boolean;
  /** The sender's time scale when it can tell (the simulator reports its own). */
  detectTimeScale?(): Promise<number | undefined>;
  setup(subscriberUrl: string): Promise<SetupResult>;
  raise(kind: RaiseKind): Promise<RaiseResult>;
  /** Best-effort removal of what setup created. */
  cleanup?(): Promise<void>;
}

/** For when events are raised by a person (port mode): prints what to do and trusts it is done. */
export function manualTrigger(options: { secret: string; customHeaders?: Record<string, string>; event: string; say: (line: string) => void }): Trigger {
  return {
    description: 'events raised by hand on the sender (no --admin-url)',
    canTest: false,
    async setup(url) {
      options.say(`subscriber endpoint: ${url} (register it on the sender with the secret you passed as --secret)`);
      return { secret: options.secret, customHeaders: options.customHeaders ?? {}, notes: ['events were raised by hand; test delivery not requested'] };
    },
    async raise() {
      options.say(`now raise one new ${options.event} event on the sender (waiting for its delivery)`);
      return { ok: true };
    },
  };
}
