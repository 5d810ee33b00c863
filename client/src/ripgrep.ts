// Which ripgrep the extension's server runs. A platform package carries its own (dist/bin/rg);
// the universal package, or a package installed on the wrong platform, carries none that runs
// here: then VS Code's own ripgrep is handed to the server, and the log says so.

import { join } from 'node:path';
import { bundledRipgrep, vscodeRipgrep } from '../../server/src/platform/ripgrep';

export interface RipgrepChoice {
  /** Extra environment for the server process (NEEDLE_RIPGREP), when it must not use its own lookup. */
  env?: Record<string, string>;
  /** A line for the Needle output channel. */
  message: string;
}

export function ripgrepForServer(extensionPath: string, appRoot: string | undefined, platform = process.platform, arch = process.arch): RipgrepChoice {
  const bundled = bundledRipgrep({ platform, arch, bundleDirs: [join(extensionPath, 'dist')] });
  if (bundled) return { message: `Needle: ripgrep ${bundled} (bundled, ${platform}-${arch})` };
  const own = appRoot ? vscodeRipgrep(appRoot, platform) : undefined;
  if (own) return { env: { NEEDLE_RIPGREP: own }, message: `Needle: this package carries no ripgrep for ${platform}-${arch}; using VS Code's own ripgrep ${own}` };
  return { message: `Needle: this package carries no ripgrep for ${platform}-${arch} and VS Code's own was not found under ${appRoot ?? '(no appRoot)'}; the server looks for rg on the PATH` };
}
