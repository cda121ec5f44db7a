// What the webhook rules judge: sender rules one SenderObservations (every delivery the certifier received
// as a subscriber, phase by phase), receiver rules one ReceiverObservations (the answers to the probes).
// The types live with the rules; the webhook certifier (conformance/webhooks/) builds them.

/**
 * The delivery timings the contract promises at one time scale, and the tolerances applied to them
 * (built by timingModel() in conformance/webhooks/timing.ts; judged with rules/shared/timing.ts).
 */
export interface TimingModel {
  timeScale: number;
  /** Attempt time-out, scaled. */
  timeoutMs: number;
  /** Retry n is due this long after attempt n ended (or started; see `from`). */
  retryDelaysMs: number[];
  from: 'end' | 'start';
  maxAttempts: number;
  /** Fraction of the expected value allowed either side of it (late side), and the absolute slack. */
  lateFraction: number;
  lateSlackMs: number;
  earlyFraction: number;
  earlySlackMs: number;
  quietMs: number;
  /** The certifier's longest event-loop stall during the run, in ms (reported; the phases wait this much longer). */
  measuredDelayMs: number;
}

// ---- sender side ---------------------------------------------------------------------------------------

/** The phases the sender certifier walks through, each with its own answer to the sender. */
export type PhaseName = 'delivered' | 'test' | 'retry' | 'timeout' | 'gone';

/** One request the sender made to the certifier's subscriber endpoint. */
export interface CapturedDelivery {
  /** 1, 2, 3... in arrival order. */
  seq: number;
  /** The phase it belongs to: by its event_id when known, else the phase that was running. */
  phase: PhaseName | 'unexpected';
  method: string;
  path: string;
  /** Header values as received, every occurrence kept (names lowercase). */
  headers: Record<string, string[]>;
  /** The exact bytes received. Kept in memory only; never written to a report. */
  raw: Buffer;
  /** Parsed body, or undefined when the bytes are not JSON (see parseError). */
  body?: unknown;
  parseError?: string;
  /** ms (performance.now()) when the request head arrived. */
  receivedAt: number;
  /** ms when the exchange ended: our answer finished, or the sender gave up on a held request. */
  endedAt?: number;
  /** What we answered; `hold` = never answered on purpose. */
  answer: number | 'hold';
  /** True when the sender closed a request we were holding (it timed out). */
  abandonedBySender?: boolean;
  /** How late the certifier may have stamped receivedAt and endedAt: its longest event-loop stall around them, ms. */
  stampDelayMs?: number;
}

export interface PhaseRecord {
  name: PhaseName;
  /** event_id the trigger reported (Admin test / simulator trigger), when it reported one. */
  eventId?: string;
  /** Deliveries attributed to this phase, in arrival order. */
  deliveries: CapturedDelivery[];
  /** Why the phase could not run (trigger failed, nothing arrived in time): its timing rules then skip. */
  skipped?: string;
  notes: string[];
  /** `gone` only: what happened when another event was raised after the 410. */
  afterGone?: { triggered: boolean; note: string };
}

export interface SenderObservations {
  /** The signing secret in force. Used to verify; never reported. */
  secret: string;
  /** Custom headers the deliveries must carry (registered by the certifier or declared by the user). */
  customHeaders: Record<string, string>;
  deliveries: CapturedDelivery[];
  phases: Partial<Record<PhaseName, PhaseRecord>>;
  timing: TimingModel;
}

// ---- receiver side -------------------------------------------------------------------------------------

export type ProbeGroup =
  | 'valid'
  | 'raw-bytes'
  | 'bad-signature'
  | 'bad-content'
  | 'header-mismatch'
  | 'duplicate'
  | 'out-of-order'
  | 'test'
  | 'oversize'
  | 'unknown';

/** What a probe expects of the answer (`any`: the receiver's choice; only a 410 is judged, receiver-never-410). */
export type Expectation = '2XX' | 'non-2XX' | '413' | 'any';

export interface ProbeResult {
  group: ProbeGroup;
  name: string;
  expect: Expectation;
  eventId?: string;
  /** HTTP status, or null when the transport failed (see transportError). */
  status: number | null;
  transportError?: string;
  durationMs: number;
}

export interface ReceiverObservations {
  probes: ProbeResult[];
  /** Processed counts by event_id read from --probe-url after the probes, when given. */
  processed?: Map<string, number>;
  /** Why the probe endpoint could not be read, when given but unusable. */
  probeError?: string;
  /** event_ids sent twice (duplicate, replay): must show a count of 1. */
  duplicateEventIds: string[];
  /** event_ids of test deliveries: must show a count of 0 (tests are not business events). */
  testEventIds: string[];
}
