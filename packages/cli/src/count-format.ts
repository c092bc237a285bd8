/**
 * A count as the reports print it, grouped as `toLocaleString('en-US')` groups it (`1,234`).
 * Written out because the first `toLocaleString` of a process loads ICU's locale data: about
 * 40 ms, a third of Node's start-up, on every commit the hook checks. Anything that is not a
 * safe integer still goes through `toLocaleString`.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${out}` : out;
}
