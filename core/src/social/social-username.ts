/**
 * A username for an account made through a sign-in service, from the
 * service's handle or the e-mail's local part, in the characters and length
 * usernames allow (proto usernameSchema: 3–50 of letters, digits, . _ -).
 * `taken` says whether a candidate is in use; a number is added until one is
 * free. Framework-free.
 */
export async function socialUsername(hints: (string | null | undefined)[], taken: (candidate: string) => Promise<boolean>): Promise<string> {
  const base =
    hints
      .map((h) => (h ?? '').normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '').replace(/^[._-]+|[._-]+$/g, '').slice(0, 40))
      .find((h) => h.length >= 3) ?? 'member';
  if (!(await taken(base))) return base;
  for (let n = 2; n < 1000; n++) {
    if (!(await taken(`${base}${n}`))) return `${base}${n}`;
  }
  return `${base.slice(0, 30)}-${Date.now().toString(36)}`;
}
