/**
 * The sandbox reads magic values from the last three characters of an identifier (DECISIONS.md
 * section 5). Identifiers with a domain part (`alice.002@example.com`) carry the digits at the end
 * of the user part, so the suffix is taken before the `@`.
 */
export function lastThree(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const at = value.indexOf('@');
  const userPart = at >= 0 ? value.slice(0, at) : value;
  const trimmed = userPart.trim();
  return trimmed.length >= 3 ? trimmed.slice(-3) : null;
}
