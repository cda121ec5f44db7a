// Amounts: two decimals, rounded half away from zero, as a till would; and the Indian digit grouping the
// contract's messages use (₹5,000, ₹2,110.18).

export function round2(n: number): number {
  return Math.sign(n) * Math.round(Math.abs(n) * 100 + 1e-9) / 100;
}

let inr: Intl.NumberFormat | undefined;

/** `₹2,110.18`, `₹5,000`. */
export function rupees(n: number): string {
  // Stryker disable next-line ObjectLiteral: the amount is rounded to the paisa first, so the default digits (0 to 3) print the same
  inr ??= new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2, minimumFractionDigits: 0 });
  return `₹${inr.format(round2(n))}`;
}
