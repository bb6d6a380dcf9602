/**
 * An invitation's code is its id's uuid v7 without dashes (32 lowercase hex digits): unique
 * without a registry, 74 random bits that cannot be guessed, and the code names the stream
 * directly, so claim and cancel never wait for a read model.
 */
const CODE_PATTERN = /^[0-9a-f]{32}$/;

export function invitationCodeOf(uuid: string): string {
  return uuid.replace(/-/g, '');
}

/** The invitation id a code names (`Invitation:<uuid>`), or null when the text cannot be a code. */
export function invitationIdOf(code: string): string | null {
  const lower = code.toLowerCase();
  if (!CODE_PATTERN.test(lower)) return null;
  return `Invitation:${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}`;
}
