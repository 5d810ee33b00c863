export declare const DEBIAN_CORPORA: Record<string, { pkg: string; style: string; sourceRoot?: string; pruneUncompilable?: boolean; heldOut?: boolean; checkerOnly?: boolean }>;
export declare const DEVELOPMENT_CORPORA: string[];
export declare const CHECKER_CORPORA: string[];
export declare const HELD_OUT_CORPORA: string[];
export declare const INJECTED_CORPORA: string[];
