const sessions = new Map<string, string>();

/** Opens a session and returns its token. */
export function createSession(user: string): string {
  const token = `${user}-${sessions.size + 1}`;
  sessions.set(token, user);
  return token;
}
