/** ISO 8601 with seconds and `Z`, as the provider writes timestamps. */
export const isoSeconds = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** Provisioning is derived from the stored creation time, so every process and restart agrees. */
export const isProvisioned = (createdAt: Date, provisionMs: number, now: number) =>
  now >= createdAt.getTime() + provisionMs;
