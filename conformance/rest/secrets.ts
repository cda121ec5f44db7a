// Keeps secrets out of everything the certifier prints or writes: the API keys given on the command
// line and every credential captured during the run are replaced by `[redacted]`.
import { SECRET_BODY_KEYS } from './recorder/redact.js';

export class Secrets {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    if (value && value.length >= 4) this.values.add(value);
  }

  /** Binding names that hold credentials: their live values are secrets. */
  static isSecretName(name: string): boolean {
    return /key|token|otp|secret|password/i.test(name) || SECRET_BODY_KEYS.has(name);
  }

  scrub(text: string): string {
    let out = text;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join('[redacted]');
    return out;
  }
}
