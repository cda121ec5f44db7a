// What every subcommand of the `storefront-contract` CLI shares: usage errors that print one line
// (the flag, the problem, the fix) and secrets read from the environment in preference to flags,
// which the process list and shell history show.

/** A mistake in how the command was called: printed as one line, exit code 2. */
export class UsageError extends Error {
  readonly name = 'UsageError';
}

export interface SecretSource {
  /** The value, or undefined when neither the flag nor the variable is set. */
  value?: string;
  from?: 'flag' | 'env';
}

/**
 * The secret from `--flag` when given, else from the environment variable. A secret on the command
 * line still works, with a one-line note that the environment variable keeps it out of `ps`.
 */
export function readSecret(flagValue: string | undefined, flag: string, envName: string, warn: (line: string) => void): SecretSource {
  if (flagValue !== undefined) {
    if (flagValue === '') throw new UsageError(`--${flag} is empty; give the value or set ${envName} instead.`);
    warn(`note: --${flag} is visible in the process list and shell history; prefer the ${envName} environment variable.`);
    return { value: flagValue, from: 'flag' };
  }
  const env = process.env[envName];
  return env ? { value: env, from: 'env' } : {};
}

/** A non-negative integer option within bounds, or a UsageError naming the flag. */
/** `source`: where the value came from when not the flag (an environment variable), so the error names it. */
export function integerOption(flag: string, raw: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER, source = `--${flag}`, min = 0): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max || Number(raw) < min) throw new UsageError(`${source} must be an integer from ${min} to ${max}, got "${raw.slice(0, 40)}".`);
  return Number(raw);
}

/** SIGINT or SIGTERM, awaited by a long-running subcommand; `dispose` removes both listeners. */
export interface StopSignal {
  /** Resolves with the signal's name on the first SIGINT or SIGTERM after the call. */
  readonly received: Promise<'SIGINT' | 'SIGTERM'>;
  /** Removes the listeners (idempotent): a command that ends another way leaves none behind. */
  dispose(): void;
}

/**
 * Listens for Ctrl-C and `kill`: the one way subcommands wait for them. A listener left behind after the
 * command ended would keep a process that ran the command in-process (a test runner's worker, an app's
 * script) deaf to SIGTERM, so whoever ends it cannot, and each run would add two more.
 */
export function stopSignal(): StopSignal {
  let onInt!: () => void;
  let onTerm!: () => void;
  const received = new Promise<'SIGINT' | 'SIGTERM'>((resolve) => {
    onInt = () => resolve('SIGINT');
    onTerm = () => resolve('SIGTERM');
  });
  const dispose = () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  void received.then(dispose);
  return { received, dispose };
}
