/**
 * The console's credentials, kept in sessionStorage only (gone when the tab closes, never sent
 * anywhere but this origin's API). A person may hold both: platform credentials open the platform
 * pages, the operator key the operator pages; neither opens the other's routes.
 */

export interface Session {
  platform?: { clientId: string; clientSecret: string };
  operatorKey?: string;
}

const STORAGE_KEY = 'console.session';

export function loadSession(): Session {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    return stored ? (JSON.parse(stored) as Session) : {};
  } catch {
    // Storage disabled or a value this version cannot read: start signed out.
    return {};
  }
}

export function saveSession(session: Session): void {
  if (!session.platform && !session.operatorKey) sessionStorage.removeItem(STORAGE_KEY);
  else sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function isSignedIn(session: Session): boolean {
  return Boolean(session.platform || session.operatorKey);
}

/** `Basic base64(id:secret)`; btoa takes Latin-1 only, so the UTF-8 bytes are encoded first. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
