import { stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The file of `root` a GET for `url` names, relative to `root`, as express.static (json-server's) finds it: `/` and
 * folders give their `index.html`; dotfiles, `..` and undecodable paths give none, so the request goes on to the API.
 */
export async function publicFile(root: string, url: string): Promise<string | undefined> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.split('?')[0]);
  } catch {
    return undefined;
  }
  const parts = pathname.split('/').filter((part) => part !== '');
  if (pathname.includes('\0') || parts.some((part) => part.startsWith('.'))) return undefined;
  let relative = parts.join('/');
  let stats = await stat(path.join(root, relative)).catch(() => undefined);
  if (stats?.isDirectory()) {
    relative = path.posix.join(relative, 'index.html');
    stats = await stat(path.join(root, relative)).catch(() => undefined);
  }
  return stats?.isFile() ? relative : undefined;
}
