/** A LIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally (WordPress's `esc_like`). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
