/** Whether any string in a parsed JSON body holds a NUL, which PostgreSQL text cannot store. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => containsNul(k) || containsNul(v));
  return false;
}
