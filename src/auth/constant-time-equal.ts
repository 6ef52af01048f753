/**
 * Compares two digests of the same encoding character by character whatever the first
 * difference, so the time taken tells nothing about a key. Both are digests, so the length
 * gives nothing away either.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
