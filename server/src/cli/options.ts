import { resolve } from 'node:path';
import { defaultCacheDir } from '../index/persist';
import type { ParsedArgs } from './args';

/** --no-cache disables the persisted index; --cache-dir moves it. */
export function cacheDirOf(args: ParsedArgs): string | null {
  if (args.flags.has('no-cache')) return null;
  const d = args.flags.get('cache-dir');
  return typeof d === 'string' ? resolve(d) : defaultCacheDir();
}
