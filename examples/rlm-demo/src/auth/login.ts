import { createSession } from './session.ts';

export interface Credentials {
  readonly user: string;
  readonly password: string;
}

/** Checks credentials against the user store and opens a session. */
export async function login(credentials: Credentials, store: Map<string, string>): Promise<string> {
  const expected = store.get(credentials.user);
  if (expected === undefined || expected !== credentials.password) {
    throw new Error('invalid credentials');
  }
  return createSession(credentials.user);
}
