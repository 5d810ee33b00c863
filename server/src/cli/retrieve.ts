// `needle retrieve`: filled in once the pipeline lands.
import type { ParsedArgs } from './args';
import { UsageError } from './args';
export async function runRetrieve(_args: ParsedArgs, _root: string): Promise<void> {
  throw new UsageError('retrieve is not available yet');
}
